"""A payee's history one click from every review (issue 36): their last payments (to any of
their registered keys and accounts, refused ones left out) and what was paid to them this
Brasília month, from the Pix review, a batch review's row and the approval dialog."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.services.test_payee_statement import paid_at
from tests.waiting import qt_wait_until
from treasury_app.api.accounts.models import PaymentFlow
from treasury_app.ledger import open_ledger
from treasury_app.ledger.journal import EntryKind, EntryState
from treasury_app.services.payees import PayeeService
from treasury_app.services.payouts import PayoutReview

KEY = "pix@papelaria.com.br"
OTHER_KEY = "+5511987654321"  # the same payee's other key
NOW = dt.datetime(2026, 12, 1, 2, 30, tzinfo=dt.UTC)  # still 30/11 in Brasília (UTC-3)


@pytest.fixture
def registry(run: Any, tmp_path: Path) -> Iterator[PayeeService]:
    ledger = open_ledger(tmp_path / "ledger.sqlite3", profile="test", user="ana")
    service = PayeeService(ledger, clock=lambda: NOW)
    payee = run(service.save_payee("Papelaria Central", "11.222.333/0001-81"))
    run(service.add(payee.id, service.key(KEY)))
    run(service.add(payee.id, service.key(OTHER_KEY)))
    paid_at(ledger, KEY, "1000.00", EntryState.ACCEPTED, "2026-11-03T12:00:00.000Z", "nota 1")
    paid_at(ledger, OTHER_KEY, "500.00", EntryState.ACCEPTED, "2026-11-20T12:00:00.000Z")
    paid_at(ledger, KEY, "250.00", EntryState.SENT, "2026-12-01T02:00:00.000Z")  # 30/11 23:00
    paid_at(ledger, KEY, "99.00", EntryState.REJECTED, "2026-11-21T12:00:00.000Z")
    paid_at(ledger, KEY, "70.00", EntryState.ACCEPTED, "2026-10-31T12:00:00.000Z")  # October
    paid_at(ledger, "someone@else.com", "5.00", EntryState.ACCEPTED, "2026-11-22T12:00:00.000Z")
    yield service
    ledger.close_now()


def test_the_history_reads_every_destination_of_the_payee(run: Any, registry: Any) -> None:
    found = run(registry.payments_to(OTHER_KEY))
    assert found.payee is not None and found.payee.name == "Papelaria Central"
    assert found.month == dt.date(2026, 11, 1)  # Brasília's month, not UTC's
    assert found.month_paid == Decimal("1500.00")
    assert found.month_on_its_way == Decimal("250.00")
    assert [e.amount for e in found.payments] == [
        Decimal("250.00"),
        Decimal("500.00"),
        Decimal("1000.00"),
        Decimal("70.00"),
    ]  # newest first, the refused one left out
    alone = run(registry.payments_to("someone@else.com"))
    assert alone.payee is None and alone.month_paid == Decimal("5.00")


def _opened(qtbot: Any, button: Any) -> Any:
    assert button is not None and button.isVisibleTo(button.window())
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    dialog = button.dialog
    assert dialog is not None
    qtbot.addWidget(dialog)
    qt_wait_until(qtbot, lambda: dialog.payments is not None, "the payee's payments")
    return dialog


def _assert_papelaria(dialog: Any) -> None:
    assert dialog.title.text() == "Papelaria Central — 11.222.333/0001-81"
    assert dialog.month.text() == "Since 01/11/2026: R$ 1.500,00 paid, R$ 250,00 on its way."
    assert dialog.model.rowCount() == 4
    first = [dialog.model.data(dialog.model.index(0, c), 0) for c in range(4)]
    assert first == ["30/11/2026 23:00", "R$ 250,00", KEY, "Sending"]


def test_from_the_pix_review(qtbot: Any, registry: PayeeService) -> None:
    from treasury_app.ui.dialogs.payout_review_dialog import PayoutReviewDialog

    review = PayoutReview(
        kind=EntryKind.PIX_KEY,
        amount=Decimal("10.00"),
        payee_name="",
        payee_document="",
        payee_detail=KEY,
        description="",
        payment_flow=PaymentFlow.INSTANT,
        request={"pixKey": KEY},
    )
    dialog = PayoutReviewDialog(review, payees=registry)
    qtbot.addWidget(dialog)
    dialog.show()
    _assert_papelaria(_opened(qtbot, dialog.history_button))


def test_from_the_approval_dialog(qtbot: Any, run: Any, registry: PayeeService) -> None:
    from tests.ui.test_approvals_ui import StandInDesk
    from treasury_app.services.approvals import ApprovalDetail
    from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog

    ledger = registry.ledger
    entry = paid_at(ledger, OTHER_KEY, "42.00", EntryState.PREPARED, "2026-10-01T12:00:00.000Z")  # type: ignore[arg-type]
    detail = ApprovalDetail(
        entry=entry,
        approvals=[],
        policy=None,
        eligible=["bruno"],
        recent_same_payee=[],
        request={"pixKey": OTHER_KEY},
    )
    dialog = ApprovalDialog(StandInDesk([]), detail, payees=registry)  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    dialog.show()
    history = _opened(qtbot, dialog.history_button)
    assert history.model.rowCount() == 5  # itself too (October: not this month's)
    assert history.month.text().startswith("Since 01/11/2026: R$ 1.500,00 paid")


def test_from_a_batch_reviews_row(qtbot: Any, run: Any, open_workspace: Any) -> None:
    from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog

    workspace = open_workspace()
    service = workspace.payees
    grafica = run(service.save_payee("Gráfica Expressa", "12.ABC.345/01DE-35"))
    key = f"historico-{uuid.uuid4().hex[:8]}@graficaexpressa.com.br"  # a ledger shared
    run(service.add(grafica.id, service.key(key)))
    dialog = PayoutBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    text = f"chave;valor;descricao\nninguem@example.com;5,00;nota 1\n{key};10,00;nota 2\n"
    assert run(dialog.load_text(text))
    assert dialog.history_button is not None
    assert dialog.history_button.open_history() is None  # no row chosen: nothing opens
    view = dialog.rows_view
    view.setCurrentIndex(view.model().index(1, 0))
    rect = view.visualRect(view.currentIndex())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    history = dialog.history_button.dialog
    assert history is not None
    qtbot.addWidget(history)
    qt_wait_until(qtbot, lambda: history.payments is not None, "the row's payee's payments")
    assert history.title.text() == "Gráfica Expressa — 12.ABC.345/01DE-35"
    assert history.last_title.text() == "Nothing was paid to them yet."
    assert history.model.rowCount() == 0
