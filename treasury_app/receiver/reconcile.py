"""The reconciler: what the bank has that no notification told the receiver.

The bank keeps notifications for 15 days and delivery is not guaranteed, so at start and then
every ``receiver.reconcile_minutes`` the receiver asks the bank itself and applies what was
missed, through the same path as a notification (:meth:`ReceiverStore.deliver
<treasury_app.receiver.store.ReceiverStore.deliver>` with ``via="reconciler"``):

1. **received Pix** of the last 15 days (``GET /pix``, page by page) to a key or a txid of ours,
   each as the ``/pix`` item its notification carries;
2. **charges**: every txid of ours without a ``CONCLUIDA`` state (``GET /cob/{txid}``, else
   ``/cobv``, else ``/cobr``): a paid cob or cobv applies the Pix of its ``pix[]``, a recurring
   charge its state;
3. **recurrences**: every idRec of ours not in a final state (``GET /rec/{idRec}``);
4. **payments**: every open payment of the journal (``SENT``, ``ACCEPTED`` or ``UNKNOWN``, not
   final) is asked for by its idempotency key; a status the journal does not have yet is
   applied as the ``transfer`` event (a slip: ``cashout``) the bank would post, which goes
   through ``treasury.notified_status`` like every webhook. A payment the bank does not have
   is left alone: deciding to send it again is the desktops' (the receiver never sends).

Every item carries the dedupe key its notification would (:mod:`treasury_app.receiver.items`):
an item already notified is a duplicate and changes nothing, and a notification arriving after
the reconciler applied its item is a duplicate too. Each item applied is counted in
``treasury_receiver_reconciled{source}`` (``/metrics``).

The business "now" (the 15-day window) comes from the reconciler's clock, the system clock by
default; nothing here reads the machine's clock otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import ssl
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import BilletPayment, PixPayment
from treasury_app.api.errors import ApiFailure, NotFound
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.tls import CertificateError, Trust, load_pfx
from treasury_app.api.tokens import ApiName, Secret
from treasury_app.api.transport import ApiConfig, ApiTransport
from treasury_app.domain.clock import Clock, system_clock
from treasury_app.receiver.config import (
    BankApiConfig,
    BankApiSettings,
    ConfigError,
    ReceiverConfig,
)
from treasury_app.receiver.items import (
    BadBody,
    Item,
    cobr_item,
    payment_item,
    pix_item,
    rec_item,
)
from treasury_app.receiver.metrics import ReceiverMetrics
from treasury_app.receiver.store import DatabaseUnavailable, ReceiverStore

log = logging.getLogger("treasury_app.receiver.reconcile")

WINDOW = dt.timedelta(days=15)
"""How far back received Pix are listed: the bank keeps notifications this long."""
PAGE_SIZE = 100
"""Items per page of ``GET /pix``; also the most items delivered in one transaction."""
OPEN_STATES = ("SENT", "ACCEPTED", "UNKNOWN")
"""Journal states of a payment the bank has (or may have) and whose outcome is not final."""
FINAL_COBR = ("CONCLUIDA", "EXPIRADA", "REJEITADA", "CANCELADA")
FINAL_REC = ("REJEITADA", "EXPIRADA", "CANCELADA")
REMOVED_COB = ("REMOVIDA_PELO_USUARIO_RECEBEDOR", "REMOVIDA_PELO_PSP")
CHARGE_KINDS = ("cob", "cobv", "cobr")
MIN_INTERVAL_SECONDS = 0.05
"""The shortest pause between passes, whatever the configuration says (never a hot loop)."""


def bank_api_configs(bank: BankApiConfig) -> dict[ApiName, ApiConfig]:
    """The transport configuration of each API ``[bank_api]`` names, as a desktop's session
    builds it (its ``.pfx`` decrypted in memory, the bank's CA or the system's trust store).
    :class:`ConfigError` when a certificate cannot be used (wrong password, expired...)."""
    configs: dict[ApiName, ApiConfig] = {}
    apis: tuple[tuple[ApiName, BankApiSettings | None], ...] = (
        ("qrcodes", bank.qrcodes),
        ("accounts", bank.accounts),
    )
    for api, settings in apis:
        if settings is None:
            continue
        try:
            identity = load_pfx(settings.pfx, settings.pfx_password)
        except CertificateError as error:
            raise ConfigError(f"bank_api ({api}): {error}") from None
        configs[api] = ApiConfig(
            api=api,
            base_url=settings.base_url,
            client_id=settings.client_id,
            client_secret=Secret(settings.client_secret),
            identity=identity,
            trust=Trust.bundle(settings.ca) if settings.ca is not None else Trust.system(),
        )
    return configs


def reconciler_for(
    config: ReceiverConfig,
    store: ReceiverStore,
    metrics: ReceiverMetrics,
    *,
    clock: Clock = system_clock,
) -> Reconciler | None:
    """The reconciler ``config`` asks for, with its own bank clients (closed when its
    :meth:`~Reconciler.run` ends); ``None`` (logged) without ``[bank_api]``.
    :class:`ConfigError` when a certificate or the bank's CA cannot be used."""
    if config.bank_api is None:
        log.info(
            "no [bank_api] section in the configuration: nothing is reconciled (missed "
            "notifications stay missed)"
        )
        return None
    transports: dict[ApiName, ApiTransport] = {}
    try:
        for api, api_config in bank_api_configs(config.bank_api).items():
            transports[api] = ApiTransport(api_config)
    except (CertificateError, ssl.SSLError, OSError) as error:
        raise ConfigError(f"bank_api: {error}") from None
    qrcodes = QrCodesClient(transports["qrcodes"]) if "qrcodes" in transports else None
    accounts = AccountsClient(transports["accounts"]) if "accounts" in transports else None
    return Reconciler(
        config,
        store,
        metrics,
        qrcodes=qrcodes,
        accounts=accounts,
        clock=clock,
        owns_clients=True,
    )


