"""The Pix payments list against the app's own sandbox bank: payments sent through the payout
service appear at once and follow the bank live (no reload), the detail shows ids and history,
the receipt opens, a held payment is approved through the sandbox-only buttons, a refused one
shows why, an unknown outcome says it is being checked, and the filters narrow the list."""

from __future__ import annotations

import dataclasses
import datetime as dt
import unicodedata
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.waiting import qt_wait_until
from treasury_app.api.accounts.models import PaymentFlow
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.models.payments_model import Column, StatusGroup
from treasury_app.ui.widgets.payments_list import PaymentsList

KEY = "fornecedor@example.com"
NOT_IN_DICT = "00000000-0000-0000-0000-000000000000"
CHECKING = "UNKNOWN — checking with the bank"


@pytest.fixture
def listing(qtbot, run, open_workspace):
    workspace = open_workspace()
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    qtbot.waitExposed(widget)
    _read(qtbot, widget.refresh_task)  # the list, read in the background
    yield widget, workspace
    widget.shutdown()
    for task in (widget.receipt_task, widget.sandbox_task):
        if task is not None:
            qt_wait_until(qtbot, task.done, "task done")
    if widget.receipt_viewer is not None:
        widget.receipt_viewer.close()


def _status(widget: PaymentsList, entry_id: int) -> str:
    row = widget.proxy.row_of(entry_id)
    assert row is not None, f"entry {entry_id} not listed"
    return widget.proxy.index(row, Column.STATUS).data()


def _read(qtbot, task) -> None:
    """Wait for a read the list started in the background, and check that it was shown."""
    assert task is not None
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() is True


def _refresh(qtbot, widget: PaymentsList) -> None:
    _read(qtbot, widget.refresh())


def _history(qtbot, widget: PaymentsList) -> list[tuple[str, str]]:
    """The selected payment's history (state, bank status), once read."""
    _read(qtbot, widget.history_task)
    return [
        (widget.history.topLevelItem(i).text(1), widget.history.topLevelItem(i).text(2))
        for i in range(widget.history.topLevelItemCount())
    ]


def _advance(run, workspace, seconds: float) -> None:
    http = workspace.session.accounts.transport.http
    run(http.post("/sandbox/clock", json={"advance": seconds})).raise_for_status()


def test_a_payment_is_followed_live_to_its_receipt(qtbot, run, listing, monkeypatch) -> None:
    widget, workspace = listing
    reloads = []
    original_reload = widget.model.reload
    monkeypatch.setattr(widget.model, "reload", lambda: (reloads.append(1), original_reload()))
    review = run(workspace.payouts.prepare_key(KEY, Decimal("12.34"), description="Nota 123"))
    entry = run(workspace.payouts.send(review))

    assert widget.proxy.row_of(entry.id) == 0  # newest first, there without a reload
    row = widget.proxy.index(0, 0).row()
    # The bank named the key's owner in its answer: shown beside the key.
    assert entry.creditor_name
    assert widget.proxy.index(row, Column.PAYEE).data() == f"{entry.creditor_name} ({KEY})"
    assert widget.proxy.index(row, Column.KIND).data() == "Key"
    amount = widget.proxy.index(row, Column.AMOUNT)
    assert amount.data() == format_brl(Decimal("12.34"))
    assert amount.data(Qt.ItemDataRole.TextAlignmentRole) & Qt.AlignmentFlag.AlignRight
    assert _status(widget, entry.id) == "Queued"

    assert widget.select_entry(entry.id)
    assert not widget.receipt_button.isEnabled()
    assert not widget.approve_button.isVisible()
    assert widget.details["end_to_end_id"].text() == entry.end_to_end_id
    assert widget.details["idempotency_key"].text() == review.idempotency_key
    assert widget.details["destination"].text() == KEY
    assert widget.details["description"].text() == "Nota 123"

    _advance(run, workspace, 3.5)
    run(workspace.tracker.poll_once())
    assert _status(widget, entry.id) == "Settled"
    assert reloads == []  # live, through the tracker's notifications
    assert widget.selected_entry().id == entry.id  # the selection survived the update
    assert _history(qtbot, widget) == [
        ("Prepared", ""),
        ("Sending", ""),
        ("Accepted", "Queued"),
        ("Accepted", "Settled"),
    ]

    assert widget.receipt_button.isEnabled()
    qtbot.mouseClick(widget.receipt_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, widget.receipt_task.done, "widget.receipt_task done")
    viewer = widget.receipt_task.result()
    assert viewer is not None, widget.banner.detail.text()
    assert viewer is widget.receipt_viewer and viewer.isVisible()
    assert viewer.page_count() >= 1
    # The file name carries the name the bank gave, not the key.
    settled = run(workspace.ledger.journal.get(entry.id))
    slug = "-".join(
        unicodedata.normalize("NFKD", settled.creditor_name)
        .encode("ascii", "ignore")
        .decode()
        .lower()
        .split()
    )
    assert viewer.suggested_name.startswith("comprovante-pix-")
    assert f"-{slug}-R$12,34.pdf" in viewer.suggested_name
    assert KEY.split("@")[0] not in viewer.suggested_name


