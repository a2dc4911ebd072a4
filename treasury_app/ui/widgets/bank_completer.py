"""Picking a bank by name or code in a field that takes an ISPB: the list of banks pops up as
the person types a piece of a name (accents and case ignored), a COMPE code or an ISPB, and
picking one writes its ISPB. Whatever else is typed stays as typed (an ISPB the list does not
know is still an ISPB)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QKeyEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QCompleter, QLineEdit

from treasury_app.domain.banks import BankTable, fold
from treasury_app.ui.bank_names import bank_label, bank_table

SEARCH_ROLE = Qt.ItemDataRole.UserRole + 1
ISPB_ROLE = Qt.ItemDataRole.UserRole + 2


class BankCompleter(QCompleter):
    """Completes ``line_edit`` from the bank table: shows ``name · code · ISPB``, matches the
    folded names, code and ISPB, writes the ISPB."""

    def __init__(self, line_edit: QLineEdit, table: BankTable | None = None) -> None:
        super().__init__(line_edit)
        self.setObjectName(f"{line_edit.objectName()}-completer")
        model = QStandardItemModel(self)
        for bank in (table or bank_table()).banks:
            item = QStandardItem(bank_label(bank))
            item.setData(bank.search_text, SEARCH_ROLE)
            item.setData(bank.ispb, ISPB_ROLE)
            item.setEditable(False)
            model.appendRow(item)
        self.setModel(model)
        self.setCompletionRole(SEARCH_ROLE)
        self.setFilterMode(Qt.MatchFlag.MatchContains)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setMaxVisibleItems(10)
        self.line_edit = line_edit
        line_edit.setCompleter(self)
        # A click on a bank writes its ISPB even when the field is not the focus widget (the
        # field writes completions only while it has the focus).
        self.activated[QModelIndex].connect(self._picked)

    def _picked(self, index: QModelIndex) -> None:
        self.line_edit.setText(self.pathFromIndex(index))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Enter on a bank of the list picks it, and only that: QCompleter would also pass the
        key on to the field, where Enter starts the form's review of a half-filled form."""
        if (
            watched is self.popup()
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and self.popup().currentIndex().isValid()
        ):
            ispb = self.pathFromIndex(self.popup().currentIndex())
            self.popup().hide()
            self.line_edit.setText(ispb)
            return True
        return super().eventFilter(watched, event)

    def splitPath(self, path: str) -> list[str]:  # noqa: N802 (Qt's name)
        return [fold(path)]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:  # noqa: N802
        return str(index.data(ISPB_ROLE) or "")
