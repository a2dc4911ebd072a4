"""The architecture's import rules (docs/architecture.md, "Layers"): arrows point down only,
and only ``ui/`` and ``app.py`` import Qt."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "treasury_app"

# layer -> modules it must never import
FORBIDDEN = {
    "domain": (
        "PySide6",
        "treasury_app.api",
        "treasury_app.ledger",
        "treasury_app.services",
        "treasury_app.ui",
        "treasury_app.sandbox",
        "httpx",
    ),
    "api": (
        "PySide6",
        "treasury_app.ledger",
        "treasury_app.services",
        "treasury_app.ui",
        "treasury_app.sandbox",
    ),
    "ledger": (
        "PySide6",
        "treasury_app.api",
        "treasury_app.services",
        "treasury_app.ui",
        "treasury_app.sandbox",
    ),
    "services": ("PySide6", "treasury_app.ui", "treasury_app.sandbox"),
    "sandbox": ("PySide6", "treasury_app.services", "treasury_app.ui", "treasury_app.ledger"),
    # the machine policy (treasury_app/policy): read below the services, from config and domain
    "policy": (
        "PySide6",
        "treasury_app.api",
        "treasury_app.ledger",
        "treasury_app.services",
        "treasury_app.ui",
        "treasury_app.sandbox",
    ),
    # the webhook receiver service: domain, the API and the ledger; never a desktop's layers
    "receiver": ("PySide6", "treasury_app.services", "treasury_app.ui", "treasury_app.sandbox"),
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_import_goes_up_or_reaches_qt(layer: str) -> None:
    files = sorted((PACKAGE / layer).rglob("*.py"))
    assert files, layer
    offenders = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in files
        for name in sorted(imported_modules(path))
        if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN[layer])
    ]
    assert offenders == []


def test_nothing_imports_the_receiver_but_its_own_package() -> None:
    """``treasury_app/receiver`` is a service of its own: the desktop never loads it."""
    offenders = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "receiver" not in path.relative_to(PACKAGE).parts[:1]
        for name in sorted(imported_modules(path))
        if name == "treasury_app.receiver" or name.startswith("treasury_app.receiver.")
    ]
    assert offenders == []


def test_the_rule_sees_a_violation(tmp_path: Path) -> None:
    """The control: the scanner does find a Qt import when there is one."""
    module = tmp_path / "bad.py"
    module.write_text("from PySide6.QtCore import QObject\nimport treasury_app.ui.main_window\n")
    assert {"PySide6.QtCore", "treasury_app.ui.main_window"} <= imported_modules(module)