def test_a_held_payment_is_approved_in_the_sandbox(qtbot, run, listing) -> None:
    widget, workspace = listing
    review = run(
        workspace.payouts.prepare_key(KEY, Decimal("7.50"), flow=PaymentFlow.APPROVAL_REQUIRED)
    )
    entry = run(workspace.payouts.send(review))
    assert _status(widget, entry.id) == "Waiting for approval"
    widget.select_entry(entry.id)
    assert widget.details["flow"].text() == "Held for approval"
    assert widget.approve_button.isVisible() and widget.reject_button.isVisible()
    assert "sandbox" in widget.approve_button.text().lower()
    assert "sandbox" in widget.reject_button.text().lower()
    assert not widget.receipt_button.isEnabled()

    qtbot.mouseClick(widget.approve_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, widget.sandbox_task.done, "widget.sandbox_task done")
    assert widget.sandbox_task.result() is True, widget.banner.detail.text()
    assert _status(widget, entry.id) in ("Queued", "Processing")
    assert not widget.approve_button.isVisible()

    _advance(run, workspace, 3.5)
    run(workspace.tracker.poll_once())
    assert _status(widget, entry.id) == "Settled"


def test_a_refused_payment_shows_why(run, listing) -> None:
    widget, workspace = listing
    entry = run(workspace.payouts.send(run(workspace.payouts.prepare_key(NOT_IN_DICT, "3,00"))))
    assert entry.state == EntryState.REJECTED and entry.error
    assert _status(widget, entry.id) == "Rejected"
    row = widget.proxy.row_of(entry.id)
    why = "The bank refused it: Chave Pix não encontrada no DICT."  # no status, no API path
    assert "/api/v2/" in entry.error  # the journal keeps the whole message
    assert widget.proxy.index(row, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole) == why
    widget.select_entry(entry.id)
    assert widget.details["error"].text() == why
    assert not widget.receipt_button.isEnabled()
    assert not widget.approve_button.isVisible()


def test_an_unknown_outcome_is_being_checked(qtbot, run, listing) -> None:
    widget, workspace = listing
    journal = workspace.ledger.journal
    review = run(workspace.payouts.prepare_key(KEY, Decimal("4.56")))
    entry = run(journal.create(review.new_entry()))
    run(journal.update(entry.id, EntryState.SENT, note="sending"))
    run(journal.update(entry.id, EntryState.UNKNOWN, error="no answer", note="no answer"))
    _refresh(qtbot, widget)  # the journal was written behind the engine's back: no notification
    assert _status(widget, entry.id) == CHECKING
    widget.select_entry(entry.id)
    # The transport's own text ("no answer") is said in the person's words, never as it is.
    assert widget.details["error"].text() == (
        "No answer came from the bank: the payment is looked up by its key before anything is "
        "sent again."
    )
    assert [state for state, _bank in _history(qtbot, widget)][:3] == [
        "Prepared",
        "Sending",
        "Not confirmed",
    ]

    run(workspace.tracker.poll_once())  # asks the bank by key, then sends with the same key
    assert _status(widget, entry.id) in ("Queued", "Processing", "Settled")
    assert widget.selected_entry().id == entry.id


