"""Pick a registered payee and destination by typing (issue 36): name, CPF/CNPJ, Pix key,
account or tag; the registry's in-memory index answers each keystroke (a 50,000-payee
registry within milliseconds), and the choice fills the Pix form."""

from __future__ import annotations

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
        self.textEdited.connect(self._typed)  # the registry is read at the first keystroke

    def _typed(self, text: str) -> None:
        self.chosen = None
        index = self.service._index
        if index is None:
            spawn_for(self, self._load_then(text))
            return
        self.show_matches(index.search(text, limit=SHOWN))

    async def _load_then(self, text: str) -> None:
        index = await self.service.index()
        if self.text() == text:
            self.show_matches(index.search(text, limit=SHOWN))

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
        if destination is None and self.service._index is not None:
            for candidate in self.service._index.of_payee.get(match.payee.id, []):
                if candidate.state is not DestinationState.BLOCKED:
                    destination = candidate
                    break
        self.chosen = match.payee
        self.setText(match.payee.name)
        self.picked.emit(match.payee, destination)
