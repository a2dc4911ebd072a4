"""The main window: one tab per area of work, menus, and the status bar.

It is shown first, locked (every tab in its empty state), so that the person sees the app at
once while the profile is opened; :meth:`MainWindow.set_workspace` fills the tabs after the
unlock and empties them again on lock. This module imports only Qt: the services, the API
clients and their models load after the window is on screen.

The window knows nothing of start-up: the :class:`~treasury_app.ui.controller.AppController`
listens to its ``lock_requested`` / ``switch_profile_requested`` / ``edit_profile_requested``
/ ``quit_requested`` signals.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QSettings, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QMainWindow,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app import __version__
from treasury_app.ui.screen_fit import resize_to_fit

log = logging.getLogger("treasury_app.ui.main_window")

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent

    from treasury_app.services.workspace import Workspace
    from treasury_app.ui.backups import BackupRunner
    from treasury_app.ui.widgets.api_status import StatusPanel
    from treasury_app.ui.widgets.day_warning_badge import DayWarningBadge
    from treasury_app.ui.widgets.notifications_status import NotificationsStatusLabel
    from treasury_app.ui.widgets.team_status import TeamStatusLabel

# Tab titles in the order the treasury staff see them (marked for lupdate; translated in
# the MainWindow context when shown).
TAB_TITLES: tuple[str, ...] = (
    QT_TRANSLATE_NOOP("MainWindow", "Balance & statement"),
    QT_TRANSLATE_NOOP("MainWindow", "Pix payouts"),
    QT_TRANSLATE_NOOP("MainWindow", "Boletos"),
    QT_TRANSLATE_NOOP("MainWindow", "Charges & batches"),
    QT_TRANSLATE_NOOP("MainWindow", "Recurrences"),
    QT_TRANSLATE_NOOP("MainWindow", "Calendar"),
    QT_TRANSLATE_NOOP("MainWindow", "Payees"),
    QT_TRANSLATE_NOOP("MainWindow", "Settings"),
)
SETTINGS_GROUP = "main-window"
APPROVALS = "Approvals"
"""The tab of an unlocked session only, after the others: approvals by a second person (team
mode), or why there are none (a file ledger)."""


class EmptyStateTab(QWidget):
    """A tab that has nothing to show yet, saying so instead of appearing broken."""

    def __init__(self, title: str, parent: QWidget | None = None, *, locked: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName(f"empty-state:{title}")
        layout = QVBoxLayout(self)
        text = (
            self.tr("Unlock a profile to see %1.")
            if locked
            else self.tr("%1 arrives in a coming version.")
        )
        # Centred by rich text and stretches, not by Qt.AlignmentFlag: the locked window is the
        # first paint, and touching PySide6's ``Qt`` namespace builds its hundred-odd enums
        # (about 12 ms) — they are built after the window is on screen instead.
        shown = text.replace("%1", title)
        shown = shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        message = QLabel(f'<p align="center">{shown}</p>', self)
        message.setWordWrap(True)
        layout.addStretch(1)
        layout.addWidget(message)
        layout.addStretch(1)


def _lazy_tab(module: str, name: str) -> Callable[[Workspace, QWidget], QWidget]:
    """A factory of the tab ``name`` of ``treasury_app.ui.tabs.<module>``, imported only when
    the tab is first built (the window itself imports only Qt)."""

    def build(workspace: Workspace, parent: QWidget) -> QWidget:
        tab_class = getattr(importlib.import_module(f"treasury_app.ui.tabs.{module}"), name)
        tab: QWidget = tab_class(workspace, parent)
        return tab

    return build


TAB_FACTORIES: dict[str, Callable[[Workspace, QWidget], QWidget]] = {
    "Balance & statement": _lazy_tab("statement_tab", "StatementTab"),
    "Pix payouts": _lazy_tab("payouts_tab", "PayoutsTab"),
    "Boletos": _lazy_tab("billets_tab", "BilletsTab"),
    "Charges & batches": _lazy_tab("charges_tab", "ChargesTab"),
    "Recurrences": _lazy_tab("recurrences_tab", "RecurrencesTab"),
    "Calendar": _lazy_tab("calendar_tab", "CalendarTab"),
    "Payees": _lazy_tab("payees_tab", "PayeesTab"),
    "Settings": _lazy_tab("settings_tab", "SettingsTab"),
    APPROVALS: _lazy_tab("approvals_tab", "build_approvals_tab"),
}


def user_guide_path() -> Path | None:
    """``docs/user-guide.md`` of a checkout, or the copy a packaged build carries."""
    here = Path(__file__).resolve()
    candidates = [here.parents[2] / "docs" / "user-guide.md"]
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.insert(0, Path(bundle) / "docs" / "user-guide.md")
    return next((path for path in candidates if path.is_file()), None)


class TabPage(QScrollArea):
    """A tab's content in a scroll area: on a small screen (a 1366×768 laptop) the window
    fits and a long tab scrolls, instead of the window growing past the screen's bottom and
    hiding the status bar.

    The tab itself (``inner``) is built the first time it is asked for — when the person opens
    the tab, or when code reaches for it: a tab nobody opens costs nothing at unlock."""

    def __init__(self, build: Callable[[], QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._build = build
        self._inner: QWidget | None = None
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)

    @property
    def inner(self) -> QWidget:
        """The tab, built now if it was not yet."""
        if self._inner is None:
            self._inner = self._build()
            self.setObjectName(f"page:{self._inner.objectName()}")
            self.setWidget(self._inner)
        return self._inner

    @property
    def built(self) -> QWidget | None:
        """The tab if it was built, else ``None`` (nothing is built by asking)."""
        return self._inner


class MainWindow(QMainWindow):
    """Top-level window holding the tabs, the menus and the status bar."""

    lock_requested = Signal()
    switch_profile_requested = Signal()
    edit_profile_requested = Signal()
    quit_requested = Signal()

    def __init__(self, workspace: Workspace | None = None) -> None:
        super().__init__()
        self.workspace: Workspace | None = None
        self.status_panel: StatusPanel | None = None
        self.team_status: TeamStatusLabel | None = None  # a team database's link, when there
        # The bank's notifications through the team's webhook receiver (team mode).
        self.notifications_status: NotificationsStatusLabel | None = None
        self.infraction_badge: QLabel | None = None
        self.infractions_waiting: list[Any] = []
        self.approvals_page: TabPage | None = None
        self.approvals_badge: QLabel | None = None  # how many wait for me (team mode)
        self.day_warning_badge: DayWarningBadge | None = None  # a scheduled day over balance
        self.approvals_waiting = 0
        self.backups: BackupRunner | None = None  # the daily backup and the one before closing
        self._closing = False
        resize_to_fit(self, 1100, 720)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self._filling = False
        self.tabs.currentChanged.connect(self._build_page)
        self._build_menus()
        self._fill_tabs()
        self._update_title()
        self.statusBar().showMessage(self.tr("Locked"))
        self._restore()
        self._build_page(self.tabs.currentIndex())
        if workspace is not None:
            self.set_workspace(workspace)

    # -- the session ---------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        """Fill the tabs for an unlocked session, or empty them (``None``: locked)."""
        if workspace is self.workspace:
            return
        self.shutdown()
        self.workspace = workspace
        current = self.tabs.currentIndex()
        self._fill_tabs()
        self.tabs.setCurrentIndex(max(current, 0))
        self._build_page(self.tabs.currentIndex())
        if self.status_panel is not None:
            self.statusBar().removeWidget(self.status_panel)
            self.status_panel.deleteLater()
            self.status_panel = None
        for label in (self.team_status, self.notifications_status):
            if label is not None:
                self.statusBar().removeWidget(label)
                label.deleteLater()
        self.team_status = self.notifications_status = None
        for badge in (self.infraction_badge, self.approvals_badge, self.day_warning_badge):
            if badge is not None:
                self.statusBar().removeWidget(badge)
                badge.deleteLater()
        self.infraction_badge = self.approvals_badge = self.day_warning_badge = None
        self.infractions_waiting = []
        self.approvals_waiting = 0
        if self.backups is not None:
            self.backups.stop()
            self.backups.deleteLater()
            self.backups = None
        self._closing = False
        if workspace is not None:
            from treasury_app.ui.backups import BackupRunner
            from treasury_app.ui.widgets.api_status import StatusPanel

            service = getattr(workspace, "backups", None)  # (a test's stand-in may have none)
            if service is not None:
                self.backups = BackupRunner(service, self)
                self.backups.said.connect(lambda text: self.statusBar().showMessage(text))
                self.quit_requested.connect(self.backups.quit_again)  # a second Quit: at once
                self.backups.start()

            self.infraction_badge = QLabel(self)
            self.infraction_badge.setObjectName("infractions-badge")
            from treasury_app.ui.theme import text_style  # not before the first paint

            self.infraction_badge.setStyleSheet(f"{text_style('error', self)} font-weight: bold;")
            self.infraction_badge.hide()
            self.statusBar().addPermanentWidget(self.infraction_badge)
            if workspace.session.approvals is not None:
                self.approvals_badge = QLabel(self)
                self.approvals_badge.setObjectName("approvals-badge")
                self.approvals_badge.setStyleSheet("font-weight: bold;")
                self.approvals_badge.hide()
                self.statusBar().addPermanentWidget(self.approvals_badge)
            from treasury_app.ui.widgets.day_warning_badge import DayWarningBadge

            # Short in the bar ("⚠ Short on 09/12"), the whole sentence in its tooltip.
            self.day_warning_badge = DayWarningBadge(workspace, self)
            self.statusBar().addPermanentWidget(self.day_warning_badge)
            self.day_warning_badge.start_refresh()
            if self.approvals_page is not None and workspace.session.approvals is not None:
                _ = self.approvals_page.inner  # built now: its count shows before it is opened
            if workspace.session.team is not None:
                from treasury_app.ui.widgets.team_status import TeamStatusLabel

                self.team_status = TeamStatusLabel(workspace.session.team, self, compact=True)
                self.statusBar().addPermanentWidget(self.team_status)
            notifications = getattr(workspace.session, "notifications", None)
            if notifications is not None:
                from treasury_app.ui.widgets.notifications_status import (
                    NotificationsStatusLabel,
                )

                self.notifications_status = NotificationsStatusLabel(notifications, self)
                self.statusBar().addPermanentWidget(self.notifications_status)
            self.status_panel = StatusPanel(workspace.session, self)
            self.statusBar().addPermanentWidget(self.status_panel)
            self.statusBar().showMessage(self.tr("Ready"), 5_000)
        else:
            self.statusBar().showMessage(self.tr("Locked"))
        for action in (self.lock_action, self.edit_profile_action, self.refresh_action):
            action.setEnabled(workspace is not None)
        self._update_title()

    def _fill_tabs(self) -> None:
        self._filling = True  # removing and adding pages moves the current index: build none
        try:
            while self.tabs.count():
                page = self.tabs.widget(0)
                self.tabs.removeTab(0)
                page.deleteLater()
            for name in TAB_TITLES:
                title = self.tr(name)
                page = TabPage(self._page_builder(name, title), self.tabs)
                # "&" marks a keyboard mnemonic in Qt labels; "&&" shows a literal ampersand.
                self.tabs.addTab(page, title.replace("&", "&&"))
            self.approvals_page = None
            if self.workspace is not None:
                title = self.tr("Approvals")
                self.approvals_page = TabPage(self._page_builder(APPROVALS, title), self.tabs)
                self.tabs.addTab(self.approvals_page, title)
        finally:
            self._filling = False

    def _page_builder(self, name: str, title: str) -> Callable[[], QWidget]:
        workspace = self.workspace
        factory = TAB_FACTORIES.get(name)

        def build() -> QWidget:
            if workspace is None or factory is None:
                return EmptyStateTab(title, self.tabs, locked=workspace is None)
            widget = factory(workspace, self.tabs)
            panel = getattr(widget, "infractions_panel", None)
            if panel is not None:
                panel.loaded.connect(self._infractions_loaded)
            waiting = getattr(widget, "waiting_count_changed", None)
            if waiting is not None:
                waiting.connect(self.show_approvals_waiting)
            return widget

        return build

    def _build_page(self, index: int) -> None:
        """Build the tab the person opens (the others wait until they are opened)."""
        page = self.tabs.widget(index)
        if not self._filling and isinstance(page, TabPage):
            _ = page.inner

    # -- infractions waiting for a defense --------------------------------------------------------

    def show_infraction_alerts(self, waiting: list[Any]) -> None:
        """A badge on the Settings tab and in the status bar while infractions wait for a
        defense (open, deadline ahead); the nearest deadline in the tooltip."""
        self.infractions_waiting = list(waiting)
        index = TAB_TITLES.index("Settings")
        title = self.tr("Settings").replace("&", "&&")
        if waiting:
            title += f" ⚠ {len(waiting)}"
        self.tabs.setTabText(index, title)
        if self.infraction_badge is None:
            return
        if not waiting:
            self.infraction_badge.hide()
            return
        nearest = waiting[0]
        left = self.workspace.infractions.days_left(nearest) if self.workspace else None
        self.infraction_badge.setText(
            self.tr("⚠ %1 infraction(s) to answer").replace("%1", str(len(waiting)))
        )
        self.infraction_badge.setToolTip(
            self.tr("Nearest defense deadline: %1, %2 day(s) left (Settings ▸ Infractions)")
            .replace("%1", nearest.id)
            .replace("%2", str(left if left is not None else "?"))
        )
        self.infraction_badge.show()

    # -- approvals waiting (team mode) ------------------------------------------------------------

    def show_approvals_waiting(self, count: int) -> None:
        """The Approvals tab's title and the status bar say how many payments wait for this
        person's approval."""
        self.approvals_waiting = count
        if self.approvals_page is not None:
            index = self.tabs.indexOf(self.approvals_page)
            title = self.tr("Approvals")
            self.tabs.setTabText(index, f"{title} ({count})" if count else title)
        if self.approvals_badge is None:
            return
        # Short in the bar (it shares a 1366 px laptop's width with every badge), whole in
        # the tooltip.
        self.approvals_badge.setText(self.tr("%1 to approve").replace("%1", str(count)))
        self.approvals_badge.setToolTip(
            self.tr("%1 payment(s) waiting for your approval").replace("%1", str(count))
        )
        self.approvals_badge.setVisible(count > 0)

    def _infractions_loaded(self, items: list[Any]) -> None:
        if self.workspace is None:
            return
        service = self.workspace.infractions
        waiting = [
            item
            for item in items
            if str(item.status) == "OPEN" and (service.days_left(item) or 0) >= 0
        ]
        waiting.sort(key=lambda item: service.days_left(item) or 0)
        self.show_infraction_alerts(waiting)

    async def check_infractions(self) -> None:
        """Ask the bank which infractions wait for a defense (a token without the scope, or a
        bank away, leaves the badge as it was)."""
        workspace = self.workspace
        if workspace is None:
            return
        try:
            waiting = await workspace.infractions.awaiting_defense()
        except Exception as error:  # the badge is a convenience; the page says what failed
            log.info("infractions not checked: %s", type(error).__name__)
            return
        if self.workspace is workspace:
            self.show_infraction_alerts(waiting)

    def tab(self, index: int) -> QWidget | None:
        """The tab at ``index`` (not its scroll area)."""
        page = self.tabs.widget(index)
        return page.inner if isinstance(page, TabPage) else page

    def current_tab(self) -> QWidget | None:
        return self.tab(self.tabs.currentIndex())

    def _update_title(self) -> None:
        title = self.tr("Treasury") + f" {__version__}"
        if self.workspace is not None:
            profile = self.workspace.session.profile
            title += f" — {profile.name}"
            if profile.environment == "sandbox":
                title += " " + self.tr("(SANDBOX)")
        self.setWindowTitle(title)

    def shutdown(self) -> None:
        """Before the session closes: every tab stops its timers and cancels its loads."""
        if self.backups is not None:
            self.backups.stop()
        if self.status_panel is not None:
            self.status_panel.timer.stop()
        if self.team_status is not None:
            self.team_status.stop()  # unsubscribed before the link closes
        if self.notifications_status is not None:
            self.notifications_status.stop()
        for index in range(self.tabs.count()):
            page = self.tabs.widget(index)
            built = page.built if isinstance(page, TabPage) else page
            stop = getattr(built, "shutdown", None)
            if callable(stop):
                stop()

    # -- menus ---------------------------------------------------------------------------------

    def _build_menus(self) -> None:
        # Shortcuts are set just after the first paint: the first QKeySequence given to an
        # action makes PySide6 build its ``Qt`` enums (some 20 ms), which can wait.
        shortcuts: list[tuple[QAction, QKeySequence.StandardKey | str]] = []
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.switch_action = file_menu.addAction(self.tr("&Switch profile…"))
        self.switch_action.triggered.connect(self.switch_profile_requested)
        self.edit_profile_action = file_menu.addAction(self.tr("&Edit profile…"))
        self.edit_profile_action.triggered.connect(self.edit_profile_requested)
        self.lock_action = file_menu.addAction(self.tr("&Lock"))
        shortcuts.append((self.lock_action, "Ctrl+L"))
        self.lock_action.triggered.connect(self.lock_requested)
        file_menu.addSeparator()
        quit_action = file_menu.addAction(self.tr("&Quit"))
        shortcuts.append((quit_action, QKeySequence.StandardKey.Quit))
        quit_action.triggered.connect(self.quit_requested)

        view_menu = self.menuBar().addMenu(self.tr("&View"))
        self.refresh_action = view_menu.addAction(self.tr("&Refresh"))
        shortcuts.append((self.refresh_action, QKeySequence.StandardKey.Refresh))
        self.refresh_action.triggered.connect(self.refresh_current)
        view_menu.addSeparator()
        for index, name in enumerate(TAB_TITLES):
            action = QAction(self.tr(name).replace("&", "&&"), self)
            shortcuts.append((action, f"Ctrl+{index + 1}"))
            action.triggered.connect(lambda _=False, i=index: self.tabs.setCurrentIndex(i))
            view_menu.addAction(action)

        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        self.guide_action = help_menu.addAction(self.tr("&User guide"))
        shortcuts.append((self.guide_action, QKeySequence.StandardKey.HelpContents))
        self.guide_action.triggered.connect(self.open_user_guide)
        about = help_menu.addAction(self.tr("&About Treasury"))
        about.triggered.connect(self.show_about)
        for action in (self.lock_action, self.edit_profile_action, self.refresh_action):
            action.setEnabled(False)
        self._shortcuts = shortcuts
        QTimer.singleShot(0, self.add_shortcuts)

    def add_shortcuts(self) -> None:
        """The menus' keyboard shortcuts (once; called by a timer after the first paint)."""
        for action, key in self._shortcuts:
            action.setShortcut(QKeySequence(key))
        self._shortcuts = []

    def refresh_current(self) -> None:
        widget = self.current_tab()
        refresh = getattr(widget, "refresh", None)
        if callable(refresh):
            refresh()
        if self.status_panel is not None:
            self.status_panel.refresh()

    def about_text(self) -> str:
        import httpx
        import pydantic
        import PySide6

        return (
            self.tr(
                "Treasury %1\n\nPix payouts, boletos, charges and Pix Automático over mutual "
                "TLS.\n\nPython %2 · PySide6 %3 · Qt %4 · httpx %5 · pydantic %6"
            )
            .replace("%1", __version__)
            .replace("%2", sys.version.split()[0])
            .replace("%3", PySide6.__version__)
            .replace("%4", PySide6.QtCore.qVersion())
            .replace("%5", httpx.__version__)
            .replace("%6", pydantic.VERSION)
        )

    def open_user_guide(self) -> bool:
        """Open the treasury staff's guide (pt-BR) with the system's viewer."""
        path = user_guide_path()
        if path is None:
            self.statusBar().showMessage(self.tr("The user guide is not installed."), 10_000)
            return False
        return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))

    def show_about(self) -> None:
        from PySide6.QtWidgets import QMessageBox  # not before the first paint

        box = QMessageBox(QMessageBox.Icon.Information, self.tr("About Treasury"), "", parent=self)
        box.setText(self.about_text())
        box.setObjectName("about-box")
        box.open()  # never exec(): the loop is shared with asyncio

    # -- persistence -------------------------------------------------------------------------

    def _restore(self) -> None:
        settings = QSettings()
        settings.beginGroup(SETTINGS_GROUP)
        geometry = settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        tab: Any = settings.value("tab", 0)
        with contextlib.suppress(TypeError, ValueError):
            self.tabs.setCurrentIndex(int(tab))
        settings.endGroup()

    def save_state(self) -> None:
        settings = QSettings()
        settings.beginGroup(SETTINGS_GROUP)
        settings.setValue("geometry", self.saveGeometry())
        settings.setValue("tab", self.tabs.currentIndex())
        settings.endGroup()

    async def back_up_before_closing(self) -> None:
        """The backup before the app closes (bounded; see :mod:`treasury_app.ui.backups`)."""
        if self.backups is not None:
            await self.backups.before_closing()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.save_state()
        backups = self.backups
        if backups is not None and not self._closing and backups.wants_to_run_on_close():
            # On screen while the backup before closing says what it does; the controller
            # hides the window when it is done. Closing it again closes at once.
            self._closing = True
            event.ignore()
            self.quit_requested.emit()
            return
        self.shutdown()
        super().closeEvent(event)
        self.quit_requested.emit()
