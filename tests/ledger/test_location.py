"""A ledger on a network folder is refused (SQLite's WAL does not work there), on Windows
(shares, mapped drives) and on Linux/macOS (network file systems in the mount table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from treasury_app.ledger import LedgerLocationError, open_ledger
from treasury_app.ledger.location import (
    DRIVE_REMOTE,
    check_ledger_location,
    file_system_type,
    is_unc_path,
    parse_mount_output,
    parse_proc_mounts,
)

DRIVE_FIXED = 3


@pytest.mark.parametrize(
    "text",
    [
        r"\\server\share",
        r"\\server\share\Treasury\data\ledgers",
        "//server/share/Treasury",
        r"\\?\UNC\server\share\ledgers",
        r"\\192.168.0.10\finance$\ledgers",
    ],
)
def test_unc_paths_are_network_shares(text: str) -> None:
    assert is_unc_path(text)


@pytest.mark.parametrize(
    "text",
    [r"C:\Users\ana\AppData\Local\Treasury", r"\\?\C:\long\path", "Z:\\ledgers", "/home/ana", ""],
)
def test_local_paths_are_not(text: str) -> None:
    assert not is_unc_path(text)


def test_a_unc_folder_is_refused_with_the_reason() -> None:
    with pytest.raises(LedgerLocationError) as caught:
        check_ledger_location(
            Path(r"\\server\share\data\ledgers\acme.sqlite3"),
            windows=True,
            drive_type=lambda root: pytest.fail("a share has no drive letter"),
        )
    message = str(caught.value)
    assert r"(\\server\share\data\ledgers)" in message
    assert "write-ahead log" in message and "team database" in message
    assert isinstance(caught.value, OSError)  # the unlock dialog shows OSErrors as they are


def test_a_mapped_network_drive_is_refused_through_its_drive_type() -> None:
    asked: list[str] = []

    def drive_type(root: str) -> int:
        asked.append(root)
        return DRIVE_REMOTE if root == "Z:\\" else DRIVE_FIXED

    with pytest.raises(LedgerLocationError, match=r"Z:\\Treasury"):
        check_ledger_location(
            Path("Z:\\Treasury\\ledgers\\acme.sqlite3"), windows=True, drive_type=drive_type
        )
    assert asked[0] == "Z:\\"
    check_ledger_location(
        Path("C:\\Treasury\\ledgers\\acme.sqlite3"), windows=True, drive_type=drive_type
    )


PROC_MOUNTS = """\
/dev/nvme0n1p2 / ext4 rw,relatime 0 0
proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
tmpfs /run tmpfs rw,nosuid,nodev,size=3260808k,mode=755 0 0
nas:/export/finance /mnt/finance nfs4 rw,relatime,vers=4.2 0 0
//files/treasury /mnt/Treasury\\040Share cifs rw,relatime,vers=3.1.1 0 0
ana@host:/srv /home/ana/remote fuse.sshfs rw,nosuid,nodev 0 0
/dev/sdb1 /mnt/finance/local-cache ext4 rw 0 0
"""


def test_proc_mounts_are_parsed() -> None:
    mounts = parse_proc_mounts(PROC_MOUNTS)
    assert ("/mnt/Treasury Share", "cifs") in mounts  # \040 is a space
    assert ("/mnt/finance", "nfs4") in mounts
    assert file_system_type(Path("/mnt/finance/ledgers"), mounts) == "nfs4"
    # The longest mount point wins: a local disk mounted inside the share is local.
    assert file_system_type(Path("/mnt/finance/local-cache/x"), mounts) == "ext4"
    assert file_system_type(Path("/mnt/finance-old"), mounts) == "ext4"  # not /mnt/finance
    assert file_system_type(Path("/home/ana/ledgers"), mounts) == "ext4"


@pytest.mark.parametrize(
    ("folder", "refused"),
    [
        ("/mnt/finance/data/ledgers", True),
        ("/mnt/Treasury Share/ledgers", True),
        ("/home/ana/remote/ledgers", True),
        ("/mnt/finance/local-cache/ledgers", False),
        ("/home/ana/.local/share/TreasuryApp/ledgers", False),
    ],
)
def test_network_file_systems_are_refused_on_linux(folder: str, refused: bool) -> None:
    mounts = parse_proc_mounts(PROC_MOUNTS)
    path = Path(folder) / "acme.sqlite3"
    if refused:
        with pytest.raises(LedgerLocationError, match=folder):
            check_ledger_location(path, windows=False, mounts=lambda: mounts)
    else:
        check_ledger_location(path, windows=False, mounts=lambda: mounts)


def test_macos_mount_output_is_parsed() -> None:
    output = (
        "/dev/disk3s1s1 on / (apfs, sealed, local, read-only, journaled)\n"
        "//ana@files._smb._tcp.local/Finance on /Volumes/Finance (smbfs, nodev, nosuid, "
        "mounted by ana)\n"
        "nas:/export on /Volumes/nas export (nfs, asynchronous)\n"
    )
    mounts = parse_mount_output(output)
    assert mounts == [("/", "apfs"), ("/Volumes/Finance", "smbfs"), ("/Volumes/nas export", "nfs")]
    with pytest.raises(LedgerLocationError, match="smbfs"):
        check_ledger_location(
            Path("/Volumes/Finance/ledgers/acme.sqlite3"), windows=False, mounts=lambda: mounts
        )


def test_open_ledger_checks_before_creating_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from treasury_app.ledger import location

    folder = tmp_path / "share" / "ledgers"
    monkeypatch.setattr(location, "IS_WINDOWS", False)  # the mount-table check, everywhere
    monkeypatch.setattr(location, "system_mounts", lambda: [(str(tmp_path / "share"), "cifs")])
    with pytest.raises(LedgerLocationError):
        open_ledger(folder / "acme.sqlite3", profile="acme")
    assert not folder.exists()


def test_a_local_ledger_opens(tmp_path: Path) -> None:
    ledger = open_ledger(tmp_path / "ledgers" / "acme.sqlite3", profile="acme")
    ledger.close_now()
