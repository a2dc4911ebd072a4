"""Prints the sandbox bank's start-up times (first start with PKI creation, restart) and the
time to create and read a 1,000-member batch of due-date charges over mutual TLS.

``--members N``: another batch size; ``--smoke`` (``make bench-smoke``): 50 members. Either way
the batch read back must hold every member (or the run ends with an error).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.sandbox_harness import running_sandbox
from treasury_app.domain.identifiers import new_txid

MEMBERS = 1000
SMOKE_MEMBERS = 50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=MEMBERS, help="members of the batch")
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_MEMBERS} members")
    args = parser.parse_args()
    count = SMOKE_MEMBERS if args.smoke else args.members
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with running_sandbox(root, "--clock-start", "2026-11-18T13:00:00Z") as sandbox:
            print(
                f"sandbox first start (creates CA, certificates, seed): "
                f"{sandbox.startup_seconds:.2f} s"
            )
        with running_sandbox(root) as sandbox:
            print(f"sandbox restart on the same data dir: {sandbox.startup_seconds:.2f} s")
            with sandbox.client("qrcodes") as qr:
                headers = {"Authorization": f"Bearer {sandbox.token(qr, 'qrcodes')}"}
                members = [
                    {
                        "txid": new_txid(),
                        "calendario": {"dataDeVencimento": "2026-12-20"},
                        "devedor": {"cpf": "40364478829", "nome": f"Devedor {i}"},
                        "valor": {"original": f"{100 + i}.00"},
                        "chave": "financeiro@empresasandbox.com.br",
                    }
                    for i in range(count)
                ]
                started = time.perf_counter()
                put = qr.put(
                    "/lotecobv/bench1000",
                    headers=headers,
                    json={"descricao": "bench", "cobsv": members},
                )
                put_s = time.perf_counter() - started
                started = time.perf_counter()
                got = qr.get("/lotecobv/bench1000", headers=headers)
                get_s = time.perf_counter() - started
                if put.status_code != 202 or got.status_code != 200:
                    raise SystemExit(f"lotecobv refused: {put.text} / {got.text}")
                held = len(got.json().get("cobsv", []))
                if held != count:
                    raise SystemExit(f"lotecobv read back with {held} members, not {count}")
                print(f"lotecobv with {count:,} members: PUT {put_s:.3f} s, GET {get_s:.3f} s")


if __name__ == "__main__":
    main()
