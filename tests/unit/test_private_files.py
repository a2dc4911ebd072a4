"""Owner-only folders and files: POSIX modes where they mean something, an explicit ACL
(``icacls``) on Windows, checked here through the commands it builds and runs."""

from __future__ import annotations

import logging
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from treasury_app import private_files
from treasury_app.private_files import icacls_commands, make_private_dir, make_private_file

ICACLS = "D:\\Win\\System32\\icacls.exe"
WHOAMI = "D:\\Win\\System32\\whoami.exe"
ANA = "S-1-5-21-1004336348-1177238915-682003330-1001"
# What whoami /user /fo csv /nh answers (the name is the token's, whatever the environment).
WHOAMI_ANSWER = f'"acme\\ana","{ANA}"\r\n'
SYSTEM, ADMINS = "*S-1-5-18", "*S-1-5-32-544"


def folder_grants(sid: str) -> list[str]:
    return [f"*{sid}:(OI)(CI)F", f"{SYSTEM}:(OI)(CI)F", f"{ADMINS}:(OI)(CI)F"]


@pytest.fixture
def on_windows(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Pretend to be Windows (user ``ACME\\ana`` by her token's SID, ``%SystemRoot%``
    ``D:\\Win``): the icacls commands run, recorded, not executed; whoami answers her SID."""
    ran: list[list[str]] = []

    def runner(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        if command[0] == WHOAMI:
            return subprocess.CompletedProcess(list(command), 0, WHOAMI_ANSWER, "")
        ran.append(list(command))
        return subprocess.CompletedProcess(list(command), 0, "", "")

    monkeypatch.setattr(private_files, "IS_WINDOWS", True)
    monkeypatch.setattr(private_files, "run_command", runner)
    monkeypatch.setattr(private_files, "_private_roots", set())
    monkeypatch.setattr(private_files, "_user_sid", None)
    # Environment variables anyone can set name nobody here: the token decides.
    monkeypatch.setenv("USERNAME", "mallory")
    monkeypatch.setenv("USERDOMAIN", "EVIL")
    monkeypatch.setenv("SYSTEMROOT", "D:\\Win")
    return ran


def test_the_icacls_commands_reset_the_acl_then_give_the_user_system_and_admins_control() -> None:
    folder = Path("C:/Users/ana/AppData/Local/Treasury/data")
    system32 = "C:\\Windows\\System32\\icacls.exe"
    assert icacls_commands(folder, ANA, directory=True, system_root="C:\\Windows") == [
        # Explicit entries an existing folder gives other accounts go first...
        [system32, str(folder), "/reset", "/q"],
        # ...then the inherited ones; the user (by SID), SYSTEM and Administrators keep
        # full control (backups, antivirus and IT's tools run as those).
        [system32, str(folder), "/inheritance:r", "/grant:r", *folder_grants(ANA), "/q"],
    ]
    file_commands = icacls_commands(folder / "a.sqlite3", ANA, directory=False, system_root="")
    assert [command[0] for command in file_commands] == [system32, system32]  # the default
    assert file_commands[1][4:7] == [f"*{ANA}:F", f"{SYSTEM}:F", f"{ADMINS}:F"]
    # Never a bare "icacls" looked up on a search path that includes the current folder.
    assert icacls_commands(folder, ANA, directory=True, system_root="D:\\Win")[0][0] == ICACLS


def test_the_user_is_the_sid_of_the_process_token_from_whoami() -> None:
    assert private_files.whoami_command("D:\\Win") == [WHOAMI, "/user", "/fo", "csv", "/nh"]
    assert private_files.sid_from_whoami(WHOAMI_ANSWER) == ANA
    # A name with a comma or quotes is quoted by whoami's CSV; the SID is the last field.
    assert private_files.sid_from_whoami(f'"ACME\\Silva, Ana ""A""","{ANA}"\n') == ANA
    assert private_files.sid_from_whoami('\r\n"nt authority\\system","S-1-5-18"\r\n') == (
        "S-1-5-18"
    )
    for bad in ("", "ERROR: Access is denied.", '"acme\\ana","not a sid"'):
        with pytest.raises(ValueError):
            private_files.sid_from_whoami(bad)


def test_on_windows_without_the_users_sid_nothing_is_guessed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ran: list[list[str]] = []

    def runner(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        ran.append(list(command))
        if command[0].endswith("whoami.exe"):
            return subprocess.CompletedProcess(list(command), 1, "", "ERROR: no token")
        return subprocess.CompletedProcess(list(command), 0, "", "")

    monkeypatch.setattr(private_files, "IS_WINDOWS", True)
    monkeypatch.setattr(private_files, "run_command", runner)
    monkeypatch.setattr(private_files, "_private_roots", set())
    monkeypatch.setattr(private_files, "_user_sid", None)
    with caplog.at_level(logging.WARNING, logger="treasury_app.private_files"):
        folder = make_private_dir(tmp_path / "data")
    assert folder.is_dir()
    assert [command[0] for command in ran] == ["C:\\Windows\\System32\\whoami.exe"]  # no icacls
    assert "ERROR: no token" in caplog.text


def test_on_windows_a_folder_gets_an_acl_for_the_current_user(
    tmp_path: Path, on_windows: list[list[str]]
) -> None:
    data = make_private_dir(tmp_path / "data")
    assert data.is_dir()
    assert on_windows == [
        [ICACLS, str(data.resolve()), "/reset", "/q"],
        [ICACLS, str(data.resolve()), "/inheritance:r", "/grant:r", *folder_grants(ANA), "/q"],
    ]


def test_on_windows_what_is_inside_a_private_folder_inherits_it(
    tmp_path: Path, on_windows: list[list[str]]
) -> None:
    data = make_private_dir(tmp_path / "data")
    ledgers = make_private_dir(data / "ledgers")
    ledger = ledgers / "acme.sqlite3"
    ledger.write_bytes(b"")
    make_private_file(ledger)
    make_private_dir(data)  # again: already done
    assert len(on_windows) == 2  # the folder's (OI)(CI) entry covers the rest

    elsewhere = tmp_path / "elsewhere.log"
    elsewhere.write_text("")
    make_private_file(elsewhere)  # outside any private folder: set on its own
    assert on_windows[-2:] == [
        [ICACLS, str(elsewhere.resolve()), "/reset", "/q"],
        [
            ICACLS,
            str(elsewhere.resolve()),
            "/inheritance:r",
            "/grant:r",
            f"*{ANA}:F",
            f"{SYSTEM}:F",
            f"{ADMINS}:F",
            "/q",
        ],
    ]


def test_on_windows_a_failed_icacls_is_logged_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(private_files, "IS_WINDOWS", True)
    monkeypatch.setattr(private_files, "_private_roots", set())
    monkeypatch.setattr(private_files, "_user_sid", ANA)  # icacls itself fails
    monkeypatch.setattr(
        private_files,
        "run_command",
        lambda command: subprocess.CompletedProcess(command, 5, "", "Access is denied."),
    )
    folder = make_private_dir(tmp_path / "fat32")
    assert folder.is_dir()
    assert "Access is denied." in caplog.text
    make_private_dir(folder / "inside")  # not recorded as private: tried again
    assert caplog.text.count("Access is denied.") == 2


def test_on_windows_output_icacls_cannot_decode_or_a_refused_run_is_logged_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Bytes no code page decodes cleanly (icacls answers in the OEM one): replaced, not raised.
    noisy = [
        sys.executable,
        "-c",
        "import sys; sys.stdout.buffer.write(b'Acesso negado \\xff\\x81')",
    ]
    outcome = private_files.run_command(noisy)
    assert outcome.returncode == 0 and outcome.stdout.startswith("Acesso negado ")
    assert "\ufffd" in outcome.stdout

    def refused(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
        raise ValueError("embedded null byte")

    monkeypatch.setattr(private_files, "IS_WINDOWS", True)
    monkeypatch.setattr(private_files, "_private_roots", set())
    monkeypatch.setattr(private_files, "_user_sid", ANA)
    monkeypatch.setattr(private_files, "run_command", refused)
    with caplog.at_level(logging.WARNING, logger="treasury_app.private_files"):
        folder = make_private_dir(tmp_path / "odd")
    assert folder.is_dir()
    assert "embedded null byte" in caplog.text


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_on_posix_modes_are_0700_and_0600(tmp_path: Path) -> None:
    existing = tmp_path / "existing"
    existing.mkdir(mode=0o755)
    existing.chmod(0o755)
    make_private_dir(existing)
    assert stat.S_IMODE(existing.stat().st_mode) == 0o700
    nested = make_private_dir(tmp_path / "a" / "b")
    assert stat.S_IMODE(nested.stat().st_mode) == 0o700
    file = nested / "f"
    file.write_text("x")
    file.chmod(0o644)
    make_private_file(file)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
