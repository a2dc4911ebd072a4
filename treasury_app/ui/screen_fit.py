"""Windows sized for the screen they open on: a dialog asks for its comfortable size and gets
at most what the screen offers (a 1366×768 laptop leaves about 700 pixels under the title bar
and the taskbar); its long content scrolls.

A dialog's size is asked for when it is built, before it knows its screen (an unshown widget
reports the primary one). So every dialog is fitted again as it is shown (:class:`DialogFit`,
installed on the application once): on the screen of the window it opens over, its title bar
and its bottom within that screen's available area, which leaves out the taskbar."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QSize
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QApplication, QDialog, QWidget

TITLE_BAR = 32  # a title bar and the frame's top edge, which the window's geometry leaves out
BORDER = 8  # each other edge of the frame
# Room left for the window's title bar and frame, which availableGeometry() does not count.
FRAME = QSize(2 * BORDER, TITLE_BAR + BORDER)
# The screen's available area, when a test stands in a given screen (a 1366×768 laptop).
area_override: QRect | None = None


def _screen_of(widget: QWidget) -> QScreen | None:
    """The screen ``widget`` opens on: its parent window's, once it has one."""
    parent = widget.parentWidget()
    if parent is not None and parent.window() is not widget:
        return parent.window().screen() or widget.screen()
    return widget.screen() or QGuiApplication.primaryScreen()


def available_area(widget: QWidget) -> QRect | None:
    """Where a window of ``widget`` may lie: its screen's area less the taskbar (``None``: no
    screen at all)."""
    if area_override is not None:
        return area_override
    screen = _screen_of(widget)
    return screen.availableGeometry() if screen is not None else None


def fitted_size(widget: QWidget, width: int, height: int) -> QSize:
    """``width`` × ``height``, capped by the available area of the widget's screen."""
    area = available_area(widget)
    if area is None:
        return QSize(width, height)
    return QSize(
        max(200, min(width, area.width() - FRAME.width())),
        max(150, min(height, area.height() - FRAME.height())),
    )


def resize_to_fit(widget: QWidget, width: int, height: int) -> None:
    widget.resize(fitted_size(widget, width, height))


def fit_window(widget: QWidget) -> None:
    """Shrink a window taller or wider than its screen's available area allows (title bar and
    frame counted), and move it so that its title bar and its bottom edge are on that area:
    its buttons are never under the taskbar."""
    area = available_area(widget)
    if area is None:
        return
    size = fitted_size(widget, widget.width(), widget.height())
    if size != widget.size():
        widget.resize(size.expandedTo(widget.minimumSize()))
    # Where the frame goes (a window's position is its frame's): inside the area, title bar
    # included; a window already there stays where it is.
    frame_width = widget.width() + FRAME.width()
    frame_height = widget.height() + FRAME.height()
    x = max(area.left(), min(widget.x(), area.right() + 1 - frame_width))
    y = max(area.top(), min(widget.y(), area.bottom() + 1 - frame_height))
    if (x, y) != (widget.x(), widget.y()):
        widget.move(x, y)


class DialogFit(QObject):
    """Fits every dialog as it is shown (:func:`fit_window`); installed once, on the
    application, by :func:`install`."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Show and isinstance(watched, QDialog) and watched.isWindow():
            fit_window(watched)
        return False


_installed: DialogFit | None = None


def install(app: QApplication) -> DialogFit:
    """Fit every dialog of ``app`` as it is shown, from now on (once per application)."""
    global _installed
    if _installed is None:
        _installed = DialogFit(app)
        app.installEventFilter(_installed)
    return _installed


def uninstall(app: QApplication) -> None:
    """Stop fitting the dialogs of ``app`` (tests that installed it)."""
    global _installed
    if _installed is not None:
        app.removeEventFilter(_installed)
        _installed = None
