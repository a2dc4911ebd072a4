"""What every use case over the QR Codes API shares, Cash In (:mod:`.charges`) and Pix
Automático (:mod:`.recurrences`) alike: the API session, the profile's ledger (with its audit)
and the clock that gives the bank's date."""

from __future__ import annotations

from datetime import date

from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.domain.clock import Clock, brasilia_today
from treasury_app.ledger import Ledger

__all__ = ["QrCodesContext"]


class QrCodesContext:
    """One QR Codes API session, the profile's ledger and a clock.

    ``clock`` gives the current instant (timezone-aware); the bank's calendar date is taken in
    Brasília (:mod:`treasury_app.domain.clock`). There is no default: the caller says whose
    clock (the computer's against a real bank, the sandbox's against the sandbox).
    """

    def __init__(self, qrcodes: QrCodesClient, ledger: Ledger, *, clock: Clock) -> None:
        self._qr = qrcodes
        self._ledger = ledger
        self._clock = clock

    def today(self) -> date:
        """The bank's date now (Brasília)."""
        return brasilia_today(self._clock)
