"""What every Pix Automático use case shares: the QR Codes API session, the profile's ledger
(its audit) and the bank's clock (:mod:`treasury_app.services.qr_context`, as Cash In's use
cases), and the Cash In service journeys 3 and 4 create their charges with."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.domain.clock import Clock
from treasury_app.ledger import Ledger
from treasury_app.services.charges import ChargesService
from treasury_app.services.qr_context import QrCodesContext

__all__ = ["RecurrenceUseCases", "status_of"]


def status_of(answer: Any) -> str:
    """The bank's status of ``answer`` as text: the audit outcome of a write."""
    return str(getattr(answer.status, "value", answer.status))


class RecurrenceUseCases(QrCodesContext):
    """The state the use cases of each resource (``rec``, ``solicrec``, ``cobr``,
    ``locrec``) and of the journeys work on; :class:`RecurrencesService` combines them.

    ``clock`` gives the current instant (timezone-aware; the bank's dates are Brasília's):
    the computer's against a real bank, the sandbox's against the sandbox. No default.
    """

    def __init__(self, qrcodes: QrCodesClient, ledger: Ledger, *, clock: Clock) -> None:
        super().__init__(qrcodes, ledger, clock=clock)
        # The immediate and due-date charges journeys 3 and 4 create with the recurrence.
        self._charges = ChargesService(qrcodes, ledger, clock=clock)

    def now(self) -> datetime:
        """The current instant (UTC)."""
        return self._clock().astimezone(UTC)
