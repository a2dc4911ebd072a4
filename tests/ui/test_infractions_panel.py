"""The infractions page against the app's own sandbox bank (seeded: two open, one closed): the
list and its filter, the detail, a defense submitted through the form and followed, and a
closed infraction refused before anything is sent."""

from __future__ import annotations

import asyncio
import datetime as dt
import sys
import uuid
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from tests.waiting import qt_turn, qt_wait_until
from treasury_app.api.accounts.models import Infraction, InfractionStatus
from treasury_app.domain.money import format_brl
from treasury_app.services.infractions import MAX_DEFENSE_LENGTH
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.defense_dialog import DefenseDialog, attachment_names
from treasury_app.ui.models.infractions_model import (
    Column,
    InfractionsModel,
    Urgency,
    urgency,
)
from treasury_app.ui.widgets.infractions_panel import InfractionsPanel

NOW = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)


def _panel(qtbot: Any, run: Any, workspace: Any) -> InfractionsPanel:
    panel = InfractionsPanel(workspace)
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    run(panel.reload())
    return panel


def _select(qtbot: Any, panel: InfractionsPanel, infraction: Infraction) -> None:
    assert panel.select(infraction.id)
    assert panel.detail_task is not None
    qt_wait_until(qtbot, panel.detail_task.done, "panel.detail_task done")
    assert panel.current is not None and panel.current.id == infraction.id


def _items(panel: InfractionsPanel) -> list[Infraction]:
    return [panel.model.infraction(row) for row in range(panel.model.rowCount())]


def test_defense_through_the_form(qtbot: Any, run: Any, open_workspace: Any) -> None:
    workspace = open_workspace()
    panel = _panel(qtbot, run, workspace)
    items = _items(panel)
    assert len(items) >= 3
    service = workspace.infractions
    target = next((i for i in items if service.defense_problem(i) is None), None)
    assert target is not None, "no seeded infraction takes a defense (sandbox clock moved days?)"

    panel.status_combo.setCurrentIndex(panel.status_combo.findData("CLOSED"))
    shown = [panel.proxy.infraction(r) for r in range(panel.proxy.rowCount())]
    assert shown and all(i.status == InfractionStatus.CLOSED for i in shown)
    panel.status_combo.setCurrentIndex(0)
    assert panel.proxy.rowCount() == len(items)

    _select(qtbot, panel, target)
    assert panel.details["end_to_end_id"].text() == target.end_to_end_id
    assert panel.details["amount"].text() == format_brl(target.amount)
    assert target.counterparty is not None
    assert panel.details["counterparty"].text().startswith(target.counterparty.name or "")
    # The bank's codes in words (issue 33): "Refund request", never REFUND_REQUEST.
    assert panel.details["reason"].text() == code_word(Family.INFRACTION_REASON, target.reason)
    assert panel.details["reason"].text() in ("Fraud", "Refund request")
    assert panel.details["situation"].text() in ("Suspected fraud", "Refund requested")
    assert panel.details["reported_by"].text() == "The payer's bank"
    assert panel.defend_button.isEnabled() and not panel.defend_note.isVisible()
    before = panel.defenses_tree.topLevelItemCount()

    qtbot.mouseClick(panel.defend_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot, lambda: panel.dialog is not None and panel.dialog.isVisible(), "panel.dialog shown"
    )
    dialog = panel.dialog
    assert dialog is not None and not dialog.submit_button.isEnabled()  # nothing written yet
    dialog.description_edit.setPlainText("x" * (MAX_DEFENSE_LENGTH + 1))
    assert dialog.counter.text() == f"{MAX_DEFENSE_LENGTH + 1} / {MAX_DEFENSE_LENGTH} characters"
    assert not dialog.submit_button.isEnabled()
    dialog.description_edit.clear()
    text = f"Pagamento autorizado pelo cliente, contrato anexo ({uuid.uuid4().hex[:6]})."
    qtbot.keyClicks(dialog.description_edit, text)
    assert dialog.counter.text() == f"{len(text)} / {MAX_DEFENSE_LENGTH} characters"
    dialog.attachments_edit.setPlainText("contrato.pdf\n\n nota-fiscal.pdf ")
    qtbot.mouseClick(dialog.submit_button, Qt.MouseButton.LeftButton)
    assert panel.defend_task is not None
    qt_wait_until(qtbot, panel.defend_task.done, "panel.defend_task done")
    defense = panel.defend_task.result()
    assert defense is not None, dialog.banner.detail.text()
    assert defense.description == text

    # Followed: the defenses were read again, and the infraction's new status is shown.
    tree = panel.defenses_tree
    assert tree.topLevelItemCount() == before + 1
    rows = [
        [tree.topLevelItem(i).text(c) for c in range(4)] for i in range(tree.topLevelItemCount())
    ]
    assert [text, "contrato.pdf, nota-fiscal.pdf"] in [[r[2], r[3]] for r in rows]
    assert "Submitted" in [r[1] for r in rows if r[2] == text]
    assert panel.details["status"].text() == "Under review"
    row = panel.model.row_of(target.id)
    assert row is not None
    assert panel.model.index(row, Column.STATUS).data() == "Under review"
    assert panel.defend_button.isEnabled()  # under review still takes further defenses
    entry = run(workspace.ledger.audit.entries(action="infraction.defense", reference=target.id))[0]
    assert entry.outcome == "ok" and entry.details["description"] == text


