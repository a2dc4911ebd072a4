"""What every Cash In use case shares: the QR Codes API session, the profile's ledger (with
its audit) and the clock that gives the bank's date.

Each use case (:mod:`.cob`, :mod:`.batches`, :mod:`.locations`, :mod:`.received`) is a
subclass of :class:`ChargesContext`; :class:`~treasury_app.services.charges.service.ChargesService`
is all of them at once.
"""

from __future__ import annotations

from datetime import date, datetime

from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.domain.clock import Clock, brasilia_today
from treasury_app.ledger import Ledger
from treasury_app.services.charges.checks import ChargeInputError

__all__ = ["ChargesContext"]


class ChargesContext:
    """One QR Codes API session, the profile's ledger and a clock.

    ``clock`` gives the current instant (timezone-aware); the bank's calendar date is taken in
    Brasília (:mod:`treasury_app.domain.clock`). There is no default: the caller says whose
    clock (the computer's against a real bank, the sandbox's against the sandbox).
    """

    def __init__(
        self,
        qrcodes: QrCodesClient,
        ledger: Ledger,
        *,
        clock: Clock,
    ) -> None:
        self._qr = qrcodes
        self._ledger = ledger
        self._clock = clock

    def today(self) -> date:
        """The bank's date now (Brasília)."""
        return brasilia_today(self._clock)

    def _due_date(self, value: date, field: str) -> date:
        """A due date: a calendar date, today (the bank's) or later."""
        if isinstance(value, datetime) or not isinstance(value, date):
            raise ChargeInputError(field, "A due date is a calendar date.")
        if value < self.today():
            raise ChargeInputError(field, f"The due date {value:%d/%m/%Y} has passed.")
        return value
