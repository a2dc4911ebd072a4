"""The statement as a lazy Qt table: :class:`StatementModel` asks its page source for one page
at a time as the view scrolls (``canFetchMore``/``fetchMore``), and :class:`StatementFilterProxy`
sorts by value and filters by text, direction and amount without asking the bank again.

Sorting happens in the source model, in Python (``list.sort`` on the :data:`SORT_ROLE`
values): a ``lessThan`` in Python costs several calls from C++ into Python per comparison,
measured at 0.8 s (amount, date) to 1.5 s (text) per header click with 10,000 rows, while
sorting the list takes milliseconds. The proxy forwards :meth:`sort` and only filters.

Rows are kept as plain tuples of a :class:`StatementRow`'s fields, not as the API's
:class:`Transaction`: a parsed entry with its counterparty takes about 2.3 KiB of Python heap
(230 MB for 100,000 entries), a row about a sixth of that, repeated text shared; and the garbage
collector does not track such tuples, so its full collections do not grow with the statement.
A row holds what the table, the filters, the sorting and the CSV export read, under the same
names; the detail pane fetches the whole entry by id."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from decimal import Decimal
from enum import IntEnum
from functools import partial
from typing import IO, Any, NamedTuple, Protocol

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QPalette

from treasury_app.api.accounts.models import CreditDebitType, Transaction, TransactionType
from treasury_app.domain.clock import system_clock
from treasury_app.domain.money import format_brl
from treasury_app.services.statement import export_csv
from treasury_app.ui.async_tools import spawn, spawn_for
from treasury_app.ui.theme import tone_color
from treasury_app.ui.times import InstantForm, format_instant

__all__ = [
    "ENTRY_ROLE",
    "SORT_ROLE",
    "Column",
    "PageSource",
    "Party",
    "StatementFilterProxy",
    "StatementModel",
    "StatementRow",
    "export_rows",
]

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
"""The value a column sorts by: ``datetime`` for the date, signed ``Decimal`` for the amount,
folded text otherwise."""
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2
"""The row's :class:`StatementRow`."""

MINUS = "\u2212"  # a real minus sign: easier to see than a hyphen, and read as "minus"

Index = QModelIndex | QPersistentModelIndex
Runner = Callable[[Awaitable[Any]], Awaitable[Any]]


class PageSource(Protocol):
    """What :class:`StatementModel` reads: :meth:`StatementService.pages`'s interface."""

    def pages(
        self,
        start: dt.date,
        end: dt.date,
        page_size: int = ...,
        *,
        credit_debit: CreditDebitType | str | None = ...,
        transaction_type: TransactionType | str | None = ...,
    ) -> AsyncIterator[list[Transaction]]: ...


class Party(NamedTuple):
    """A row's counterparty, as :func:`export_csv` reads it (:attr:`StatementRow.counterparty`)."""

    name: str | None
    document: str | None


def _text(value: Any) -> Any:
    """Text as a plain, interned ``str`` (an enum member becomes its value, and text repeated
    over many rows is kept once: interned strings go with their last user); else ``value``."""
    return sys.intern(str(value)) if isinstance(value, str) else value


class StatementRow(NamedTuple):
    """One statement entry as the table keeps it: the fields of :class:`Transaction` that the
    table, the filters, the sorting and the CSV export (:func:`export_csv`) read, under the same
    names (the counterparty flattened to its name and document; :attr:`counterparty` gives them
    back as a :class:`Party`). Amounts are the parsed ``Decimal`` objects, the date the entry's
    UTC ``datetime``; direction and type are plain text (``"DEBIT"``, ``"PIX"``), equal to the
    API's enum members.

    The model stores each row as a plain tuple of these fields, and hands out a
    ``StatementRow`` over it when a row is read (a new object each time: compare rows with
    ``==`` or by ``id``). A tuple of numbers, text and dates is one that Python's cyclic garbage
    collector stops tracking; rows it tracked (objects with slots, enum members) made each full
    collection walk every row: 40-70 ms stalls of the loop while 100,000 entries load."""

    id: int | str
    created_at: dt.datetime
    credit_debit_type: str
    transaction_type: str
    amount: Decimal
    balance_after: Decimal | None = None
    description: str | None = None
    counterparty_name: str | None = None
    counterparty_document: str | None = None
    end_to_end_id: str | None = None
    payment_id: int | str | None = None

    @classmethod
    def of(cls, entry: Transaction) -> StatementRow:
        """The row of ``entry`` (see :func:`_row_fields`)."""
        return tuple.__new__(cls, _row_fields(entry))

    @property
    def signed_amount(self) -> Decimal:
        """The amount with the sign of its effect on the balance (debits negative)."""
        return -self.amount if self.credit_debit_type == CreditDebitType.DEBIT else self.amount

    @property
    def counterparty(self) -> Party | None:
        if self.counterparty_name is None and self.counterparty_document is None:
            return None
        return Party(self.counterparty_name, self.counterparty_document)


