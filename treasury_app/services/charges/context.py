"""What every Cash In use case shares: the QR Codes API session, the profile's ledger (with
its audit) and the clock that gives the bank's date, as Pix Automático's use cases do
(:mod:`treasury_app.services.qr_context`), and the check of a due date against that date.

Each use case (:mod:`.cob`, :mod:`.batches`, :mod:`.locations`, :mod:`.received`) is a
subclass of :class:`ChargesContext`; :class:`~treasury_app.services.charges.service.ChargesService`
is all of them at once.
"""

from __future__ import annotations

from datetime import date, datetime

from treasury_app.services.charges.checks import ChargeInputError
from treasury_app.services.qr_context import QrCodesContext

__all__ = ["ChargesContext"]


class ChargesContext(QrCodesContext):
    """One QR Codes API session, the profile's ledger and a clock (see
    :class:`~treasury_app.services.qr_context.QrCodesContext`: ``clock`` has no default)."""

    def check_due_date(self, value: date, field: str = "calendario.dataDeVencimento") -> date:
        """A due date a person chose: a calendar date, today (the bank's) or later."""
        return self._due_date(value, field)

    def _due_date(self, value: date, field: str) -> date:
        """A due date: a calendar date, today (the bank's) or later."""
        if isinstance(value, datetime) or not isinstance(value, date):
            raise ChargeInputError("charge.due_date_type", field=field)
        if value < self.today():
            raise ChargeInputError("charge.due_date_passed", field=field, due=value)
        return value
