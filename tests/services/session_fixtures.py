"""Fixtures of the profile and session tests: a real sandbox bank per test module, an in-memory
system keyring, and private application directories.

Import the fixtures a module needs by name (``from tests.services.session_fixtures import
...``); pytest then finds them in that module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import keyring.backend
import keyring.errors
import pytest

from tests.sandbox.conftest import CLOCK_START, Api, _drain_output, _stop_cleanly
from tests.sandbox_harness import RunningSandbox, start_sandbox
from treasury_app.config import AppPaths

Backend = keyring.backend.KeyringBackend


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A system keyring that lives in a dict (tests only)."""

    priority = 1
    viable = False  # never picked by keyring's own discovery, only through set_keyring

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.entries[(service, username)]
        except KeyError:
            raise keyring.errors.PasswordDeleteError("not found") from None


class LockedKeyring(keyring.backend.KeyringBackend):
    """A keyring that is there but refuses every operation (a locked wallet)."""

    priority = 1
    viable = False

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("the wallet is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.PasswordSetError("the wallet is locked")

    def delete_password(self, service: str, username: str) -> None:
        raise keyring.errors.KeyringLocked("the wallet is locked")


@pytest.fixture
def use_keyring() -> Iterator[Callable[[Backend], Backend]]:
    """``use_keyring(backend)`` makes ``backend`` the active keyring until the test ends."""
    previous = keyring.get_keyring()

    def install(backend: Backend) -> Backend:
        keyring.set_keyring(backend)
        return backend

    try:
        yield install
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def memory_keyring(use_keyring) -> MemoryKeyring:
    """An empty in-memory keyring, active for the test."""
    backend = MemoryKeyring()
    use_keyring(backend)
    return backend


@pytest.fixture
def app_paths(tmp_path: Path) -> AppPaths:
    """Private configuration, data and log directories for one test."""
    paths = AppPaths(
        config_dir=tmp_path / "config", data_dir=tmp_path / "data", log_dir=tmp_path / "logs"
    )
    paths.ensure()
    return paths


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    """A sandbox bank of the module's own (business-day morning clock), stopped cleanly."""
    running = start_sandbox(tmp_path_factory.mktemp("services"), "--clock-start", CLOCK_START)
    output = _drain_output(running)
    try:
        yield running
    finally:
        _stop_cleanly(running, output)


@pytest.fixture(scope="module")
def ready_file(sandbox: RunningSandbox) -> Path:
    """The ready file the module's sandbox wrote."""
    return sandbox.data_dir / "ready.json"


@pytest.fixture(scope="module")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    """The control surface (and plain httpx access) of the module's sandbox Accounts API."""
    api = Api(sandbox, "accounts")
    yield api
    api.close()