class Reconciler:
    """Compares what the bank has with what was notified and applies what was missed."""

    def __init__(
        self,
        config: ReceiverConfig,
        store: ReceiverStore,
        metrics: ReceiverMetrics,
        *,
        qrcodes: QrCodesClient | None,
        accounts: AccountsClient | None,
        clock: Clock = system_clock,
        owns_clients: bool = False,
    ) -> None:
        """``owns_clients``: the clients' transports are closed when :meth:`run` ends (or by
        :meth:`aclose`)."""
        self.config = config
        self.store = store
        self.metrics = metrics
        self.qrcodes = qrcodes
        self.accounts = accounts
        self.clock = clock
        self._owns_clients = owns_clients
        self._lock = asyncio.Lock()
        self._kinds: dict[str, str] = {}
        """txid → the kind of charge the bank has under it (cob, cobv, cobr)."""
        self._settled: set[str] = set()
        """txids and idRecs not asked again in this process: the bank has none, or the charge
        was removed, or it is paid and everything it says was stored already."""
        self.passes = 0
        """Reconciliation passes completed."""

    # -- running -----------------------------------------------------------------------------

    async def run(self) -> None:
        """Reconcile now, then every ``reconcile_minutes``, until cancelled. A pass that
        fails is logged and the next one comes on time."""
        interval = max(self.config.reconcile_minutes * 60.0, MIN_INTERVAL_SECONDS)
        try:
            while True:
                try:
                    await self.once()
                except DatabaseUnavailable as error:
                    log.warning("reconciliation skipped, the team database is away: %s", error)
                except Exception:
                    log.exception("reconciliation failed")
                await asyncio.sleep(interval)
        finally:
            if self._owns_clients:
                await self.aclose()

    async def aclose(self) -> None:
        """Close the clients' transports."""
        for client in (self.qrcodes, self.accounts):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.transport.aclose()

    async def once(self) -> dict[str, int]:
        """One pass: the items applied, by source (``pix``, ``cobr``, ``rec``, ``transfer``,
        ``cashout``). A step whose API fails is logged and the others still run;
        :class:`DatabaseUnavailable` ends the pass."""
        async with self._lock:
            counts: Counter[str] = Counter()
            steps: list[tuple[str, Callable[[Counter[str]], Awaitable[None]]]] = []
            if self.qrcodes is not None:
                steps += [
                    ("received Pix", self._received_pix),
                    ("charges", self._charges),
                    ("recurrences", self._recurrences),
                ]
            if self.accounts is not None:
                steps.append(("payments", self._payments))
            for name, step in steps:
                try:
                    await step(counts)
                except ApiFailure as error:
                    log.warning("reconciling %s: the bank could not be asked: %s", name, error)
            self.passes += 1
            applied = dict(sorted(counts.items()))
            if applied:
                log.info("reconciliation applied what the notifications missed: %s", applied)
            else:
                log.debug("reconciliation found nothing missed")
            return applied

    # -- the steps ---------------------------------------------------------------------------

    async def _received_pix(self, counts: Counter[str]) -> None:
        assert self.qrcodes is not None
        now = self.clock()
        batch: list[Item] = []
        pages = self.qrcodes.iter_pix(inicio=now - WINDOW, fim=now, itens_por_pagina=PAGE_SIZE)
        async for pix in pages:
            batch.append(pix_item(pix))
            if len(batch) >= PAGE_SIZE:
                await self._deliver(await self._ours(batch), counts)
                batch = []
        if batch:
            await self._deliver(await self._ours(batch), counts)

    async def _charges(self, counts: Counter[str]) -> None:
        assert self.qrcodes is not None
        rows = await self._rows(
            "SELECT r.ref AS txid, s.status AS cobr_status, s.attempts AS cobr_attempts"
            " FROM treasury.our_refs r"
            " LEFT JOIN treasury.charge_states c ON c.txid = r.ref"
            " LEFT JOIN treasury.cobr_states s ON s.txid = r.ref"
            " WHERE r.kind = 'txid' AND c.status IS DISTINCT FROM 'CONCLUIDA'"
            " AND (s.status IS NULL OR s.status <> ALL(%s)) ORDER BY r.added_at, r.ref",
            (list(FINAL_COBR),),
        )
        for row in rows:
            txid = row["txid"]
            if txid in self._settled:
                continue
            found = await self._charge(txid)
            if found is None:
                self._settled.add(txid)  # the bank has no charge under this txid
                continue
            kind, charge = found
            status = str(charge.status)
            if kind == "cobr":
                if (status, len(charge.tentativas)) != (row["cobr_status"], row["cobr_attempts"]):
                    await self._deliver([cobr_item(charge)], counts)
                continue
            if status in REMOVED_COB:
                self._settled.add(txid)
            elif status == "CONCLUIDA":
                applied = await self._deliver([pix_item(p) for p in charge.pix], counts)
                if not applied:  # stored before (and not applicable): no use asking again
                    self._settled.add(txid)

    async def _charge(self, txid: str) -> tuple[str, Any] | None:
        """The charge under ``txid`` and its kind (the kind found before is asked first)."""
        assert self.qrcodes is not None
        getters: dict[str, Callable[[str], Awaitable[Any]]] = {
            "cob": self.qrcodes.get_cob,
            "cobv": self.qrcodes.get_cobv,
            "cobr": self.qrcodes.get_cobr,
        }
        known = self._kinds.get(txid)
        for kind in (known,) if known else CHARGE_KINDS:
            try:
                charge = await getters[kind](txid)
            except NotFound:
                continue
            self._kinds[txid] = kind
            return kind, charge
        return None

    async def _recurrences(self, counts: Counter[str]) -> None:
        assert self.qrcodes is not None
        rows = await self._rows(
            "SELECT r.ref AS id_rec, s.status FROM treasury.our_refs r"
            " LEFT JOIN treasury.recurrence_states s ON s.id_rec = r.ref"
            " WHERE r.kind = 'idrec' AND (s.status IS NULL OR s.status <> ALL(%s))"
            " ORDER BY r.added_at, r.ref",
            (list(FINAL_REC),),
        )
        for row in rows:
            id_rec = row["id_rec"]
            if f"rec:{id_rec}" in self._settled:
                continue
            try:
                rec = await self.qrcodes.get_rec(id_rec)
            except NotFound:
                self._settled.add(f"rec:{id_rec}")
                continue
            if str(rec.status) != row["status"]:
                await self._deliver([rec_item(rec)], counts)

    async def _payments(self, counts: Counter[str]) -> None:
        assert self.accounts is not None
        rows = await self._rows(
            "SELECT id, kind, idempotency_key, state, bank_status FROM treasury.journal"
            " WHERE NOT final AND state = ANY(%s) ORDER BY id",
            (list(OPEN_STATES),),
        )
        for row in rows:
            payment = await self._payment(row["kind"], row["idempotency_key"])
            if payment is None:
                continue  # the bank has none: the desktops resolve it (the receiver never sends)
            if row["state"] == "ACCEPTED" and str(payment.status) == row["bank_status"]:
                continue  # the journal has what the bank says
            try:
                item = payment_item(payment)
            except BadBody as error:
                log.warning("payment %s: the bank's answer cannot be applied: %s", row["id"], error)
                continue
            await self._deliver([item], counts)

    async def _payment(self, kind: str, key: str) -> PixPayment | BilletPayment | None:
        """The bank's record of the intent journaled under ``key`` (``None``: it has none)."""
        assert self.accounts is not None
        try:
            if kind == "BILLET":
                page = await self.accounts.list_billets(idempotency_key=key, per_page=10)
                return next((p for p in page.items if p.idempotency_key == key), None)
            return await self.accounts.get_pix_payment_by_idempotency_key(key)
        except NotFound:
            return None
        except ValueError:  # not an idempotency key the API accepts: nothing to ask
            return None

    # -- the database ------------------------------------------------------------------------

    async def _rows(self, query: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        return await self.store.rows(query, params)  # DatabaseUnavailable when it is away

    async def _ours(self, items: Sequence[Item]) -> list[Item]:
        """The ``/pix`` items to a key or a txid of ours. The others are left out rather than
        stored as unmatched: their key would then be taken, and the Pix never applied once
        its key or txid is named ours."""
        keys = sorted({i.data.chave for i in items if i.data.chave})
        txids = sorted({i.data.txid for i in items if i.data.txid})
        rows = await self._rows(
            "SELECT kind, ref FROM treasury.our_refs WHERE (kind = 'key' AND ref = ANY(%s))"
            " OR (kind = 'txid' AND ref = ANY(%s))",
            (keys, txids),
        )
        ours = {(row["kind"], row["ref"]) for row in rows}
        return [i for i in items if ("key", i.data.chave) in ours or ("txid", i.data.txid) in ours]

    async def _deliver(self, items: Sequence[Item], counts: Counter[str]) -> int:
        """Deliver the items not stored yet, or stored as not ours (``via="reconciler"``; the
        store applies one of those once it is ours); how many were applied."""
        if not items:
            return 0
        rows = await self._rows(
            "SELECT dedupe_key FROM treasury.notifications WHERE dedupe_key = ANY(%s)"
            " AND outcome <> 'unmatched'",
            ([i.dedupe_key for i in items],),
        )
        stored = {row["dedupe_key"] for row in rows}
        missed = [i for i in items if i.dedupe_key not in stored]
        if not missed:
            return 0
        results = await self.store.deliver(missed, via="reconciler")
        applied = 0
        for item, result in zip(missed, results, strict=True):
            if result.outcome == "applied":
                applied += 1
                counts[item.source] += 1
                self.metrics.reconciled.labels(item.source).inc()
                log.info("reconciled %s %s: no notification of it was stored", *_named(item))
            elif result.outcome == "failed":
                log.warning("reconciled %s %s not applied: %s", *_named(item), result.detail)
        return applied


def _named(item: Item) -> tuple[str, str]:
    return item.source, item.ref
