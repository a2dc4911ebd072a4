"""Schema 7: what the team database writes for people to read names who acted in codes, not
in English sentences (issue 33), and a database migrated from schema 6 keeps its older
sentences, which the desktops still read.

Each person acts with their own login through the database's functions, as ``psql`` would;
``treasury-admin migrate`` takes a database made at schema 6 to 7.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from tests.ledger.test_approvals_db import as_person, prepare_raw, superuser
from tests.ledger.test_insider_outcomes import insiders  # noqa: F401  (a fixture)
from tests.ledger.test_team_people import logins_put_back  # noqa: F401  (a fixture)
from tests.ledger_backends import DEFAULT_POLICY, TeamDatabases
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team import schema as team_schema
from treasury_app.ledger.team.admin import main as admin_main
from treasury_app.ledger.team.codes_schema import CODES, read_coded
from treasury_app.ui.status_words import note_word, team_error_word

pytestmark = pytest.mark.usefixtures("team_databases")

TWO_APPROVALS: dict[str, Any] = {"approvals": 2, "new_payee_extra": 0}
"""Two approvals for every payment (up to R$ 10.000,00; nothing more for a new payee)."""


def admin(*args: str) -> tuple[int, str, str]:
    """``treasury-admin ARGS`` in this process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved = os.environ.pop("TREASURY_DB", None)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = admin_main(list(args))
    finally:
        if saved is not None:
            os.environ["TREASURY_DB"] = saved
    return code, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def people(team: TeamDatabases, database: str) -> Iterator[tuple[psycopg.Connection[Any], ...]]:
    """ana (maker), bruno and carla (approvers), each with their own login."""
    with (
        as_person(team, database, "ana") as ana,
        as_person(team, database, "bruno") as bruno,
        as_person(team, database, "carla") as carla,
    ):
        yield ana, bruno, carla


def act(
    ana: psycopg.Connection[Any], bruno: psycopg.Connection[Any], carla: psycopg.Connection[Any]
) -> tuple[int, int]:
    """What people do with intents that wait: bruno approves one, ana changes it (his approval
    void), carla rejects it; ana withdraws another. The two entries' ids."""
    first = prepare_raw(ana, "100.00")
    bruno.execute("SELECT treasury.approve(%s, %s)", (first["id"], first["content_hash"]))
    ana.execute("SELECT treasury.edit(%s, 90, 'NF 12', '{}')", (first["id"],))
    carla.execute("SELECT treasury.reject(%s, 'wrong key')", (first["id"],))
    second = prepare_raw(ana, "50.00")
    ana.execute("SELECT treasury.withdraw(%s, 'not needed')", (second["id"],))
    return first["id"], second["id"]


def notes_of(conn: psycopg.Connection[Any], entry: int) -> list[str]:
    return [
        row["note"]
        for row in conn.execute(
            "SELECT note FROM treasury.journal_history WHERE entry_id = %s ORDER BY id", (entry,)
        ).fetchall()
    ]


def error_of(conn: psycopg.Connection[Any], entry: int) -> str:
    row = conn.execute("SELECT error FROM treasury.journal WHERE id = %s", (entry,)).fetchone()
    assert row is not None
    return str(row["error"])


def database_at_6(team: TeamDatabases) -> str:
    """A new team database made by an app of schema 6 (two approvals per payment)."""
    name = f"team_v6_{uuid.uuid4().hex[:8]}"
    team.server.create_database(name)
    with superuser(team, name) as conn:
        conn.execute(team_schema.ROLES_SQL)
        conn.execute("CREATE SCHEMA treasury AUTHORIZATION treasury_owner")
        conn.execute("SET ROLE treasury_owner")
        conn.execute("CREATE TABLE treasury.schema_version (version integer NOT NULL)")
        conn.execute("INSERT INTO treasury.schema_version VALUES (0)")
        conn.execute("RESET ROLE")
        assert team_migrations.migrate(conn, target=6) == 6
        team_migrations.harden_database(conn)
        team_migrations.set_policy(conn, **(DEFAULT_POLICY | TWO_APPROVALS))
    return name


