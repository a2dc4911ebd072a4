"""What a ledger backend raises when it cannot do what was asked (no backend imported)."""

from __future__ import annotations


class LedgerOpenError(RuntimeError):
    """The ledger cannot be opened as it is (a newer schema, a login refused, a database not
    prepared): the message says why and who can fix it."""


class LedgerUnavailable(ConnectionError):
    """The ledger cannot be reached or written now (a team database offline); nothing was
    changed, and nothing that depends on it was sent."""


class LedgerRefused(PermissionError):
    """The ledger refused this person the change (their database role does not allow it)."""
