"""In pt_BR, what the team database keeps as fixed keys reaches a person as words (issue 33):
why an approval is void, an intent ``treasury-admin remove-user`` withdrew, the team
database's refusals in the approval dialog, and the policy an administrator set in the audit
log viewer."""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt

from tests.ui.test_approvals_ui import NOW, StandInDesk, entry
from tests.ui.test_audit_panel import _shown
from treasury_app.app import install_translator
from treasury_app.domain.errors import Reason
from treasury_app.ledger import open_ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.ledger.team import codes_schema
from treasury_app.ledger.team.approvals import Approval
from treasury_app.ledger.team.store import ApprovalRefused, ReceiptRefused
from treasury_app.services.approvals import ApprovalDetail
from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog, refusal_text, refusal_title
from treasury_app.ui.models.approvals_model import ApprovalsModel, Column
from treasury_app.ui.models.payments_model import PaymentsModel
from treasury_app.ui.widgets.audit_panel import AuditPanel

REMOVED_ERROR = codes_schema.coded(codes_schema.REMOVED_WITHDRAWN, by="postgres", login="ana")
"""The error ``treasury-admin remove-user --withdraw-waiting`` gives what it withdraws."""


def test_void_reasons_and_an_administrators_withdrawal_in_the_approval_dialog(
    qtbot: Any, qapp: Any, restore_translation: None
) -> None:
    assert install_translator(qapp, "pt_BR") == "pt_BR"
    waiting = entry(7, approval="WAITING", approvals_needed=2, approvals_given=1)
    at = "2026-11-20T13:00:00.000Z"
    approvals = [
        Approval(7, "bruno", "h", at, None),
        Approval(7, "carla", "h", at, codes_schema.VOID_EXPIRED),
        Approval(7, "dora", "h", at, codes_schema.VOID_CONTENT_CHANGED),
        Approval(7, "eva", "h", at, codes_schema.VOID_PERSON_REMOVED),
    ]
    detail = ApprovalDetail(
        entry=waiting,
        approvals=approvals,
        policy=None,
        eligible=[],
        recent_same_payee=[],
        request={"pixKey": waiting.payee_detail},
    )
    dialog = ApprovalDialog(StandInDesk([]), detail)  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    given = dialog.fields["given"].text().splitlines()
    assert [line.split(" — ")[-1] for line in given[1:]] == [
        "anulada: a aprovação expirou",
        "anulada: o valor ou a descrição mudou",
        "anulada: o aprovador foi removido da equipe",
    ]
    assert not any(key in dialog.fields["given"].text() for key in codes_schema.VOID_REASONS)

    withdrawn = entry(
        8,
        state=EntryState.REJECTED,
        final=True,
        approval="WITHDRAWN",
        approvals_needed=1,
        decided_by="postgres",
        decision_reason=codes_schema.VOID_PERSON_REMOVED,
        error=REMOVED_ERROR,
    )
    ended = ApprovalDialog(  # type: ignore[arg-type]
        StandInDesk([]), ApprovalDetail(withdrawn, [], None, [], [], {})
    )
    qtbot.addWidget(ended)
    assert ended.state_text() == "Retirado: quem o preparou foi removido da equipe"
    approvals_model = ApprovalsModel(lambda: NOW)
    assert approvals_model.role_data(withdrawn, Column.STATE, Qt.ItemDataRole.ToolTipRole) == (
        "quem o preparou foi removido da equipe"
    )
    payments = PaymentsModel(None)  # type: ignore[arg-type]  # reads nothing here
    tooltip = payments.role_data(withdrawn, payments.status_column, Qt.ItemDataRole.ToolTipRole)
    assert tooltip == "quem o preparou foi removido da equipe"


def test_a_refusal_of_the_team_database_in_the_approval_dialog(
    qapp: Any, restore_translation: None
) -> None:
    assert install_translator(qapp, "pt_BR") == "pt_BR"
    over = ApprovalRefused(
        "R$ 800,00 is over carla's limit (R$ 500,00 per payment, no limit per day, R$ 0,00"
        " approved today): it takes the approval of bruno",
        reason=Reason(
            "team.over_limit",
            {
                "amount": Decimal("800.00"),
                "payment_limit": Decimal("500.00"),
                "daily_limit": None,
                "approved_today": Decimal("0"),
                "others": None,
            },
        ),
    )
    assert refusal_title(over) == "Recusado pelo banco de dados da equipe"
    assert refusal_text(over) == (
        "R$ 800,00 está acima do seu limite de aprovação (R$ 500,00 por pagamento, sem limite "
        "por dia, R$ 0,00 aprovados hoje): é preciso a aprovação de um aprovador com limite "
        "maior."
    )
    not_waiting = ApprovalRefused(
        "entry 7 is no longer waiting for approval (rejected)",
        reason=Reason("team.not_waiting", {"entry": 7, "state": "REJECTED"}),
    )
    assert refusal_text(not_waiting) == (
        "Este pagamento não está mais aguardando aprovação (rejeitado)."
    )
    unknown = ApprovalRefused("something new", reason=Reason("team.something_new"))
    assert refusal_text(unknown) == "Isto não é aceito. Confira, por favor."
    receipt = ReceiptRefused("the receipt of PIX E1 is not the one of entry 7")
    assert refusal_text(receipt) == "Este comprovante não pode ser guardado com este pagamento."


def test_the_policy_an_administrator_set_reads_as_words_in_the_audit_log(
    qtbot: Any, run: Any, tmp_path: Any, qapp: Any, restore_translation: None
) -> None:
    assert install_translator(qapp, "pt_BR") == "pt_BR"
    ledger = open_ledger(tmp_path / "audit.sqlite3", profile="p", user="postgres")
    tag = secrets.token_hex(3)

    async def record() -> None:
        await ledger.audit.record("admin.policy", "ok", reference="policy 3")
        await ledger.audit.record("admin.policy_forced", "unsatisfiable", reference="policy 4")
        await ledger.audit.record("receipt.save", "ok", reference=f"policy {tag}")

    run(record())
    panel = AuditPanel(ledger)
    qtbot.addWidget(panel)
    _shown(qtbot, panel)
    references = [panel.table.item(row, 4).text() for row in range(panel.table.rowCount())]
    assert references == [f"policy {tag}", "Política 4", "Política 3"]  # newest first
    stored = run(ledger.audit.search(limit=10))
    assert {row.reference for row in stored} == {"policy 3", "policy 4", f"policy {tag}"}
    path = tmp_path / "auditoria.csv"
    assert run(panel.export_csv(path)) == 3
    assert "Política 3" in path.read_text("utf-8-sig")
    panel.shutdown()
    run(ledger.close())
