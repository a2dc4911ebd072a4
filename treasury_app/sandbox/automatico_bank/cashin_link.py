"""The Cash In charges that journeys 3 and 4 of Pix Automático pay with, read through the
functions :mod:`treasury_app.sandbox.cashin` keeps for this module."""

from __future__ import annotations

from treasury_app.sandbox import cashin
from treasury_app.sandbox.automatico_bank.records import Doc
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem


def charge(ctx: QrContext, txid: str) -> Doc | None:
    """The cob or cobv ``txid`` as GET /cob|/cobv answers it, or None."""
    found = cashin.get_charge(ctx, txid)
    return found if isinstance(found, dict) else None


def charge_kind(charge: Doc) -> str:
    if charge.get("tipoCob") in ("cob", "cobv"):
        return str(charge["tipoCob"])
    loc = charge.get("loc")
    if isinstance(loc, dict) and loc.get("tipoCob") in ("cob", "cobv"):
        return str(loc["tipoCob"])
    calendario = charge.get("calendario")
    if isinstance(calendario, dict) and "dataDeVencimento" in calendario:
        return "cobv"
    return "cob"


def journey_of(charge: Doc | None) -> str:
    """JORNADA_4 for a recurrence activated by paying a cobv, JORNADA_3 by a cob (or a txid
    whose charge does not exist yet)."""
    return "JORNADA_4" if charge is not None and charge_kind(charge) == "cobv" else "JORNADA_3"


def charge_paid(charge: Doc) -> bool:
    return charge.get("status") == "CONCLUIDA" or bool(charge.get("pix"))


def charge_location(ctx: QrContext, charge: Doc) -> str | None:
    """The charge's QR address, or None when its location was unlinked."""
    try:
        value = cashin.location_of(ctx, charge)
    except Problem:  # the charge's location was unlinked: no composite code
        return None
    if isinstance(value, str) and value:
        return value
    stored = charge.get("location") or (charge.get("loc") or {}).get("location")
    return str(stored) if stored else None
