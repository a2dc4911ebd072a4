"""Where the files shipped beside the code are: ``resources/`` at the top of the checkout
(Qt Linguist translations: ``.ts`` sources and compiled ``.qm``), or a copy inside the
package in a frozen build."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent.parent / "resources"


def resources_dir() -> Path:
    bundled = _PACKAGE / "data"
    return bundled if bundled.is_dir() else _CHECKOUT


def translations_dir() -> Path:
    return resources_dir() / "translations"


def bank_table_path() -> Path:
    """The Pix participants' table shipped with the app (``treasury-banks refresh`` writes it)."""
    return resources_dir() / "banks.json"
