"""``treasury-admin``: init, add-user, migrate, status, verify-audit and import-ledger against
the suite's own PostgreSQL; every failure exits non-zero with one clear line."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import uuid
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest
from psycopg.rows import dict_row

from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.waiting import LONG_WAIT_SECONDS
from treasury_app.ledger import open_ledger
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.ledger.team.admin import main
from treasury_app.ledger.team.chain import verify_chain
from treasury_app.ledger.team.schema import SCHEMA_VERSION

pytestmark = pytest.mark.usefixtures("team_databases")
REPO = Path(__file__).resolve().parents[2]


def admin(*args: str, env_db: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = os.environ.pop("TREASURY_DB", None)
    if env_db:
        os.environ["TREASURY_DB"] = env_db
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.environ.pop("TREASURY_DB", None)
        if saved is not None:
            os.environ["TREASURY_DB"] = saved
    return code, out.getvalue(), err.getvalue()


def rows(team: TeamDatabases, database: str, query: str) -> list[dict]:
    with psycopg.connect(team.server.url(database), autocommit=True, row_factory=dict_row) as c:
        return c.execute(query).fetchall()


def test_init_add_user_status_from_an_empty_database(team_databases: TeamDatabases) -> None:
    server = team_databases.server
    name = "admin_" + uuid.uuid4().hex[:8]
    server.create_database(name)
    url = server.url(name)
    code, out, _ = admin("status", env_db=url)
    assert code == 1 and "Schema: none" in out
    assert admin("init", env_db=url)[0] == 0
    assert admin("init", env_db=url)[0] == 0  # idempotent
    code, out, err = admin("--db", url, "add-user", "irene", "--role", "treasury_maker")
    assert code == 0, err
    code, out, _ = admin("--db", url, "status")
    assert code == 0
    assert f"Schema: {SCHEMA_VERSION}" in out and "treasury_maker:" in out and "irene" in out
    audit = rows(team_databases, name, "SELECT action, reference, actor FROM treasury.audit")
    assert [(r["action"], r["reference"]) for r in audit] == [
        ("admin.migrate", ""),
        ("admin.add_user", "irene"),
    ]
    assert audit[1]["actor"] == server.superuser  # who ran the command, per the database
    with psycopg.connect(server.url(name, user="irene"), autocommit=True) as conn:
        assert conn.execute("SELECT session_user").fetchone() == ("irene",)


def test_a_person_without_rights_and_bad_input_get_clear_errors(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    team_databases.person("mallory_maker")
    code, _, err = admin(
        "--db",
        team_databases.server.url(database, user="mallory_maker"),
        "add-user",
        "mallory2",
        "--role",
        "treasury_approver",
    )
    assert code == 3 and "permission denied" in err
    code, _, err = admin("--db", url, "add-user", "treasury_owner", "--role", "treasury_maker")
    assert code == 2 and "cannot be a person's login name" in err
    assert admin("status")[0] == 2  # no --db and no TREASURY_DB
    code, _, err = admin("--db", "https://db.example.com/treasury", "status")
    assert code == 2 and "libpq URL" in err
    code, _, err = admin("--db", team_databases.server.url("no_such_db"), "status")
    assert code == 2 and "Cannot connect" in err and "no_such_db" in err
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE treasury.schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    code, _, err = admin("--db", url, "migrate")
    assert code == 2 and "newer than this treasury-admin knows" in err
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE treasury.schema_version SET version = %s", (SCHEMA_VERSION,))
    code, _, err = admin("--db", url, "verify-audit", "--anchor", "not-an-anchor")
    assert code == 2 and "not an audit anchor" in err


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("treasury-admin")
    result = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, timeout=LONG_WAIT_SECONDS, cwd=REPO
    )
    assert result.returncode == 0 and "verify-audit" in result.stdout


def fill_file_ledger(path: Path) -> tuple[list[str], str]:
    ledger = open_ledger(path, profile="Main", user="ana.desk")
    journal = ledger.journal.sync  # a desktop's own file, written as the app writes it
    keys = []
    for number in range(3):
        entry = journal.create(
            NewEntry(
                kind=EntryKind.PIX_KEY,
                amount=Decimal(f"{number + 1}.50"),
                idempotency_key=str(uuid.uuid4()),
                request={"amount": Decimal(f"{number + 1}.50")},
                payee_detail=f"p{number}@example.com",
            )
        )
        journal.update(entry.id, EntryState.SENT, note="sending")
        journal.update(
            entry.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True, end_to_end_id="E1"
        )
        keys.append(entry.idempotency_key)
        ledger.audit.sync.record("payout.send", "accepted", amount=entry.amount)
    receipt = ledger.receipts.sync.save(b"%PDF-1.4 one\n", kind="PIX", bank_id="E1", entry_id=1)
    ledger.batches.sync.record("b-1", signature="s", rows=3, total=Decimal("7.50"))
    ledger.close_now()
    return keys, receipt.sha256


async def test_import_ledger_moves_a_desktop_file_in_once(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    path = tmp_path / "Main.sqlite3"
    keys, sha = fill_file_ledger(path)
    code, out, err = admin("--db", url, "import-ledger", str(path))
    assert code == 0, err
    assert "3 payment(s)" in out and "3 audit row(s)" in out and "1 receipt(s)" in out
    code, _, err = admin("--db", url, "import-ledger", str(path))
    assert code == 2 and "imported already" in err
    journal = rows(team_databases, database, "SELECT * FROM treasury.journal ORDER BY id")
    assert [r["idempotency_key"] for r in journal] == keys
    assert {r["created_by"] for r in journal} == {"ana.desk"}  # authors kept
    audit = rows(team_databases, database, "SELECT * FROM treasury.audit ORDER BY seq")
    imported = [r for r in audit if r["action"] == "payout.send"]
    assert [r["actor"] for r in imported] == ["ana.desk"] * 3
    assert audit[-1]["action"] == "admin.import_ledger"
    assert verify_chain(audit).ok
    assert admin("--db", url, "verify-audit")[0] == 0
    async with opened_ledger("team", tmp_path, database=database) as ledger:
        entries = await ledger.journal.recent()
        assert len(entries) == 3 and all(e.final for e in entries)
        assert [h.note for h in await ledger.journal.history(entries[-1].id)][-1] == ""
        receipt = await ledger.receipts.for_entry(entries[-1].id)
        assert receipt is not None and receipt.sha256 == sha
        assert await ledger.receipts.read(receipt) == b"%PDF-1.4 one\n"
        assert (await ledger.batches.get("b-1")) is not None


def test_import_refuses_what_is_not_a_ledger(team_databases: TeamDatabases, tmp_path: Path) -> None:
    url = team_databases.server.url(team_databases.new_database())
    code, _, err = admin("--db", url, "import-ledger", str(tmp_path / "missing.sqlite3"))
    assert code == 2 and "No ledger file" in err
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    code, _, err = admin("--db", url, "import-ledger", str(junk))
    assert code == 2 and "not a treasury ledger file" in err
    path = tmp_path / "Main.sqlite3"
    fill_file_ledger(path)
    (tmp_path / "Main-receipts").rename(tmp_path / "elsewhere")
    code, _, err = admin("--db", url, "import-ledger", str(path))
    assert code == 2 and "cannot be read" in err
    assert (
        rows(team_databases, url.rsplit("/", 1)[1].split("?")[0], "SELECT * FROM treasury.journal")
        == []
    )


def test_add_user_hashes_the_password_and_refuses_an_administrators_role(
    team_databases: TeamDatabases,
) -> None:
    import subprocess as run

    database = team_databases.new_database()
    url = team_databases.server.url(database)
    name = "irene_" + uuid.uuid4().hex[:6]
    result = run.run(
        [
            str(Path(sys.executable).with_name("treasury-admin")),
            "--db",
            url,
            "add-user",
            name,
            "--role",
            "treasury_maker",
            "--password-stdin",
        ],
        input="s3cret horse\n",
        capture_output=True,
        text=True,
        timeout=LONG_WAIT_SECONDS,
    )
    assert result.returncode == 0, result.stderr
    (row,) = rows(
        team_databases, "postgres", f"SELECT rolpassword FROM pg_authid WHERE rolname = '{name}'"
    )
    assert row["rolpassword"].startswith("SCRAM-SHA-256$") and "s3cret" not in row["rolpassword"]
    with psycopg.connect(team_databases.server.url("postgres"), autocommit=True) as conn:
        conn.execute(f"GRANT treasury_password_login TO {name}")
    with psycopg.connect(
        team_databases.server.url(database, user=name, password="s3cret horse")
    ) as c:
        assert c.execute("SELECT session_user").fetchone() == (name,)
    code, _, err = admin(
        "--db", url, "add-user", team_databases.server.superuser, "--role", "treasury_viewer"
    )
    assert code == 2 and "administrator's role" in err


def test_policy_set_show_and_limits_are_versioned_and_audited(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database(policy={})
    team_databases.person("lim_dora", "treasury_approver")
    for name in ("lim_eli", "lim_fay"):  # 2 approvals + 1 for a new payee: 3 approvers
        team_databases.person(name, "treasury_approver")
    url = team_databases.server.url(database)
    code, out, err = admin("--db", url, "policy", "show")
    assert code == 0, err
    assert "1 approval(s); 2 above R$ 10.000,00; +1 for a new payee" in out.splitlines()[-1]
    code, out, err = admin(
        "--db", url, "policy", "set", "--approvals", "2", "--threshold", "none",
        "--expiry-hours", "4",
    )  # fmt: skip
    assert code == 0, err
    assert "2 approval(s); 2 above none; +1 for a new payee; expire at 4 h" in out
    code, out, err = admin(
        "--db", url, "policy", "limit", "lim_dora", "--per-payment", "1000", "--per-day", "5000"
    )
    assert code == 0 and "limits of lim_dora: R$ 1.000,00 per payment, R$ 5.000,00 per day" in out
    current = rows(team_databases, database, "SELECT * FROM treasury.current_policy()")[0]
    assert current["approvals"] == 2 and current["threshold"] is None
    actions = [
        row["action"] for row in rows(team_databases, database, "SELECT action FROM treasury.audit")
    ]
    assert actions.count("admin.policy") == 3 and "admin.limits" in actions  # template's too
    for bad in (
        ("policy", "set"),
        ("policy", "set", "--threshold", "lots"),
        ("policy", "set", "--approvals", "-1"),
        ("policy", "set", "--expiry-hours", "0"),
        ("policy", "limit", "nobody_here", "--per-payment", "10"),
        ("policy", "limit", "lim_dora", "--per-day", "-5"),
    ):
        code, _, err = admin("--db", url, *bad)
        assert code == 2 and err.startswith("treasury-admin: "), (bad, err)
    assert len(rows(team_databases, database, "SELECT * FROM treasury.policies")) == 4
