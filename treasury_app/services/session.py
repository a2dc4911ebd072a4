"""One unlocked session of a profile: both API clients, the profile's ledger, and the payment
resolver run once at start-up.

:meth:`Session.open` decrypts the two ``.pfx`` bundles (their passwords are never stored),
finds each client secret (given, or from the system keyring), opens one transport per API and
the ledger ``<data dir>/ledgers/<profile>.sqlite3``, audits what it loaded, and resolves every
payment whose outcome is unknown before the user can send anything::

    async with await Session.open(profile, pfx_passwords=..., paths=paths) as session:
        balance = await session.accounts.balance()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Self

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.errors import ApiFailure
from treasury_app.api.tls import (
    CertificateError,
    CertificateExpired,
    CertificateNotYetValid,
    ClientIdentity,
    PfxFormatError,
    PfxNotFound,
    PfxPasswordError,
    load_pfx,
)
from treasury_app.api.tokens import ApiName, Secret, TokenState
from treasury_app.api.transport import ApiConfig, ApiTransport, host_label
from treasury_app.config import AppPaths
from treasury_app.domain.errors import Reason
from treasury_app.ledger import Ledger, open_ledger
from treasury_app.ledger.errors import LedgerOpenError, LedgerRefused, LedgerUnavailable
from treasury_app.ledger.journal import Entry
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.profiles import API_LABELS, APIS, Profile
from treasury_app.services.secret_store import SecretStore

if TYPE_CHECKING:
    from treasury_app.api.qrcodes.client import QrCodesClient
    from treasury_app.ledger.team.anchor import AnchorCheck
    from treasury_app.services.approvals import ApprovalDesk
    from treasury_app.services.notifications import BankNotifications
    from treasury_app.services.team_link import TeamLink

log = logging.getLogger("treasury_app.services.session")


class MissingSecret(LookupError):
    """A secret needed to open the session was neither given nor in the system keyring.
    ``str()`` is English, for logs; :attr:`reason` (``session.missing_client_secret`` or
    ``session.missing_pfx_password``, with the ``api``) is what a person reads, in words."""

    def __init__(self, api: ApiName, what: str = "client_secret") -> None:
        self.api: ApiName = api
        self.what = what
        label = API_LABELS[api]
        if what == "pfx_password":
            message = f"Enter the certificate password of the {label} API."
        else:
            message = (
                f"Enter the client secret of the {label} API "
                "(none is kept in the system keyring for this profile)."
            )
        code = "pfx_password" if what == "pfx_password" else "client_secret"
        self.reason = Reason(f"session.missing_{code}", {"api": api})
        super().__init__(message)

    def __str__(self) -> str:  # LookupError would quote the message like a key
        return str(self.args[0])


@dataclass(frozen=True)
class CertificateInfo:
    """What the user is shown about one API's client certificate."""

    api: ApiName
    subject: str
    issuer: str
    common_name: str
    not_before: datetime
    not_after: datetime
    fingerprint: str
    expiry_warning: str | None

    @classmethod
    def of(cls, api: ApiName, identity: ClientIdentity) -> CertificateInfo:
        """The information of a loaded certificate."""
        return cls(
            api=api,
            subject=identity.subject,
            issuer=identity.issuer,
            common_name=identity.common_name,
            not_before=identity.not_before,
            not_after=identity.not_after,
            fingerprint=identity.fingerprint,
            expiry_warning=identity.expiry_warning(),
        )


@dataclass(frozen=True)
class ConnectionCheck:
    """The outcome of obtaining a token from one API."""

    api: ApiName
    ok: bool
    message: str  # "Connected." or the reason, fit to show as is


class TeamPasswordNeeded(LookupError):
    """The team database needs a password this desktop does not know (not typed, not in the
    keyring). ``str()`` is English, for logs; :attr:`reason` (``session.team_password_needed``
    with ``where``: ``user@host:port/dbname``) is what a person reads, in words."""

    def __init__(self, where: str) -> None:
        super().__init__(f"Enter the password of the team database ({where}).")
        self.where = where
        self.reason = Reason("session.team_password_needed", {"where": where})


