"""Pick a registered payee and destination by typing (issue 36): name, CPF/CNPJ, Pix key,
account or tag; the registry's in-memory index answers each keystroke (a 50,000-payee
registry within milliseconds), and the choice fills the Pix form. While the registry is
still being read (seconds, for 50,000 payees: read off the window's loop) the list says
"Loading the payee registry…" and the matches come once it is in."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget

from treasury_app.domain.payees import Destination, DestinationState, Match, Payee
from treasury_app.services.payees import PayeeService
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.payee_words import destination_text, document_text

__all__ = ["PayeePicker"]

SHOWN = 12


class PayeePicker(QLineEdit):
    picked = Signal(object, object)  # Payee, Destination | None
    """A payee chosen, with the destination that matched (or their first payable one)."""

    def __init__(self, service: PayeeService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("payee-picker")
        self.setPlaceholderText(self.tr("Type a payee's name, CPF/CNPJ or Pix key"))
        self.setClearButtonEnabled(True)
        self.service = service
        self.matches: list[Match] = []
        self.chosen: Payee | None = None
        self._model = QStringListModel(self)
        self._completer = QCompleter(self._model, self)
        self._completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self._completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._completer.activated.connect(self._activated_text)
        self.setCompleter(self._completer)
        self._loading: asyncio.Task[None] | None = None
        self.textEdited.connect(self._typed)  # the registry is read at the first keystroke

    def _typed(self, text: str) -> None:
        self.chosen = None
        index = self.service.ready
        if index is None:
            self.show_loading()
            if self._loading is None or self._loading.done():
                self._loading = spawn_for(self, self._load_then())
            return
        self.show_matches(index.search(text, limit=SHOWN))

    def show_loading(self) -> None:
        """Nothing to pick yet: the list says the registry is on its way."""
        self.matches = []
        self._model.setStringList([self.tr("Loading the payee registry…")])
        if self.text().strip() and self.hasFocus():
            self._completer.complete()

    @property
    def loading(self) -> bool:
        return self._loading is not None and not self._loading.done()

    async def _load_then(self) -> None:
        index = await self.service.index()
        text = self.text()  # what is typed now, not at the first keystroke
        if text.strip():
            self.show_matches(index.search(text, limit=SHOWN))
        else:
            self.show_matches([])

    def show_matches(self, matches: list[Match]) -> None:
        self.matches = matches
        self._model.setStringList([self.label(match) for match in matches])
        if matches and self.hasFocus():
            self._completer.complete()

    @staticmethod
    def label(match: Match) -> str:
        text = f"{match.payee.name} — {document_text(match.payee.document)}"
        if match.destination is not None:
            text += f" — {destination_text(match.destination)}"
        return text

    def _activated_text(self, text: str) -> None:
        for match in self.matches:
            if self.label(match) == text:
                self.choose(match)
                return

    def choose(self, match: Match) -> None:
        """Take ``match``: its destination, else the payee's first one not blocked."""
        destination: Destination | None = match.destination
        index = self.service.ready
        if destination is None and index is not None:
            for candidate in index.of_payee.get(match.payee.id, []):
                if candidate.state is not DestinationState.BLOCKED:
                    destination = candidate
                    break
        self.chosen = match.payee
        self.setText(match.payee.name)
        self.picked.emit(match.payee, destination)