def _row_fields(entry: Transaction) -> tuple[Any, ...]:
    """:class:`StatementRow`'s fields of ``entry`` as a plain tuple, what the model stores.
    Direction, type, description and the counterparty's name and document are interned."""
    party = entry.counterparty
    return (
        entry.id,
        entry.created_at,
        _text(entry.credit_debit_type),
        _text(entry.transaction_type),
        entry.amount,
        entry.balance_after,
        _text(entry.description),
        _text(party.name) if party is not None else None,
        _text(party.document) if party is not None else None,
        entry.end_to_end_id,
        entry.payment_id,
    )


_view: Callable[[tuple[Any, ...]], StatementRow] = partial(tuple.__new__, StatementRow)
"""A stored row as a :class:`StatementRow`."""
_ID = StatementRow._fields.index("id")

Entry = Transaction | StatementRow
"""What the labels and amount texts read: a row, or the whole entry of the detail pane."""


class Column(IntEnum):
    DATE = 0
    DESCRIPTION = 1
    COUNTERPARTY = 2
    TYPE = 3
    DIRECTION = 4
    AMOUNT = 5


async def _plain(work: Awaitable[Any]) -> Any:
    return await work


def fold(text: str) -> str:
    """Text for searching: case and accents ignored (``Gráfica`` matches ``grafica``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def signed_text(entry: Entry) -> str:
    """``R$ 1.234,56`` for a credit, ``−R$ 1.234,56`` for a debit."""
    text = format_brl(entry.amount)
    return MINUS + text if entry.credit_debit_type == CreditDebitType.DEBIT else text


class StatementModel(QAbstractTableModel):
    """Statement entries, newest first, loaded one page at a time as the view asks for more.

    :meth:`reset` starts over with a new page iterator; :meth:`fetchMore` schedules the next
    page (never two at once) and the rows are inserted when it arrives. Every page goes through
    ``runner`` (the tab passes one that shows failures in its banner and returns ``None``);
    after a failure nothing more is fetched until the next :meth:`reset`.
    """

    loading_changed = Signal(bool)
    finished = Signal()  # every page has arrived

    def __init__(self, parent: QObject | None = None, *, runner: Runner | None = None) -> None:
        super().__init__(parent)
        self._runner: Runner = runner or _plain
        # Rows as plain tuples (see StatementRow): the same objects in both lists.
        self._arrived: list[tuple[Any, ...]] = []  # in the bank's order (newest first)
        self._rows: list[tuple[Any, ...]] = []  # in the order shown
        self._keys: dict[int, list[Any]] = {}  # column -> sort key of each arrived entry
        self._folded: dict[tuple[str | None, str | None], str] = {}  # search texts
        self._order: tuple[int, Qt.SortOrder] | None = None
        self._pages: AsyncIterator[list[Transaction]] | None = None
        self._task: asyncio.Task[bool] | None = None
        self._busy = False  # a page is on its way (cleared before the task itself ends)
        self._generation = 0
        self._exhausted = True
        self._failed = False
        self._interrupted = False
        self.pages_loaded = 0
        # A refresh keeps the rows on screen until its first page arrives; if that fails they
        # stay, marked stale (``loaded_at`` says when they were read).
        self._replace_pending = False
        self.stale = False
        self.loaded_at: dt.datetime | None = None

    # -- loading -------------------------------------------------------------------------------

    def reset(
        self, pages: AsyncIterator[list[Transaction]] | None, *, keep_rows: bool = False
    ) -> None:
        """Read from ``pages`` (``None``: stay empty). The rows are forgotten at once, or, with
        ``keep_rows`` (a refresh of the same statement), when the first page arrives."""
        self._stop()
        keep = keep_rows and bool(self._arrived) and pages is not None
        if not keep:
            self.beginResetModel()
            self._arrived, self._rows = [], []
            self._keys, self._folded = {}, {}
            self.stale = False
        self._replace_pending = keep
        self._pages = pages
        self._exhausted = pages is None
        self._failed = self._interrupted = False
        self.pages_loaded = 0
        if not keep:
            self.endResetModel()

    def _replace_kept_rows(self) -> None:
        if not self._replace_pending:
            return
        self._replace_pending = False
        self.stale = False
        self.beginResetModel()
        self._arrived, self._rows = [], []
        self._keys, self._folded = {}, {}
        self.endResetModel()

    def cancel(self) -> bool:
        """Drop the page on its way, if any (``True`` then): the rows stay, and nothing more
        is fetched until the next :meth:`reset`."""
        if not self._busy:
            return False
        self._stop()
        self._pages = None
        self._interrupted = True
        return True

    def close(self) -> None:
        """The session is closing: drop the page on its way and fetch nothing more, even when
        the view asks (a view scrolled or repainted after the lock would otherwise start a
        request on a closed client). The rows stay until the model goes."""
        self._stop()
        self._pages = None
        self._interrupted = True

    def load(
        self,
        source: PageSource,
        start: dt.date,
        end: dt.date,
        page_size: int,
        *,
        credit_debit: CreditDebitType | None = None,
        keep_rows: bool = False,
    ) -> None:
        """Read the statement from ``start`` to ``end`` from ``source``, ``page_size`` a page
        (``keep_rows``: a refresh, see :meth:`reset`)."""
        self.reset(
            source.pages(start, end, page_size, credit_debit=credit_debit), keep_rows=keep_rows
        )

    @property
    def loading(self) -> bool:
        return self._busy

    @property
    def complete(self) -> bool:
        """Every page has arrived (none failed, none was cancelled)."""
        return self._exhausted and not self._failed and not self._interrupted

    @property
    def interrupted(self) -> bool:
        return self._interrupted

    @property
    def failed(self) -> bool:
        return self._failed

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008, N802
        stopped = self._exhausted or self._failed or self._interrupted
        return not parent.isValid() and not stopped

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008, N802
        if self.canFetchMore(parent) and not self.loading:
            self._start_fetch()

    async def fetch_page(self) -> bool:
        """Wait for the next page (or for the one already on its way); ``True`` if rows came."""
        if not self.loading:
            if not self.canFetchMore():
                return False
            self._start_fetch()
        task = self._task
        assert task is not None
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if task.cancelled() and (current is None or not current.cancelling()):
                return False  # a reset dropped that page, not our caller
            raise

    async def fetch_all(self) -> bool:
        """Read every remaining page; ``False`` if one failed or loading was cancelled."""
        while self.canFetchMore() or self.loading:
            await self.fetch_page()
        return self.complete

    def _start_fetch(self) -> asyncio.Task[bool]:
        self._busy = True
        self._task = spawn_for(self, self._fetch(self._generation), name="statement-page")
        self.loading_changed.emit(True)
        return self._task

    async def _fetch(self, generation: int) -> bool:
        pages = self._pages
        assert pages is not None
        try:
            page = await self._runner(_next_page(pages))
        except Exception:
            if generation == self._generation:
                self._failed = True
                self._keep_stale()
                self._done_loading()
            raise
        if generation != self._generation:
            return False  # a reset happened meanwhile: this page belongs to another statement
        try:
            if page is None:  # the runner has already shown why
                self._failed = True
                self._keep_stale()
                return False
            self._replace_kept_rows()
            if self.pages_loaded == 0:
                self.loaded_at = system_clock()  # an instant on this computer, for "at 14:02"
            if page is _END:
                self._exhausted = True
                self.finished.emit()
                return False
            if page:
                self._append(page)
            return True
        finally:
            self._done_loading()

    def _keep_stale(self) -> None:
        """A refresh failed before its first page: what was on screen stays, marked stale."""
        if self._replace_pending:
            self._replace_pending = False
            self.stale = True

    def _done_loading(self) -> None:
        self._busy = False
        self.loading_changed.emit(False)

    def _append(self, page: Sequence[Transaction]) -> None:
        rows = [_row_fields(entry) for entry in page]
        self._arrived.extend(rows)
        self.pages_loaded += 1
        if self._order is not None and rows:
            column, order = self._order
            descending = order == Qt.SortOrder.DescendingOrder
            keys = self._column_keys(column)[-len(rows) :]
            positions = sorted(range(len(rows)), key=keys.__getitem__, reverse=descending)
            rows = [rows[i] for i in positions]
            interleaves = bool(self._rows) and not self._after_last(
                keys[positions[0]], column, descending
            )
        else:
            interleaves = False
        # The usual case (newest first, pages newest first): the page goes after the last
        # row, an insertion the proxy and the view handle for the new rows only.
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.endInsertRows()
        if interleaves:
            # Some new rows belong among the loaded ones: re-arrange (a layout change, which
            # makes the proxy re-filter every row: only for sorts the bank's order does not
            # follow, such as by amount).
            self._arrange()

    def _after_last(self, key: Any, column: int, descending: bool) -> bool:
        """Whether a row with sort ``key`` belongs after the last row shown."""
        last = self._key(_view(self._rows[-1]), column)
        try:
            return bool(key <= last) if descending else bool(key >= last)
        except TypeError:  # keys that do not compare (missing values): re-arrange
            return False

    # -- sorting ---------------------------------------------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order the rows by ``column``'s :data:`SORT_ROLE` value (``-1``: the bank's order);
        equal values keep the bank's order. Rows that arrive later join their places."""
        self._order = (column, order) if 0 <= column < len(Column) else None
        self._arrange()

    def sort_order(self) -> tuple[int, Qt.SortOrder] | None:
        return self._order

    def _arrange(self) -> None:
        if self._order is None:
            arranged = list(self._arrived)
        else:
            column, order = self._order
            keys = self._column_keys(column)
            positions = sorted(
                range(len(self._arrived)),
                key=keys.__getitem__,
                reverse=order == Qt.SortOrder.DescendingOrder,
            )
            arranged = [self._arrived[i] for i in positions]
        self.layoutAboutToBeChanged.emit()
        before = self._rows
        where = {id(entry): row for row, entry in enumerate(arranged)}
        persistent = self.persistentIndexList()
        moved = [self.index(where[id(before[index.row()])], index.column()) for index in persistent]
        self._rows = arranged
        self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()

    def _column_keys(self, column: int) -> list[Any]:
        keys = self._keys.setdefault(column, [])
        if len(keys) < len(self._arrived):
            keys.extend(self._key(_view(row), column) for row in self._arrived[len(keys) :])
        return keys

    def _stop(self) -> None:
        self._generation += 1
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()  # the iterator is closed by the cancellation
        if self._busy:
            self._done_loading()
        elif self._pages is not None and hasattr(self._pages, "aclose"):
            spawn(self._pages.aclose())

    # -- reading ---------------------------------------------------------------------------------

    def entry_at(self, row: int) -> StatementRow:
        """The entry of ``row`` (a new :class:`StatementRow` each call)."""
        return _view(self._rows[row])

    def entries(self) -> list[StatementRow]:
        return [_view(row) for row in self._rows]

    def row_of(self, transaction_id: int | str) -> int | None:
        for row, entry in enumerate(self._rows):
            if entry[_ID] == transaction_id:
                return row
        return None

    def search_text(self, row: int) -> str:
        """Folded description and counterparty name of ``row`` (computed once for each pair
        of them)."""
        entry = self.entry_at(row)
        key = (entry.description, entry.counterparty_name)
        text = self._folded.get(key)
        if text is None:
            text = self._folded[key] = fold(f"{key[0] or ''}\n{key[1] or ''}")
        return text

    def sort_key(self, row: int, column: int) -> Any:
        """The :data:`SORT_ROLE` value of a cell."""
        return self._key(self.entry_at(row), column)

    def _key(self, entry: StatementRow, column: int) -> Any:
        if column == Column.DATE:
            return entry.created_at
        if column == Column.AMOUNT:
            return entry.signed_amount
        if column == Column.DESCRIPTION:
            return fold(entry.description or "")
        if column == Column.COUNTERPARTY:
            return fold(entry.counterparty_name or "")
        if column == Column.TYPE:
            return self.type_label(entry)
        return self.direction_label(entry)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(Column)

    def headerData(  # noqa: N802
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._headers()[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and section == Column.AMOUNT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        entry = _view(self._rows[index.row()])
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(entry, column)
        if role == SORT_ROLE:
            return self.sort_key(index.row(), column)
        if role == ENTRY_ROLE:
            return entry
        if role == Qt.ItemDataRole.TextAlignmentRole and column == Column.AMOUNT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and column in (Column.DIRECTION, Column.AMOUNT):
            debit = entry.credit_debit_type == CreditDebitType.DEBIT
            return tone_color("error" if debit else "success", on=QPalette.ColorRole.Base)
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.DATE:
            return format_instant(entry.created_at, InstantForm.SECONDS)
        return None

    def _display(self, entry: StatementRow, column: int) -> str:
        if column == Column.DATE:
            return format_instant(entry.created_at)
        if column == Column.DESCRIPTION:
            return entry.description or ""
        if column == Column.COUNTERPARTY:
            return entry.counterparty_name or ""
        if column == Column.TYPE:
            return self.type_label(entry)
        if column == Column.DIRECTION:
            return self.direction_label(entry)
        return signed_text(entry)

    def _headers(self) -> tuple[str, ...]:
        return (
            self.tr("Date"),
            self.tr("Description"),
            self.tr("Counterparty"),
            self.tr("Type"),
            self.tr("Credit/debit"),
            self.tr("Amount"),
        )

    def type_label(self, entry: Entry) -> str:
        labels = {  # by value: a row's type is plain text, an entry's an enum member
            TransactionType.PIX.value: self.tr("Pix"),
            TransactionType.TED.value: self.tr("TED"),
            TransactionType.BILLET.value: self.tr("Boleto"),
            TransactionType.FEE.value: self.tr("Fee"),
            TransactionType.REFUND.value: self.tr("Refund"),
        }
        kind = str(entry.transaction_type)
        return labels.get(kind, kind)

    def direction_label(self, entry: Entry) -> str:
        if entry.credit_debit_type == CreditDebitType.CREDIT:
            return "+ " + self.tr("Credit")
        if entry.credit_debit_type == CreditDebitType.DEBIT:
            return MINUS + " " + self.tr("Debit")
        return str(entry.credit_debit_type)


_END = object()


async def _next_page(pages: AsyncIterator[list[Transaction]]) -> Any:
    try:
        return await anext(pages)
    except StopAsyncIteration:
        return _END


class StatementFilterProxy(QSortFilterProxyModel):
    """Keeps the rows whose description or counterparty contains the search text (case and
    accents ignored), of the chosen direction, whose amount (as the bank reports it, never
    negative) lies in the range; sorting is the source's (see the module's notes), so the
    rows shown keep its order."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._direction: CreditDebitType | None = None
        self._minimum: Decimal | None = None
        self._maximum: Decimal | None = None
        self.setSortRole(SORT_ROLE)
        self.setDynamicSortFilter(True)

    def statement(self) -> StatementModel:
        model = self.sourceModel()
        assert isinstance(model, StatementModel)
        return model

    def set_text(self, text: str) -> None:
        self._change(lambda: setattr(self, "_text", fold(text.strip())))

    def set_direction(self, direction: CreditDebitType | None) -> None:
        self._change(lambda: setattr(self, "_direction", direction))

    def set_amount_range(self, minimum: Decimal | None, maximum: Decimal | None) -> None:
        def apply() -> None:
            self._minimum, self._maximum = minimum, maximum

        self._change(apply)

    def _change(self, apply: Callable[[], None]) -> None:
        self.beginFilterChange()
        apply()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        model = self.statement()
        entry = model.entry_at(source_row)
        if self._direction is not None and entry.credit_debit_type != self._direction:
            return False
        if self._minimum is not None and entry.amount < self._minimum:
            return False
        if self._maximum is not None and entry.amount > self._maximum:
            return False
        return not self._text or self._text in model.search_text(source_row)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.statement().sort(column, order)

    def lessThan(self, left: Index, right: Index) -> bool:  # noqa: N802
        """Only used if someone sorts the proxy itself: by value, like the source."""
        model = self.statement()
        a = model.sort_key(left.row(), left.column())
        b = model.sort_key(right.row(), right.column())
        return bool(a < b)

    def entries(self) -> list[StatementRow]:
        """The entries the view shows, in its order."""
        model = self.statement()
        return [
            model.entry_at(self.mapToSource(self.index(row, 0)).row())
            for row in range(self.rowCount())
        ]

    def entry(self, row: int) -> StatementRow:
        return self.statement().entry_at(self.mapToSource(self.index(row, 0)).row())


def export_rows(proxy: StatementFilterProxy, destination: str | os.PathLike[str] | IO[str]) -> int:
    """Write what ``proxy`` shows, in its order, as the statement CSV; how many rows.

    :func:`export_csv` reads of each entry the fields a :class:`StatementRow` keeps, under
    the same names, so the rows give the same file as the entries they were made of."""
    return export_csv(proxy.entries(), destination)  # type: ignore[arg-type]
