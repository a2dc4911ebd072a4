"""What the sandbox bank offers to learn with: its sample slips (due dates and amounts), read
from its control surface. Refused outside a sandbox profile: a real bank has no such thing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import httpx

from treasury_app.domain import boleto
from treasury_app.domain.errors import DomainError, RuleError
from treasury_app.domain.money import loads_json
from treasury_app.services.session import Session

MAX_SAMPLES = 100
MAX_ANSWER_BYTES = 256 * 1024


class SandboxOnlyError(RuleError):
    """Asked of a profile that is not the sandbox bank's."""


@dataclass(frozen=True)
class SampleSlip:
    label: str
    digitable_line: str
    due_date: dt.date | None
    amount: Decimal | None


def _sample(item: object) -> SampleSlip | None:
    """One slip of the sandbox's answer, checked (anything odd is left out, never trusted)."""
    if not isinstance(item, dict):
        return None
    line = item.get("digitableCode")
    label = item.get("label")
    if not isinstance(line, str) or not isinstance(label, str):
        return None
    try:
        boleto.barcode_of(line)
    except DomainError:
        return None
    due: dt.date | None = None
    if isinstance(item.get("dueDate"), str):
        try:
            due = dt.date.fromisoformat(item["dueDate"])
        except ValueError:
            due = None
    amount: Decimal | None = None
    raw = item.get("amount")
    if isinstance(raw, Decimal | int | str) and not isinstance(raw, bool):
        try:
            amount = Decimal(str(raw)).quantize(Decimal("0.01"))
        except InvalidOperation:
            amount = None
        if amount is not None and not amount.is_finite():
            amount = None
    return SampleSlip(label[:120], line, due, amount)


async def sample_slips(session: Session) -> list[SampleSlip]:
    """The sandbox's payable sample slips, in its order."""
    if session.profile.environment != "sandbox":
        raise SandboxOnlyError("sandbox.samples_only_in_sandbox")
    try:
        response = await session.accounts.transport.http.get("/sandbox/slips")
    except httpx.HTTPError as error:
        raise SandboxOnlyError("sandbox.unreachable", detail=str(error)) from None
    if response.status_code != 200 or len(response.content) > MAX_ANSWER_BYTES:
        raise SandboxOnlyError("sandbox.answered", status=response.status_code)
    try:
        data = loads_json(response.content).get("data")
    except (ValueError, AttributeError):
        raise SandboxOnlyError("sandbox.unreadable_answer") from None
    items = data if isinstance(data, list) else []
    return [slip for slip in map(_sample, items[:MAX_SAMPLES]) if slip is not None]
