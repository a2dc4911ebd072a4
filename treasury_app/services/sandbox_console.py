"""What the sandbox-only "simulate" buttons do, as one service over the sandbox bank's control
surface (``/sandbox/...``: mutual TLS, no token): play the payer (pay a charge, approve or
reject a recurrence), the bank's console (approve or reject a held payment) and time (move the
bank's clock so that a recurring charge's attempt settles or fails).

Every call is refused with :class:`NotASandbox`, before anything is sent, unless the profile
is a sandbox's: a real bank has no such surface. Failures are :class:`SandboxConsoleError`
(a ``ValueError``: the operation's banner shows them), typed so that the UI can say them in
the user's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx

from treasury_app.api.qrcodes.automatico_models import CobRCompleta, TentativaStatus
from treasury_app.api.qrcodes.resources import segment
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.clock import BRASILIA
from treasury_app.domain.documents import normalize_document
from treasury_app.services.recurrences import QrJourney, RecurrencesService, SolicitationJourney

__all__ = [
    "SANDBOX_PAYER",
    "NoPendingAttempt",
    "NotASandbox",
    "SandboxClockUnknown",
    "SandboxConsole",
    "SandboxConsoleError",
    "SandboxRefused",
    "SandboxUnreachable",
    "payer_of",
    "pending_attempt",
    "settlement_moment",
]

SANDBOX_PAYER: Mapping[str, str] = {"name": "Pagador Sandbox", "cpf": "40364478829"}
"""The payer who pays a charge when none is named."""

SETTLEMENT_TIME = dt.time(10, 0)  # the sandbox settles attempts at 10:00 in Brasília
SETTLE_WAIT = (40, 0.25)  # after the clock moved: reads of the charge, seconds between them
_PENDING = {TentativaStatus.SOLICITADA.value, TentativaStatus.AGENDADA.value}


class SandboxConsoleError(ValueError):
    """A simulation that did not happen."""


class NotASandbox(SandboxConsoleError):
    """Asked of a profile that is not a sandbox's (nothing was sent)."""

    def __init__(self) -> None:
        super().__init__(
            "This profile is not the sandbox bank's: simulations exist only in the sandbox."
        )


class SandboxRefused(SandboxConsoleError):
    """The sandbox answered ``status`` to ``action`` (its path), with the problem's ``detail``
    (its own sentence: for the log) and, where it says why in a way the UI can put in words,
    its ``code`` (``rec.not_pending``) and ``params`` (``{"status": "CANCELADA"}``)."""

    def __init__(
        self,
        action: str,
        status: int,
        detail: str = "",
        *,
        code: str | None = None,
        params: Mapping[str, str] | None = None,
    ) -> None:
        self.action, self.status, self.detail = action, status, detail
        self.code, self.params = code, dict(params or {})
        super().__init__(f"The sandbox bank refused {action} ({status}). {detail}".strip())


class SandboxUnreachable(SandboxConsoleError):
    """``action`` got no usable answer: ``reason`` says why."""

    template = "The sandbox bank could not be reached: {reason}"

    def __init__(self, action: str, reason: str) -> None:
        self.action, self.reason = action, reason
        super().__init__(self.template.format(reason=reason))


class SandboxClockUnknown(SandboxUnreachable):
    """The sandbox's clock could not be read (or its answer to a move was not a time)."""

    template = "The sandbox clock could not be read: {reason}"

    def __init__(self, reason: str) -> None:
        super().__init__("/sandbox/status", reason)


class NoPendingAttempt(SandboxConsoleError):
    """The recurring charge ``txid`` has no attempt waiting for its settlement date."""

    def __init__(self, txid: str) -> None:
        self.txid = txid
        super().__init__("The charge has no attempt waiting to be settled.")


def pending_attempt(cobr: CobRCompleta) -> Any:
    """The attempt still waiting for its settlement date (``None`` when there is none)."""
    return next((t for t in cobr.tentativas if _status(t.status) in _PENDING), None)


def settlement_moment(day: dt.date) -> dt.datetime:
    """When the sandbox settles an attempt of ``day`` (10:00 in Brasília), in UTC."""
    return dt.datetime.combine(day, SETTLEMENT_TIME, BRASILIA).astimezone(dt.UTC)


def payer_of(name: str, document: str) -> dict[str, str]:
    """A payer as the sandbox takes it: the name and a bare ``cpf`` or ``cnpj``."""
    bare = normalize_document(document)
    return {"name": name, "cpf" if len(bare) == 11 else "cnpj": bare}


def _refusal(path: str, response: httpx.Response) -> SandboxRefused:
    """The sandbox's problem answer as a :class:`SandboxRefused` (its code and parameters kept
    only when they are plain text: they become words, never markup)."""
    detail, code, params = "", None, {}
    with contextlib.suppress(ValueError, AttributeError):
        problem = response.json()
        detail = str(problem.get("detail") or "")
        if isinstance(problem.get("code"), str):
            code = problem["code"]
        raw = problem.get("params")
        if isinstance(raw, dict):
            params = {str(k): str(v) for k, v in raw.items() if isinstance(v, str)}
    return SandboxRefused(path, response.status_code, detail, code=code, params=params)


def _status(value: Any) -> str:
    return str(getattr(value, "value", value))


