"""Every service of one unlocked session, built once and shared by all the tabs.

One :class:`~treasury_app.services.payments.PaymentEngine` (the session's) serves payouts,
boletos and the tracker, so the per-idempotency-key locks hold across the whole app.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from treasury_app.services.billets import BilletsService
from treasury_app.services.charges import ChargesService
from treasury_app.services.infractions import InfractionsService
from treasury_app.services.payouts import PayoutsService
from treasury_app.services.recurrences import RecurrencesService
from treasury_app.services.session import Session
from treasury_app.services.statement import StatementService
from treasury_app.services.tracker import PaymentTracker
from treasury_app.services.webhooks import WebhooksService


class Workspace:
    """The services the UI calls, for one :class:`Session`."""

    def __init__(
        self,
        session: Session,
        *,
        pix_keys: tuple[str, ...] | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.session = session
        # The account's Pix keys (the profile's unless given): charge forms offer them.
        self.pix_keys = session.profile.pix_keys if pix_keys is None else pix_keys
        self.ledger = session.ledger
        self.engine = session.payments
        self.statement = StatementService(session.accounts)
        self.payouts = PayoutsService(self.engine, session.ledger)
        self.billets = BilletsService(self.engine, session.accounts, session.ledger)
        self.tracker = PaymentTracker(self.engine)
        kwargs = {} if clock is None else {"clock": clock}
        self.charges = ChargesService(session.qrcodes, session.ledger, **kwargs)
        self.recurrences = RecurrencesService(session.qrcodes, session.ledger, **kwargs)
        self.webhooks = WebhooksService(
            session.qrcodes, session.accounts, session.ledger, pix_keys=self.pix_keys
        )
        self.infractions = InfractionsService(session.accounts, session.ledger, **kwargs)

    async def close(self) -> None:
        self.tracker.stop()
        await self.session.close()
