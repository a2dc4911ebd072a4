"""Every notification URL the bank knows for the company, on both APIs, in one place.

The bank tells the company of events through webhooks registered in four different ways:

* QR Codes API, per Pix key (``PUT /webhook/{chave}``): Pix received on a charge; the bank
  posts to ``<url>/pix``. One row per key of the company (:attr:`WebhookKind.PIX`).
* QR Codes API, global: recurrences (``/webhookrec``, posts to ``<url>/rec``) and recurring
  charges (``/webhookcobr``, posts to ``<url>/cobr``).
* Accounts API, one per event type (``/api/v2/webhooks/{type}``): our Pix changed status
  (transfer), Pix received (receive), refund received (refund), our Pix failed (cashout).
  These also carry ``enabled``, ``method``, ``pauseOnFail``, a contact ``email`` and
  ``headers`` sent with each notification.

:class:`WebhooksService` shows them all (:meth:`~WebhooksService.overview`), registers
(:meth:`~WebhooksService.register`) and removes (:meth:`~WebhooksService.remove`) them. What
the user typed is checked here before anything is sent (:class:`WebhookConfigError`: HTTPS
only, no credentials in the URL, a valid Pix key, well-formed headers). Every change that
reaches the bank is audited (``webhook.register``, ``webhook.remove``) with the kind, the key
and the URL, and whether the bank accepted it. Header *values* may be secrets (an API key
for the company's receiver): they never leave this module except towards the bank — neither
the audit, nor :class:`WebhookView`, nor an error message holds them, only header names. For
the same reason the values of a URL's query string are masked in the audit.

:meth:`~WebhooksService.use_team_receiver` points every slot at the team's webhook receiver
(the service that stores the bank's notifications in the team database): each Pix key,
``webhookrec``, ``webhookcobr`` at its base URL (the bank appends ``/pix``, ``/rec``,
``/cobr``), and the four Accounts API kinds at ``<url>/transfer`` (``/receive``, ``/refund``,
``/cashout``) with the receiver's secret in a header. On a team ledger the company's Pix keys
are named as ours before their webhooks are registered (``treasury.our_refs``: the receiver
applies only what is about us).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Awaitable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import Webhook, WebhookConfig, WebhookMethod, WebhookType
from treasury_app.api.errors import ApiError, ApiFailure, NotFound, TransportFailure
from treasury_app.api.qrcodes.automatico_models import WebhookRec
from treasury_app.api.qrcodes.cashin_models import WebhookCompleto, WebhookSolicitado
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.domain.clock import Clock
from treasury_app.domain.errors import PixKeyError, RuleError
from treasury_app.domain.pixkey import detect_key_type, normalize_key
from treasury_app.ledger import Ledger
from treasury_app.services.our_refs import name_ours

__all__ = [
    "MAX_URL_LENGTH",
    "RECEIVER_HEADER",
    "ReceiverRegistration",
    "WebhookConfigError",
    "WebhookKind",
    "WebhookView",
    "WebhooksService",
    "audit_url",
    "kinds_of",
    "validate_webhook_url",
]

T = TypeVar("T")

MAX_URL_LENGTH = 500
"""Longest webhook URL accepted (the sandbox bank's limit; far above any real receiver's)."""
MAX_EMAIL_LENGTH = 254
LIST_FROM = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
"""Start of the window of ``GET /webhook`` (Pix, hence every per-key webhook, began later)."""
LIST_MARGIN = dt.timedelta(days=366)
"""How far past the local clock the window of ``GET /webhook`` reaches (clock skew, a
sandbox whose clock was moved forward)."""
AUDIT_MASK = "********"
RECEIVER_HEADER = "X-Treasury-Secret"
"""The header the team's receiver reads the Accounts API webhooks' secret from."""

_TOKEN_RE = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP header name (RFC 9110 ``token``)."""
_EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_CONTROL_RE = re.compile(r"[\x00-\x20\x7f]")


