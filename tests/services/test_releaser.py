"""``treasury-releaser``: a profile it cannot open is a logged code and exit status 2, never
a traceback (and never a secret)."""

from __future__ import annotations

from pathlib import Path

import pytest

from treasury_app.releaser import main


def test_an_unknown_profile_is_exit_status_2(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert main(["--profile", "nobody", "--data-dir", str(tmp_path), "--once"]) == 2
    assert "profile.not_found" in caplog.text