async def open_profile_ledger(
    profile: Profile,
    paths: AppPaths,
    *,
    team_password: str | None = None,
    secret_store: SecretStore | None = None,
) -> tuple[Ledger, str | None]:
    """The ledger ``profile`` chose, open; with, for a team database, the connection string
    of its change feed (``None`` for the file)."""
    location = profile.ledger
    if not location.is_team or location.team is None:
        return open_ledger(ledger_path(paths, profile.name), profile=profile.name), None
    from treasury_app.ledger.team import open_team_ledger
    from treasury_app.services.secret_store import TEAM_DATABASE

    team = location.team
    password = team_password or None
    if password is None and team.password == "keyring" and secret_store is not None:
        password = secret_store.get(profile.name, TEAM_DATABASE)
    if password is None and team.password != "none":
        raise TeamPasswordNeeded(team.describe())
    settings = team.settings()
    ledger = await open_team_ledger(
        settings,
        profile=profile.name,
        password=password,
        receipts_dir=paths.data_dir / "ledgers" / f"{profile.name}-receipts",
    )
    return ledger, settings.conninfo(password)


_UNLOCK_FAILURES: tuple[tuple[type[CertificateError], str], ...] = (
    (PfxPasswordError, "wrong_password"),
    (PfxNotFound, "certificate_missing"),
    (PfxFormatError, "not_a_certificate"),
    (CertificateExpired, "certificate_expired"),
    (CertificateNotYetValid, "certificate_not_yet_valid"),
)


def unlock_failure_code(error: BaseException) -> str:
    """Why a certificate did not open, as the audit says it (``wrong_password``...)."""
    for kind, code in _UNLOCK_FAILURES:
        if isinstance(error, kind):
            return code
    return "certificate_refused"


async def audit_failed_unlock(
    profile: Profile,
    paths: AppPaths,
    failures: Mapping[ApiName, BaseException],
    *,
    team_password: str | None = None,
    secret_store: SecretStore | None = None,
) -> bool:
    """Record in the profile's ledger an unlock refused because certificates did not open:
    which ones and why, as codes (``wrong_password``...), never anything typed. A team
    database is written only when it can be logged in to (its password given or kept);
    otherwise the refusal is only logged. Whether it was recorded."""
    reasons = {api: unlock_failure_code(error) for api, error in sorted(failures.items())}
    try:
        ledger, _conninfo = await open_profile_ledger(
            profile, paths, team_password=team_password, secret_store=secret_store
        )
    except (TeamPasswordNeeded, LedgerOpenError, LedgerUnavailable, OSError) as error:
        log.info("refused unlock of %r not audited: %s", profile.name, type(error).__name__)
        return False
    try:
        await ledger.audit.record(
            "session.unlock",
            "refused",
            reference=profile.name,
            details={"environment": profile.environment, "certificates": reasons},
        )
    except (LedgerRefused, LedgerUnavailable, OSError) as error:
        log.info("refused unlock of %r not audited: %s", profile.name, type(error).__name__)
        return False
    finally:
        await ledger.close()
    return True


def ledger_path(paths: AppPaths, profile_name: str) -> Path:
    """Where the ledger of ``profile_name`` lives: ``<data dir>/ledgers/<name>.sqlite3``."""
    return paths.data_dir / "ledgers" / f"{profile_name}.sqlite3"


def _client_secret(
    profile: Profile,
    api: ApiName,
    given: Mapping[ApiName, str] | None,
    store: SecretStore | None,
) -> tuple[Secret, str]:
    value = (given or {}).get(api)
    if value:
        return Secret(value), "given"
    if store is not None:
        stored = store.get(profile.name, api)
        if stored:
            return Secret(stored), "keyring"
    raise MissingSecret(api)