class WebhookKind(StrEnum):
    """Which webhook: the API it lives on and the events it carries."""

    PIX = "pix"
    """QR Codes API, per Pix key: Pix received on a charge (posted to ``<url>/pix``)."""
    REC = "rec"
    """QR Codes API, global: recurrence status changes (``<url>/rec``)."""
    COBR = "cobr"
    """QR Codes API, global: recurring charges and their attempts (``<url>/cobr``)."""
    TRANSFER = "transfer"
    """Accounts API: one of our Pix changed status."""
    RECEIVE = "receive"
    """Accounts API: a Pix was credited to the account."""
    REFUND = "refund"
    """Accounts API: a refund was credited."""
    CASHOUT = "cashout"
    """Accounts API: one of our Pix failed."""

    @property
    def api(self) -> str:
        """``"qrcodes"`` or ``"accounts"``."""
        return "qrcodes" if self in _QR_KINDS else "accounts"

    @property
    def account_type(self) -> WebhookType:
        """The Accounts API's type of this kind (``ValueError`` for QR Codes API kinds)."""
        if self in _QR_KINDS:
            raise ValueError(f"{self.value} is not a webhook of the Accounts API.")
        return WebhookType(self.value.upper())


_QR_KINDS = frozenset({WebhookKind.PIX, WebhookKind.REC, WebhookKind.COBR})
ACCOUNT_KINDS: tuple[WebhookKind, ...] = (
    WebhookKind.TRANSFER,
    WebhookKind.RECEIVE,
    WebhookKind.REFUND,
    WebhookKind.CASHOUT,
)


class WebhookConfigError(RuleError):
    """What the user asked for cannot be sent (checked locally; nothing reached the bank).

    ``field`` names the input at fault: ``kind``, ``url``, ``key``, ``email``, ``method``,
    ``headers`` or ``options``."""


@dataclass(frozen=True)
class WebhookView:
    """One webhook slot as the bank has it; ``url`` is ``None`` when nothing is registered.

    Only Accounts API webhooks have ``webhook_id``, ``enabled``, ``method``,
    ``pause_on_fail``, ``email`` and headers; of the headers only the names are kept (their
    values may be secrets)."""

    kind: WebhookKind
    url: str | None
    key: str | None = None
    created_at: dt.datetime | None = None
    updated_at: dt.datetime | None = None
    webhook_id: int | str | None = None
    enabled: bool | None = None
    method: str | None = None
    pause_on_fail: bool | None = None
    email: str | None = None
    header_names: tuple[str, ...] = field(default_factory=tuple)

    @property
    def registered(self) -> bool:
        """Whether the bank has a URL for this slot."""
        return self.url is not None

    @property
    def api(self) -> str:
        """``"qrcodes"`` or ``"accounts"``."""
        return self.kind.api

    @property
    def delivery_url(self) -> str | None:
        """Where the bank actually posts: QR Codes API webhooks get ``/pix``, ``/rec`` or
        ``/cobr`` appended to the registered URL; Accounts API webhooks use it as is."""
        if self.url is None:
            return None
        if self.kind in _QR_KINDS:
            return self.url.rstrip("/") + "/" + self.kind.value
        return self.url


@dataclass(frozen=True)
class ReceiverRegistration:
    """One slot pointed at the team's receiver: what was asked (``kind``, ``key``, ``url``)
    and what became of it: the bank's answer (``view``) or why it failed (``error``, the
    bank's or the network's words; never a header value)."""

    kind: WebhookKind
    key: str | None
    url: str
    view: WebhookView | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.view is not None


# --------------------------------------------------------------------------------------------
# Local checks


def validate_webhook_url(url: str) -> str:
    """``url`` trimmed if it can be registered, else :class:`WebhookConfigError`: it must be an
    absolute ``https://`` URL with a host, no spaces, no ``user:password@`` part (the bank would
    store and show it; put a receiver's credentials in Accounts API headers instead) and at
    most :data:`MAX_URL_LENGTH` characters."""
    if not isinstance(url, str):
        raise WebhookConfigError("webhook.url_not_text", field="url")
    text = url.strip()
    if not text:
        raise WebhookConfigError("webhook.url_missing", field="url")
    if len(text) > MAX_URL_LENGTH:
        raise WebhookConfigError(
            "webhook.url_too_long", field="url", length=len(text), max=MAX_URL_LENGTH
        )
    if _CONTROL_RE.search(text) or not text.isascii():
        raise WebhookConfigError("webhook.url_characters", field="url")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError:
        raise WebhookConfigError("webhook.url_invalid", field="url") from None
    if parts.scheme.lower() != "https":
        if not parts.scheme:
            raise WebhookConfigError("webhook.url_no_scheme", field="url")
        raise WebhookConfigError("webhook.url_not_https", field="url", scheme=f"{parts.scheme}://")
    if "@" in parts.netloc:
        raise WebhookConfigError("webhook.url_credentials", field="url")
    if not parts.hostname:
        raise WebhookConfigError("webhook.url_no_host", field="url")
    return text


