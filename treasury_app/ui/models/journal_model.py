"""The base of the lists of journal entries (Pix payments, paid slips): newest first, read
from the local journal, changed one entry at a time so views keep their selection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from PySide6.QtCore import QObject, Qt

from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind
from treasury_app.ui.models.rows_model import RowsTableModel

RECENT_LIMIT = 500


class JournalEntriesModel(RowsTableModel[Entry]):
    """Entries of ``kinds``; subclasses give ``headers`` and ``text``. An entry's
    error is the tooltip of its :attr:`status_column`."""

    kinds: Sequence[EntryKind] = ()
    limit: int = RECENT_LIMIT
    status_column: ClassVar[int]

    def __init__(self, ledger: Ledger, parent: QObject | None = None) -> None:
        self.ledger = ledger
        super().__init__(parent)

    def key(self, row: Entry) -> int:
        return row.id

    def reload(self) -> None:
        """Read the entries again from the journal (local: no request)."""
        self.reset_rows(self.ledger.journal.recent(kinds=self.kinds, limit=self.limit))

    def upsert(self, entry: Entry) -> None:
        """Apply one entry's change in place, or add a new one on top; entries of other kinds
        are ignored."""
        if entry.kind in self.kinds:
            super().upsert(entry)

    def entry(self, row: int) -> Entry:
        return self.row_at(row)

    def role_data(self, entry: Entry, column: Any, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and column == self.status_column and entry.error:
            return entry.error
        return None
