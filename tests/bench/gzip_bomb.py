"""What a gzip bomb costs the app: one ``GET /api/v2/accounts/balances`` answered by the
sandbox's ``gzip_bomb_mb`` fault (292 KB of gzip that inflates to 300 MB of JSON), over mutual
TLS, read by our transport four ways:

(a) ``capped``: as shipped (``AnswerLimits``: 16 MiB for JSON, inflated 256 KiB at a time);
(b) ``httpx-chunks``: the same limit counted on httpx's decoded chunks (``aiter_bytes``),
    each a whole network read inflated at once: why the transport inflates by itself;
(c) ``huge-limit``: as shipped but with a 10 GiB limit (the cap disabled);
(d) ``before``: the answer read whole by httpx (``aread``), as before the limits.

Each variant runs in a process of its own (``ru_maxrss`` is a high-water mark for the life of
a process) after a warm-up call; prints the growth of peak resident memory, the tracemalloc
peak of the bombed call, its time and its outcome. Not a test: it prints figures.

``--bomb-mb N``: another inflated size; ``--smoke`` (``make bench-smoke``): a 32 MB bomb (still
past the 16 MiB cap), every variant; exits 1 unless ``capped`` and ``httpx-chunks`` refused
the answer and ``huge-limit`` and ``before`` read it whole.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.sandbox_harness import running_sandbox
from treasury_app.api import answers as answers_module
from treasury_app.api.errors import AnswerTooLargeError
from treasury_app.api.tls import Trust, load_pfx
from treasury_app.api.tokens import Secret
from treasury_app.api.transport import AnswerLimits, ApiConfig, ApiTransport, MiB

BALANCES = "/api/v2/accounts/balances"
BOMB_MB = 300
SMOKE_BOMB_MB = 32
VARIANTS = ("capped", "httpx-chunks", "huge-limit", "before")
REFUSING = ("capped", "httpx-chunks")  # the variants with a cap: they refuse the bomb


async def _httpx_chunks(response: httpx.Response, limit: int, kind: str) -> bytes:
    """The cap counted on httpx's decoded chunks: each one a whole network read, inflated."""
    pieces: list[bytes] = []
    held = 0
    async for piece in response.aiter_bytes():
        held += len(piece)
        if held > limit:
            pieces.clear()
            request = response.request
            raise AnswerTooLargeError(
                method=request.method, path=request.url.path, limit=limit, kind=kind
            )
        pieces.append(piece)
    return b"".join(pieces)


async def _httpx_whole(response: httpx.Response, limit: int, kind: str) -> bytes:
    return await response.aread()


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


async def measure(variant: str, bank: dict[str, Any]) -> dict[str, Any]:
    if variant == "httpx-chunks":
        answers_module.read_capped = _httpx_chunks
    elif variant == "before":
        answers_module.read_capped = _httpx_whole
    limits = AnswerLimits(json=10 * 1024 * MiB) if variant == "huge-limit" else AnswerLimits()
    cred = bank["credentials"]["accounts"]
    config = ApiConfig(
        api="accounts",
        base_url=bank["urls"]["accounts"],
        client_id=cred["client_id"],
        client_secret=Secret(cred["client_secret"]),
        identity=load_pfx(Path(cred["pfx"]), cred["pfx_password"]),
        trust=Trust.bundle(bank["ca_file"]),
        limits=limits,
    )
    async with ApiTransport(config) as transport:
        await transport.request_json("GET", BALANCES)  # warm-up: token, connection, imports
        rule = {"path": BALANCES, "gzip_bomb_mb": bank["bomb_mb"], "times": 1}
        (await transport.http.post("/sandbox/faults", json=rule)).raise_for_status()
        rss_before = _rss_mib()
        body: Any = None
        failure: Exception | None = None
        tracemalloc.start()
        started = time.perf_counter()
        try:
            body = await transport.request_json("GET", BALANCES)
        except Exception as error:
            failure = error
        seconds = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        outcome = (
            f"{type(failure).__name__}: {failure}"
            if failure is not None
            else f"read whole and parsed: a string of {len(body['a']) / 1e6:.0f} MB"
        )
    return {
        "variant": variant,
        "rss_growth_mib": _rss_mib() - rss_before,
        "tracemalloc_peak_mib": peak / MiB,
        "seconds": seconds,
        "outcome": outcome,
        "refused": isinstance(failure, AnswerTooLargeError),
        "read_whole": failure is None,
    }


def run_child(variant: str, bank: dict[str, Any]) -> dict[str, Any]:
    # The sandbox's address and credentials go on stdin, not on a command line.
    child = subprocess.run(
        [sys.executable, __file__, "--child", variant],
        input=json.dumps(bank),
        capture_output=True,
        text=True,
    )
    if child.returncode:
        raise SystemExit(f"{variant} failed:\n{child.stderr}")
    result: dict[str, Any] = json.loads(child.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--variants", nargs="*", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--bomb-mb", type=int, default=BOMB_MB, help="MB once inflated")
    parser.add_argument(
        "--smoke", action="store_true", help=f"a {SMOKE_BOMB_MB} MB bomb, every variant"
    )
    parser.add_argument("--child", choices=VARIANTS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(measure(args.child, json.loads(sys.stdin.read())))))
        return 0
    if args.smoke:
        args.bomb_mb, args.variants = SMOKE_BOMB_MB, list(VARIANTS)
    wrong: list[str] = []
    print(f"gzip bomb: {args.bomb_mb} MB of JSON once inflated, on GET {BALANCES}")
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_sandbox(Path(tmp), "--clock-start", "2026-11-18T13:00:00Z") as sandbox,
    ):
        bank = {
            "urls": sandbox.urls,
            "credentials": sandbox.credentials,
            "ca_file": sandbox.ready["ca_file"],
            "bomb_mb": args.bomb_mb,
        }
        run_child("capped", bank)  # the sandbox compresses its bomb once: in no variant's time
        for variant in args.variants:
            result = run_child(variant, bank)
            print(
                f"{variant:>12}: peak RSS +{result['rss_growth_mib']:.0f} MiB, "
                f"tracemalloc peak {result['tracemalloc_peak_mib']:.1f} MiB, "
                f"{result['seconds']:.2f} s; {result['outcome']}"
            )
            if not result["refused" if variant in REFUSING else "read_whole"]:
                wrong.append(variant)
    if wrong:
        print(
            f"NOT AS IT SHOULD BE: {', '.join(wrong)} ({' and '.join(REFUSING)} refuse the "
            "answer; the others read it whole)"
        )
    return 1 if wrong and args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
