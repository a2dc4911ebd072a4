"""A production profile's bank addresses and CAs as last confirmed: what differs (host, CA
fingerprint), where the confirmation is kept (not in the profile file), and its audit rows."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization

from tests.services.session_fixtures import app_paths
from treasury_app.api.tls import Trust
from treasury_app.config import AppPaths
from treasury_app.ledger import Ledger, open_ledger
from treasury_app.sandbox import pki
from treasury_app.services.profiles import (
    ApiProfile,
    CaFileError,
    Endpoint,
    EndpointConfirmations,
    Profile,
    ProfileStore,
    endpoint_changes,
    endpoint_of,
    host_of,
    read_ca_certificates,
)
from treasury_app.services.session import ledger_path

POSIX_MODES = sys.platform != "win32"  # Windows ignores modes: ACLs (test_private_files.py)

__all__ = ["app_paths"]
NAME = "Banco Real"


@pytest.fixture(scope="module")
def cas() -> tuple[x509.Certificate, x509.Certificate]:
    return pki.new_ca("Bank Root CA").cert, pki.new_ca("Someone Else CA").cert


def _pem(*certificates: x509.Certificate) -> bytes:
    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certificates)


def _fingerprint(certificate: x509.Certificate) -> str:
    digest = certificate.fingerprint(hashes.SHA256())
    return ":".join(f"{byte:02X}" for byte in digest)


@pytest.fixture
def ca_file(tmp_path: Path, cas) -> Path:
    path = tmp_path / "bank-ca.pem"
    path.write_bytes(_pem(cas[0]))
    return path


def _profile(ca_file: Path | None, **apis: str) -> Profile:
    return Profile(
        name=NAME,
        environment="production",
        qrcodes=ApiProfile(
            base_url=apis.get("qrcodes", "https://pix.bank.example/v2"),
            client_id="qr",
            pfx_path=Path("/certs/qrcodes.pfx"),
        ),
        accounts=ApiProfile(
            base_url=apis.get("accounts", "https://accounts.bank.example:8443"),
            client_id="acc",
            pfx_path=Path("/certs/accounts.pfx"),
            ca_file=ca_file,
        ),
    )


def _confirmed(profile: Profile) -> dict:
    return {api: endpoint_of(profile.api(api), api) for api in ("qrcodes", "accounts")}


def test_the_same_addresses_and_ca_are_not_a_change(ca_file: Path, tmp_path: Path) -> None:
    profile = _profile(ca_file)
    assert endpoint_changes(profile, _confirmed(profile)) == ()
    # The same CA moved to another file is the same authority.
    moved = tmp_path / "elsewhere.pem"
    moved.write_bytes(ca_file.read_bytes())
    assert endpoint_changes(_profile(moved), _confirmed(profile)) == ()


def test_a_new_host_is_a_change_with_old_and_new_host(ca_file: Path) -> None:
    confirmed = _confirmed(_profile(ca_file))
    changes = endpoint_changes(
        _profile(ca_file, qrcodes="https://pix.attacker.example/v2"), confirmed
    )
    assert [change.api for change in changes] == ["qrcodes"]
    change = changes[0]
    assert (change.old_host, change.new_host) == ("pix.bank.example", "pix.attacker.example")
    assert not change.ca_changed and change.new.ca_file is None
    # A path on the same host is a change too (shown with the full address).
    changes = endpoint_changes(_profile(ca_file, qrcodes="https://pix.bank.example/v3"), confirmed)
    assert changes[0].old.base_url.endswith("/v2") and changes[0].new.base_url.endswith("/v3")


def test_a_new_ca_is_a_change_with_its_sha256_fingerprint(ca_file: Path, cas) -> None:
    confirmed = _confirmed(_profile(ca_file))
    ca_file.write_bytes(_pem(cas[1]))  # same path, other authority
    changes = endpoint_changes(_profile(ca_file), confirmed)
    assert [change.api for change in changes] == ["accounts"]
    change = changes[0]
    assert change.ca_changed and change.old_host == change.new_host == "accounts.bank.example:8443"
    (certificate,) = change.new.ca_certificates
    assert certificate.subject == "Someone Else CA"
    assert certificate.sha256 == _fingerprint(cas[1])  # as `openssl x509 -fingerprint -sha256`
    assert len(certificate.sha256) == 32 * 3 - 1


def test_switching_to_the_system_trust_store_is_a_change(ca_file: Path) -> None:
    confirmed = _confirmed(_profile(ca_file))
    (change,) = endpoint_changes(_profile(None), confirmed)
    assert change.api == "accounts" and change.ca_changed and change.new.ca_file is None
    assert change.new.fingerprints() == frozenset()


def test_a_chain_lists_every_certificate(tmp_path: Path, cas) -> None:
    chain = tmp_path / "chain.pem"
    chain.write_bytes(b"# the bank's chain\n" + _pem(*cas))
    endpoint = endpoint_of(_profile(chain).accounts, "accounts")
    assert [c.sha256 for c in endpoint.ca_certificates] == [_fingerprint(c) for c in cas]


def test_a_missing_or_unreadable_ca_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "gone.pem"
    with pytest.raises(CaFileError, match=r"ca_file\.missing .*gone\.pem") as error:
        endpoint_changes(_profile(missing), {})
    assert error.value.api == "accounts"
    garbage = tmp_path / "garbage.pem"
    garbage.write_bytes(b"not a certificate")
    with pytest.raises(CaFileError, match=r"ca_file\.no_certificate"):
        endpoint_changes(_profile(garbage), {})


def test_never_confirmed_means_every_api_is_new(ca_file: Path) -> None:
    changes = endpoint_changes(_profile(ca_file), {})
    assert [(c.api, c.old, c.old_host) for c in changes] == [
        ("qrcodes", None, None),
        ("accounts", None, None),
    ]
    assert all(change.ca_changed for change in changes)


def test_sandbox_profiles_are_exempt_unless_once_confirmed(ca_file: Path) -> None:
    local = _profile(
        ca_file, qrcodes="https://127.0.0.1:8443", accounts="https://localhost:9443/api"
    ).model_copy(update={"environment": "sandbox"})
    assert endpoint_changes(local, {}) == ()  # the embedded sandbox bank, on this computer
    # A "sandbox" whose bank is elsewhere is checked like any profile: else an edit of a
    # production profile's file to "sandbox" (never confirmed yet) would skip the check.
    sandbox = _profile(ca_file).model_copy(update={"environment": "sandbox"})
    assert [c.api for c in endpoint_changes(sandbox, {})] == ["qrcodes", "accounts"]
    # A confirmed production profile whose file now says "sandbox" is still checked: else an
    # outside edit would skip the confirmation by changing the environment too.
    confirmed = _confirmed(_profile(ca_file))
    moved = sandbox.model_copy(
        update={"qrcodes": sandbox.qrcodes.model_copy(update={"base_url": "https://evil.example"})}
    )
    assert [c.api for c in endpoint_changes(moved, confirmed)] == ["qrcodes"]


def test_hosts_keep_their_port_and_ipv6_brackets() -> None:
    assert host_of("https://Bank.Example/v2") == "bank.example"
    assert host_of("https://127.0.0.1:8443/api") == "127.0.0.1:8443"
    assert host_of("https://[::1]:9000") == "[::1]:9000"


def test_a_look_alike_host_is_shown_as_it_goes_on_the_wire() -> None:
    # A Cyrillic "а" in place of the Latin "a": shown in its ASCII (punycode) form.
    shown = host_of("https://api.it\u0430u.com.br/v2")
    assert shown.startswith("api.xn--") and shown.isascii()
    assert host_of("https://api.itau.com.br/v2") == "api.itau.com.br"


def test_a_trusted_certificate_block_is_refused_and_never_trusted(
    ca_file: Path, cas, tmp_path: Path
) -> None:
    """ssl trusts "TRUSTED CERTIFICATE" blocks that the fingerprints never showed: a CA file
    with one is refused, and the TLS context trusts only the plain certificates."""
    der = cas[1].public_bytes(serialization.Encoding.DER)
    body = base64.encodebytes(der).decode("ascii").replace("\n", "")
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    trusted = "-----BEGIN TRUSTED CERTIFICATE-----\n" + "\n".join(lines)
    trusted += "\n-----END TRUSTED CERTIFICATE-----\n"
    tampered = tmp_path / "tampered.pem"
    tampered.write_bytes(ca_file.read_bytes() + trusted.encode("ascii"))
    with pytest.raises(CaFileError, match="TRUSTED CERTIFICATE"):
        read_ca_certificates(tampered, "accounts")
    context = Trust.bundle(tampered).base_context()
    subjects = [dict(x[0] for x in c["subject"])["commonName"] for c in context.get_ca_certs()]
    assert subjects == ["Bank Root CA"]


async def test_confirming_records_outside_the_profile_file_and_audits_each_api(
    app_paths: AppPaths, ca_file: Path, cas, ledger: Ledger
) -> None:
    endpoints = EndpointConfirmations(app_paths)
    store = ProfileStore(app_paths)
    profile = await store.save(_profile(ca_file))
    first = endpoints.pending(profile)
    assert len(first) == 2
    await endpoints.confirm(NAME, first, confirmed_in="profile dialog", audit=ledger.audit)
    assert endpoints.pending(profile) == ()
    assert endpoints.path_for(NAME).parent != store.directory
    if POSIX_MODES:
        assert oct(endpoints.path_for(NAME).stat().st_mode & 0o777) == "0o600"

    edited = await store.save(_profile(ca_file, accounts="https://accounts.newbank.example"))
    (change,) = endpoints.pending(edited)
    await endpoints.confirm(NAME, (change,), confirmed_in="profile dialog", audit=ledger.audit)
    assert endpoints.pending(edited) == ()
    rows = await ledger.audit.entries(action="profile.endpoints")
    # The open ledger got every row: the profile's own file was never opened.
    assert not ledger_path(app_paths, NAME).exists()
    assert [(row.action, row.outcome, row.reference) for row in rows] == [
        ("profile.endpoints.confirm", "confirmed", NAME)
    ] * 3
    latest = rows[0].details
    assert latest["api"] == "accounts"
    assert latest["old_host"] == "accounts.bank.example:8443"
    assert latest["new_host"] == "accounts.newbank.example"
    assert latest["ca_sha256"] == [_fingerprint(cas[0])] and latest["ca_changed"] is False
    assert latest["confirmed_in"] == "profile dialog"
    assert {rows[2].details["api"], rows[1].details["api"]} == {"qrcodes", "accounts"}
    assert rows[2].details["old_host"] is None  # the first confirmation
    assert "client" not in json.dumps([row.details for row in rows])


async def test_an_outside_edit_of_the_profile_file_stays_pending(
    app_paths: AppPaths, ca_file: Path
) -> None:
    endpoints = EndpointConfirmations(app_paths)
    store = ProfileStore(app_paths)
    profile = await store.save(_profile(ca_file))
    await endpoints.confirm(NAME, endpoints.pending(profile), confirmed_in="unlock")
    path = store.path_for(NAME)
    path.write_text(path.read_text().replace("pix.bank.example", "pix.elsewhere.example"))
    (change,) = endpoints.pending(store.load(NAME))
    assert (change.old_host, change.new_host) == ("pix.bank.example", "pix.elsewhere.example")
    # Without an open ledger the row goes to the profile's own ledger.
    ledger = open_ledger(ledger_path(app_paths, NAME), profile=NAME)
    try:
        assert [row.details["confirmed_in"] for row in await ledger.audit.entries()] == [
            "unlock"
        ] * 2
    finally:
        await ledger.close()


async def test_declining_audits_and_confirms_nothing(app_paths: AppPaths, ca_file: Path) -> None:
    endpoints = EndpointConfirmations(app_paths)
    profile = _profile(ca_file)
    changes = endpoints.pending(profile)
    await endpoints.decline(NAME, changes)
    assert endpoints.pending(profile) == changes
    assert not endpoints.path_for(NAME).exists()
    ledger = open_ledger(ledger_path(app_paths, NAME), profile=NAME)
    try:
        rows = await ledger.audit.entries(action="profile.endpoints.confirm")
    finally:
        await ledger.close()
    assert [(row.outcome, row.details["api"]) for row in reversed(rows)] == [
        ("declined", "qrcodes"),
        ("declined", "accounts"),
    ]


async def test_a_damaged_record_asks_again(app_paths: AppPaths, ca_file: Path) -> None:
    endpoints = EndpointConfirmations(app_paths)
    profile = _profile(ca_file)
    await endpoints.confirm(NAME, endpoints.pending(profile), confirmed_in="unlock")
    endpoints.path_for(NAME).write_text("{not json")
    assert len(endpoints.pending(profile)) == 2
    endpoints.path_for(NAME).write_text(json.dumps({"apis": {"qrcodes": {"oops": 1}}}))
    assert len(endpoints.pending(profile)) == 2


def test_endpoint_json_round_trip(ca_file: Path) -> None:
    endpoint = endpoint_of(_profile(ca_file).accounts, "accounts")
    assert Endpoint.from_json(json.loads(json.dumps(endpoint.to_json()))) == endpoint
