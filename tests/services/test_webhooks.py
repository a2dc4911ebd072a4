"""WebhooksService against a real sandbox bank (its own, for this module) over mutual TLS:
one view over the per-key Pix webhooks, webhookrec, webhookcobr and the Accounts API's four
event webhooks; registration checked locally before sending; every change audited, and no
header value (a secret) in the audit."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import (
    audit_text,
    control_of,
    running_bank,
    sent,
    transport,
)
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import WebhookMethod, WebhookType
from treasury_app.api.errors import BadRequest, Forbidden, NotFound
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.clock import Clock
from treasury_app.ledger import Ledger
from treasury_app.sandbox.seed import COMPANY
from treasury_app.services.webhooks import (
    MAX_URL_LENGTH,
    WebhookConfigError,
    WebhookKind,
    WebhooksService,
    WebhookView,
    audit_url,
    kinds_of,
    validate_webhook_url,
)

KEYS: list[str] = list(COMPANY["keys"])  # CNPJ, e-mail, phone, random key
PHONE_KEY = "+5511987650000"
HOOK = "https://127.0.0.1:9/treasury/hooks"  # nothing listens: a delivery would fail fast
SECRET = "sk_live_9f8e7d6c5b4a"  # a receiver's API key: must never reach the audit
ACCOUNT_KINDS = [WebhookKind.TRANSFER, WebhookKind.RECEIVE, WebhookKind.REFUND, WebhookKind.CASHOUT]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    with running_bank(tmp_path_factory.mktemp("webhooks-bank")) as running:
        yield running


@pytest.fixture(scope="module")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    with control_of(sandbox) as api:
        yield api


@pytest.fixture(scope="module")
async def qr_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    async with transport(sandbox, "qrcodes", control) as opened:
        yield opened


@pytest.fixture(scope="module")
async def accounts_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    async with transport(sandbox, "accounts", control) as opened:
        yield opened


@pytest.fixture
def qrcodes(qr_transport: ApiTransport) -> QrCodesClient:
    return QrCodesClient(qr_transport)


@pytest.fixture
def accounts(accounts_transport: ApiTransport) -> AccountsClient:
    return AccountsClient(accounts_transport)


@pytest.fixture
def service(
    qrcodes: QrCodesClient, accounts: AccountsClient, ledger: Ledger, bank_clock: Clock
) -> WebhooksService:
    return WebhooksService(qrcodes, accounts, ledger, pix_keys=KEYS, clock=bank_clock)


@pytest.fixture
async def limited(
    sandbox: RunningSandbox, control: Api, ledger: Ledger, bank_clock: Clock
) -> AsyncIterator[WebhooksService]:
    """A service whose tokens may not touch webhooks: every webhook call answers 403."""
    async with (
        transport(sandbox, "qrcodes", control, scopes=("cob.read",)) as qr,
        transport(sandbox, "accounts", control, scopes=("billets.read",)) as acc,
    ):
        yield WebhooksService(
            QrCodesClient(qr), AccountsClient(acc), ledger, pix_keys=KEYS, clock=bank_clock
        )


async def remove_all(service: WebhooksService) -> None:
    """Leave the bank without webhooks (a failed test must not leak into the next)."""
    for view in await service.overview():
        if view.registered:
            with contextlib.suppress(NotFound):
                await service.remove(view.kind, key=view.key)


def slots(views: list[WebhookView]) -> list[tuple[WebhookKind, str | None]]:
    return [(v.kind, v.key) for v in views]


EVERY_SLOT = [(WebhookKind.PIX, key) for key in KEYS] + [
    (WebhookKind.REC, None),
    (WebhookKind.COBR, None),
    *((kind, None) for kind in ACCOUNT_KINDS),
]


# Reading -------------------------------------------------------------------------------------
async def test_overview_of_a_bank_without_webhooks(
    service: WebhooksService, qr_transport: ApiTransport, accounts_transport: ApiTransport
) -> None:
    assert service.pix_keys == tuple(KEYS)
    before = sent(qr_transport), sent(accounts_transport)
    views = await service.overview()
    assert slots(views) == EVERY_SLOT
    assert not any(v.registered for v in views)
    assert all(v.delivery_url is None for v in views)
    assert {v.api for v in views[: len(KEYS) + 2]} == {"qrcodes"}
    assert {v.api for v in views[len(KEYS) + 2 :]} == {"accounts"}
    # list + one GET per key it did not list + rec + cobr; one list on the Accounts API
    assert sent(qr_transport) - before[0] == 1 + len(KEYS) + 2
    assert sent(accounts_transport) - before[1] == 1
    assert (await service.get("rec")).registered is False
    assert await service.get(WebhookKind.PIX, key=KEYS[0]) == WebhookView(
        WebhookKind.PIX, None, KEYS[0]
    )


# Changing ------------------------------------------------------------------------------------
async def test_register_and_remove_every_kind(
    service: WebhooksService, accounts: AccountsClient, ledger: Ledger
) -> None:
    try:
        pix = await service.register("pix", HOOK + "/pix-in", key="+55 (11) 98765-0000")
        assert (pix.kind, pix.key, pix.url) == (WebhookKind.PIX, PHONE_KEY, HOOK + "/pix-in")
        assert pix.delivery_url == HOOK + "/pix-in/pix"
        assert pix.created_at is not None
        rec = await service.register(WebhookKind.REC, HOOK + "/rec-in/")
        assert rec.delivery_url == HOOK + "/rec-in/rec"
        cobr = await service.register(WebhookKind.COBR, "  " + HOOK + "  ")
        assert cobr.url == HOOK  # trimmed before sending
        transfer = await service.register(
            WebhookKind.TRANSFER,
            HOOK + "/transfer",
            enabled=False,
            email="tesouraria@example.com.br",
            method="put",
            pause_on_fail=True,
            headers={"X-Api-Key": SECRET, "X-Tenant": "acme"},
        )
        assert transfer.header_names == ("X-Api-Key", "X-Tenant")
        assert (transfer.enabled, transfer.method, transfer.pause_on_fail) == (False, "PUT", True)
        assert transfer.email == "tesouraria@example.com.br"
        assert transfer.webhook_id is not None
        assert SECRET not in repr(transfer)
        # The value did reach the bank (it sends it with each notification).
        assert (await accounts.get_webhook(WebhookType.TRANSFER)).headers["X-Api-Key"] == SECRET
        receive = await service.register(
            "RECEIVE", HOOK + "/receive?token=abc123&tenant=acme", enabled=False
        )
        assert receive.url == HOOK + "/receive?token=abc123&tenant=acme"  # stored as given

        views = {(v.kind, v.key): v for v in await service.overview()}
        assert list(views) == EVERY_SLOT
        assert views[(WebhookKind.PIX, PHONE_KEY)] == pix
        assert views[(WebhookKind.REC, None)] == rec
        assert views[(WebhookKind.COBR, None)] == cobr
        assert views[(WebhookKind.TRANSFER, None)] == transfer
        assert views[(WebhookKind.RECEIVE, None)].method == "POST"  # the bank's default
        registered = {slot for slot, view in views.items() if view.registered}
        assert registered == {
            (WebhookKind.PIX, PHONE_KEY),
            (WebhookKind.REC, None),
            (WebhookKind.COBR, None),
            (WebhookKind.TRANSFER, None),
            (WebhookKind.RECEIVE, None),
        }

        rows = (await ledger.audit.entries(action="webhook.register"))[::-1]  # oldest first
        assert [(r.outcome, r.reference) for r in rows] == [
            ("ok", f"pix:{PHONE_KEY}"),
            ("ok", "rec"),
            ("ok", "cobr"),
            ("ok", "transfer"),
            ("ok", "receive"),
        ]
        assert rows[0].details == {
            "api": "qrcodes",
            "kind": "pix",
            "key": PHONE_KEY,
            "url": HOOK + "/pix-in",
        }
        assert rows[3].details["header_names"] == ["X-Api-Key", "X-Tenant"]
        assert rows[3].details["url"] == HOOK + "/transfer"
        assert (rows[3].details["method"], rows[3].details["enabled"]) == ("PUT", False)
        assert rows[4].details["url"] == HOOK + "/receive?token=********&tenant=********"
        assert all(r.os_user == "tester" and r.profile == "test" for r in rows)

        # Removing: the bank forgets, the audit keeps what was removed.
        removed = [
            await service.remove("pix", key=PHONE_KEY),
            await service.remove("rec"),
            await service.remove(WebhookKind.COBR),
            await service.remove("transfer"),
            await service.remove(WebhookKind.RECEIVE),
        ]
        assert removed[0] == pix and removed[3] == transfer
        assert not any(v.registered for v in await service.overview())
        with pytest.raises(NotFound):
            await accounts.get_webhook(WebhookType.TRANSFER)
        removals = (await ledger.audit.entries(action="webhook.remove"))[::-1]
        assert [(r.outcome, r.details["kind"], r.details["url"]) for r in removals] == [
            ("ok", "pix", HOOK + "/pix-in"),
            ("ok", "rec", HOOK + "/rec-in/"),
            ("ok", "cobr", HOOK),
            ("ok", "transfer", HOOK + "/transfer"),
            ("ok", "receive", HOOK + "/receive?token=********&tenant=********"),
        ]
        assert removals[0].details["key"] == PHONE_KEY
        assert removals[3].details["webhook_id"] == transfer.webhook_id

        # Nothing left to remove: the bank's 404, and no audit row for a change not made.
        count = len(await ledger.audit.entries(action="webhook"))
        with pytest.raises(NotFound):
            await service.remove("transfer")
        with pytest.raises(NotFound):
            await service.remove("pix", key=PHONE_KEY)
        assert len(await ledger.audit.entries(action="webhook")) == count == 10
    finally:
        await remove_all(service)
    text = await audit_text(ledger)
    assert SECRET not in text
    assert "abc123" not in text
    assert "X-Api-Key" in text


async def test_a_second_registration_replaces_the_first(
    service: WebhooksService, ledger: Ledger
) -> None:
    try:
        first = await service.register("refund", HOOK + "/a", enabled=False)
        second = await service.register("refund", HOOK + "/b", enabled=False, headers={})
        assert second.webhook_id == first.webhook_id  # one per type
        assert (await service.get("refund")).url == HOOK + "/b"
        key_first = await service.register("pix", HOOK + "/k1", key=KEYS[1])
        key_second = await service.register("pix", HOOK + "/k2", key=KEYS[1].upper())
        assert key_second.key == KEYS[1]  # e-mail keys are lower case
        assert key_second.created_at == key_first.created_at
        assert (await service.get("pix", key=KEYS[1])).url == HOOK + "/k2"
        urls = [r.details["url"] for r in await ledger.audit.entries(action="webhook.register")]
        assert urls == [HOOK + "/k2", HOOK + "/k1", HOOK + "/b", HOOK + "/a"]
    finally:
        await remove_all(service)


async def test_keys_the_profile_does_not_name_are_shown_too(
    qrcodes: QrCodesClient, accounts: AccountsClient, ledger: Ledger, bank_clock: Clock
) -> None:
    only_cnpj = WebhooksService(
        qrcodes, accounts, ledger, pix_keys=["11.222.333/0001-81"], clock=bank_clock
    )
    assert only_cnpj.pix_keys == (KEYS[0],)
    try:
        await only_cnpj.register("pix", HOOK + "/evp", key=KEYS[3])
        pix_rows = kinds_of(await only_cnpj.overview(), WebhookKind.PIX)
        assert [(v.key, v.url) for v in pix_rows] == [(KEYS[0], None), (KEYS[3], HOOK + "/evp")]
    finally:
        await remove_all(only_cnpj)


# Local checks --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "url", "options", "field"),
    [
        ("pix", "http://erp.example.com.br/hooks", {"key": KEYS[0]}, "url"),
        ("transfer", "HTTP://erp.example.com.br/hooks", {}, "url"),
        ("rec", "ftp://erp.example.com.br/hooks", {}, "url"),
        ("rec", "erp.example.com.br/hooks", {}, "url"),
        ("cobr", "", {}, "url"),
        ("cobr", "   ", {}, "url"),
        ("cobr", "https://", {}, "url"),
        ("cobr", "https://erp.example .com.br/", {}, "url"),
        ("cobr", "https://erp.example.com.br:99999/", {}, "url"),
        ("cobr", "https://ação.example.com.br/", {}, "url"),
        ("cobr", "https://a.example.com.br/" + "x" * MAX_URL_LENGTH, {}, "url"),
        ("receive", "https://erp:hunter2@erp.example.com.br/", {}, "url"),
        ("pix", HOOK, {}, "key"),
        ("pix", HOOK, {"key": "  "}, "key"),
        ("pix", HOOK, {"key": "not a key!"}, "key"),
        ("rec", HOOK, {"key": KEYS[0]}, "key"),
        ("transfer", HOOK, {"key": KEYS[0]}, "key"),
        ("pix", HOOK, {"key": KEYS[0], "enabled": True}, "options"),
        ("cobr", HOOK, {"headers": {"X-Api-Key": SECRET}}, "options"),
        ("rec", HOOK, {"email": "a@b.com"}, "options"),
        ("transfer", HOOK, {"enabled": "yes"}, "options"),
        ("transfer", HOOK, {"headers": {"Bad Header": SECRET}}, "headers"),
        ("transfer", HOOK, {"headers": {"X-Api-Key": SECRET + "\r\nX-Evil: 1"}}, "headers"),
        ("transfer", HOOK, {"headers": {"X-Api-Key": SECRET, "x-api-key": SECRET}}, "headers"),
        ("transfer", HOOK, {"headers": {"X-Count": 3}}, "headers"),
        ("refund", HOOK, {"email": "tesouraria"}, "email"),
        ("refund", HOOK, {"method": "GET"}, "method"),
        ("billet", HOOK, {}, "kind"),
        ("", HOOK, {}, "kind"),
    ],
)
async def test_registration_is_checked_before_sending(
    service: WebhooksService,
    qr_transport: ApiTransport,
    accounts_transport: ApiTransport,
    ledger: Ledger,
    kind: str,
    url: str,
    options: dict[str, Any],
    field: str,
) -> None:
    audited = await ledger.audit.entries()  # what a new ledger holds already
    before = sent(qr_transport, accounts_transport)
    with pytest.raises(WebhookConfigError) as error:
        await service.register(kind, url, **options)
    assert error.value.field == field
    assert isinstance(error.value, ValueError)
    assert str(error.value)
    assert SECRET not in str(error.value) and "hunter2" not in str(error.value)
    assert sent(qr_transport, accounts_transport) == before  # nothing reached the bank
    assert await ledger.audit.entries() == audited  # nor the audit


async def test_http_is_refused_with_a_clear_message() -> None:
    with pytest.raises(WebhookConfigError, match=r"webhook\.url_not_https.*http://"):
        validate_webhook_url("http://erp.example.com.br/hooks")
    assert validate_webhook_url(" https://Erp.Example.com.br:8443/a?b=c ") == (
        "https://Erp.Example.com.br:8443/a?b=c"
    )


async def test_remove_is_checked_before_sending(
    service: WebhooksService,
    qrcodes: QrCodesClient,
    accounts: AccountsClient,
    ledger: Ledger,
    qr_transport: ApiTransport,
    accounts_transport: ApiTransport,
    bank_clock: Clock,
) -> None:
    before = sent(qr_transport, accounts_transport)
    for kind, key, field in [
        ("pix", None, "key"),
        ("pix", "not a key!", "key"),
        ("cashout", KEYS[0], "key"),
        ("webhookrec", None, "kind"),
    ]:
        with pytest.raises(WebhookConfigError) as error:
            await service.remove(kind, key=key)
        assert error.value.field == field
    with pytest.raises(WebhookConfigError):
        WebhooksService(qrcodes, accounts, ledger, pix_keys=["?"], clock=bank_clock)
    assert sent(qr_transport, accounts_transport) == before


# The bank's refusals -------------------------------------------------------------------------
async def test_a_key_of_another_account_is_refused_by_the_bank(
    service: WebhooksService, ledger: Ledger
) -> None:
    with pytest.raises(BadRequest) as error:
        await service.register("pix", HOOK, key="contato@outraempresa.com.br")
    assert error.value.status == 400
    assert "chave" in error.value.properties
    (row,) = await ledger.audit.entries(action="webhook.register")
    assert (row.outcome, row.reference) == ("rejected", "pix:contato@outraempresa.com.br")
    assert row.details["status"] == 400
    assert row.details["violations"] == ["chave"]
    assert row.details["url"] == HOOK
    assert not (await service.get("pix", key=KEYS[0])).registered


async def test_missing_permissions_are_typed_and_audited(
    limited: WebhooksService, service: WebhooksService, ledger: Ledger
) -> None:
    audited = len(await ledger.audit.entries())  # what a new ledger holds already
    with pytest.raises(Forbidden):
        await limited.overview()
    with pytest.raises(Forbidden):
        await limited.get("cashout")
    with pytest.raises(Forbidden):
        await limited.register(
            "transfer", HOOK, enabled=False, headers={"Authorization": f"Bearer {SECRET}"}
        )
    with pytest.raises(Forbidden):
        await limited.register("rec", HOOK)
    rows = (await ledger.audit.entries(action="webhook.register"))[::-1]
    assert [(r.outcome, r.reference, r.details["status"]) for r in rows] == [
        ("rejected", "transfer", 403),
        ("rejected", "rec", 403),
    ]
    assert rows[0].details["header_names"] == ["Authorization"]
    with pytest.raises(Forbidden):  # reading what to remove is refused: no change, no row
        await limited.remove("transfer")
    assert len(await ledger.audit.entries()) == audited + 2
    assert SECRET not in await audit_text(ledger)
    assert not any(v.registered for v in await service.overview())


def test_audit_url() -> None:
    assert audit_url(HOOK) == HOOK
    assert audit_url("https://h.example/p?token=x&a=&b=2#frag") == (
        "https://h.example/p?token=********&a=********&b=********"
    )
    assert audit_url("https://h.example/p#frag") == "https://h.example/p"


def test_kinds() -> None:
    assert [k.api for k in WebhookKind] == ["qrcodes"] * 3 + ["accounts"] * 4
    assert WebhookKind.CASHOUT.account_type is WebhookType.CASHOUT
    with pytest.raises(ValueError):
        _ = WebhookKind.REC.account_type
    assert WebhookMethod("POST") is WebhookMethod.POST
