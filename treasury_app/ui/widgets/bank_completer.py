"""Picking a bank by name or code in a field that takes an ISPB: the list of banks pops up as
the person types a piece of a name (accents and case ignored), a COMPE code or an ISPB, and
picking one writes its ISPB. Whatever else is typed stays as typed (an ISPB the list does not
know is still an ISPB)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QKeyEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QCompleter, QLineEdit

from treasury_app.domain.banks import BankTable
from treasury_app.ui.bank_names import bank_label, bank_table

ISPB_ROLE = Qt.ItemDataRole.UserRole + 2


class BankCompleter(QCompleter):
    """Completes ``line_edit`` from the bank table: shows ``name · code · ISPB``, matches the
    folded names, code and ISPB, writes the ISPB."""

    def __init__(self, line_edit: QLineEdit, table: BankTable | None = None) -> None:
        super().__init__(line_edit)
        self.setObjectName(f"{line_edit.objectName()}-completer")
        self.table = table or bank_table()
        self.banks = QStandardItemModel(self)
        self.setModel(self.banks)
        # The list is the table's own search, in its order (an exact COMPE code or ISPB first,
        # then names that start with the text): Qt's own filter would keep the table's order,
        # where "341" shows a bank whose ISPB holds 341 before Itaú, whose code it is.
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setMaxVisibleItems(10)
        self.line_edit = line_edit
        line_edit.setCompleter(self)
        line_edit.textEdited.connect(self._search)
        # A click on a bank writes its ISPB even when the field is not the focus widget (the
        # field writes completions only while it has the focus).
        self.activated[QModelIndex].connect(self._picked)

    def _search(self, text: str) -> None:
        self.banks.clear()
        for bank in self.table.search(text):
            item = QStandardItem(bank_label(bank))
            item.setData(bank.ispb, ISPB_ROLE)
            item.setEditable(False)
            self.banks.appendRow(item)
        if self.banks.rowCount():
            self.complete()
        else:
            self.popup().hide()

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
        """Every bank of the list matches: the list already is the search's result."""
        return [""]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:  # noqa: N802
        return str(index.data(ISPB_ROLE) or "")
