"""The calendar grid's cells, painted plainly: the background (a warning's tint, the
selection), then each line of the cell's text with one ``drawText`` per line.

Qt's styled delegate lays out every cell's four lines through the style (a text layout per
cell, per paint): the grid's first paint with 91 cells was the frame that ran late while
5,000 payments loaded (``tests/bench/calendar_load.py``). This one reads the cell's prepared
answer (:data:`~treasury_app.ui.models.calendar_model.CELL_ROLE`: lines, background,
foreground, font, made once per projection) and draws it directly."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from treasury_app.ui.models.calendar_model import CELL_ROLE

__all__ = ["CalendarCellDelegate"]

_PAD = 4
_FLAGS = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_SELECTED = QStyle.StateFlag.State_Selected

Index = QModelIndex | QPersistentModelIndex


class CalendarCellDelegate(QStyledItemDelegate):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        cell = index.data(CELL_ROLE)
        if cell is None:
            return  # a day before today: an empty cell
        lines, background, foreground, font = cell
        rect: QRect = option.rect  # type: ignore[attr-defined]
        palette: QPalette = option.palette  # type: ignore[attr-defined]
        selected = bool(option.state & _SELECTED)  # type: ignore[attr-defined]
        painter.save()
        if selected:
            painter.fillRect(rect, palette.brush(QPalette.ColorRole.Highlight))
            painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
        else:
            if background is not None:
                painter.fillRect(rect, background)
            if isinstance(foreground, QBrush):
                painter.setPen(foreground.color())
            elif isinstance(foreground, QColor):
                painter.setPen(foreground)
            else:
                painter.setPen(palette.color(QPalette.ColorRole.Text))
        if font is not None:
            painter.setFont(font)
        height = painter.fontMetrics().height()
        left, top, bottom = rect.left() + _PAD, rect.top() + _PAD // 2, rect.bottom() + 1
        width = rect.width() - 2 * _PAD
        for line in lines:
            if top + height > bottom:
                break  # a cell shorter than its lines shows those that fit
            painter.drawText(left, top, width, height, _FLAGS, line)
            top += height
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:  # noqa: N802
        cell = index.data(CELL_ROLE)
        lines = cell[0] if cell is not None else ("",)
        metrics = option.fontMetrics  # type: ignore[attr-defined]
        width = max(metrics.horizontalAdvance(line) for line in lines)
        return QSize(width + 2 * _PAD, len(lines) * metrics.height() + _PAD)
