"""``treasury-releaser --profile NAME``: the unattended due sender (issue 35).

For a team that wants its scheduled payments to leave at the send time with nobody's
desktop open: on a company server, beside ``treasury-receiver``, it opens a profile as the
desktop does (its team database login must be an approver's or a maker's, and it releases
as a releasing desktop: ``release_mode = "all"``), and every ``--interval`` seconds runs the
due sender's pass (:meth:`~treasury_app.services.schedule.ScheduleService.send_due`): series
topped up, late payments held for a person, the day's checks, then the sends through the
payment engine's claims — a desktop open at the same minute sends nothing twice.

Secrets come from the environment, never from the command line: the ``.pfx`` passwords in
``TREASURY_ACCOUNTS_PFX_PASSWORD`` and ``TREASURY_QRCODES_PFX_PASSWORD`` (a session opens
both APIs; the releaser calls only the Accounts API), the client secrets in
``TREASURY_ACCOUNTS_CLIENT_SECRET`` and ``TREASURY_QRCODES_CLIENT_SECRET`` (a server often
has no keyring; when unset, the profile's secret store), the team database's password in
``TREASURY_TEAM_PASSWORD`` (or none, for a client certificate). The trade-off of keeping a
certificate that can move money on a server is in ``docs/team-mode.md`` ("An unattended
releaser"). ``--once`` runs one pass and exits (0), for a scheduler (cron, a systemd timer)
rather than a service.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
log = logging.getLogger("treasury_app.releaser")


async def run(args: argparse.Namespace) -> int:
    from treasury_app.config import AppPaths
    from treasury_app.services.profiles import ProfileStore
    from treasury_app.services.schedule import DueSender
    from treasury_app.services.secret_store import SecretStore
    from treasury_app.services.session import Session
    from treasury_app.services.workspace import open_workspace

    paths = AppPaths.default(args.data_dir)
    profile = ProfileStore(paths).load(args.profile)
    passwords = {
        "accounts": os.environ.get("TREASURY_ACCOUNTS_PFX_PASSWORD", ""),
        "qrcodes": os.environ.get("TREASURY_QRCODES_PFX_PASSWORD", ""),
    }
    client_secrets = {
        api: secret
        for api, secret in (
            ("accounts", os.environ.get("TREASURY_ACCOUNTS_CLIENT_SECRET", "")),
            ("qrcodes", os.environ.get("TREASURY_QRCODES_CLIENT_SECRET", "")),
        )
        if secret
    }
    session = await Session.open(
        profile,
        pfx_passwords=passwords,  # type: ignore[arg-type]
        client_secrets=client_secrets,  # type: ignore[arg-type]
        secret_store=SecretStore(),
        paths=paths,
        team_password=os.environ.get("TREASURY_TEAM_PASSWORD") or None,
    )
    workspace = await open_workspace(session)
    workspace.engine.release_mode = "all"
    sender = DueSender(workspace.schedule, interval=args.interval)
    try:
        if args.once:
            sent = await workspace.schedule.send_due()
            log.info("one pass: %s payment(s) sent", len(sent))
            for entry in sent:  # ids and states only: the log holds no payee nor secret
                log.info("sent entry %s: %s", entry.id, entry.state.value)
            return 0
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            # Windows has no signal handlers on the loop: Ctrl-C ends it there
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, sender.stop)
        log.info("releasing the scheduled payments of %s every %ss", profile.name, args.interval)
        await sender.run()
        return 0
    finally:
        await workspace.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="treasury-releaser", description=__doc__.split("\n")[0])
    parser.add_argument("--profile", required=True, help="the profile to open")
    parser.add_argument("--data-dir", default=None, help="the app's data folder")
    parser.add_argument("--interval", type=float, default=60.0, help="seconds between passes")
    parser.add_argument("--once", action="store_true", help="one pass, then exit")
    args = parser.parse_args(argv)
    if args.data_dir is not None:
        args.data_dir = Path(args.data_dir)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT, stream=sys.stderr)
    from treasury_app.domain.errors import RuleError
    from treasury_app.ledger.errors import LedgerOpenError, LedgerRefused, LedgerUnavailable
    from treasury_app.services.session import MissingSecret, TeamPasswordNeeded

    try:
        return asyncio.run(run(args))
    except (RuleError, MissingSecret, TeamPasswordNeeded) as error:  # the codes, no secret
        log.error("cannot open the profile: %s", error)
    except (LedgerOpenError, LedgerRefused, LedgerUnavailable) as error:
        log.error("cannot open the ledger: %s", error)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
