"""``treasury-api``: the API clients from a shell, for support staff and scripts.

Every command prints the bank's answer as JSON (amounts exact, never through float) on
standard output. Errors go to standard error, with the exit status telling them apart:

* 0 — done; 1 — the bank refused (problem printed as JSON); 2 — wrong usage;
* 3 — no answer (transport failure: the outcome of a write may be unknown);
* 4 — configuration: profile file, certificate, password.

Examples::

    treasury-api --sandbox-ready ~/.local/share/TreasuryApp/sandbox/ready.json balance
    TREASURY_ACCOUNTS_CLIENT_SECRET=... TREASURY_ACCOUNTS_PFX_PASSWORD=... \\
        treasury-api --profile-file bank.json payment-status --e2e E0000000020261118...
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from treasury_app import __version__
from treasury_app.api.connect import (
    ApiClients,
    ProfileFileError,
    open_clients,
    profile_configs,
    sandbox_configs,
)
from treasury_app.api.errors import ApiError, ResponseFormatError, TransportFailure
from treasury_app.api.tls import CertificateError
from treasury_app.domain.money import dumps_json

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_NO_ANSWER, EXIT_CONFIG = 0, 1, 2, 3, 4

Command = Callable[[ApiClients, argparse.Namespace], Awaitable[Any]]


def to_json_value(value: Any) -> Any:
    """Models as their wire JSON; lists of models element by element."""
    if isinstance(value, BaseModel):
        to_wire = getattr(value, "to_wire", None)
        return to_wire() if to_wire else value.model_dump(by_alias=True, exclude_none=True)
    if isinstance(value, list | tuple):
        return [to_json_value(item) for item in value]
    return value


async def _balance(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.accounts.get_balances()


async def _statement(clients: ApiClients, args: argparse.Namespace) -> Any:
    entries = []
    async for entry in clients.accounts.iter_transactions(start_date=args.start, end_date=args.end):
        entries.append(entry)
        if len(entries) >= args.limit:
            break
    return entries


async def _payment_status(clients: ApiClients, args: argparse.Namespace) -> Any:
    if args.e2e:
        return await clients.accounts.get_pix_payment(args.e2e)
    return await clients.accounts.get_pix_payment_by_idempotency_key(args.idempotency_key)


async def _pix_receipt(clients: ApiClients, args: argparse.Namespace) -> Any:
    pdf = await clients.accounts.get_pix_receipt(args.e2e)
    args.out.write_bytes(pdf)
    return {"file": str(args.out), "bytes": len(pdf)}


async def _billet_status(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.accounts.get_billet_details(args.id)


async def _billet_info(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.accounts.get_billet_info(args.code)


async def _billet_receipt(clients: ApiClients, args: argparse.Namespace) -> Any:
    pdf = await clients.accounts.get_billet_receipt(args.id)
    args.out.write_bytes(pdf)
    return {"file": str(args.out), "bytes": len(pdf)}


async def _webhooks(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.accounts.list_webhooks()


async def _infractions(clients: ApiClients, args: argparse.Namespace) -> Any:
    return [item async for item in clients.accounts.iter_infractions()]


async def _cob_get(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.qrcodes.get_cob(args.txid)


async def _cobv_get(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.qrcodes.get_cobv(args.txid)


async def _lotecobv_get(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.qrcodes.get_lotecobv(args.id)


async def _pix_get(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.qrcodes.get_pix(args.e2e)


async def _rec_get(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.qrcodes.get_rec(args.id_rec, txid=args.txid)


async def _cobr_get(clients: ApiClients, args: argparse.Namespace) -> Any:
    return await clients.qrcodes.get_cobr(args.txid)


async def _token_status(clients: ApiClients, args: argparse.Namespace) -> Any:
    """Obtain a token on each API and show its state (never the token itself)."""
    result = {}
    for transport in clients.transports:
        await transport.tokens.token(transport.http)
        state = transport.tokens.state
        result[transport.api] = {
            "validUntil": state.valid_until.isoformat() if state.valid_until else None,
            "scope": state.scope,
            "certificate": transport.config.identity.subject,
            "certificateExpires": transport.config.identity.not_after.isoformat(),
            "certificateWarning": transport.config.identity.expiry_warning(),
        }
    return result


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="treasury-api",
        description="Call the bank's QR Codes and Accounts APIs and print JSON.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--sandbox-ready", type=Path, help="ready file written by a running sandbox bank"
    )
    source.add_argument(
        "--profile-file",
        type=Path,
        help="profile JSON (secrets from TREASURY_<API>_CLIENT_SECRET/_PFX_PASSWORD)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Command, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    add("balance", _balance, "account balance")
    statement = add("statement", _statement, "statement entries, newest first")
    statement.add_argument("--start", type=_date, help="first day (YYYY-MM-DD)")
    statement.add_argument("--end", type=_date, help="last day (YYYY-MM-DD)")
    statement.add_argument("--limit", type=int, default=100, help="at most this many entries")
    status = add("payment-status", _payment_status, "a Pix payment we sent")
    which = status.add_mutually_exclusive_group(required=True)
    which.add_argument("--e2e", help="end-to-end id")
    which.add_argument("--idempotency-key", help="the idempotency key it was sent with")
    receipt = add("pix-receipt", _pix_receipt, "save a settled Pix payment's receipt PDF")
    receipt.add_argument("e2e")
    receipt.add_argument("--out", type=Path, required=True)
    add("billet-status", _billet_status, "a slip payment with its details").add_argument("id")
    add("billet-info", _billet_info, "query a slip by its line or barcode").add_argument("code")
    billet_receipt = add("billet-receipt", _billet_receipt, "save a slip payment's receipt PDF")
    billet_receipt.add_argument("id")
    billet_receipt.add_argument("--out", type=Path, required=True)
    add("webhooks", _webhooks, "the Accounts API's webhook configurations")
    add("infractions", _infractions, "infraction reports and their defenses")
    add("cob-get", _cob_get, "an immediate charge").add_argument("txid")
    add("cobv-get", _cobv_get, "a due-date charge").add_argument("txid")
    add("lotecobv-get", _lotecobv_get, "a batch of due-date charges").add_argument("id")
    add("pix-get", _pix_get, "a Pix received").add_argument("e2e")
    rec = add("rec-get", _rec_get, "a recurrence (Pix Automático)")
    rec.add_argument("id_rec")
    rec.add_argument("--txid", help="the txid of the journey 3/4 charge (composite QR)")
    add("cobr-get", _cobr_get, "a recurring charge with its attempts").add_argument("txid")
    add("token-status", _token_status, "obtain a token on each API and show its state")
    return parser


async def run(args: argparse.Namespace) -> Any:
    configs = (
        sandbox_configs(args.sandbox_ready)
        if args.sandbox_ready
        else profile_configs(args.profile_file)
    )
    async with open_clients(configs) as clients:
        handler: Command = args.handler
        return await handler(clients, args)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result = asyncio.run(run(args))
    except ApiError as error:
        problem = {
            "status": error.status,
            "type": error.type,
            "title": error.title,
            "detail": error.detail,
            "instance": error.instance,
            "violacoes": [
                {"razao": v.razao, "propriedade": v.propriedade, "valor": v.valor}
                for v in error.violacoes
            ],
        }
        print(dumps_json(problem), file=sys.stderr)
        return EXIT_REFUSED
    except (TransportFailure, ResponseFormatError) as error:
        print(f"treasury-api: {error}", file=sys.stderr)
        return EXIT_NO_ANSWER
    except (ProfileFileError, CertificateError) as error:
        print(f"treasury-api: {error}", file=sys.stderr)
        return EXIT_CONFIG
    except ValueError as error:  # arguments the clients refuse before sending
        print(f"treasury-api: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(dumps_json(to_json_value(result)))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