def _pix_key(key: str | None) -> str:
    if key is None or not str(key).strip():
        raise WebhookConfigError("webhook.key_missing", field="key")
    try:
        return normalize_key(key, detect_key_type(key))
    except PixKeyError as error:
        raise WebhookConfigError(error.code, field="key", **error.params) from None


def _headers(headers: Mapping[str, str] | None) -> dict[str, str] | None:
    if headers is None:
        return None
    if not isinstance(headers, Mapping):
        raise WebhookConfigError("webhook.headers_mapping", field="headers")
    clean: dict[str, str] = {}
    for name, value in headers.items():
        if not isinstance(name, str) or not _TOKEN_RE.fullmatch(name):
            raise WebhookConfigError("webhook.header_name", field="headers", name=str(name))
        if name.lower() in {n.lower() for n in clean}:
            raise WebhookConfigError("webhook.header_twice", field="headers", name=name)
        # The value is never quoted back: it may be a secret.
        if not isinstance(value, str) or any(c in value for c in "\r\n\x00"):
            raise WebhookConfigError("webhook.header_value", field="headers", name=name)
        clean[name] = value
    return clean


def _email(email: str | None) -> str | None:
    if email is None:
        return None
    text = email.strip()
    if not text:
        return None
    if len(text) > MAX_EMAIL_LENGTH or not _EMAIL_RE.fullmatch(text):
        raise WebhookConfigError("webhook.email_format", field="email", email=text)
    return text


def _method(method: WebhookMethod | str | None) -> WebhookMethod | None:
    if method is None:
        return None
    try:
        return WebhookMethod(str(method).upper())
    except ValueError:
        raise WebhookConfigError("webhook.method", field="method", method=str(method)) from None


def _kind(kind: WebhookKind | str) -> WebhookKind:
    try:
        return WebhookKind(str(kind).lower())
    except ValueError:
        allowed = ", ".join(k.value for k in WebhookKind)
        raise WebhookConfigError(
            "webhook.unknown_kind", field="kind", kind=str(kind), known=allowed
        ) from None


def audit_url(url: str) -> str:
    """``url`` fit for the audit: the values of its query string masked (a receiver's token
    is sometimes passed there), its fragment dropped."""
    parts = urlsplit(url)
    if not parts.query and not parts.fragment:
        return url
    query = urlencode(
        [(name, AUDIT_MASK) for name, _ in parse_qsl(parts.query, keep_blank_values=True)],
        safe="*",
    )
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


# --------------------------------------------------------------------------------------------
# Views of the bank's answers


def _from_pix(webhook: WebhookCompleto, key: str) -> WebhookView:
    return WebhookView(
        kind=WebhookKind.PIX,
        url=webhook.webhook_url,
        key=webhook.chave or key,
        created_at=webhook.criacao,
    )


def _from_rec(kind: WebhookKind, webhook: WebhookRec) -> WebhookView:
    return WebhookView(kind=kind, url=webhook.webhook_url, created_at=webhook.criacao)


def _from_account(kind: WebhookKind, webhook: Webhook) -> WebhookView:
    return WebhookView(
        kind=kind,
        url=webhook.uri,
        created_at=webhook.created_at,
        updated_at=webhook.updated_at,
        webhook_id=webhook.id,
        enabled=webhook.enabled,
        method=None if webhook.method is None else str(webhook.method),
        pause_on_fail=webhook.pause_on_fail,
        email=webhook.email,
        header_names=tuple(sorted(webhook.headers)),
    )


async def _or_none(call: Awaitable[T]) -> T | None:
    """The awaited value, or ``None`` when the bank answers 404 (nothing registered)."""
    try:
        return await call
    except NotFound:
        return None


