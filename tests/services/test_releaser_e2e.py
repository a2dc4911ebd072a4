"""``treasury-releaser`` end to end (issue 35): with no desktop open, the releaser — run as a
process of its own, ``--once``, its credentials from environment variables as
``docs/team-mode.md`` says — sends a payment approved ahead on its pay date, once; two
releasers and a desktop racing at the send time pay it once. A team database on a real
PostgreSQL and a sandbox bank of the module's own; the bank's clock and the database's
business date are moved, never waited for."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from tests.ledger.test_approvals_db import give_exactly
from tests.ledger_backends import TeamDatabases
from tests.sandbox.conftest import Api
from tests.services.accounts_fixtures import sandbox_now
from tests.services.test_schedule_team import align, business_days_ahead, move_to, team_desks
from tests.services.test_session_team import team_profile
from tests.waiting import WAIT_SECONDS
from treasury_app.api.transport import ApiTransport
from treasury_app.config import AppPaths
from treasury_app.domain.clock import brasilia_date
from treasury_app.ledger.journal import EntryState
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.services.profiles import ProfileStore, SandboxSecrets, sandbox_profile

pytestmark = pytest.mark.usefixtures("clean_sandbox", "team_databases")

RELEASER = "rel_bot"
PASSWORD = "releaser on a server"


@pytest.fixture(scope="module")
def people(team_databases: TeamDatabases) -> None:
    give_exactly(team_databases, {"sara": (MAKER,), "tito": (APPROVER,), RELEASER: (APPROVER,)})
    with psycopg.connect(team_databases.server.url("postgres"), autocommit=True) as conn:
        conn.execute(f"ALTER ROLE {RELEASER} PASSWORD '{PASSWORD}'")
        conn.execute(f"GRANT treasury_password_login TO {RELEASER}")


def releaser_environment(secrets: SandboxSecrets) -> dict[str, str]:
    """The releaser's secrets, as a server's service manager would set them."""
    return {
        **os.environ,
        "TREASURY_ACCOUNTS_PFX_PASSWORD": secrets.pfx_passwords["accounts"],
        "TREASURY_QRCODES_PFX_PASSWORD": secrets.pfx_passwords["qrcodes"],
        "TREASURY_ACCOUNTS_CLIENT_SECRET": secrets.client_secrets["accounts"],
        "TREASURY_QRCODES_CLIENT_SECRET": secrets.client_secrets["qrcodes"],
        "TREASURY_TEAM_PASSWORD": PASSWORD,
        # a server without a desktop session: no keyring is asked for anything
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
    }


def start_releaser(data_dir: Path, environment: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "treasury_app.releaser",
            "--profile",
            "Sandbox",
            "--data-dir",
            str(data_dir),
            "--once",
        ],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finished(process: subprocess.Popen[str]) -> str:
    output, _ = process.communicate(timeout=WAIT_SECONDS)
    assert process.returncode == 0, output
    return output


@pytest.mark.usefixtures("people")
async def test_the_releaser_sends_a_payment_approved_ahead_once_on_its_day_racing_others(
    team_databases: TeamDatabases,
    tmp_path: Path,
    accounts_transport: ApiTransport,
    control: Api,
    sandbox: object,
) -> None:
    database = team_databases.new_database(policy={"new_payee_extra": 0})
    align(team_databases, database, control)
    base, secrets = sandbox_profile(sandbox.data_dir / "ready.json")  # type: ignore[attr-defined]
    profile = team_profile(base, team_databases, database, RELEASER, "keyring")
    homes = [tmp_path / "server-a", tmp_path / "server-b"]
    for home in homes:  # two servers, each with the profile (no secret in it)
        await ProfileStore(AppPaths.default(home)).save(profile)
    environment = releaser_environment(secrets)

    async with team_desks(
        team_databases, database, tmp_path, accounts_transport, control, "sara", "tito"
    ) as (sara, tito):
        today = brasilia_date(sandbox_now(control))
        day = business_days_ahead(today, 2)
        review = await sara.payouts.prepare_key("fornecedor@empresa.com.br", "1234.56")
        entry = await sara.payouts.send(sara.schedule.schedule_payout(review, day))
        assert tito.ledger.approvals is not None
        approved = await tito.ledger.approvals.approve(entry.id, entry.content_hash or "")
        assert approved.approval == "APPROVED"  # approved ahead; every desktop closed now

        # Before its day, the releaser leaves it alone.
        finished(start_releaser(homes[0], environment))
        assert (await sara.ledger.journal.get(entry.id)).state == EntryState.PREPARED

        move_to(team_databases, database, control, day)  # its day, 08:00
        control.reset_token_limits()
        before = control.balance()
        first, second = (start_releaser(home, environment) for home in homes)
        await tito.schedule.send_due()  # a releasing desktop opened at the same minute
        outputs = await asyncio.gather(
            asyncio.to_thread(finished, first), asyncio.to_thread(finished, second)
        )
        await tito.schedule.send_due()

        sent = await sara.ledger.journal.get(entry.id)
        assert sent.state == EntryState.ACCEPTED, outputs
        assert before - control.balance() == Decimal("1234.56")  # paid once
        response = control.get(f"/api/v2/pix/payments/idempotencyKey/{entry.idempotency_key}")
        assert response.status_code == 200
        if sent.released_by == RELEASER:
            assert any(f"sent entry {entry.id}" in output for output in outputs), outputs
        for output in outputs:  # the secrets never reach its log
            assert PASSWORD not in output
            assert secrets.client_secrets["accounts"] not in output
