"""The audit chain's head kept outside the database, on each desktop.

The owner role or a superuser could rewrite the whole audit and re-hash it consistently; the
chain inside the database cannot show that. So every desktop remembers the last head
``(seq, hash)`` it has seen (a small file in its data folder, per team database) and, at each
unlock, checks that the chain still holds that very row with that very hash. A chain that no
longer contains it was rewritten: the desktop says so (and keeps the old anchor, so it keeps
saying so until someone looks).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

from treasury_app.ledger.team.chain import Anchor

log = logging.getLogger("treasury_app.ledger.team.anchor")


@dataclass(frozen=True)
class AnchorCheck:
    ok: bool
    kept: Anchor | None
    """The head this desktop had seen before (``None``: first time on this database)."""
    head: Anchor
    """The chain's head now."""

    def message(self) -> str:
        if self.ok:
            return ""
        return (
            f"The team audit was rewritten: row {self.kept.seq if self.kept else '?'} is no "
            "longer what this computer saw. Tell the administrator (treasury-admin "
            "verify-audit)."
        )


def anchor_path(folder: Path, database: str) -> Path:
    """Where the anchor of ``database`` (its ``describe()``) is kept in ``folder``."""
    digest = hashlib.sha256(database.encode("utf-8")).hexdigest()[:16]
    return folder / f"audit-anchor-{digest}.json"


def read_anchor(path: Path) -> Anchor | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Anchor(int(data["seq"]), str(data["hash"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.warning("audit anchor %s unreadable (%s): starting again", path, error)
        return None


def write_anchor(path: Path, anchor: Anchor, database: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(
        json.dumps({"database": database, "seq": anchor.seq, "hash": anchor.hash}),
        encoding="utf-8",
    )
    temporary.replace(path)
