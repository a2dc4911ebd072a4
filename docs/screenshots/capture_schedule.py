"""Screens of issue 35 (scheduled payments and the payables calendar) at 1366×768 with a title
bar and a taskbar's height taken off the screen, English and pt_BR, with the computer's zone
not Brasília's (run by hand, under Xvfb):

    TZ=UTC xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python \\
        docs/screenshots/capture_schedule.py [pt_BR]

(``SHOTS=series-end,calendar`` before it: only those screens saved.)

The sandbox's clock starts on Wednesday 18/11/2026, 10:00 in Brasília. What each shows
(``schedule-*-en.png`` and ``schedule-*-pt_BR.png``):

* ``review-rolled``: a Pix asked for Saturday 21/11, reviewed as Monday 23/11 with the reason;
* ``review-repeat``: a Pix repeated monthly on the last business day, six times;
* ``boleto-review``: a slip due on Saturday 28/11 paid "On its due date": Monday 30/11;
* ``boleto-review-date``: a slip due on Thursday 10/12 paid "On a date": Thursday 26/11;
* ``series-edit``: "Edit series…" of a Pix repeated monthly on the last business day (six
  times, from Monday 30/11), opened from the calendar's day list, its amount changed and
  reviewed;
* ``series-end``: "End series…" of that series, with a reason;
* ``calendar-warning``: the calendar with tomorrow's payments over the balance (red; the
  status bar's "Short on 19/11", from the business day before), and the rent series' (below)
  occurrences counted on their days, those past the 35 days journaled ahead as planned;
* ``calendar-day``: that day's list;
* ``calendar-planned``: the day of a planned occurrence of the rent series (31/12), selected:
  set apart, "Move…" and "Cancel payment…" off, its series' "Edit series…" and "End series…"
  on;
* ``held-banner``: the clock moved over a pay date with the payment unsent: "Was due on…"
  with Send now / Move to… / Cancel… on the Pix tab.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from capture_desk import pause, run_capture, unlocked_sandbox
from capture_words import TASKBAR, TITLE_BAR, type_into, wait_for
from capture_words import shot as take_shot

ONLY = frozenset(os.environ.get("SHOTS", "").split(",")) - {""}
"""``SHOTS=series-end,calendar``: only the screens whose names contain one of these are saved
(the others are still gone through: each screen sets up the next)."""


async def shot(name: str) -> None:
    if not ONLY or any(part in name for part in ONLY):
        await take_shot(name)


PIX_TAB, BOLETOS_TAB, CALENDAR_TAB = 1, 2, 5  # the main window's order, in any language
SATURDAY = dt.date(2026, 11, 21)
SLIP_SATURDAY = dt.date(2026, 11, 28)
SHORT_DAY = dt.date(2026, 11, 19)  # the next business day: the status bar warns today
LATE_DAY = dt.date(2026, 11, 19)
SERIES_START = dt.date(2026, 11, 30)
SLIP_LATER = dt.date(2026, 12, 10)
SLIP_PAY_DAY = dt.date(2026, 11, 26)
PLANNED_DAY = dt.date(2026, 12, 31)  # the rent series' second: past the 35 days, planned


async def pix_reviews(window: Any, suffix: str) -> None:
    from treasury_app.ui.widgets.date_edits import to_qdate
    from treasury_app.ui.widgets.repeat_edit import MONTHLY_LAST

    window.tabs.setCurrentIndex(PIX_TAB)
    tab = window.current_tab()
    tab.forms.setCurrentIndex(0)
    later, day = tab.pay_on["key"]
    later.setChecked(True)
    day.setDate(to_qdate(SATURDAY))
    await type_into(tab.key_edit.line_edit, "grafica@empresa.com.br")
    await type_into(tab.key_amount, "1.250,00")
    tab.key_description.setText("NF 4471 — impressos")
    tab.key_review_button.click()
    await wait_for(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    await pause(0.6)
    await shot(f"schedule-review-rolled{suffix}")
    tab.review_dialog.reject()
    await wait_for(lambda: tab.review_task is not None and tab.review_task.done())

    tab.repeats["key"].set_repeat(MONTHLY_LAST, times=6)
    day.setDate(to_qdate(dt.date(2026, 11, 30)))
    tab.key_description.setText("Aluguel da sala 12")
    tab.key_amount.setText("4.800,00")
    tab.key_review_button.click()
    await wait_for(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    await pause(0.6)
    await shot(f"schedule-review-repeat{suffix}")
    tab.review_dialog.reject()
    await wait_for(lambda: tab.review_task is not None and tab.review_task.done())
    tab.repeats["key"].set_repeat(0)
    later.setChecked(False)
    tab.clear_form(0)


async def boleto_review(window: Any, suffix: str) -> None:
    from treasury_app.domain import boleto
    from treasury_app.ui.tabs.billets_tab import PAY_ON_A_DATE, PAY_ON_DUE_DATE

    window.tabs.setCurrentIndex(BOLETOS_TAB)
    tab = window.current_tab()
    barcode = boleto.build_bank_barcode("341", Decimal("2380.40"), SLIP_SATURDAY, "7" * 25)
    line = boleto.parse(barcode, today=dt.date(2026, 11, 18)).digitable_line
    tab.set_pay_on(PAY_ON_DUE_DATE)
    await type_into(tab.code_edit, line)
    tab.lookup_button.click()
    await wait_for(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    await pause(0.6)
    await shot(f"schedule-boleto-review{suffix}")
    tab.review_dialog.reject()
    await wait_for(lambda: tab.lookup_task is not None and tab.lookup_task.done())
    tab.code_edit.clear()

    barcode = boleto.build_bank_barcode("237", Decimal("915.70"), SLIP_LATER, "3" * 25)
    line = boleto.parse(barcode, today=dt.date(2026, 11, 18)).digitable_line
    await type_into(tab.code_edit, line)
    tab.set_pay_on(PAY_ON_A_DATE, SLIP_PAY_DAY)  # after the line: it suggests its due date
    tab.lookup_button.click()
    await wait_for(lambda: tab.review_dialog is not None and tab.review_dialog.isVisible())
    await pause(0.6)
    await shot(f"schedule-boleto-review-date{suffix}")
    tab.review_dialog.reject()
    await wait_for(lambda: tab.lookup_task is not None and tab.lookup_task.done())
    tab.code_edit.clear()


async def schedule_over_balance(workspace: Any) -> list[Any]:
    """Payments for SHORT_DAY totalling more than the balance (returned), and a few ordinary
    ones."""
    schedule, payouts = workspace.schedule, workspace.payouts
    balance = Decimal((await workspace.statement.balance()).available)
    left = balance + Decimal("18000.00")
    n = 0
    short = []
    while left > 0:
        amount = min(left, Decimal("950000.00"))
        review = await payouts.prepare_key(
            "folha@empresa.com.br", str(amount), description=f"Folha, parte {n + 1}"
        )
        short.append(await payouts.send(schedule.schedule_payout(review, SHORT_DAY)))
        left -= amount
        n += 1
    for key, amount, day in (
        ("grafica@empresa.com.br", "1250.00", dt.date(2026, 11, 23)),
        ("frete@empresa.com.br", "860.00", dt.date(2026, 11, 26)),
        ("energia@empresa.com.br", "2140.90", dt.date(2026, 12, 1)),
    ):
        review = await payouts.prepare_key(key, amount)
        await payouts.send(schedule.schedule_payout(review, day))
    return short


async def rent_series(workspace: Any) -> list[Any]:
    """A monthly series (last business day, six times from 30/11): its first occurrence
    journaled (within 35 days), the next ones planned on the calendar."""
    from treasury_app.domain.schedule import Frequency, SeriesRule

    review = await workspace.payouts.prepare_key(
        "imobiliaria@empresa.com.br", "4800.00", description="Aluguel da sala 12"
    )
    rule = SeriesRule(Frequency.MONTHLY, SERIES_START, last_business_day=True, count=6)
    _series_id, entries = await workspace.schedule.create_series(review, rule)
    return list(entries)


async def calendar_screens(window: Any, suffix: str) -> None:
    window.tabs.setCurrentIndex(CALENDAR_TAB)
    tab = window.current_tab()
    await tab.reload()
    badge = window.day_warning_badge
    await badge.refresh()
    await pause(1.0)
    await shot(f"schedule-calendar-warning{suffix}")
    tab.select_day(SHORT_DAY)
    await pause(0.8)
    await shot(f"schedule-calendar-day{suffix}")
    tab.select_day(PLANNED_DAY)
    [planned] = [o for o in tab.selected_day().outflows if o.planned]
    tab.select_item(f"out:{planned.entry_id}")
    await pause(0.8)
    await shot(f"schedule-calendar-planned{suffix}")


async def series_screens(window: Any, suffix: str, entries: list[Any]) -> None:
    """The rent series' "Edit series…" (amount changed, reviewed) and "End series…" from the
    calendar's day list."""
    window.tabs.setCurrentIndex(CALENDAR_TAB)
    tab = window.current_tab()
    await tab.reload()
    tab.select_day(SERIES_START)
    tab.select_item(f"out:{entries[0].id}")
    await pause(0.5)

    tab.series_edit_button.click()
    await wait_for(lambda: tab.series_dialog is not None and tab.series_dialog.isVisible())
    dialog = tab.series_dialog
    dialog.amount.setText("5.100,00")
    dialog.review_button.click()
    await wait_for(lambda: dialog.change is not None and dialog.task.done())
    await pause(0.6)
    await shot(f"schedule-series-edit{suffix}")
    dialog.reject()
    await wait_for(lambda: tab.series_dialog is None)

    tab.series_end_button.click()
    await wait_for(lambda: tab.series_dialog is not None and tab.series_dialog.isVisible())
    dialog = tab.series_dialog
    await type_into(dialog.reason, "Contrato encerrado em dezembro")
    await pause(0.6)
    await shot(f"schedule-series-end{suffix}")
    dialog.reject()
    await wait_for(lambda: tab.series_dialog is None)


