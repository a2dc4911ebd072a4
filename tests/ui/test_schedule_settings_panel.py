"""Settings › Scheduled payments on the app's own sandbox bank (issue 35): a bad value is said in
words on its field and nothing is kept; good values are kept in the profile file (audited) and
applied at once: the send time, and an extra non-business day that rolls a batch's date."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt

from treasury_app.domain.business_days import is_business_day
from treasury_app.domain.clock import brasilia_today, format_date
from treasury_app.services.profiles import ProfileStore, ScheduleProfile
from treasury_app.ui.widgets.schedule_settings_panel import ScheduleSettingsPanel


def _business_days(after: dt.date, count: int) -> list[dt.date]:
    days: list[dt.date] = []
    day = after
    while len(days) < count:
        day += dt.timedelta(days=1)
        if is_business_day(day):
            days.append(day)
    return days


def test_bad_settings_are_refused_on_their_field_and_good_ones_kept_and_applied(
    qtbot, run, open_workspace, tmp_path, ui_paths
) -> None:
    workspace = open_workspace()
    store = ProfileStore(ui_paths)
    saved = []

    async def save(profile):
        saved.append(profile)
        return await store.save(profile, audit=workspace.ledger.audit)

    workspace.profile_saver = save
    original = workspace.session.profile
    panel = ScheduleSettingsPanel(workspace)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.send_time.text() == "08:00" and panel.retries.text() == "3"
    assert panel.cutoff.text() == "17:00" and panel.extra_dates.toPlainText() == ""
    try:
        panel.send_time.setText("7h30")
        assert run(panel.save()) is None and saved == []
        assert "is not a time of day" in panel.banner.detail.text()
        panel.send_time.setText("07:30")
        panel.cutoff.setText("07:00")
        assert run(panel.save()) is None
        assert "must come after the send time (07:30)" in panel.banner.detail.text()

        city, after = _business_days(brasilia_today(workspace.clock), 2)
        panel.cutoff.setText("16:00")
        panel.retries.setText("5")
        panel.tolerance.setText("2,50")
        panel.extra_dates.setPlainText(format_date(city))
        qtbot.mouseClick(panel.save_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: panel.task is not None and panel.task.done())
        profile = panel.task.result()
        assert profile is not None and saved and not panel.banner.isVisible()
        assert profile.schedule.send_time == dt.time(7, 30)
        assert store.load(original.name).schedule == profile.schedule  # in the file
        assert workspace.schedule.settings.funds_retries == 5
        assert workspace.engine.send_time == dt.time(7, 30)
        assert not workspace.schedule.settings.calendar.is_business_day(city)
        rolled = workspace.schedule.pay_on(city)
        assert rolled.date == after and rolled.reason.code == "pay_date.extra"
        batch = run(
            workspace.payouts.parse_batch_csv(
                f"chave;valor;data_pagamento\na@empresa.com.br;1,00;{format_date(city)}\n"
            )
        )
        assert batch.rows[0].review.pay.date == after  # the CSV's dates roll over it too
        [audited] = run(workspace.ledger.audit.entries(action="profile.save", limit=1))
        assert audited.details["schedule"]["funds_retries"] == 5
    finally:
        run(workspace.save_schedule_settings(ScheduleProfile()))
        workspace.profile_saver = None