class SandboxConsole:
    """The sandbox bank's control surface, reached through ``transport``'s client (its
    certificate; no token). ``sandbox`` is whether the profile is a sandbox's: when it is not,
    every method raises :class:`NotASandbox`. ``clock_moved`` is awaited after the bank's clock
    moved (the app's dates follow it again)."""

    def __init__(
        self,
        transport: ApiTransport,
        recurrences: RecurrencesService,
        *,
        sandbox: bool,
        clock_moved: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self._transport = transport
        self._recurrences = recurrences
        self.available = sandbox
        self._clock_moved = clock_moved

    # -- the payer ---------------------------------------------------------------------------

    async def pay_charge(self, txid: str, payer: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A payer (:data:`SANDBOX_PAYER` by default) pays the ``cob`` or ``cobv`` ``txid`` in
        full; the sandbox's answer (``pix``, the charge)."""
        body = {"txid": txid, "payer": dict(payer or SANDBOX_PAYER)}
        return await self._post("/sandbox/cashin/pay", body)

    async def decide_rec(self, id_rec: str, *, approve: bool) -> dict[str, Any]:
        """The payer approves or rejects the recurrence ``id_rec`` (and its pending
        confirmation request)."""
        action = "approve" if approve else "reject"
        return await self._post(f"/sandbox/automatico/rec/{segment(id_rec)}/{action}")

    async def approve_rec(self, id_rec: str) -> dict[str, Any]:
        """The payer approves the recurrence ``id_rec``."""
        return await self.decide_rec(id_rec, approve=True)

    async def authorise(
        self, outcome: SolicitationJourney | QrJourney, payer: Mapping[str, str]
    ) -> dict[str, Any]:
        """The payer authorises a new recurrence as its journey has it: approves it (journeys 1
        and 2; journey 1's request is accepted with it) or pays the charge of the composite QR
        (journeys 3 and 4: the bank approves the recurrence on the tick this call makes it
        run). The sandbox's answer."""
        txid = outcome.txid if isinstance(outcome, QrJourney) else None
        if txid is None:
            return await self.approve_rec(outcome.rec.id_rec)
        answer = await self.pay_charge(txid, payer)
        # The bank approves the recurrence on its next tick: made now (the clock moved by
        # nothing), so the status read after this answer is already the payer's decision.
        await self.advance_clock(0)
        return answer

    # -- the bank's console ------------------------------------------------------------------

    async def decide_pix(self, end_to_end_id: str, *, approve: bool) -> dict[str, Any]:
        """Approve or reject the held Pix payment ``end_to_end_id``, as the console does."""
        action = "approve" if approve else "reject"
        return await self._post(f"/sandbox/pix/{segment(end_to_end_id)}/{action}")

    # -- the clock ---------------------------------------------------------------------------

    async def now(self) -> dt.datetime:
        """The sandbox bank's clock."""
        http = self._http()
        try:
            response = await http.get("/sandbox/status")
            response.raise_for_status()
            return dt.datetime.fromisoformat(str(response.json()["now"]).replace("Z", "+00:00"))
        except (httpx.HTTPError, KeyError, TypeError, ValueError) as error:
            raise SandboxClockUnknown(str(error)) from None

    async def set_clock(self, instant: dt.datetime) -> dt.datetime:
        """Move the bank's clock to ``instant`` (every state machine follows); its new time."""
        return await self._move_clock({"set": instant.isoformat()})

    async def advance_clock(self, seconds: float) -> dt.datetime:
        """Move the bank's clock ``seconds`` ahead; its new time."""
        return await self._move_clock({"advance": seconds})

    async def _move_clock(self, body: dict[str, Any]) -> dt.datetime:
        answer = await self._post("/sandbox/clock", body)
        if self._clock_moved is not None:
            await self._clock_moved()
        try:
            return dt.datetime.fromisoformat(str(answer["now"]).replace("Z", "+00:00"))
        except (KeyError, ValueError) as error:
            raise SandboxClockUnknown(str(error)) from None

    # -- recurring charges -------------------------------------------------------------------

    async def fail_next_attempt(self, txid: str) -> None:
        """The payer's bank refuses the next settlement attempt of the recurring charge."""
        await self._post(f"/sandbox/automatico/cobr/{segment(txid)}/fail-next")

    async def settle_next_attempt(self, txid: str, *, fail: bool) -> CobRCompleta:
        """Make the next attempt of ``txid`` fail (or not), move the bank's clock to its
        settlement moment and wait (a few seconds at most) for its result; the charge then.
        Other open charges due by that moment settle too."""
        self._http()  # refused before the charge is even read
        service = self._recurrences
        cobr = await service.get_cobr(txid)
        attempt = pending_attempt(cobr)
        if attempt is None:
            raise NoPendingAttempt(txid)
        if fail:
            await self.fail_next_attempt(txid)
        target = settlement_moment(attempt.data_liquidacao) + dt.timedelta(minutes=1)
        if await self.now() < target:
            await self.set_clock(target)
        else:
            await self.advance_clock(1)
        reads, pause = SETTLE_WAIT
        for _ in range(reads):
            cobr = await service.get_cobr(txid)
            same = [t for t in cobr.tentativas if t.data_liquidacao == attempt.data_liquidacao]
            if not any(_status(t.status) in _PENDING for t in same):
                break
            await asyncio.sleep(pause)
        return cobr

    # -- the wire ----------------------------------------------------------------------------

    def _http(self) -> httpx.AsyncClient:
        if not self.available:
            raise NotASandbox()
        return self._transport.http  # read at each call: a rotated certificate has a new one

    async def _post(self, path: str, body: Any = None) -> dict[str, Any]:
        http = self._http()
        try:
            response = await http.post(path, json=body)
            response.raise_for_status()
        except httpx.HTTPStatusError as error:
            raise _refusal(path, error.response) from None
        except httpx.TransportError as error:
            raise SandboxUnreachable(path, str(error)) from None
        try:
            answer = response.json()
        except ValueError as error:
            raise SandboxUnreachable(path, str(error)) from None
        return answer if isinstance(answer, dict) else {}
