"""Windows sized for the screen they open on: a dialog asks for its comfortable size and gets
at most what the screen offers (a 1366×768 laptop leaves about 700 pixels under the title bar
and the taskbar); its long content scrolls."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# Room left for the window's title bar and frame, which availableGeometry() does not count.
FRAME = QSize(16, 40)
# The screen's available area, when a test stands in a given screen (a 1366×768 laptop).
area_override: QRect | None = None


def fitted_size(widget: QWidget, width: int, height: int) -> QSize:
    """``width`` × ``height``, capped by the available area of the widget's screen."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    if screen is None and area_override is None:
        return QSize(width, height)
    area = area_override if area_override is not None else screen.availableGeometry()
    return QSize(
        max(200, min(width, area.width() - FRAME.width())),
        max(150, min(height, area.height() - FRAME.height())),
    )


def resize_to_fit(widget: QWidget, width: int, height: int) -> None:
    widget.resize(fitted_size(widget, width, height))
