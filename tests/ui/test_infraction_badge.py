"""Infractions waiting for a defense show a badge on the Settings tab and in the status bar
until answered, and the detail says how many days are left."""

from __future__ import annotations

from treasury_app.api.accounts.models import InfractionStatus
from treasury_app.ui.main_window import TAB_TITLES, MainWindow


def test_badge_and_days_left(qtbot, run, open_workspace) -> None:
    workspace = open_workspace()
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.resize(1366, 698)
    window.show()
    try:
        run(window.check_infractions())
        waiting = window.infractions_waiting
        assert waiting and all(i.status == InfractionStatus.OPEN for i in waiting)
        settings_index = TAB_TITLES.index("Settings")
        assert window.tabs.tabText(settings_index) == f"Settings ⚠ {len(waiting)}"
        badge = window.infraction_badge
        assert badge.isVisible()
        assert badge.text() == f"⚠ {len(waiting)} infraction(s) to answer"
        left = workspace.infractions.days_left(waiting[0])
        assert left is not None and left >= 0
        assert f"{left} day(s) left" in badge.toolTip() and waiting[0].id in badge.toolTip()

        panel = window.tab(settings_index).infractions_panel
        run(panel.reload())  # the page's own reload keeps the badge in step
        assert window.infractions_waiting == waiting
        text = panel.deadline_text(waiting[0])
        assert text.endswith("day(s) left)") or text.endswith("(last day)")
        items = [panel.model.infraction(r) for r in range(panel.model.rowCount())]
        closed = next(i for i in items if i.status == InfractionStatus.CLOSED)
        assert "left" not in panel.deadline_text(closed)

        window.show_infraction_alerts([])  # all answered
        assert window.tabs.tabText(settings_index) == "Settings"
        assert not badge.isVisible()
    finally:
        window.set_workspace(None)


def test_the_badge_follows_a_defense_at_once(qtbot, run, open_workspace) -> None:
    from PySide6.QtCore import Qt

    from tests.waiting import qt_wait_until

    workspace = open_workspace()
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.resize(1366, 698)
    window.show()
    try:
        run(window.check_infractions())
        waiting = list(window.infractions_waiting)
        assert waiting
        settings_index = TAB_TITLES.index("Settings")
        panel = window.tab(settings_index).infractions_panel
        run(panel.reload())
        assert panel.select(waiting[0].id)
        qt_wait_until(qtbot, panel.detail_task.done, "the detail read")
        qtbot.mouseClick(panel.defend_button, Qt.MouseButton.LeftButton)
        qt_wait_until(qtbot, lambda: panel.dialog is not None, "the defense form")
        qtbot.keyClicks(panel.dialog.description_edit, "Pagamento autorizado pelo cliente.")
        qtbot.mouseClick(panel.dialog.submit_button, Qt.MouseButton.LeftButton)
        qt_wait_until(qtbot, panel.defend_task.done, "the defense answered")
        assert panel.defend_task.result() is not None
        # No unlock, no reload: the answered infraction left the count.
        assert [i.id for i in window.infractions_waiting] == [i.id for i in waiting[1:]]
        count = len(waiting) - 1
        expected = f"Settings ⚠ {count}" if count else "Settings"
        assert window.tabs.tabText(settings_index) == expected
        badge = window.infraction_badge
        assert badge.isVisible() == bool(count)
        if count:
            assert badge.text() == f"⚠ {count} infraction(s) to answer"
    finally:
        window.set_workspace(None)
