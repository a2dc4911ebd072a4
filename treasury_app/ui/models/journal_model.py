"""The base of the lists of journal entries (Pix payments, paid slips): newest first, read
from the local journal, changed one entry at a time so views keep their selection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind

RECENT_LIMIT = 500
_Index = QModelIndex | QPersistentModelIndex


class JournalEntriesModel(QAbstractTableModel):
    """Entries of ``kinds``; subclasses give ``headers`` (column -> title) and ``data``."""

    kinds: Sequence[EntryKind] = ()
    limit: int = RECENT_LIMIT

    def __init__(self, ledger: Ledger, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ledger = ledger
        self._entries: list[Entry] = []
        self._headers: dict[int, str] = {}

    def reload(self) -> None:
        """Read the entries again from the journal (local: no request)."""
        self.beginResetModel()
        self._entries = self.ledger.journal.recent(kinds=self.kinds, limit=self.limit)
        self.endResetModel()

    def upsert(self, entry: Entry) -> None:
        """Apply one entry's change in place, or add a new one on top (a reset would lose the
        views' selection); entries of other kinds are ignored."""
        if entry.kind not in self.kinds:
            return
        row = self.row_of(entry.id)
        if row is None:
            self.beginInsertRows(QModelIndex(), 0, 0)
            self._entries.insert(0, entry)
            self.endInsertRows()
        else:
            self._entries[row] = entry
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def row_of(self, entry_id: int) -> int | None:
        for row, entry in enumerate(self._entries):
            if entry.id == entry_id:
                return row
        return None

    def entry(self, row: int) -> Entry:
        return self._entries[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's API
        return 0 if parent.isValid() else len(self._entries)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's API
        return 0 if parent.isValid() else len(self._headers)

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers.get(section)
        return None