def test_approving_changing_rejecting_withdrawing_write_codes_not_english(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=TWO_APPROVALS)
    with people(team_databases, database) as (ana, bruno, carla):
        rejected, withdrawn = act(ana, bruno, carla)
        assert [read_coded(note) or note for note in notes_of(ana, rejected)] == [
            "journaled",
            ("approved", {"by": "bruno", "given": 1, "needed": 2}),
            ("changed", {"void": 1}),
            ("rejected", {"by": "carla"}),
        ]
        assert read_coded(error_of(ana, rejected)) == (
            "rejected",
            {"by": "carla", "reason": "wrong key"},
        )
        assert [read_coded(note) or note for note in notes_of(ana, withdrawn)] == [
            "journaled",
            ("withdrawn", {"by": "ana"}),
        ]
        assert read_coded(error_of(ana, withdrawn)) == (
            "withdrawn",
            {"by": "ana", "reason": "not needed"},
        )
        texts = [
            row["text"]
            for row in ana.execute(
                "SELECT note AS text FROM treasury.journal_history"
                " UNION ALL SELECT error FROM treasury.journal WHERE error IS NOT NULL"
            ).fetchall()
        ]
        notes = notes_of(ana, rejected)
    # nothing the database wrote is an English sentence: a code, or a plain code of old
    coded = [read_coded(text) for text in texts]
    assert all(found is None or found[0] in CODES for found in coded)
    assert sorted(text for text, found in zip(texts, coded, strict=True) if found is None) == [
        "journaled",
        "journaled",
    ]
    # the desktop puts them in words
    assert [note_word(note) for note in notes] == [
        "Recorded before sending",
        "Approved by bruno (1 of 2)",
        "Amount or description changed: 1 approval(s) void",
        "Rejected by carla",
    ]
    errors = sorted(text for text in texts if read_coded(text) and "reason" in text)
    assert sorted(team_error_word(error) for error in errors) == [
        "Rejected by carla: wrong key",
        "Withdrawn by ana: not needed",
    ]


@pytest.mark.usefixtures("logins_put_back")
def test_a_database_migrated_from_6_keeps_its_sentences_in_words_and_writes_codes(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    """People act on a database of schema 6 (its English sentences); ``treasury-admin
    migrate`` takes it to 7 (audited); the old rows stay as they were and still read as
    words; what people do from then on is written in codes."""
    database = database_at_6(team_databases)
    with people(team_databases, database) as (ana, bruno, carla):
        old_rejected, old_withdrawn = act(ana, bruno, carla)
        before = notes_of(ana, old_rejected), notes_of(ana, old_withdrawn)
        old_errors = error_of(ana, old_rejected), error_of(ana, old_withdrawn)
    assert before == (
        [
            "journaled",
            "approved by bruno (1 of 2)",
            "changed: 1 approval(s) void",
            "rejected by carla",
        ],
        ["journaled", "withdrawn by ana"],
    )
    assert old_errors == ("Rejected by carla: wrong key", "Withdrawn by ana: not needed")

    code, out, err = admin("--db", team_databases.server.url(database), "migrate")
    latest = team_schema.SCHEMA_VERSION  # 7, or a later schema on top of it
    assert code == 0 and f"Schema 6 -> {latest}." in out, err
    with superuser(team_databases, database) as conn:
        assert team_migrations.current_version(conn) == latest >= 7
        (migrated,) = conn.execute(
            "SELECT details FROM treasury.audit WHERE action = 'admin.migrate'"
            " ORDER BY seq DESC LIMIT 1"
        ).fetchall()
    assert json.loads(migrated["details"]) == {"from": 6, "to": latest}

    with people(team_databases, database) as (ana, bruno, carla):
        assert (notes_of(ana, old_rejected), notes_of(ana, old_withdrawn)) == before
        assert (error_of(ana, old_rejected), error_of(ana, old_withdrawn)) == old_errors
        rejected, withdrawn = act(ana, bruno, carla)
        assert read_coded(notes_of(ana, rejected)[1]) == (
            "approved",
            {"by": "bruno", "given": 1, "needed": 2},
        )
        assert read_coded(error_of(ana, withdrawn)) == (
            "withdrawn",
            {"by": "ana", "reason": "not needed"},
        )
    # the old sentences are words on a desktop of schema 7, as the new codes are
    assert [note_word(note) for note in before[0][1:]] == [
        "Approved by bruno (1 of 2)",
        "Amount or description changed: 1 approval(s) void",
        "Rejected by carla",
    ]
    assert [team_error_word(error) for error in old_errors] == [
        "Rejected by carla: wrong key",
        "Withdrawn by ana: not needed",
    ]
