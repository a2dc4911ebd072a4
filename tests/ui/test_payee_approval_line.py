"""The approval dialog says in one line why a payment to a destination added lately needs one
approval more (issue 36): the team database's own reason, read from its journal row."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.ledger.test_approvals_db import as_person, give_exactly
from tests.ledger.test_payee_registry import _prepare, _registered
from tests.ledger_backends import opened_ledger, team
from tests.ui.test_approvals_ui import StandInDesk
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.services.approvals import ApprovalDetail
from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog


@pytest.mark.usefixtures("team_databases")
def test_the_dialog_says_who_added_the_key_and_who_approved_it(
    qtbot: Any, run: Callable[..., Any], tmp_path: Path
) -> None:
    databases = team()
    give_exactly(databases, {"ana": (MAKER, APPROVER), "bruno": (APPROVER,), "max": (MAKER,)})
    name = databases.new_database(policy={})
    key = "pix@papelaria.com.br"
    _registered(databases, name, key)
    with as_person(databases, name, "max") as max_:
        row = _prepare(max_, "100.00", key, key)
    opened = opened_ledger("team", tmp_path, user="bruno", database=name)
    ledger = run(opened.__aenter__())
    try:
        entry = run(ledger.journal.get(row["id"]))
        assert entry.cooling is not None and entry.approvals_needed == 3
        detail = ApprovalDetail(
            entry=entry,
            approvals=[],
            policy=None,
            eligible=["bruno"],
            recent_same_payee=[],
            request={"pixKey": key},
        )
        dialog = ApprovalDialog(StandInDesk([]), detail)  # type: ignore[arg-type]
        qtbot.addWidget(dialog)
        dialog.show()
        assert dialog.cooling_note.isVisible()
        text = dialog.cooling_note.text()
        assert text.startswith("One approval more: Pix key added on ")
        assert text.endswith("by ana, approved by bruno.")
    finally:
        run(opened.__aexit__(None, None, None))
