"""Client secrets in the operating system's keyring, one entry per profile and API
(service ``TreasuryApp``, user ``<profile>/<api>``).

``keyring`` is imported when a secret is first looked up, not with this module: finding its
backends reads every installed package's entry points, which the start-up need not wait for.
"""

from __future__ import annotations

import logging
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from treasury_app.api.tokens import ApiName
from treasury_app.ledger.stores import AuditStore
from treasury_app.services.profiles import (
    APIS,
    KEYRING_SERVICE,
    SecretStoreUnavailable,
    validate_profile_name,
)

if TYPE_CHECKING:
    import keyring.backend

log = logging.getLogger("treasury_app.services.profiles")


def _keyring() -> ModuleType:
    import keyring
    import keyring.errors

    return keyring


def _plain_text(backend: keyring.backend.KeyringBackend) -> bool:
    """A backend that writes secrets in a readable file (keyrings.alt's plaintext one): no
    better than writing them ourselves, which the app never does."""
    kind = type(backend)
    return "plaintext" in kind.__name__.lower() or kind.__module__.startswith("keyrings.alt")


def _backend_usable(backend: keyring.backend.KeyringBackend) -> bool:
    from keyring.backends import chainer, fail, null

    if isinstance(backend, fail.Keyring | null.Keyring) or _plain_text(backend):
        return False
    if isinstance(backend, chainer.ChainerBackend):
        return any(_backend_usable(inner) for inner in backend.backends)
    return True


def keyring_unavailable_reason(backend: keyring.backend.KeyringBackend) -> str | None:
    """Why ``backend`` is not used for secrets (``None``: it is)."""
    if _backend_usable(backend):
        return None
    if _plain_text(backend):
        return (
            f"The keyring backend ({backend.name}) stores secrets in a plain-text file: client "
            "secrets are asked for at each unlock instead."
        )
    return "No system keyring was found: client secrets are asked for at each unlock."


TeamDatabaseKey = Literal["team-database"]
TEAM_DATABASE: TeamDatabaseKey = "team-database"
"""The keyring entry of a profile's team database password (beside its two APIs')."""


class SecretStore:
    """Client secrets in the operating system's keyring, one entry per profile and API.

    When there is no usable keyring (keyring's ``fail`` or ``null`` backend, or the backend
    raises :class:`keyring.errors.KeyringError`), :attr:`available` is ``False``, :meth:`get`
    returns ``None`` and the unlock dialog asks for the secret each time.
    """

    def __init__(self, service: str = KEYRING_SERVICE) -> None:
        self.service = service
        self._failed = False

    @staticmethod
    def username(profile: str, api: ApiName | TeamDatabaseKey) -> str:
        """The keyring user name of a profile's API (``<profile>/<api>``), or of its team
        database password (``<profile>/team-database``)."""
        if api not in APIS and api != TEAM_DATABASE:
            raise ValueError(f"unknown API {api!r}")
        return f"{validate_profile_name(profile)}/{api}"

    @property
    def available(self) -> bool:
        """Whether secrets can be kept in the system keyring."""
        if self._failed:
            return False
        try:
            return _backend_usable(_keyring().get_keyring())
        except _keyring().errors.KeyringError:
            return False

    @property
    def unavailable_reason(self) -> str | None:
        """Why secrets are not kept in the keyring (``None`` when they are)."""
        if self._failed:
            return "The system keyring failed: client secrets are asked for at each unlock."
        try:
            return keyring_unavailable_reason(_keyring().get_keyring())
        except _keyring().errors.KeyringError:
            return "No system keyring was found: client secrets are asked for at each unlock."

    @property
    def backend_name(self) -> str:
        """The keyring backend's name, to tell the user where secrets are kept."""
        try:
            return str(_keyring().get_keyring().name)
        except _keyring().errors.KeyringError:
            return "none"

    def get(self, profile: str, api: ApiName | TeamDatabaseKey) -> str | None:
        """The stored secret, or ``None`` (none stored, or no usable keyring)."""
        username = self.username(profile, api)
        if not self.available:
            return None
        try:
            value = _keyring().get_password(self.service, username)
        except _keyring().errors.KeyringError as error:
            self._unusable(error)
            return None
        return value or None

    async def set(
        self,
        profile: str,
        api: ApiName | TeamDatabaseKey,
        secret: str,
        *,
        audit: AuditStore | None = None,
    ) -> None:
        """Keep ``secret`` for the profile's API. Raises :class:`SecretStoreUnavailable` when
        there is no usable keyring; records ``profile.secret.set`` (never the value)."""
        username = self.username(profile, api)
        if not secret:
            raise ValueError("An empty client secret cannot be stored.")
        if not self.available:
            raise SecretStoreUnavailable(
                "There is no system keyring: the client secret will be asked for each time."
            )
        try:
            _keyring().set_password(self.service, username, secret)
        except _keyring().errors.KeyringError as error:
            self._unusable(error)
            raise SecretStoreUnavailable(
                f"The system keyring refused to store the client secret ({type(error).__name__})."
            ) from None
        log.info("client secret of %s stored in the keyring", username)
        if audit is not None:
            await audit.record("profile.secret.set", "ok", reference=profile, details={"api": api})

    async def delete(
        self, profile: str, api: ApiName | TeamDatabaseKey, *, audit: AuditStore | None = None
    ) -> bool:
        """Forget the profile's secret; ``True`` when one was removed. Records
        ``profile.secret.delete`` when one was."""
        username = self.username(profile, api)
        if not self.available:
            return False
        try:
            _keyring().delete_password(self.service, username)
        except _keyring().errors.PasswordDeleteError:
            return False
        except _keyring().errors.KeyringError as error:
            self._unusable(error)
            return False
        log.info("client secret of %s removed from the keyring", username)
        if audit is not None:
            await audit.record(
                "profile.secret.delete", "ok", reference=profile, details={"api": api}
            )
        return True

    def _unusable(self, error: Any) -> None:
        # The backend's message is not logged: some backends echo what they were given.
        log.warning("system keyring unusable (%s); secrets will be asked for", type(error).__name__)
        self._failed = True
