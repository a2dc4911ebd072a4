"""Start-up, delivered files, shutdown and restarts of the sandbox process."""

from __future__ import annotations

import stat
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from tests.sandbox.conftest import CLOCK_START, Api, assert_problem, body_of
from tests.sandbox_harness import RunningSandbox, start_sandbox
from treasury_app.sandbox.seed import OPENING_BALANCE

POSIX_MODES = sys.platform != "win32"  # Windows ignores modes: ACLs (test_private_files.py)

TITLES = {"qrcodes": "QR Codes API", "accounts": "Accounts API"}


def _subject(cert: x509.Certificate, oid: x509.ObjectIdentifier) -> str:
    return str(cert.subject.get_attributes_for_oid(oid)[0].value)


def test_first_start_restart_and_reset(tmp_path: Path) -> None:
    """How long each start takes: tests/bench/bench_sandbox.py prints it."""
    first = start_sandbox(tmp_path, "--clock-start", CLOCK_START)
    try:
        ready_file = tmp_path / "ready.json"
        assert ready_file.is_file()
        ready = first.ready
        assert ready["pid"] == first.process.pid
        for api in ("qrcodes", "accounts"):
            assert ready[f"{api}_url"].startswith("https://127.0.0.1:")
        assert Path(ready["ca_file"]).is_absolute() and Path(ready["ca_file"]).is_file()
        assert Path(ready["credentials_file"]).is_absolute()

        bank = Api(first, "accounts")
        try:
            balance = bank.balance()
            payment = bank.settle(bank.paid(Decimal("432.10"))["endToEndId"])
            assert bank.balance() == balance - Decimal("432.10")
            now = bank.now()
        finally:
            bank.close()
        client_ids = {api: cred["client_id"] for api, cred in first.credentials.items()}
        first_ca = Path(ready["ca_file"]).read_bytes()
    finally:
        code = first.stop()
    output = first.process.stdout.read() if first.process.stdout else ""
    assert code == 0, output
    assert "Sandbox bank stopped." in output
    assert not ready_file.exists()  # the clean stop removes the ready file
    # Its log never shows a certificate password, only where the credentials are; its data
    # are its owner's only.
    for cred in first.credentials.values():
        assert cred["pfx_password"] not in output and cred["client_secret"] not in output
    assert "credentials.json" in output
    databases = list((tmp_path / "bank").glob("*.sqlite3")) + list((tmp_path / "bank").glob("*.db"))
    assert databases
    if POSIX_MODES:
        assert stat.S_IMODE((tmp_path / "bank").stat().st_mode) == 0o700
        assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in databases)

    # Restart on the same data directory: same PKI, same state, the clock carries on.
    second = start_sandbox(tmp_path)
    try:
        assert second.ready["ca_file"] == first.ready["ca_file"]
        assert Path(second.ready["ca_file"]).read_bytes() == first_ca  # the PKI kept
        assert {api: c["client_id"] for api, c in second.credentials.items()} == client_ids
        bank = Api(second, "accounts")
        try:
            assert bank.balance() == balance - Decimal("432.10")
            kept = bank.pix(payment["endToEndId"])
            assert kept["status"] == "SETTLED"
            assert kept["history"] == payment["history"]
            assert bank.now() >= now
            assert bank.now()[:10] == CLOCK_START[:10]
        finally:
            bank.close()
    finally:
        assert second.stop() == 0

    # --reset starts afresh: new credentials, the seeded balance, no payments.
    third = start_sandbox(tmp_path, "--reset", "--clock-start", CLOCK_START)
    try:
        assert {api: c["client_id"] for api, c in third.credentials.items()} != client_ids
        bank = Api(third, "accounts")
        try:
            statement = body_of(
                bank.get(
                    "/api/v2/accounts/transactions",
                    params={"startDate": "2026-08-01", "perPage": 1000},
                )
            )["data"]
            assert bank.balance() == statement[0]["balanceAfter"]
            assert statement[-1]["amount"] == OPENING_BALANCE  # the opening entry
            assert all(e.get("endToEndId") != payment["endToEndId"] for e in statement)
            assert_problem(bank.get(f"/api/v2/pix/payments/{payment['endToEndId']}"), 404)
        finally:
            bank.close()
    finally:
        assert third.stop() == 0


def test_delivered_credentials_and_files(sandbox: RunningSandbox) -> None:
    credentials = sandbox.credentials
    assert set(credentials) == {"qrcodes", "accounts"}
    assert credentials["qrcodes"]["client_id"] != credentials["accounts"]["client_id"]
    for api, cred in credentials.items():
        assert set(cred) >= {"client_id", "client_secret", "pfx", "pfx_password"}
        assert cred["client_secret"] and cred["pfx_password"]
        pfx = Path(cred["pfx"])
        assert pfx.is_absolute() and pfx.is_file()
        key, cert, chain = pkcs12.load_key_and_certificates(
            pfx.read_bytes(), cred["pfx_password"].encode()
        )
        assert key is not None and cert is not None and chain
        assert _subject(cert, NameOID.COMMON_NAME) == cred["client_id"]
        assert _subject(cert, NameOID.ORGANIZATIONAL_UNIT_NAME) == TITLES[api]
        with pytest.raises(ValueError):
            pkcs12.load_key_and_certificates(pfx.read_bytes(), b"wrong password")

        base = pfx.with_suffix("")
        crt, key_file, csr = (base.with_suffix(s) for s in (".crt", ".key", ".csr"))
        assert x509.load_pem_x509_certificate(crt.read_bytes()) == cert
        request = x509.load_pem_x509_csr(csr.read_bytes())
        assert request.subject == cert.subject and request.is_signature_valid
        assert key_file.read_bytes().startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
        for private in (key_file, pfx):
            assert not POSIX_MODES or stat.S_IMODE(private.stat().st_mode) == 0o600
    credentials_file = Path(sandbox.ready["credentials_file"])
    assert not POSIX_MODES or stat.S_IMODE(credentials_file.stat().st_mode) == 0o600


def test_shared_sandbox_is_running(sandbox: RunningSandbox) -> None:
    assert sandbox.process.poll() is None
    assert sandbox.ready["pid"] == sandbox.process.pid


def test_extra_sandbox_reuses_the_existing_pki(
    sandbox: RunningSandbox, make_sandbox: Callable[..., RunningSandbox]
) -> None:
    """An extra sandbox given the shared one's PKI keeps it (no keys made: a quick start)."""
    running = make_sandbox("--clock-start", CLOCK_START)
    assert (
        Path(running.ready["ca_file"]).read_bytes() == Path(sandbox.ready["ca_file"]).read_bytes()
    )
    assert (
        running.credentials["accounts"]["client_id"] == sandbox.credentials["accounts"]["client_id"]
    )
    with running.client("accounts") as client:
        assert client.get("/sandbox/status").status_code == 200


def test_bad_clock_start_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="timezone"):
        start_sandbox(tmp_path, "--clock-start", "2026-11-18T10:00:00")