def test_closing_while_the_defense_is_written_waits_for_it(
    qtbot: Any, run: Any, open_workspace: Any, monkeypatch: Any
) -> None:
    workspace = open_workspace()
    panel = _panel(qtbot, run, workspace)
    target = next(i for i in _items(panel) if workspace.infractions.defense_problem(i) is None)
    _select(qtbot, panel, target)
    before = panel.defenses_tree.topLevelItemCount()
    errors: list[Any] = []
    monkeypatch.setattr(sys, "excepthook", lambda *error: errors.append(error))
    http = workspace.session.accounts.transport.http
    slow = {
        "path": f"/api/v2/infractions/{target.id}/defenses",
        "method": "POST",
        "api": "accounts",
        "latency_ms": 1500,
        "times": 1,
    }
    try:
        qtbot.mouseClick(panel.defend_button, Qt.MouseButton.LeftButton)
        qt_wait_until(
            qtbot,
            lambda: panel.dialog is not None and panel.dialog.isVisible(),
            "panel.dialog shown",
        )
        dialog = panel.dialog
        assert dialog is not None and panel.defend_task is not None
        text = f"Defesa enviada uma vez so ({uuid.uuid4().hex[:6]})."
        qtbot.keyClicks(dialog.description_edit, text)
        assert run(http.post("/sandbox/faults", json=slow)).is_success
        qtbot.mouseClick(dialog.submit_button, Qt.MouseButton.LeftButton)
        qt_wait_until(
            qtbot,
            lambda: dialog.task is not None and not dialog.submit_button.isEnabled(),
            "dialog.task is not None and not dialog.submit_button.isEnabled()",
        )
        cancel = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Cancel")
        qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        dialog.close()
        dialog.reject()
        qt_turn(qtbot)  # whatever those set off has run
        assert dialog.isVisible() and not panel.defend_task.done()  # the bank is answering
        qt_wait_until(qtbot, panel.defend_task.done, "panel.defend_task done")
        defense = panel.defend_task.result()
        assert defense is not None and defense.description == text, dialog.banner.detail.text()
        assert errors == []
    finally:
        run(http.delete("/sandbox/faults"))
    tree = panel.defenses_tree
    assert tree.topLevelItemCount() == before + 1  # read again: no reason to submit twice
    assert text in [tree.topLevelItem(i).text(2) for i in range(tree.topLevelItemCount())]


def test_a_closed_infraction_refuses_a_defense_locally(
    qtbot: Any, run: Any, open_workspace: Any, monkeypatch: Any
) -> None:
    workspace = open_workspace()
    panel = _panel(qtbot, run, workspace)
    closed = next(i for i in _items(panel) if i.status == InfractionStatus.CLOSED)
    _select(qtbot, panel, closed)
    assert closed.analysis_result == "REJECTED"
    assert panel.details["analysis_result"].text() == "Not upheld"
    assert not panel.defend_button.isEnabled()
    assert panel.defend_note.isVisible() and "closed" in panel.defend_note.text()

    calls: list[Any] = []

    async def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        raise AssertionError("nothing may be sent")

    monkeypatch.setattr(workspace.infractions, "submit_defense", spy)
    dialog = DefenseDialog(closed, workspace.infractions)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.problem_label.isVisible() and "closed" in dialog.problem_label.text()
    qtbot.keyClicks(dialog.description_edit, "Defesa fora de hora.")
    assert not dialog.submit_button.isEnabled()
    assert run(dialog.submit()) is None  # even if forced
    assert dialog.banner.isVisible() and "closed" in dialog.banner.detail.text()
    assert calls == [] and dialog.defense is None
    assert (
        run(workspace.ledger.audit.entries(action="infraction.defense", reference=closed.id)) == []
    )


def _infraction(status: str, deadline: dt.datetime | None) -> Infraction:
    return Infraction.model_validate(
        {
            "id": f"INF{uuid.uuid4().hex[:8]}",
            "status": status,
            "amount": "10.00",
            "defenseDeadline": deadline.isoformat() if deadline else None,
        }
    )


def test_deadlines_near_or_passed_are_highlighted(qtbot: Any) -> None:
    day = dt.timedelta(days=1)
    late = _infraction("OPEN", NOW - day)
    soon = _infraction("UNDER_REVIEW", NOW + day)
    calm = _infraction("OPEN", NOW + 5 * day)
    closed = _infraction("CLOSED", NOW - 30 * day)
    assert [urgency(i, NOW) for i in (late, soon, calm, closed)] == [
        Urgency.PASSED,
        Urgency.NEAR,
        Urgency.NONE,
        Urgency.NONE,
    ]
    model = InfractionsModel(lambda: NOW)
    model.set_infractions([late, soon, calm, closed])
    backgrounds = [
        model.index(r, Column.DEADLINE).data(Qt.ItemDataRole.BackgroundRole) for r in range(4)
    ]
    assert backgrounds[0] is not None and backgrounds[1] is not None
    assert backgrounds[0].color() != backgrounds[1].color()
    assert backgrounds[2] is None and backgrounds[3] is None
    assert model.index(0, Column.DEADLINE).data().endswith("(passed)")
    assert model.index(1, Column.DEADLINE).data().endswith("(soon)")
    assert model.index(0, Column.AMOUNT).data() == format_brl(late.amount)


def test_attachment_names() -> None:
    assert attachment_names(" a.pdf \n\n b.png\n") == ["a.pdf", "b.png"]
    assert asyncio.iscoroutinefunction(InfractionsPanel.reload)