def test_filters_by_status_group_and_date(run, listing) -> None:
    widget, workspace = listing
    refused = run(workspace.payouts.send(run(workspace.payouts.prepare_key(NOT_IN_DICT, "2,00"))))
    queued = run(workspace.payouts.send(run(workspace.payouts.prepare_key(KEY, "2,00"))))
    every = widget.proxy.rowCount()
    assert every == widget.model.rowCount()

    def listed(group: StatusGroup) -> set[int]:
        widget.set_status_group(group)
        return {widget.proxy.entry(row).id for row in range(widget.proxy.rowCount())}

    assert refused.id in listed(StatusGroup.FAILED) and queued.id not in listed(StatusGroup.FAILED)
    assert queued.id in listed(StatusGroup.IN_PROGRESS)
    assert refused.id not in listed(StatusGroup.IN_PROGRESS)
    assert {refused.id, queued.id}.isdisjoint(listed(StatusGroup.SETTLED))
    settled = {
        widget.proxy.index(row, Column.STATUS).data() for row in range(widget.proxy.rowCount())
    }
    assert settled <= {"Settled", "Paid", "Refunded", "Partly refunded"}

    widget.set_status_group(StatusGroup.ALL)
    assert widget.proxy.rowCount() == every
    widget.date_check.setChecked(True)  # the last 30 days, today included
    assert widget.proxy.rowCount() == every
    tomorrow = widget.end_edit.date().addDays(1)
    widget.start_edit.setDate(tomorrow)
    widget.end_edit.setDate(tomorrow.addDays(1))
    assert widget.proxy.rowCount() == 0
    widget.date_check.setChecked(False)
    assert widget.proxy.rowCount() == every

    widget.proxy.set_date_range(dt.date(2000, 1, 1), dt.date(2000, 1, 2))
    assert widget.proxy.rowCount() == 0
    widget.proxy.set_date_range(None, None)
    assert widget.proxy.rowCount() == every


def test_a_held_payment_rejected_in_the_sandbox_fails(qtbot, run, listing) -> None:
    widget, workspace = listing
    review = run(workspace.payouts.prepare_key(KEY, "5,00", flow=PaymentFlow.APPROVAL_REQUIRED))
    entry = run(workspace.payouts.send(review))
    widget.select_entry(entry.id)
    widget.is_sandbox = False  # a production profile: no console buttons
    _refresh(qtbot, widget)
    assert not widget.approve_button.isVisible() and not widget.reject_button.isVisible()
    widget.is_sandbox = True
    _refresh(qtbot, widget)
    assert widget.reject_button.isVisible()

    qtbot.mouseClick(widget.reject_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, widget.sandbox_task.done, "widget.sandbox_task done")
    assert widget.sandbox_task.result() is True, widget.banner.detail.text()
    assert _status(widget, entry.id) == "Cancelled"
    widget.set_status_group(StatusGroup.FAILED)
    assert widget.proxy.row_of(entry.id) is not None


def test_an_outcome_the_bank_overruled_says_whose_it_was(qtbot, run, listing) -> None:
    """On a team database the bank's word (its notification, another desktop's lookup) may
    overrule an outcome someone recorded: the detail says whose, and what they recorded."""
    widget, workspace = listing
    journal = workspace.ledger.journal
    review = run(workspace.payouts.prepare_key(KEY, Decimal("7.89")))
    entry = run(journal.create(review.new_entry()))
    run(journal.update(entry.id, EntryState.SENT, note="sending"))
    entry = run(journal.update(entry.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True))
    # what a team database's row carries after the receiver's notification overruled max
    overruled = dataclasses.replace(
        entry,
        outcome_by="receiver",
        outcome_word="notice",
        confirmed_by="receiver",
        overruled_by="max",
        overruled_state="ACCEPTED",
        overruled_status="CANCELED",
        overruled_at="2026-11-18T13:00:05.000Z",
    )
    workspace.engine.announce(overruled)
    qt_wait_until(qtbot, lambda: widget.proxy.row_of(entry.id) is not None, "the row listed")
    widget.select_entry(entry.id)
    assert widget.details["bank_word"].text() == (
        "The bank says otherwise than max recorded (Cancelled)"
    )
    workspace.engine.announce(dataclasses.replace(overruled, overruled_at=None))
    widget.select_entry(entry.id)
    assert widget.details["bank_word"].text() == ""
