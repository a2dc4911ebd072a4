"""The base of the lists of journal entries (Pix payments, paid slips): newest first, read
from the journal in the background, changed one entry at a time so views keep their selection.
In team mode an intent waiting for its approvers shows that in its status column.

The journal may be a team database across the network: :meth:`JournalEntriesModel.reload`
never blocks the window. The model keeps showing what it has and replaces its rows when the
answer arrives; an answer overtaken by a newer reload, or arriving after :meth:`close`, is
dropped."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, ClassVar

from PySide6.QtCore import QObject, Qt

from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.models.rows_model import Index, RowsTableModel
from treasury_app.ui.refusals import error_words
from treasury_app.ui.status_words import approval_word, decision_reason_word

RECENT_LIMIT = 500


class JournalEntriesModel(RowsTableModel[Entry]):
    """Entries of ``kinds``; subclasses give ``headers`` and ``text``. An entry's
    error is the tooltip of its :attr:`status_column`.

    A subclass may mark entries with one fact read from the ledger (held for a person,
    receipt archived): :meth:`marked` answers it for some entries, read with the rows and again
    for each entry that changes; :meth:`is_marked` is what ``data()`` asks (no query while
    painting). Tests await :attr:`load_task`."""

    kinds: Sequence[EntryKind] = ()
    limit: int = RECENT_LIMIT
    status_column: ClassVar[int]

    def __init__(self, ledger: Ledger, parent: QObject | None = None) -> None:
        self.ledger = ledger
        super().__init__(parent)
        self.load_task: asyncio.Task[bool] | None = None
        self._generation = 0
        self._closed = False
        self._marks: set[int] = set()
        self._checks: set[asyncio.Task[Any]] = set()
        self._changed_meanwhile: dict[int, Entry] = {}  # upserts while a load is on its way

    def key(self, row: Entry) -> int:
        return row.id

    # -- loading ---------------------------------------------------------------------------------

    def reload(self) -> asyncio.Task[bool]:
        """Read the entries again in the background (:attr:`load_task`); the rows shown stay
        until the answer replaces them. A reload on its way is overtaken (cancelled)."""
        if self.load_task is not None and not self.load_task.done():
            self.load_task.cancel()
        self.load_task = spawn_for(self, self.load(), name=f"{type(self).__name__}-load")
        return self.load_task

    async def load(self) -> bool:
        """Read the entries (and their marks) and show them; ``False`` when the answer came
        too late (a newer load started, or the model was closed or deleted)."""
        self._generation += 1
        generation = self._generation
        self._changed_meanwhile = {}
        rows = await self.ledger.journal.recent(kinds=self.kinds, limit=self.limit)
        marks = await self.marked(rows)
        if self._closed or generation != self._generation:
            return False
        # An entry the tracker announced while the query ran may be newer than its row.
        for changed in self._changed_meanwhile.values():
            for number, row in enumerate(rows):
                if row.id == changed.id:
                    if changed.updated_at >= row.updated_at:
                        rows[number] = changed
                    break
            else:
                rows.insert(0, changed)
        self._changed_meanwhile = {}
        self._marks = marks
        self.reset_rows(rows)
        return True

    def close(self) -> None:
        """Stop: what is on its way is cancelled, and any late answer dropped."""
        self._closed = True
        for task in (self.load_task, *self._checks):
            if task is not None and not task.done():
                task.cancel()
        self._checks.clear()

    # -- marks -----------------------------------------------------------------------------------

    async def marked(self, entries: Sequence[Entry]) -> set[int]:
        """The ids among ``entries`` that carry this list's mark (none by default)."""
        return set()

    def is_marked(self, entry_id: int) -> bool:
        return entry_id in self._marks

    def set_marked(self, entry_id: int, marked: bool = True) -> None:
        """Mark (or unmark) one entry, repainting its row if that changes it."""
        if marked == (entry_id in self._marks):
            return
        if marked:
            self._marks.add(entry_id)
        else:
            self._marks.discard(entry_id)
        row = self.row_of(entry_id)
        if row is not None:
            self.row_changed(row)

    def recheck(self, entry: Entry) -> None:
        """Read ``entry``'s mark again in the background."""
        if self._closed or type(self).marked is JournalEntriesModel.marked:
            return
        task = spawn_for(self, self._recheck(entry), name=f"{type(self).__name__}-mark")
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def _recheck(self, entry: Entry) -> None:
        generation = self._generation
        marked = entry.id in await self.marked([entry])
        if self._closed or generation != self._generation:
            return  # closed, or a newer load read every mark again
        self.set_marked(entry.id, marked)

    # -- changes ---------------------------------------------------------------------------------

    def upsert(self, entry: Entry) -> None:
        """Apply one entry's change in place, or add a new one on top; entries of other kinds
        are ignored."""
        if entry.kind not in self.kinds:
            return
        if self.load_task is not None and not self.load_task.done():
            self._changed_meanwhile[entry.id] = entry
        super().upsert(entry)
        self.recheck(entry)

    def entry(self, row: int) -> Entry:
        return self.row_at(row)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """An intent under approval (team mode) says so in its status column ("Waiting for
        approval 1/2", "Rejected by bruno"): before it is released, the journal's state says
        nothing true about it (prepared, never sent)."""
        if role == Qt.ItemDataRole.DisplayRole and index.isValid():
            entry = self.row_or_none(index.row())
            if entry is not None and self.column_at(index.column()) == self.status_column:
                words = approval_word(entry)
                if words:
                    return words
        return super().data(index, role)

    def role_data(self, entry: Entry, column: Any, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and column == self.status_column:
            if entry.decision_reason and entry.approval in ("REJECTED", "WITHDRAWN"):
                return decision_reason_word(entry)
            if entry.error:
                return error_words(entry)
        return None
