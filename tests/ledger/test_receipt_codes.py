"""A receipt the team database keeps that is damaged or gone is a rule's code (issue 33), as
on the file ledger (tests/ledger/test_ledger.py): ``receipt.damaged`` and ``receipt.missing``
naming the receipt by the start of its digest, never an English sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ledger.test_approvals_db import superuser
from tests.ledger.test_ledger import PDF, settled
from tests.ledger_backends import TeamDatabases, opened_ledger
from treasury_app.ledger.receipts import ReceiptError
from treasury_app.ui.rule_words import RULES

pytestmark = pytest.mark.usefixtures("team_databases")


def tamper(team: TeamDatabases, database: str, statement: str, digest: str) -> None:
    """What an insider with the server's superuser could do to a stored receipt file (the
    triggers and foreign keys that keep it off)."""
    with superuser(team, database) as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute(statement, (digest,))


async def test_a_damaged_or_missing_team_receipt_is_a_rule_code(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with opened_ledger("team", tmp_path, database=database) as ledger:
        entry = await settled(ledger, "E" + "7" * 31)
        kept = await ledger.receipts.save(PDF, kind="PIX", bank_id="E" + "7" * 31, entry_id=entry)
        assert await ledger.receipts.read(kept) == PDF
        with pytest.raises(ReceiptError) as not_pdf:
            await ledger.receipts.save(
                b"<html>", kind="PIX", bank_id="E" + "7" * 31, entry_id=entry
            )
        assert (not_pdf.value.code, dict(not_pdf.value.params)) == ("receipt.not_pdf", {})

        with superuser(team_databases, database) as conn:  # the check that keeps it off
            conn.execute("ALTER TABLE treasury.receipt_files DROP CONSTRAINT receipt_files_check")
        update = "UPDATE treasury.receipt_files SET pdf = pdf || 'x'::bytea WHERE sha256 = %s"
        tamper(team_databases, database, update, kept.sha256)
        with pytest.raises(ReceiptError) as damaged:
            await ledger.receipts.read(kept)
        assert (damaged.value.code, dict(damaged.value.params)) == (
            "receipt.damaged",
            {"receipt": kept.sha256[:12]},
        )

        delete = "DELETE FROM treasury.receipt_files WHERE sha256 = %s"
        tamper(team_databases, database, delete, kept.sha256)
        with pytest.raises(ReceiptError) as missing:
            await ledger.receipts.read(kept)
        assert (missing.value.code, dict(missing.value.params)) == (
            "receipt.missing",
            {"receipt": kept.sha256[:12]},
        )
    assert {"receipt.not_pdf", "receipt.damaged", "receipt.missing"} <= set(RULES)
