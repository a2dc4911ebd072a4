"""The base of the list models (:class:`RowsTableModel`: rows of one kind, columns declared once
as an ``IntEnum``, the Qt plumbing written once) and of their filters (:class:`RowsFilter`,
:class:`SortKeyFilter`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

__all__ = [
    "RIGHT_ALIGNED",
    "ROW_ROLE",
    "Index",
    "RowsFilter",
    "RowsTableModel",
    "SortKeyFilter",
]

ROW_ROLE = Qt.ItemDataRole.UserRole
"""The row object itself, whatever the column."""
RIGHT_ALIGNED = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
Index = QModelIndex | QPersistentModelIndex

R = TypeVar("R")


class RowsTableModel(QAbstractTableModel, Generic[R]):
    """Rows of one kind in a list, one column per entry of :meth:`headers`.

    A subclass says how its rows read: :meth:`headers` (each column shown, an ``IntEnum``
    member, in order, with its title, translated in the subclass so that each list keeps its
    own words), :meth:`text` (a row's text in a column), :meth:`key` (what identifies a row,
    for :meth:`row_of` and :meth:`upsert`) and :meth:`role_data` for any role beyond text,
    alignment (:attr:`right_aligned`) and the row itself (:data:`ROW_ROLE`)."""

    right_aligned: ClassVar[Collection[int]] = ()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[R] = []
        self._headers: Mapping[Any, str] = self.headers()
        self._shown: list[Any] = list(self._headers)

    # -- what a subclass says --------------------------------------------------------------------

    def headers(self) -> Mapping[Any, str]:
        raise NotImplementedError

    def text(self, row: R, column: Any) -> str:
        raise NotImplementedError

    def key(self, row: R) -> Any:
        raise NotImplementedError

    def role_data(self, row: R, column: Any, role: int) -> Any:
        """Any other role's value (tooltips, colours); ``None`` by default."""
        return None

    # -- content ---------------------------------------------------------------------------------

    def reset_rows(self, rows: Iterable[R]) -> None:
        """Replace every row (one reset, never one signal per row)."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[R]:
        return list(self._rows)

    def row_at(self, row: int) -> R:
        return self._rows[row]

    def row_or_none(self, row: int) -> R | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, key: Any) -> int | None:
        for number, row in enumerate(self._rows):
            if self.key(row) == key:
                return number
        return None

    def upsert(self, row: R) -> None:
        """Replace the row with the same key in place, or add ``row`` on top (a reset would
        lose the views' selection)."""
        found = self.row_of(self.key(row))
        if found is None:
            self.beginInsertRows(QModelIndex(), 0, 0)
            self._rows.insert(0, row)
            self.endInsertRows()
            return
        self._rows[found] = row
        self.row_changed(found)

    def row_changed(self, row: int) -> None:
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def column_at(self, section: int) -> Any:
        """The column (a member of the subclass's enum) shown at ``section``."""
        return self._shown[section]

    def column_of(self, column: Any) -> int:
        """Where ``column`` is shown."""
        return self._shown.index(column)

    # -- Qt's API --------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else len(self._shown)

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return self._headers[self._shown[section]] if 0 <= section < len(self._shown) else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row = self.row_or_none(index.row()) if index.isValid() else None
        if row is None:
            return None
        column = self._shown[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.right_aligned:
            return RIGHT_ALIGNED
        if role == ROW_ROLE:
            return row
        return self.role_data(row, column, role)


class RowsFilter(QSortFilterProxyModel, Generic[R]):
    """A filter over a :class:`RowsTableModel`: rows read back whole (:data:`ROW_ROLE`), and
    one way to change what is filtered (:meth:`refilter`)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setDynamicSortFilter(True)

    def row_value(self, row: int) -> R:
        """The row shown at ``row``."""
        value: R = self.index(row, 0).data(ROW_ROLE)
        return value

    def source_value(self, source_row: int, source_parent: Index) -> R | None:
        value: R | None = self.sourceModel().index(source_row, 0, source_parent).data(ROW_ROLE)
        return value

    def row_of(self, key: Any) -> int | None:
        """Where the row of ``key`` (see :meth:`RowsTableModel.key`) is shown, if it is."""
        source = self.sourceModel()
        assert isinstance(source, RowsTableModel)
        for row in range(self.rowCount()):
            if source.key(self.row_value(row)) == key:
                return row
        return None

    def refilter(self, name: str, value: Any) -> None:
        """Set the filter's attribute ``name`` and filter the rows again."""
        self.beginFilterChange()
        setattr(self, name, value)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)


class _Sortable(Protocol):
    def sort_key(self, column: Any) -> Any: ...


S = TypeVar("S", bound=_Sortable)


class SortKeyFilter(RowsFilter[S]):
    """A filter over a :class:`RowsTableModel` whose rows sort by their own
    ``sort_key(column)`` (dates, ``Decimal`` amounts) rather than by the text shown."""

    def lessThan(self, left: Index, right: Index) -> bool:  # noqa: N802 - Qt's name
        source = self.sourceModel()
        assert isinstance(source, RowsTableModel)
        column = source.column_at(left.column())
        a: S = self.sourceModel().index(left.row(), 0).data(ROW_ROLE)
        b: S = self.sourceModel().index(right.row(), 0).data(ROW_ROLE)
        result: bool = a.sort_key(column) < b.sort_key(column)
        return result
