"""What a ledger backend raises when it cannot do what was asked (no backend imported)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from treasury_app.domain.errors import Reason


class LedgerOpenError(RuntimeError):
    """The ledger cannot be opened as it is (a newer schema, a login refused, a database not
    prepared). ``str()`` says why and who can fix it, for logs; :attr:`reason` is what a
    person reads, as a rule's code and parameters (``team.login_password``...) the UI puts
    into words."""

    reason: Reason = Reason("ledger.cannot_open")

    def __init__(self, message: str = "", *, reason: Reason | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class LedgerUnavailable(ConnectionError):
    """The ledger cannot be reached or written now (a team database offline); nothing was
    changed, and nothing that depends on it was sent. ``str()`` is for logs; :attr:`reason`
    (``team.offline_refused`` with the server's ``host`` and ``port``...) is what a person
    reads, in words."""

    reason: Reason = Reason("ledger.unavailable")

    def __init__(self, message: str = "", *, reason: Reason | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class LedgerRefused(PermissionError):
    """The ledger refused this person the change (their database role does not allow it, a
    rule of the team database). ``str()`` is for logs; :attr:`reason` is what a person reads,
    as a rule's code and parameters (``team.over_limit``...) the UI puts into words."""

    reason: Reason = Reason("team.refused")

    def __init__(self, message: str = "", *, reason: Reason | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


@dataclass(frozen=True)
class BlockingSession:
    """A database session holding what a write waited for, as the database names it."""

    login: str
    application: str
    state: str | None = None
    """``idle in transaction``, ``active``...; ``None`` when the database does not say."""
    since: datetime | None = None
    """When its transaction started (``None``: not known)."""
    pid: int = 0

    def describe(self) -> str:
        """``login (application), state since HH:MM:SS UTC`` (for logs and the English text)."""
        text = f"{self.login} ({self.application or 'unknown application'})"
        if self.state:
            text += f", {self.state}"
        if self.since is not None:
            text += f" since {self.since.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC"
        return text


class LedgerBlocked(LedgerUnavailable):
    """A write waited for a lock another session holds, up to the lock timeout, and gave up:
    nothing was changed. ``holders``: the sessions that held it, as seen while it waited
    (empty when the wait ended before they could be named)."""

    code = "ledger.blocked"

    def __init__(self, holders: tuple[BlockingSession, ...], detail: str = "") -> None:
        self.holders = holders
        self.detail = detail
        if holders:
            who = "; ".join(holder.describe() for holder in holders)
            text = (
                f"Nothing was changed: the team database waited for a lock held by {who}, "
                "and gave up. Try again once that session is done; if it stays, ask them (or "
                "the administrator) to end it."
            )
        else:
            text = (
                "Nothing was changed: the team database waited too long for a lock another "
                "session holds. Try again in a moment."
            )
        super().__init__(text)
