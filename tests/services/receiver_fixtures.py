"""A webhook receiver's side of a team database, for the desktop tests: its login (a member of
``treasury_receiver`` made by ``treasury-admin add-user``), its heartbeat, and what it writes
after a notification (a state row, ``NOTIFY treasury_bank_events``, a payment's bank status
through ``treasury.notified_status``) — exactly the rights the receiver has, no more."""

from __future__ import annotations

import secrets
from typing import Any

import psycopg

from tests.ledger_backends import TeamDatabases
from treasury_app.ledger.team import migrations
from treasury_app.ledger.team.receiver_schema import EVENTS_CHANNEL, RECEIVER

PUBLIC_URL = "https://hooks.empresa.example/treasury"


class ReceiverLogin:
    """The login of a webhook receiver on one team database."""

    def __init__(self, databases: TeamDatabases, database: str, name: str | None = None) -> None:
        self.databases = databases
        self.database = database
        self.login = name or f"recv_{secrets.token_hex(4)}"
        with psycopg.connect(databases.server.url(database), autocommit=True) as admin:
            migrations.add_user(admin, self.login, (RECEIVER,))

    def connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(
            self.databases.server.url(self.database, user=self.login), autocommit=True
        )

    def beat(
        self,
        *,
        name: str = "receiver-1",
        url: str = PUBLIC_URL,
        last_item_seconds_ago: float | None = None,
    ) -> None:
        """One heartbeat now (``treasury.receiver_beat``), the last item stored
        ``last_item_seconds_ago`` (``None``: none yet)."""
        with self.connect() as conn:
            conn.execute(
                "SELECT treasury.receiver_beat(%s, now(), now() - make_interval(secs => %s), %s)",
                (name, last_item_seconds_ago, url),
            )

    def notify(self, payload: str) -> None:
        """``NOTIFY treasury_bank_events, payload`` alone: a wake-up with nothing written."""
        with self.connect() as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, payload))

    def charge_paid(self, txid: str, end_to_end_id: str) -> None:
        """What the receiver writes for a Pix that paid the charge ``txid`` (as
        ``treasury.apply_notice`` does), then NOTIFY."""
        with self.connect() as conn, conn.transaction():
            self.write_charge_paid(conn, txid, end_to_end_id)
            conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, f"pix:{end_to_end_id}"))

    @staticmethod
    def write_charge_paid(conn: psycopg.Connection[Any], txid: str, end_to_end_id: str) -> None:
        """The charge's state row only, in ``conn``'s transaction (no NOTIFY)."""
        conn.execute(
            "INSERT INTO treasury.charge_states (txid, status, end_to_end_id)"
            " VALUES (%s, 'CONCLUIDA', %s) ON CONFLICT (txid) DO UPDATE"
            " SET status = 'CONCLUIDA', end_to_end_id = EXCLUDED.end_to_end_id,"
            " updated_at = clock_timestamp()",
            (txid, end_to_end_id),
        )

    def recurrence_state(self, id_rec: str, status: str) -> None:
        """What the receiver writes for a recurrence's new status, then NOTIFY."""
        with self.connect() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO treasury.recurrence_states (id_rec, status, item)"
                " VALUES (%s, %s, '{}') ON CONFLICT (id_rec) DO UPDATE SET status = %s,"
                " updated_at = clock_timestamp()",
                (id_rec, status, status),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, f"rec:{id_rec}"))

    def cobr_state(self, txid: str, id_rec: str, status: str) -> None:
        """What the receiver writes for a recurring charge's new status, then NOTIFY."""
        with self.connect() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO treasury.cobr_states (txid, id_rec, status, item)"
                " VALUES (%s, %s, %s, '{}') ON CONFLICT (txid) DO UPDATE SET status = %s,"
                " updated_at = clock_timestamp()",
                (txid, id_rec, status, status),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, f"cobr:{txid}"))

    def pix_received(self, end_to_end_id: str, key: str, amount: str = "10.00") -> None:
        """What the receiver writes for a Pix received on the company's ``key``, then
        NOTIFY."""
        with self.connect() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO treasury.received_pix (end_to_end_id, chave, valor, item)"
                " VALUES (%s, %s, %s, '{}')",
                (end_to_end_id, key, amount),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, f"pix:{end_to_end_id}"))

    def payment_final(self, entry_id: int, status: str, *, key: str, e2e: str | None) -> None:
        """A transfer notification applied: the payment's bank status through
        ``treasury.notified_status`` (the journal's change feed wakes the desktops), then
        NOTIFY."""
        with self.connect() as conn, conn.transaction():
            conn.execute(
                "SELECT id FROM treasury.notified_status(%s, %s, true, %s, NULL, %s)",
                (entry_id, status, e2e, "webhook: transfer"),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, f"transfer:{key}"))


def superuser_execute(databases: TeamDatabases, database: str, query: str, *args: Any) -> None:
    """A statement as the server's superuser (to age a heartbeat, say)."""
    with psycopg.connect(databases.server.url(database), autocommit=True) as conn:
        conn.execute(query, args or None)


def our_refs(databases: TeamDatabases, database: str) -> set[tuple[str, str]]:
    """Every ``(kind, ref)`` named as ours."""
    with psycopg.connect(databases.server.url(database), autocommit=True) as conn:
        return {
            (str(k), str(r)) for k, r in conn.execute("SELECT kind, ref FROM treasury.our_refs")
        }
