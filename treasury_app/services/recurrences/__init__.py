"""Pix Automático use cases, one module per resource or journey:

- :mod:`.rec` — recurrences (``/rec``): their terms, create, read, revise, cancel, list;
- :mod:`.solicrec` — confirmation requests (``/solicrec``) sent to the payer's PSP;
- :mod:`.locrec` — recurrence locations (``/locrec``), linked to and unlinked from a
  recurrence;
- :mod:`.journeys` — the four journeys by which a payer authorizes a recurrence;
- :mod:`.cobr` — recurring charges (``/cobr``), their retries and cancellation, with the rules
  checked before anything is sent;
- :mod:`.checks` and :mod:`.base` — the input checks and the state they all share;
- :mod:`.service` — :class:`RecurrencesService`, all of them in the one object the workspace
  holds.

Inputs are checked before anything is sent (a :class:`RecurrenceInputError`, which is a
:class:`~treasury_app.services.charges.ChargeInputError`, names the field). Every write is
audited: ``rec.create``, ``rec.revise``, ``rec.cancel``, ``solicrec.create``,
``solicrec.cancel``, ``cobr.create``, ``cobr.cancel``, ``cobr.retry``, ``locrec.create``,
``locrec.link``, ``locrec.unlink`` (and ``charge.create`` for the charges of journeys 3 and 4),
with the bank's answer; what is refused locally is not (nothing was sent).
"""

from treasury_app.services.recurrences.checks import RecurrenceInputError
from treasury_app.services.recurrences.cobr import (
    MAX_RETRIES,
    RETRY_WINDOW_DAYS,
    DebtorAddress,
    ReceiverAccount,
    charging_cycle,
)
from treasury_app.services.recurrences.journeys import (
    JourneyIncomplete,
    QrJourney,
    SolicitationJourney,
)
from treasury_app.services.recurrences.rec import RecurrenceTerms
from treasury_app.services.recurrences.service import RecurrencesService
from treasury_app.services.recurrences.solicrec import PayerAccount

__all__ = [
    "MAX_RETRIES",
    "RETRY_WINDOW_DAYS",
    "DebtorAddress",
    "JourneyIncomplete",
    "PayerAccount",
    "QrJourney",
    "ReceiverAccount",
    "RecurrenceInputError",
    "RecurrenceTerms",
    "RecurrencesService",
    "SolicitationJourney",
    "charging_cycle",
]
