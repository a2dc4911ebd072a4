"""The Cash In service a workspace opens (``workspace.charges``): every use case of this
package over one QR Codes API session, the profile's ledger and one clock."""

from __future__ import annotations

from treasury_app.services.charges.batches import ChargeBatches
from treasury_app.services.charges.cob import CobCharges
from treasury_app.services.charges.locations import PayloadLocations
from treasury_app.services.charges.received import ReceivedPix

__all__ = ["ChargesService"]


class ChargesService(CobCharges, ChargeBatches, PayloadLocations, ReceivedPix):
    """Cash In use cases over one QR Codes API session and the profile's ledger.

    Each use case keeps its methods in its own module (:mod:`.cob`, :mod:`.batches`,
    :mod:`.locations`, :mod:`.received`), all on the one context of
    :class:`~treasury_app.services.charges.context.ChargesContext` (its ``clock`` says whose
    date is the bank's). This class only joins them, so that one object answers for all
    without a method written twice.
    """