class Session:
    """An open profile: ``qrcodes`` and ``accounts`` clients, ``ledger``, certificates."""

    def __init__(
        self,
        profile: Profile,
        *,
        ledger: Ledger,
        transports: Mapping[ApiName, ApiTransport],
        certificates: Mapping[ApiName, CertificateInfo],
    ) -> None:
        self.profile = profile
        self.ledger = ledger
        self.transports: dict[ApiName, ApiTransport] = dict(transports)
        self.certificates: dict[ApiName, CertificateInfo] = dict(certificates)
        self.accounts = AccountsClient(self.transports["accounts"])
        self.payments = PaymentEngine(
            self.accounts,
            ledger,
            resend_window=timedelta(minutes=profile.resend_window_minutes),
        )
        self.resolved_at_start: list[Entry] = []
        self.team: TeamLink | None = None
        """The live link to the team database (``None``: the ledger is this computer's)."""
        self.notifications: BankNotifications | None = None
        """The webhook receiver's status and the bank's events (team database only; ``None``:
        no receiver can reach this ledger, payments are polled)."""
        self.anchor: AnchorCheck | None = None
        """The audit anchor's check at unlock (team database only)."""
        self.approvals: ApprovalDesk | None = None
        """Dual control (a team database whose policy asks for approvals; ``None`` on the
        file ledger: dual control needs a team database)."""
        self._closed = False

    @cached_property
    def qrcodes(self) -> QrCodesClient:
        """The QR Codes API's client, built (its models loaded) when first used: the statement
        shown at unlock needs none of it. Its transport and token exist from the unlock."""
        from treasury_app.api.qrcodes.client import QrCodesClient

        return QrCodesClient(self.transports["qrcodes"])

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        profile: Profile,
        *,
        pfx_passwords: Mapping[ApiName, str],
        client_secrets: Mapping[ApiName, str] | None = None,
        secret_store: SecretStore | None = None,
        paths: AppPaths,
        identities: Mapping[ApiName, ClientIdentity] | None = None,
        team_password: str | None = None,
    ) -> Session:
        """Unlock ``profile`` and resolve its pending payments.

        A profile whose ledger is a team database logs in to it with ``team_password``, or
        the password kept in ``secret_store``, or none (a client certificate); checks the
        audit's anchor kept on this computer; and follows the other desktops' changes
        (:attr:`team`). :class:`TeamPasswordNeeded` when a password is needed and not known.

        Raises :class:`MissingSecret` (a client secret neither given nor in ``secret_store``,
        or no pfx password), the :class:`~treasury_app.api.tls.CertificateError` subclasses of
        :func:`~treasury_app.api.tls.load_pfx` unchanged, and whatever opening the ledger
        raises. On any failure nothing is left open. ``identities`` are certificates already
        decrypted (by the unlock dialog) with these passwords: they are not decrypted again.
        """
        secrets: dict[ApiName, tuple[Secret, str]] = {}
        for api in APIS:
            if not pfx_passwords.get(api):
                raise MissingSecret(api, "pfx_password")
            secrets[api] = _client_secret(profile, api, client_secrets, secret_store)
        if identities is None or set(identities) != set(APIS):
            # Decrypting a .pfx takes ~40 ms of CPU: off the event loop (the UI's thread).
            loaded = await asyncio.gather(
                *(
                    asyncio.to_thread(
                        load_pfx, profile.api(api).pfx_path.expanduser(), pfx_passwords[api]
                    )
                    for api in APIS
                )
            )
            identities = dict(zip(APIS, loaded, strict=True))
        transports: dict[ApiName, ApiTransport] = {}
        ledger: Ledger | None = None
        session: Session | None = None
        # Named to IT when a proxy asks for a login the app does not give.
        bank_hosts = tuple(dict.fromkeys(host_label(profile.api(api).base_url) for api in APIS))
        try:
            for api in APIS:
                settings = profile.api(api)
                transports[api] = ApiTransport(
                    ApiConfig(
                        api=api,
                        base_url=settings.base_url,
                        client_id=settings.client_id,
                        client_secret=secrets[api][0],
                        identity=identities[api],
                        trust=settings.trust(),
                        scopes=settings.scopes,
                        timeouts=profile.timeouts(),
                        proxy=profile.proxy,
                        bank_hosts=bank_hosts,
                    )
                )
            ledger, conninfo = await open_profile_ledger(
                profile, paths, team_password=team_password, secret_store=secret_store
            )
            session = cls(
                profile,
                ledger=ledger,
                transports=transports,
                certificates={api: CertificateInfo.of(api, identities[api]) for api in APIS},
            )
            await session._audit_open({api: source for api, (_, source) in secrets.items()})
            if conninfo is not None:
                await session._join_team(paths, conninfo)
            session.resolved_at_start = await session.payments.resolve_pending()
        except BaseException:
            if session is not None:
                await session._leave_team()
            await _close_quietly(transports.values(), ledger)
            raise
        log.info(
            "session of profile %r open; %d pending payment(s) resolved",
            profile.name,
            len(session.resolved_at_start),
        )
        return session

    async def _join_team(self, paths: AppPaths, conninfo: str) -> None:
        """Check the audit anchor this desktop keeps, then follow the team's changes and the
        bank's notifications."""
        from treasury_app.ledger.team import TeamLedger
        from treasury_app.services.notifications import BankNotifications
        from treasury_app.services.team_link import TeamLink

        ledger = self.ledger
        assert isinstance(ledger, TeamLedger)
        if not ledger.identity.can_write:  # a viewer: reads, sends and resolves nothing
            self.payments.read_only = True
        self.anchor = await ledger.check_anchor(paths.data_dir / "team")
        if not self.anchor.ok:
            await ledger.audit.record(
                "audit.anchor_mismatch",
                "warning",
                reference=ledger.describe(),
                details={
                    "kept": str(self.anchor.kept),
                    "head": str(self.anchor.head),
                },
            )
        self.team = TeamLink(ledger, self.payments, conninfo, position=await ledger.feed_position())
        self.team.start()
        self.notifications = BankNotifications(ledger.notices, conninfo)
        await self.notifications.check()  # known before the tracker's first pass ends
        self.notifications.start()
        await self._open_desk(conninfo)

    async def _open_desk(self, conninfo: str) -> None:
        """Dual control: the approval desk, when the team's policy asks for approvals."""
        from treasury_app.ledger.team import TeamLedger
        from treasury_app.services.approvals import ApprovalDesk

        ledger = self.ledger
        assert isinstance(ledger, TeamLedger) and ledger.approvals is not None
        team = self.profile.ledger.team
        assert team is not None
        self.payments.release_mode = team.release
        policy = await ledger.approvals.policy()
        if not policy.dual_control:
            return

        async def password_check(password: str) -> None:
            import psycopg
            from psycopg.conninfo import make_conninfo

            connection = await psycopg.AsyncConnection.connect(
                make_conninfo(conninfo, password=password), autocommit=True
            )
            await connection.close()

        self.approvals = ApprovalDesk(
            store=ledger.approvals,
            engine=self.payments,
            me=ledger.context.os_user,
            roles=frozenset(ledger.identity.roles),
            password_required=team.approve_password,
            password_check=password_check,
            policy_at_unlock=policy,
        )
        self.payments.subscribe(self.approvals.changed)

    async def _leave_team(self) -> None:
        notifications, self.notifications = self.notifications, None
        if notifications is not None:
            with contextlib.suppress(Exception):
                await notifications.close()
        team, self.team = self.team, None
        if team is not None:
            with contextlib.suppress(Exception):
                await team.close()

    async def _audit_open(self, secret_sources: Mapping[ApiName, str]) -> None:
        profile = self.profile
        await self.ledger.audit.record(
            "session.open",
            "ok",
            reference=profile.name,
            details={
                "environment": profile.environment,
                "urls": {api: profile.api(api).base_url for api in APIS},
                "client_ids": {api: profile.api(api).client_id for api in APIS},
                "credentials_from": dict(secret_sources),
            },
        )
        for api, info in self.certificates.items():
            await self.ledger.audit.record(
                "certificate.load",
                "warning" if info.expiry_warning else "ok",
                reference=api,
                details={
                    "subject": info.subject,
                    "issuer": info.issuer,
                    "not_after": info.not_after,
                    "fingerprint": info.fingerprint,
                    "expiry_warning": info.expiry_warning,
                },
            )

    # -- state -------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    def token_states(self) -> dict[ApiName, TokenState]:
        """Each API's token state (valid until, scope, last error) for the status bar."""
        return {api: transport.tokens.state for api, transport in self.transports.items()}

    async def check_connection(self) -> dict[ApiName, ConnectionCheck]:
        """Obtain a token on each API (the cached one while it is valid): proves the address,
        the certificate, the server's trust and the client credentials."""

        async def check(api: ApiName) -> ConnectionCheck:
            transport = self.transports[api]
            try:
                await transport.tokens.token(transport.http)
            except ApiFailure as error:
                return ConnectionCheck(api, False, str(error))
            return ConnectionCheck(api, True, "Connected.")

        results = await asyncio.gather(*(check(api) for api in APIS))
        return {result.api: result for result in results}

    # -- closing -----------------------------------------------------------------------------

    async def close(self) -> None:
        """Close both transports and the ledger (audited as ``session.close``); idempotent."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            await self.ledger.audit.record("session.close", "ok", reference=self.profile.name)
        await self._leave_team()
        await _close_quietly(self.transports.values(), self.ledger)
        log.info("session of profile %r closed", self.profile.name)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


async def _close_quietly(transports: Iterable[ApiTransport], ledger: Ledger | None) -> None:
    """Close what was opened, each step even when an earlier one failed."""
    for transport in list(transports):
        try:
            await transport.aclose()
        except Exception:
            log.warning("closing the %s transport failed", transport.api, exc_info=True)
    if ledger is not None:
        try:
            await ledger.close()
        except Exception:
            log.warning("closing the ledger failed", exc_info=True)
