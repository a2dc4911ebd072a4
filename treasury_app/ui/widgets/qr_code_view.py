"""A QR Code drawn from its module matrix (segno's), so it stays sharp at any size: each module
is a whole number of device pixels, centred on white with the quiet zone the standard asks for.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

__all__ = ["QUIET_ZONE", "QrCodeView", "module_layout"]

QUIET_ZONE = 4
"""Modules of white around the symbol: the QR standard's minimum."""

_DARK = QColor("black")
_LIGHT = QColor("white")


def module_layout(side: int, modules: int, border: int = QUIET_ZONE) -> tuple[int, int]:
    """(pixels per module, offset of the first module) to fit ``modules`` plus ``border`` on
    each side into a square of ``side`` pixels, centred. Whole pixels per module (at least 1)
    keep every edge sharp; what is left over becomes extra white margin."""
    if modules <= 0:
        return 0, 0
    total = modules + 2 * border
    scale = max(1, side // total)
    offset = (side - modules * scale) // 2
    return scale, offset


class QrCodeView(QWidget):
    """Paints a QR matrix (rows of booleans, ``True`` dark, no quiet zone) itself.

    Grows with its layout and keeps the symbol square; :meth:`image` renders the same thing
    off screen (for a check, or to copy as a picture).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("qr-code-view")
        self._matrix: tuple[tuple[bool, ...], ...] = ()
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setMinimumSize(120, 120)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    def set_matrix(self, matrix: Sequence[Sequence[bool]]) -> None:
        """Show ``matrix`` (square, as :attr:`ChargeQr.matrix` gives it)."""
        rows = tuple(tuple(bool(module) for module in row) for row in matrix)
        if any(len(row) != len(rows) for row in rows):
            raise ValueError("A QR matrix is square.")
        self._matrix = rows
        self.setMinimumSize(self._minimum_side(), self._minimum_side())
        self.updateGeometry()
        self.update()

    def matrix(self) -> tuple[tuple[bool, ...], ...]:
        return self._matrix

    def module_count(self) -> int:
        return len(self._matrix)

    # -- Qt size negotiation ---------------------------------------------------------------------

    def _minimum_side(self) -> int:
        # Two pixels a module: still readable by a camera on screen.
        return max(120, 2 * (self.module_count() + 2 * QUIET_ZONE))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        side = max(self._minimum_side(), 6 * (self.module_count() + 2 * QUIET_ZONE))
        return QSize(side, side)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return width

    # -- painting --------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        try:
            ratio = self.devicePixelRatioF()
            painter.fillRect(self.rect(), _LIGHT)
            # Lay modules out in device pixels so a HiDPI screen gets crisp edges too.
            painter.scale(1 / ratio, 1 / ratio)
            width, height = round(self.width() * ratio), round(self.height() * ratio)
            self._paint_modules(painter, QRect(0, 0, width, height))
        finally:
            painter.end()

    def _paint_modules(self, painter: QPainter, area: QRect) -> None:
        side = min(area.width(), area.height())
        scale, offset = module_layout(side, self.module_count())
        if scale == 0:
            return
        left = area.x() + (area.width() - side) // 2 + offset
        top = area.y() + (area.height() - side) // 2 + offset
        painter.setPen(Qt.PenStyle.NoPen)
        for y, row in enumerate(self._matrix):
            x = 0
            while x < len(row):  # one rectangle per run of dark modules
                if not row[x]:
                    x += 1
                    continue
                start = x
                while x < len(row) and row[x]:
                    x += 1
                painter.fillRect(
                    left + start * scale, top + y * scale, (x - start) * scale, scale, _DARK
                )

    def image(self, side: int) -> QImage:
        """The symbol rendered on a white ``side`` × ``side`` image."""
        image = QImage(side, side, QImage.Format.Format_RGB32)
        image.fill(_LIGHT)
        painter = QPainter(image)
        try:
            self._paint_modules(painter, QRect(0, 0, side, side))
        finally:
            painter.end()
        return image
