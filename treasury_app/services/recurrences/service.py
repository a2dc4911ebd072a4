"""The Pix Automático service the workspace holds: the use cases of each resource and of the
authorization journeys, combined into one object."""

from __future__ import annotations

from treasury_app.services.recurrences.cobr import CobRUseCases
from treasury_app.services.recurrences.journeys import JourneyUseCases

__all__ = ["RecurrencesService"]


class RecurrencesService(JourneyUseCases, CobRUseCases):
    """Pix Automático use cases over one QR Codes API session and the profile's ledger:
    recurrences, confirmation requests and locations with the journeys built on them
    (:class:`~.journeys.JourneyUseCases`), and recurring charges
    (:class:`~.cobr.CobRUseCases`).

    ``clock`` gives the current instant (timezone-aware; the bank's dates are Brasília's):
    the computer's against a real bank, the sandbox's against the sandbox. No default.
    """
