"""Every service of one unlocked session, built once and shared by all the tabs.

One :class:`~treasury_app.services.payments.PaymentEngine` (the session's) serves payouts,
boletos and the tracker, so the per-idempotency-key locks hold across the whole app. On a
team database the tracker follows the webhook receiver's status: a live receiver brings the
bank's news, and the tracker keeps only a slow safety poll.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import cached_property
from typing import TYPE_CHECKING

from treasury_app.domain.clock import Clock, brasilia_today, system_clock
from treasury_app.ledger.team.demo_clock import team_demo_clock
from treasury_app.policy import Policy
from treasury_app.services.billets import BilletsService
from treasury_app.services.payouts import ChargeAmount, PayoutsService
from treasury_app.services.session import Session
from treasury_app.services.statement import StatementService
from treasury_app.services.tracker import PaymentTracker

if TYPE_CHECKING:
    from treasury_app.services.backup import BackupService
    from treasury_app.services.charges import ChargesService
    from treasury_app.services.infractions import InfractionsService
    from treasury_app.services.payees import PayeeService
    from treasury_app.services.profiles import Profile, ScheduleProfile
    from treasury_app.services.recurrences import RecurrencesService
    from treasury_app.services.sandbox_console import SandboxConsole
    from treasury_app.services.schedule import DueSender, ScheduleService
    from treasury_app.services.webhooks import WebhooksService

log = logging.getLogger("treasury_app.services.workspace")


class Workspace:
    """The services the UI calls, for one :class:`Session`.

    The Accounts API's services (statement, payouts, boletos, the tracker) are built with the
    workspace; the others when a tab first asks for them — the QR Codes API's client and its
    models load then, not between the unlock and the statement on screen."""

    def __init__(
        self,
        session: Session,
        *,
        pix_keys: tuple[str, ...] | None = None,
        clock: Clock | None = None,
        policy: Policy | None = None,
    ) -> None:
        self.session = session
        # The machine policy the app started with: the settings pages show what it sets.
        self.policy = policy if policy is not None else Policy()
        # The bank's clock: the sandbox's (read from its control surface) or the computer's.
        self.clock: Clock = clock if clock is not None else system_clock
        # The account's Pix keys (the profile's unless given): charge forms offer them.
        self.pix_keys = session.profile.pix_keys if pix_keys is None else pix_keys
        self.ledger = session.ledger
        self.engine = session.payments
        # How an edited profile is kept (the app's profile store, audited); ``None``: for
        # this session only (tests, the unattended releaser).
        self.profile_saver: Callable[[Profile], Awaitable[Profile]] | None = None
        self.engine.business_clock = self.clock  # a scheduled intent waits for the bank's day
        # ``make run-team`` only: the demo database's business date follows the sandbox's clock.
        self.demo_clock = team_demo_clock(session.profile.environment, self.ledger.backend)
        self._clock_followers: list[Callable[[], object]] = []
        self.statement = StatementService(session.accounts)
        self.payouts = PayoutsService(
            self.engine,
            session.ledger,
            duplicate_window=timedelta(hours=session.profile.duplicate_batch_hours),
            read_charge=self._read_charge,
        )
        self.billets = BilletsService(
            self.engine, session.accounts, session.ledger, clock=self.clock
        )
        self.notifications = session.notifications
        """The receiver's status and the bank's events (``None`` on the file ledger)."""
        self._unsubscribe_receiver: Callable[[], None] | None = None
        if self.notifications is None:
            self.tracker = PaymentTracker(self.engine)
        else:
            self.tracker = PaymentTracker(self.engine, receiver_live=self.notifications.live)
            self._unsubscribe_receiver = self.notifications.subscribe(
                lambda _status: self.tracker.receiver_changed()
            )

    async def _read_charge(self, location: str) -> ChargeAmount:
        """The charge behind a dynamic code being paid (its signed payload, read with the QR
        Codes API's client, which loads then)."""
        from treasury_app.services.qr_payloads import charge_amount

        return await charge_amount(self.session.qrcodes, location, brasilia_today(self.clock))

    @cached_property
    def payees(self) -> PayeeService:
        """The payee registry (issue 36): who the money goes to, and where."""
        from treasury_app.services.payees import PayeeService

        return PayeeService(self.ledger, clock=self.clock)

    @cached_property
    def schedule(self) -> ScheduleService:
        """Scheduled and recurring payments, and the due sender's passes (issue 35): on the
        bank's clock, so a scheduled intent leaves on the bank's business date."""
        from treasury_app.services.schedule import ScheduleService, ScheduleSettings

        # The profile's send time, tolerance, retries and extra non-business dates (per
        # profile, also in team mode: see ``profiles.ScheduleProfile``).
        settings = ScheduleSettings.from_profile(self.session.profile.schedule)
        self.payouts.calendar = settings.calendar
        return ScheduleService(
            self.engine,
            self.ledger,
            self.session.accounts,
            clock=self.clock,
            settings=settings,
            read_charge=self._read_charge,
        )

    async def save_schedule_settings(self, settings: ScheduleProfile) -> Profile:
        """Keep ``settings`` in the profile (audited, through :attr:`profile_saver`) and
        apply them now: the due sender's next pass sends at the new time."""
        from treasury_app.services.schedule import ScheduleSettings

        profile = self.session.profile.model_copy(update={"schedule": settings})
        if self.profile_saver is not None:
            profile = await self.profile_saver(profile)
        self.session.profile = profile
        applied = ScheduleSettings.from_profile(settings)
        self.schedule.settings = applied
        self.engine.send_time = applied.send_time
        self.payouts.calendar = applied.calendar
        return profile

    @cached_property
    def due_sender(self) -> DueSender:
        """The open app's due sender (its loop is started by the UI, stopped at close)."""
        from treasury_app.services.schedule import DueSender

        return DueSender(self.schedule)

    @cached_property
    def charges(self) -> ChargesService:
        from treasury_app.services.charges import ChargesService

        return ChargesService(self.session.qrcodes, self.ledger, clock=self.clock)

    @cached_property
    def recurrences(self) -> RecurrencesService:
        from treasury_app.services.recurrences import RecurrencesService

        return RecurrencesService(self.session.qrcodes, self.ledger, clock=self.clock)

    @cached_property
    def webhooks(self) -> WebhooksService:
        from treasury_app.services.webhooks import WebhooksService

        session = self.session
        return WebhooksService(
            session.qrcodes, session.accounts, self.ledger, pix_keys=self.pix_keys, clock=self.clock
        )

    @cached_property
    def infractions(self) -> InfractionsService:
        from treasury_app.services.infractions import InfractionsService

        return InfractionsService(self.session.accounts, self.ledger, clock=self.clock)

    @cached_property
    def backups(self) -> BackupService:
        """Backups of this profile's ledger and receipts (a team database: its local cache)."""
        from treasury_app.services.backup import BackupService

        ledger = self.ledger
        return BackupService.for_ledger(
            ledger, ledger.receipts.directory, profile=self.session.profile.name
        )

    @cached_property
    def sandbox(self) -> SandboxConsole:
        """The sandbox-only simulations; every call refused unless the profile is a sandbox's."""
        from treasury_app.services.sandbox_console import SandboxConsole

        return SandboxConsole(
            self.session.accounts.transport,
            self.recurrences,
            sandbox=self.session.profile.environment == "sandbox",
            clock_moved=self.sync_clock,
        )

    async def sync_clock(self) -> None:
        """After a sandbox action moved the bank's clock: local date checks follow it again,
        and in the team demo the team database's business date too."""
        if isinstance(self.clock, BankClock):
            await self.clock.sync(self.session)
        if self.demo_clock is not None:
            await self.demo_clock.align(self.clock())
        if "due_sender" in self.__dict__:  # what came due with the move leaves now
            self.due_sender.wake()
        for follower in list(self._clock_followers):  # what depends on today reads again
            follower()

    def follow_clock(self, follower: Callable[[], object]) -> Callable[[], None]:
        """Call ``follower`` after every move of the clock (:meth:`sync_clock`: a sandbox
        clock moved); returns what stops it."""
        self._clock_followers.append(follower)

        def stop() -> None:
            if follower in self._clock_followers:
                self._clock_followers.remove(follower)

        return stop

    async def close(self) -> None:
        self.tracker.stop()
        if "due_sender" in self.__dict__:  # started: stop its loop
            self.due_sender.stop()
        if self._unsubscribe_receiver is not None:
            self._unsubscribe_receiver()
            self._unsubscribe_receiver = None
        await self.session.close()


class BankClock:
    """The sandbox bank's clock as seen from here: the computer's clock plus an offset read from
    the sandbox's control surface, read again (:meth:`sync`) after a sandbox action moves it."""

    def __init__(self, offset: timedelta = timedelta(0), *, base: Clock = system_clock) -> None:
        self.offset = offset
        self.base = base

    def __call__(self) -> datetime:
        return self.base() + self.offset

    async def sync(self, session: Session) -> bool:
        """Read the sandbox's clock again; ``False`` (offset kept) when it cannot be read."""
        try:
            response = await session.accounts.transport.http.get("/sandbox/status")
            now = datetime.fromisoformat(response.json()["now"].replace("Z", "+00:00"))
        except Exception as error:  # the control surface is a convenience
            log.info("the sandbox clock is unknown (%s)", type(error).__name__)
            return False
        self.offset = now - self.base()
        return True


async def bank_clock(session: Session) -> BankClock | None:
    """The sandbox keeps its own clock (tests move it): local date checks follow it. ``None``
    (the computer's clock) for a real bank, or when the sandbox's status cannot be read."""
    if session.profile.environment != "sandbox":
        return None
    clock = BankClock()
    return clock if await clock.sync(session) else None


async def open_workspace(session: Session, *, policy: Policy | None = None) -> Workspace:
    """The workspace of ``session``, its dates following the bank's clock in the sandbox (and,
    in the team demo, the team database's business date following it too)."""
    workspace = Workspace(session, clock=await bank_clock(session), policy=policy)
    if workspace.demo_clock is not None:
        await workspace.demo_clock.align(workspace.clock())
    return workspace