async def _gather(*calls: Awaitable[Any]) -> list[Any]:
    """Run ``calls`` at once; wait for all of them, then raise the first failure if any."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return list(results)


# --------------------------------------------------------------------------------------------
# The service


class WebhooksService:
    """One view over every webhook of both APIs; register and remove them, audited.

    ``pix_keys`` are the company's Pix keys (from its profile): each gets a row in
    :meth:`overview` even when no webhook is registered for it yet. Keys the bank lists with
    a webhook are shown too. ``clock`` gives the current UTC time (the window of the bank's
    per-key webhook list ends a year after it)."""

    def __init__(
        self,
        qrcodes: QrCodesClient,
        accounts: AccountsClient,
        ledger: Ledger,
        *,
        pix_keys: Iterable[str] = (),
        clock: Clock,
    ) -> None:
        self._qrcodes = qrcodes
        self._accounts = accounts
        self._ledger = ledger
        self._clock = clock
        keys: list[str] = []
        for key in pix_keys:
            normalized = _pix_key(key)
            if normalized not in keys:
                keys.append(normalized)
        self._keys = tuple(keys)

    @property
    def pix_keys(self) -> tuple[str, ...]:
        """The company's Pix keys, normalized, in the order given."""
        return self._keys

    # -- reading -----------------------------------------------------------------------------

    async def overview(self) -> list[WebhookView]:
        """Every webhook slot, registered or not: one per Pix key (the configured keys first,
        then any other key the bank lists), then rec, cobr, and the four Accounts API types.

        The APIs are asked at once; a failure (other than "not registered") raises the typed
        error of the first section that failed."""
        pix, rec, cobr, accounts = await _gather(
            self._pix_views(),
            _or_none(self._qrcodes.get_webhookrec()),
            _or_none(self._qrcodes.get_webhookcobr()),
            self._accounts.list_webhooks(),
        )
        views: list[WebhookView] = list(pix)
        views.append(_from_rec(WebhookKind.REC, rec) if rec else WebhookView(WebhookKind.REC, None))
        views.append(
            _from_rec(WebhookKind.COBR, cobr) if cobr else WebhookView(WebhookKind.COBR, None)
        )
        by_type = {str(w.type).lower(): w for w in accounts if w.type is not None}
        for kind in ACCOUNT_KINDS:
            hook = by_type.get(kind.value)
            views.append(_from_account(kind, hook) if hook else WebhookView(kind, None))
        return views

    async def _pix_views(self) -> list[WebhookView]:
        listed: dict[str, WebhookView] = {}
        window_end = self._clock() + LIST_MARGIN
        async for item in self._qrcodes.iter_webhook(inicio=LIST_FROM, fim=window_end):
            if item.chave:
                listed[item.chave] = _from_pix(item, item.chave)
        # A configured key the list missed (created outside the window) is asked directly.
        missing = [key for key in self._keys if key not in listed]
        found = await _gather(*(_or_none(self._qrcodes.get_webhook(key)) for key in missing))
        for key, hook in zip(missing, found, strict=True):
            listed[key] = _from_pix(hook, key) if hook else WebhookView(WebhookKind.PIX, None, key)
        ordered = [listed.pop(key) for key in self._keys]
        return ordered + [listed[key] for key in sorted(listed)]

    async def get(self, kind: WebhookKind | str, *, key: str | None = None) -> WebhookView:
        """One slot as the bank has it now (``url`` ``None`` when nothing is registered)."""
        kind = _kind(kind)
        key = self._key_for(kind, key)
        return await self._fetch(kind, key)

    async def _fetch(self, kind: WebhookKind, key: str | None) -> WebhookView:
        if kind is WebhookKind.PIX:
            assert key is not None
            pix = await _or_none(self._qrcodes.get_webhook(key))
            return _from_pix(pix, key) if pix else WebhookView(kind, None, key)
        if kind in (WebhookKind.REC, WebhookKind.COBR):
            call = (
                self._qrcodes.get_webhookrec()
                if kind is WebhookKind.REC
                else self._qrcodes.get_webhookcobr()
            )
            rec = await _or_none(call)
            return _from_rec(kind, rec) if rec else WebhookView(kind, None)
        hook = await _or_none(self._accounts.get_webhook(kind.account_type))
        return _from_account(kind, hook) if hook else WebhookView(kind, None)

    # -- changing ----------------------------------------------------------------------------

    async def register(
        self,
        kind: WebhookKind | str,
        url: str,
        *,
        key: str | None = None,
        enabled: bool | None = None,
        email: str | None = None,
        method: WebhookMethod | str | None = None,
        pause_on_fail: bool | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> WebhookView:
        """Register (or replace) the webhook of ``kind`` (for a Pix key: ``key``) at ``url``.

        ``enabled``, ``email``, ``method`` (POST or PUT), ``pause_on_fail`` and ``headers``
        exist only on the Accounts API's kinds; ``None`` leaves them to the bank's default.
        Everything is checked before sending (:class:`WebhookConfigError`). The change is
        audited as ``webhook.register`` (outcome ``ok``, ``rejected`` with the bank's status,
        or ``unknown`` when the answer was lost), then the bank's typed error is re-raised.
        """
        kind = _kind(kind)
        url = validate_webhook_url(url)
        key = self._key_for(kind, key)
        options = {
            "enabled": enabled,
            "email": email,
            "method": method,
            "pause_on_fail": pause_on_fail,
            "headers": headers,
        }
        if kind in _QR_KINDS:
            given = sorted(name for name, value in options.items() if value is not None)
            if given:
                raise WebhookConfigError(
                    "webhook.options_not_here", field="options", options=", ".join(given)
                )
            config: WebhookConfig | None = None
        else:
            for flag in ("enabled", "pause_on_fail"):
                if options[flag] is not None and not isinstance(options[flag], bool):
                    raise WebhookConfigError("webhook.option_yes_no", field="options", option=flag)
            config = WebhookConfig(
                uri=url,
                enabled=enabled,
                email=_email(email),
                method=_method(method),
                pause_on_fail=pause_on_fail,
                headers=_headers(headers),
            )
        details: dict[str, Any] = {"api": kind.api, "kind": kind.value, "url": audit_url(url)}
        if key is not None:
            details["key"] = key
        if config is not None:
            details.update(
                {
                    "enabled": config.enabled,
                    "email": config.email,
                    "method": config.method,
                    "pause_on_fail": config.pause_on_fail,
                    "header_names": sorted(config.headers or {}),
                }
            )
        if key is not None:
            await name_ours(self._ledger, "key", [key])  # the receiver matches on it
        view = await self._audited(
            "webhook.register", kind, key, details, self._send_register(kind, url, key, config)
        )
        return view

    async def use_team_receiver(
        self, url: str, secret: str, header_name: str = RECEIVER_HEADER
    ) -> list[ReceiverRegistration]:
        """Point every webhook at the team's receiver whose public base URL is ``url``.

        Registers ``url`` for every Pix key of the company (``PUT /webhook/{chave}``),
        ``webhookrec`` and ``webhookcobr`` (the bank posts to ``url/pix``, ``/rec``,
        ``/cobr``), and ``url/transfer``, ``/receive``, ``/refund``, ``/cashout`` on the
        Accounts API, enabled, with ``{header_name: secret}``. Each registration is one
        :meth:`register` (audited the same way: header names, never values); one refused
        does not stop the others, and each one's state is returned. The input is checked
        first (:class:`WebhookConfigError`: an HTTPS base URL without query or fragment, a
        secret, a header name); on a team ledger the keys are then named as ours."""
        base = validate_webhook_url(url).rstrip("/")
        parts = urlsplit(base)
        if parts.query or parts.fragment or base.endswith("?") or base.endswith("#"):
            raise WebhookConfigError("webhook.receiver_base_url", field="url")
        if not isinstance(secret, str) or not secret.strip():
            raise WebhookConfigError("webhook.receiver_secret_missing", field="headers")
        headers = _headers({header_name.strip(): secret})
        assert headers is not None
        longest = max(len(f"{base}/{kind.value}") for kind in ACCOUNT_KINDS)
        if longest > MAX_URL_LENGTH:
            raise WebhookConfigError(
                "webhook.receiver_url_too_long", field="url", max=MAX_URL_LENGTH - 9
            )
        await name_ours(self._ledger, "key", self._keys)
        plan: list[tuple[WebhookKind, str | None, str, dict[str, Any]]] = [
            (WebhookKind.PIX, key, base, {"key": key}) for key in self._keys
        ]
        plan += [(kind, None, base, {}) for kind in (WebhookKind.REC, WebhookKind.COBR)]
        plan += [
            (kind, None, f"{base}/{kind.value}", {"enabled": True, "headers": headers})
            for kind in ACCOUNT_KINDS
        ]
        results = []
        for kind, key, target, options in plan:
            try:
                view = await self.register(kind, target, **options)
            except ApiFailure as error:  # the bank's or the network's words, no header value
                results.append(ReceiverRegistration(kind, key, target, error=str(error)))
            else:
                results.append(ReceiverRegistration(kind, key, target, view=view))
        return results

    async def _send_register(
        self, kind: WebhookKind, url: str, key: str | None, config: WebhookConfig | None
    ) -> WebhookView:
        if kind is WebhookKind.PIX:
            assert key is not None
            pix = await self._qrcodes.put_webhook(key, WebhookSolicitado(webhook_url=url))
            return _from_pix(pix, key)
        if kind is WebhookKind.REC:
            return _from_rec(kind, await self._qrcodes.put_webhookrec(url))
        if kind is WebhookKind.COBR:
            return _from_rec(kind, await self._qrcodes.put_webhookcobr(url))
        assert config is not None
        return _from_account(kind, await self._accounts.post_webhook(kind.account_type, config))

    async def remove(self, kind: WebhookKind | str, *, key: str | None = None) -> WebhookView:
        """Remove the webhook of ``kind`` (for a Pix key: ``key``) and return what it was.

        The bank is asked first what is registered (its URL goes to the audit); when nothing
        is, :class:`~treasury_app.api.errors.NotFound` is raised and nothing is audited. The
        removal is audited as ``webhook.remove`` like :meth:`register`."""
        kind = _kind(kind)
        key = self._key_for(kind, key)
        current = await self._fetch(kind, key)
        if current.url is None:
            raise NotFound(
                404,
                detail=f"No {kind.value} webhook is registered"
                + (f" for the key {key}." if key else "."),
            )
        details: dict[str, Any] = {
            "api": kind.api,
            "kind": kind.value,
            "url": audit_url(current.url),
        }
        if key is not None:
            details["key"] = key
        if current.webhook_id is not None:
            details["webhook_id"] = current.webhook_id
        await self._audited("webhook.remove", kind, key, details, self._send_remove(kind, key))
        return current

    async def _send_remove(self, kind: WebhookKind, key: str | None) -> None:
        if kind is WebhookKind.PIX:
            assert key is not None
            await self._qrcodes.delete_webhook(key)
        elif kind is WebhookKind.REC:
            await self._qrcodes.delete_webhookrec()
        elif kind is WebhookKind.COBR:
            await self._qrcodes.delete_webhookcobr()
        else:
            await self._accounts.delete_webhook(kind.account_type)

    # -- helpers -----------------------------------------------------------------------------

    @staticmethod
    def _key_for(kind: WebhookKind, key: str | None) -> str | None:
        if kind is WebhookKind.PIX:
            return _pix_key(key)
        if key is not None:
            raise WebhookConfigError("webhook.not_per_key", field="key", kind=kind.value)
        return None

    async def _audited(
        self,
        action: str,
        kind: WebhookKind,
        key: str | None,
        details: dict[str, Any],
        call: Awaitable[T],
    ) -> T:
        reference = f"{kind.value}:{key}" if key else kind.value
        try:
            result = await call
        except ApiError as error:
            await self._ledger.audit.record(
                action,
                "rejected",
                reference=reference,
                details={
                    **details,
                    "status": error.status,
                    "error": error.title,
                    "violations": sorted(error.properties),
                },
            )
            raise
        except TransportFailure as error:
            outcome = "unknown" if error.outcome_unknown else "failed"
            await self._ledger.audit.record(
                action, outcome, reference=reference, details={**details, "error": str(error)}
            )
            raise
        await self._ledger.audit.record(action, "ok", reference=reference, details=details)
        return result


def kinds_of(views: Sequence[WebhookView], kind: WebhookKind) -> list[WebhookView]:
    """The views of one kind (the per-key rows of :attr:`WebhookKind.PIX`, for instance)."""
    return [view for view in views if view.kind is kind]