async def held_banner(window: Any, suffix: str, short: list[Any]) -> None:
    """A payment for LATE_DAY, then the clock moved over that whole day at once (as if the
    app had been closed): held at the next pass, on the Pix tab's banner (the day's payments
    over the balance cancelled first)."""
    workspace = window.workspace
    for entry in short:
        await workspace.schedule.cancel(entry.id, "Folha adiada")
    review = await workspace.payouts.prepare_key(
        "manutencao@empresa.com.br", "640.00", description="Manutenção do ar-condicionado"
    )
    await workspace.payouts.send(workspace.schedule.schedule_payout(review, LATE_DAY))
    # 18/11 10:00 → 20/11 09:00 Brasília in one move: 19/11 passed with nothing sent.
    await workspace.sandbox.advance_clock(47 * 3600)
    await workspace.sync_clock()
    window.tabs.setCurrentIndex(PIX_TAB)
    tab = window.current_tab()
    task = tab.held_schedule.refresh()
    await wait_for(lambda: task is not None and task.done())
    await window.day_warning_badge.refresh()  # the day over the balance was cancelled
    await pause(1.0)
    await shot(f"schedule-held-banner{suffix}")


async def main(lang: str | None) -> None:
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QApplication

    from treasury_app.ui import screen_fit

    suffix = f"-{lang or 'en'}"
    screen_fit.area_override = QRect(0, 0, 1366, 768 - TASKBAR)
    screen_fit.install(QApplication.instance())
    desk = await unlocked_sandbox("treasury-schedule-")
    window, run = desk.window, desk.run
    window.move(0, TITLE_BAR)
    window.resize(1366, 768 - TITLE_BAR - TASKBAR)
    await pause(3.0)
    await pix_reviews(window, suffix)
    await boleto_review(window, suffix)
    short = await schedule_over_balance(window.workspace)
    rent = await rent_series(window.workspace)
    await calendar_screens(window, suffix)
    await series_screens(window, suffix, rent)
    await held_banner(window, suffix, short)
    window.quit_requested.emit()
    await run


if __name__ == "__main__":
    run_capture(main)
