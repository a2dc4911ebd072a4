"""``treasury-sandbox`` / ``python -m treasury_app.sandbox``: run the sandbox bank."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs

from treasury_app.config import APP_AUTHOR, APP_NAME
from treasury_app.sandbox.faults import FaultRule

if TYPE_CHECKING:
    from treasury_app.sandbox.server import ParentWatch, Sandbox


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR)) / "sandbox"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="treasury-sandbox",
        description="Sandbox bank: the QR Codes API and the Accounts API over mutual TLS.",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=default_data_dir(),
        help="where certificates, credentials and state live",
    )
    parser.add_argument("--reset", action="store_true", help="delete all state and start afresh")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: loopback only)"
    )
    parser.add_argument("--qrcodes-port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--accounts-port", type=int, default=0, help="0 picks a free port")
    parser.add_argument(
        "--ready-file",
        type=Path,
        help="write URLs, CA file, credentials file and pid here once ready",
    )
    parser.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="stop when standard input closes (the app that starts the sandbox holds it open, "
        "so the sandbox never outlives that app)",
    )
    parser.add_argument("--clock-start", help="start the sandbox clock at this RFC 3339 instant")
    faults = parser.add_argument_group("faults (global; change at run time with /sandbox/faults)")
    faults.add_argument("--latency-ms", type=int, default=0)
    faults.add_argument("--rate-429", type=float, default=0.0)
    faults.add_argument("--retry-after", type=int, default=1)
    faults.add_argument("--rate-500", type=float, default=0.0)
    faults.add_argument("--rate-503", type=float, default=0.0)
    faults.add_argument("--rate-504", type=float, default=0.0)
    faults.add_argument(
        "--drop-after-commit",
        type=float,
        default=0.0,
        help="rate of payment POSTs whose response is dropped after commit",
    )
    parser.add_argument("--log-level", default="WARNING")
    return parser.parse_args(argv)


def fault_rules(args: argparse.Namespace) -> list[FaultRule]:
    rules = []
    general = {
        "latency_ms": args.latency_ms,
        "rate_429": args.rate_429,
        "retry_after": args.retry_after,
        "rate_500": args.rate_500,
        "rate_503": args.rate_503,
        "rate_504": args.rate_504,
    }
    if any(general[k] for k in general if k != "retry_after"):
        rules.append(FaultRule.from_dict(general))
    if args.drop_after_commit:
        for path in ("/api/v2/pix/payments/*", "/api/v2/billets/pay*"):
            rules.append(
                FaultRule.from_dict(
                    {"path": path, "method": "POST", "drop_after_commit": args.drop_after_commit}
                )
            )
    return rules


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    from treasury_app.sandbox.server import ParentWatch, open_sandbox

    # Watching from the start: the app may die while the PKI is being created.
    watch = ParentWatch().start() if args.exit_with_parent else None
    try:
        start = (
            dt.datetime.fromisoformat(args.clock_start.replace("Z", "+00:00"))
            if args.clock_start
            else None
        )
        if start is not None and start.tzinfo is None:
            raise ValueError("--clock-start needs a timezone (e.g. 2026-03-02T13:00:00Z)")
        rules = fault_rules(args)
    except ValueError as exc:
        print(f"treasury-sandbox: {exc}", file=sys.stderr)
        return 2
    first_start = not (args.data_dir / "pki" / "credentials.json").exists() or args.reset
    sandbox = open_sandbox(args.data_dir, reset=args.reset, clock_start=start, faults=rules)
    if watch is not None and watch.gone.is_set():
        sandbox.store.close()
        return 0
    print(f"Sandbox data: {sandbox.data_dir}")
    if first_start:
        for api, cred in sandbox.pki.credentials().items():
            print(f"  {api}: client id {cred['client_id']}, pfx {cred['pfx']}")
    # Never the passwords themselves (this output is the sandbox's log): where they are.
    print(f"  passwords and secrets: {sandbox.pki.credentials_file} (readable by you only)")
    try:
        asyncio.run(_serve(sandbox, args, watch))
    except KeyboardInterrupt:
        pass
    except (OSError, RuntimeError) as exc:
        print(f"treasury-sandbox: {exc}", file=sys.stderr)
        return 1
    return 0


async def _serve(sandbox: Sandbox, args: argparse.Namespace, watch: ParentWatch | None) -> None:
    from treasury_app.sandbox.server import serve

    stop = asyncio.Event()
    if watch is not None:
        watch.stop_with(asyncio.get_running_loop(), stop)
    await serve(
        sandbox,
        host=args.host,
        ports={"qrcodes": args.qrcodes_port, "accounts": args.accounts_port},
        ready_file=args.ready_file,
        stop=stop,
    )


if __name__ == "__main__":
    raise SystemExit(main())
