"""Shared test configuration: headless Qt and paths to shared reference material."""

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Load pydantic completely before pytest-qt's PySide6 import hook can see a half-imported
# pydantic module (its lazy __getattr__ re-enters the import and collection fails).
from pydantic import ValidationError  # noqa: F401

from tests.ledger_backends import (  # noqa: F401  (fixtures)
    ledger,
    ledger_backend,
    pg_database_factory,
    pg_server,
    team_databases,
)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Property tests prove behaviour, not speed: no per-example deadline and no "input generation
# is slow" failure (both are wall-clock judgements a busy machine fails; seen under load).
settings.register_profile("treasury", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("treasury")

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session", autouse=True)
def _private_qt_settings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Qt's settings (window geometry, the last profile) of this run in a folder of its own, in
    an INI file on every system: never the person's own, and never another pytest-xdist
    worker's, so two workers cannot clear or read each other's."""
    from PySide6.QtCore import QSettings

    folder = str(tmp_path_factory.mktemp("qt-settings"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for kind in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(kind, QSettings.Scope.UserScope, folder)


def _vectors_path() -> Path | None:
    candidates = []
    if env := os.environ.get("TREASURY_TEST_VECTORS"):
        candidates.append(Path(env))
    candidates.append(REPO_ROOT.parent / "shared" / "reference" / "test-vectors" / "vectors.json")
    candidates.append(REPO_ROOT / "tests" / "data" / "vectors.json")  # copy kept with the tests
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


@pytest.fixture(scope="session")
def vectors() -> dict:
    """The published test vectors (``../shared/reference/test-vectors/vectors.json``)."""
    path = _vectors_path()
    if path is None:
        pytest.fail(
            "published test vectors not found: expected ../shared/reference/test-vectors/"
            "vectors.json beside the checkout, or set TREASURY_TEST_VECTORS"
        )
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Shortly before a test's time limit, write what its pending asyncio tasks await
    (``tests/stall_dump.py``): a stall on the event loop then names the coroutine that waits."""
    from tests.stall_dump import arm

    marker = item.get_closest_marker("timeout")
    limit = (
        float(marker.args[0])
        if marker and marker.args
        else float(item.config.getini("timeout") or 0)
    )
    timer = arm(limit) if limit > 0 else None
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
