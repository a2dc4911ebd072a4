"""Tables of rows as the lists show them: one whole row selected at a time, the row of a key
selected from code, the search field above; a list beside the detail of its selected row, that
detail's value labels, and the flat trees (histories, defenses) inside it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableView,
    QTreeWidget,
    QWidget,
)

__all__ = [
    "current_row",
    "current_value",
    "fit_columns",
    "flat_tree",
    "list_and_detail",
    "row_table",
    "search_box",
    "select_row",
    "value_labels",
]

T = TypeVar("T")


def row_table(
    parent: QWidget,
    model: QAbstractItemModel,
    name: str = "",
    *,
    stretch: int | None = None,
    alternating: bool = True,
) -> QTableView:
    """A read-only table selecting one whole row at a time, without row numbers; ``stretch``
    is the column that takes the width left."""
    view = QTableView(parent)
    if name:
        view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(alternating)
    view.verticalHeader().hide()
    if stretch is not None:
        view.horizontalHeader().setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return view


def current_row(view: QAbstractItemView) -> int | None:
    """The row of the view's current index (``None`` when there is none)."""
    index = view.selectionModel().currentIndex()
    return index.row() if index.isValid() else None


def current_value(view: QAbstractItemView, value_at: Callable[[int], T]) -> T | None:
    """``value_at(row)`` of the view's current row (``None`` when there is none)."""
    row = current_row(view)
    return value_at(row) if row is not None else None


def select_row(view: QAbstractItemView, row: int | None, column: int = 0) -> bool:
    """Make ``row`` the current and only selected row (the view's signals follow); ``False``
    for no row (``None``: a key the view does not show)."""
    if row is None:
        return False
    view.selectionModel().setCurrentIndex(
        view.model().index(row, column),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    return True


def search_box(
    parent: QWidget, name: str, placeholder: str, changed: Callable[[str], object]
) -> QLineEdit:
    """A list's search field (with a clear button): ``changed`` gets the text as it is typed."""
    edit = QLineEdit(parent)
    edit.setObjectName(name)
    edit.setPlaceholderText(placeholder)
    edit.setClearButtonEnabled(True)
    edit.textChanged.connect(changed)
    return edit


def list_and_detail(parent: QWidget, table: QWidget, detail: QWidget) -> QSplitter:
    """The list on the left (three fifths of the width) and the detail on the right."""
    splitter = QSplitter(Qt.Orientation.Horizontal, parent)
    splitter.addWidget(table)
    splitter.addWidget(detail)
    splitter.setStretchFactor(0, 3)
    splitter.setStretchFactor(1, 2)
    return splitter


def flat_tree(parent: QWidget, name: str, headers: list[str]) -> QTreeWidget:
    """A list of rows with column headers and no tree decoration (a history, the defenses)."""
    tree = QTreeWidget(parent)
    tree.setObjectName(name)
    tree.setRootIsDecorated(False)
    tree.setHeaderLabels(headers)
    return tree


def fit_columns(tree: QTreeWidget) -> None:
    """Each column but the last as wide as its title and its rows, so a time or an id is read
    whole; the last takes what is left."""
    for column in range(tree.columnCount() - 1):
        tree.resizeColumnToContents(column)


def value_labels(
    form: QFormLayout,
    parent: QWidget,
    names: Iterable[str],
    titles: Mapping[str, str],
    prefix: str,
    *,
    dashes: bool = True,
) -> dict[str, QLabel]:
    """One selectable, wrapping value label per field of ``names``, in that order, titled
    ``titles[name]`` and named ``{prefix}-{field-name}`` (``{prefix}-{field_name}`` without
    ``dashes``); the labels by field name."""
    labels: dict[str, QLabel] = {}
    for name in names:
        value = QLabel(parent)
        value.setObjectName(f"{prefix}-{name.replace('_', '-') if dashes else name}")
        value.setWordWrap(True)
        value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(titles[name], value)
        labels[name] = value
    return labels
