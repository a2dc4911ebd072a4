"""The UI test fixtures themselves: a workspace unlocked against the app's own sandbox."""

from __future__ import annotations


def test_open_workspace_reads_the_balance(open_workspace, run) -> None:
    workspace = open_workspace()
    balance = run(workspace.statement.balance())
    assert balance.available > 0
    assert workspace.session.profile.environment == "sandbox"
