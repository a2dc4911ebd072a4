"""Where the application keeps its files (platformdirs), overridable from the command line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "TreasuryApp"
APP_AUTHOR = "Treasury"


@dataclass(frozen=True)
class AppPaths:
    """The directories of one installation: configuration, data (ledgers, receipts), logs."""

    config_dir: Path
    data_dir: Path
    log_dir: Path

    @classmethod
    def default(cls, data_dir: Path | None = None) -> AppPaths:
        """Platform paths; ``data_dir`` (from ``--data-dir``) relocates everything under it."""
        if data_dir is not None:
            root = data_dir.expanduser().resolve()
            return cls(config_dir=root / "config", data_dir=root / "data", log_dir=root / "logs")
        return cls(
            config_dir=Path(platformdirs.user_config_dir(APP_NAME, APP_AUTHOR)),
            data_dir=Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR)),
            log_dir=Path(platformdirs.user_log_dir(APP_NAME, APP_AUTHOR)),
        )

    def ensure(self) -> None:
        """Create the directories (private to the user) if they do not exist."""
        from treasury_app.private_files import make_private_dir  # not before the first paint

        for path in (self.config_dir, self.data_dir, self.log_dir):
            make_private_dir(path)
