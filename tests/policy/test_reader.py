"""Reading a machine policy (treasury_app/policy): from a fake registry, driven through the same
RegistryApi calls winreg answers on Windows, and from the admin INI file; every field, the
precedence of the sources, bad values refused with a code, no key meaning no policy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.policy.fake_registry import FakeRegistry
from treasury_app.policy import (
    POLICY_KEY,
    IniKeys,
    Policy,
    PolicyError,
    RegistryKeys,
    load_machine_policy,
    read_policy,
)
from treasury_app.policy.sources import REG_BINARY, admin_ini_path, machine_sources

ENV = {"USERNAME": "maria", "ProgramData": "/srv/programdata"}
ROOT = POLICY_KEY


def abs_(text: str) -> str:
    """An absolute path on this system (the tests run on Linux and Windows)."""
    return str(Path(text).absolute()) if not Path(text).is_absolute() else text


def full_registry() -> FakeRegistry:
    return FakeRegistry(
        {
            ROOT: {
                "SandboxDisabled": 1,
                "DataDir": "/data/treasury/%USERNAME%",
                "BackupDir": "/backups/%USERNAME%",
            },
            f"{ROOT}\\TeamDatabase": {
                "Host": "db.example.com",
                "Port": 6432,
                "Database": "treasury",
                "User": "%USERNAME%_x",
                "SslMode": "verify-ca",
                "CaFile": "%ProgramData%/Treasury/db-ca.pem",
                "CertFile": "/certs/me.crt",
                "KeyFile": "/certs/me.key",
                "PasswordMode": "Ask",
                "Release": "all",
                "ApprovePassword": 1,
            },
            f"{ROOT}\\Profiles\\1": {
                "Name": "Main bank",
                "QrCodesUrl": "https://qr.bank.example/",
                "QrCodesClientId": "qr-client",
                "QrCodesCertificate": "/certs/%USERNAME%-qr.pfx",
                "QrCodesCaFile": "/certs/bank-ca.pem",
                "AccountsUrl": "https://accounts.bank.example:8443/v1",
                "AccountsClientId": "acc-client",
                "AccountsCertificate": "/certs/acc.pfx",
                "PixKeys": ["12345678000195", "pix@company.example"],
            },
            f"{ROOT}\\Profiles\\2": {},  # an empty slot of the template
            f"{ROOT}\\Locked": {"Profiles": 1, "TeamDatabase": 1, "Release": 0, "BackupDir": 1},
        }
    )


def from_registry(registry: FakeRegistry) -> Policy:
    return read_policy([RegistryKeys(registry)], environ=ENV)


def test_every_field_from_the_registry() -> None:
    registry = full_registry()
    policy = from_registry(registry)
    assert policy.sandbox_disabled is True
    assert policy.data_dir == Path("/data/treasury/maria")
    assert policy.backup_dir == Path("/backups/maria")
    team = policy.team_database
    assert team is not None
    assert (team.host, team.port, team.dbname, team.user, team.sslmode) == (
        "db.example.com",
        6432,
        "treasury",
        "maria_x",
        "verify-ca",
    )
    assert team.ca_file == Path("/srv/programdata/Treasury/db-ca.pem")
    assert (team.cert_file, team.key_file) == (Path("/certs/me.crt"), Path("/certs/me.key"))
    assert (team.password_mode, team.release, team.approve_password) == ("ask", "all", True)
    (preset,) = policy.profiles
    assert preset.name == "Main bank" and preset.source == "registry"
    assert preset.qrcodes.base_url == "https://qr.bank.example"
    assert preset.qrcodes.client_id == "qr-client"
    assert preset.qrcodes.pfx_path == Path("/certs/maria-qr.pfx")
    assert preset.qrcodes.ca_file == Path("/certs/bank-ca.pem")
    assert preset.accounts.base_url == "https://accounts.bank.example:8443/v1"
    assert preset.accounts.ca_file is None  # the system's trust store
    assert preset.pix_keys == ("12345678000195", "pix@company.example")
    assert policy.locked == {"Profiles", "TeamDatabase", "BackupDir"}
    assert policy.where == {"registry": "HKLM\\" + ROOT}
    assert policy.ignored == ()
    # Every key opened was closed again.
    assert registry.closed == len(registry.opened) - registry.opened.count("missing")


def test_no_key_and_no_file_is_no_policy(tmp_path: Path) -> None:
    policy = read_policy(
        [
            RegistryKeys(FakeRegistry({"Software\\Other": {"X": 1}})),
            IniKeys.read(tmp_path / "no.ini"),
        ]
    )
    assert policy == Policy() and policy.is_empty
    assert policy.settings() == []


INI = """\
; written by the MSI (packaging/windows/policy.wxi) or by hand
[Policy]
SandboxDisabled = yes
DataDir = {data}
BackupDir = {backup}

[TeamDatabase]
Host = db.example.com
Port = 5433
Database = treasury
SslMode = verify-full
Release = none
ApprovePassword = false

[Profiles\\Main]
Name = Main bank
QrCodesUrl = https://qr.bank.example
QrCodesClientId = qr-client
QrCodesCertificate = {pfx}
AccountsUrl = https://accounts.bank.example
AccountsClientId = acc-client
AccountsCertificate = {pfx}
PixKeys = a@b.example; 12345678000195

[Locked]
Release = 1
"""


def write_ini(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
def test_every_field_from_the_ini_file(tmp_path: Path, encoding: str) -> None:
    data, backup, pfx = (str(tmp_path / name) for name in ("dados-ç", "backup", "a.pfx"))
    ini = write_ini(
        tmp_path / "policy.ini", INI.format(data=data, backup=backup, pfx=pfx), encoding
    )
    policy = read_policy([IniKeys.read(ini)], environ=ENV)
    assert policy.sandbox_disabled is True
    assert policy.data_dir == Path(data) and policy.backup_dir == Path(backup)
    team = policy.team_database
    assert team is not None and team.source == "ini"
    assert (team.host, team.port, team.dbname, team.user, team.release) == (
        "db.example.com",
        5433,
        "treasury",
        None,
        "none",
    )
    assert team.approve_password is False
    (preset,) = policy.profiles
    assert preset.name == "Main bank" and preset.pix_keys == ("a@b.example", "12345678000195")
    assert policy.locked == {"Release"}
    assert policy.where == {"ini": str(ini)}


def test_the_registry_wins_over_the_ini_file_value_by_value_and_group_by_group(
    tmp_path: Path,
) -> None:
    pfx = str(tmp_path / "a.pfx")
    ini = write_ini(
        tmp_path / "policy.ini",
        INI.format(data=str(tmp_path / "ini-data"), backup=str(tmp_path / "ini-backup"), pfx=pfx),
    )
    registry = FakeRegistry(
        {
            ROOT: {"SandboxDisabled": 0, "DataDir": "/reg/data"},
            f"{ROOT}\\TeamDatabase": {"Host": "reg-db", "Database": "regdb"},
            f"{ROOT}\\Profiles\\1": {
                "Name": "MAIN BANK",  # the same profile as the INI's: the registry's is kept
                "QrCodesUrl": "https://reg.example",
                "QrCodesClientId": "r",
                "QrCodesCertificate": "/r.pfx",
                "AccountsUrl": "https://reg.example",
                "AccountsClientId": "r",
                "AccountsCertificate": "/r.pfx",
            },
            # The INI locks Release, which the registry's team database does not set: the
            # registry's word on the lock wins too (else the lock would lack its value).
            f"{ROOT}\\Locked": {"Release": 0},
        }
    )
    policy = read_policy([RegistryKeys(registry), IniKeys.read(ini)], environ=ENV)
    assert policy.locked == frozenset() and policy.origins["Locked\\Release"] == "registry"
    assert policy.sandbox_disabled is False  # the registry's 0 over the INI's yes
    assert policy.origins["SandboxDisabled"] == "registry"
    assert policy.data_dir == Path("/reg/data")
    assert policy.backup_dir == tmp_path / "ini-backup"  # only the INI sets it
    assert policy.origins["BackupDir"] == "ini"
    team = policy.team_database
    # Taken whole from the registry: no port nor release from the INI mixed in.
    assert team is not None and (team.host, team.port, team.release) == ("reg-db", 5432, None)
    (preset,) = policy.profiles
    assert preset.name == "MAIN BANK" and preset.source == "registry"


def test_a_lock_without_its_value_is_refused() -> None:
    registry = FakeRegistry({ROOT: {"SandboxDisabled": 1}, f"{ROOT}\\Locked": {"BackupDir": 1}})
    with pytest.raises(PolicyError) as error:
        from_registry(registry)
    assert error.value.code == "policy.lock_without_value"
    assert error.value.params["setting"] == "BackupDir"
    assert error.value.field == "Locked\\BackupDir"


BAD_VALUES: list[tuple[str, dict[str, Any], str, str]] = [
    ("", {"SandboxDisabled": 2}, "policy.not_yes_no", "SandboxDisabled"),
    ("", {"SandboxDisabled": "maybe"}, "policy.not_yes_no", "SandboxDisabled"),
    ("", {"DataDir": "relative\\folder"}, "policy.path_relative", "DataDir"),
    ("", {"DataDir": "\\\\server\\share\\treasury"}, "policy.data_dir_network", "DataDir"),
    ("", {"DataDir": 5}, "policy.value_type", "DataDir"),
    ("", {"BackupDir": (b"\x00", REG_BINARY)}, "policy.value_type", "BackupDir"),
    ("", {"DataDir": "/a\x00b"}, "policy.text_invalid", "DataDir"),
    ("", {"ClientSecret": "s3cr3t"}, "policy.secret_refused", "ClientSecret"),
    (
        "\\TeamDatabase",
        {"Host": "db", "Database": "t", "Port": 70000},
        "policy.port_range",
        "TeamDatabase\\Port",
    ),
    (
        "\\TeamDatabase",
        {"Host": "db", "Database": "t", "Port": "54x"},
        "policy.not_a_number",
        "TeamDatabase\\Port",
    ),
    (
        "\\TeamDatabase",
        {"Host": "db", "Database": "t", "SslMode": "off"},
        "policy.not_one_of",
        "TeamDatabase\\SslMode",
    ),
    (
        "\\TeamDatabase",
        {"Host": "db", "Database": "t", "Release": "everyone"},
        "policy.not_one_of",
        "TeamDatabase\\Release",
    ),
    ("\\TeamDatabase", {"Database": "t"}, "policy.team_incomplete", "TeamDatabase\\Host"),
    (
        "\\TeamDatabase",
        {"Host": "d b", "Database": "t"},
        "policy.text_spaces",
        "TeamDatabase\\Host",
    ),
    (
        "\\TeamDatabase",
        {"Host": "db", "Database": "t", "Password": "hunter2"},
        "policy.secret_refused",
        "TeamDatabase\\Password",
    ),
    (
        "\\TeamDatabase",
        {"Host": "db", "Database": "t", "CertFile": "/c.crt"},
        "policy.team_incomplete",
        "TeamDatabase\\KeyFile",
    ),
    (
        "\\Profiles\\1",
        {"Name": "X", "QrCodesUrl": "http://qr.example"},
        "policy.profile_incomplete",
        "Profiles\\1\\QrCodesClientId",
    ),
    ("\\Locked", {"TeamDatabase": "sometimes"}, "policy.not_yes_no", "Locked\\TeamDatabase"),
]


@pytest.mark.parametrize(("key", "values", "code", "field"), BAD_VALUES)
def test_a_bad_value_is_refused_with_its_code_field_and_source(
    key: str, values: dict[str, Any], code: str, field: str
) -> None:
    with pytest.raises(PolicyError) as error:
        from_registry(FakeRegistry({ROOT + key: values}))
    assert (error.value.code, error.value.field) == (code, field)
    assert error.value.params["source"] == "HKLM\\" + ROOT
    assert "s3cr3t" not in str(error.value) and "hunter2" not in str(error.value)


def preset_values(**changes: Any) -> dict[str, Any]:
    values = {
        "Name": "Bank",
        "QrCodesUrl": "https://qr.example",
        "QrCodesClientId": "q",
        "QrCodesCertificate": "/q.pfx",
        "AccountsUrl": "https://acc.example",
        "AccountsClientId": "a",
        "AccountsCertificate": "/a.pfx",
    }
    values.update(changes)
    return values


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"QrCodesUrl": "http://qr.example"}, "policy.url_not_https"),
        ({"AccountsUrl": "https://user:pw@acc.example"}, "policy.url_invalid"),
        ({"AccountsUrl": "https://acc.example/?x=1"}, "policy.url_invalid"),
        ({"AccountsUrl": "https://acc.example:port"}, "policy.url_invalid"),
        ({"QrCodesCertificate": "q.pfx"}, "policy.path_relative"),
        ({"QrCodesClientId": "a b"}, "policy.text_spaces"),
        ({"PixKeys": "x" * 78}, "policy.pix_key_length"),
    ],
)
def test_a_bad_preset_profile_is_refused(changes: dict[str, Any], code: str) -> None:
    with pytest.raises(PolicyError) as error:
        from_registry(FakeRegistry({f"{ROOT}\\Profiles\\1": preset_values(**changes)}))
    assert error.value.code == code


def test_two_presets_of_one_name_in_one_source_are_refused() -> None:
    registry = FakeRegistry(
        {
            f"{ROOT}\\Profiles\\1": preset_values(Name="Bank"),
            f"{ROOT}\\Profiles\\2": preset_values(Name="bank"),
        }
    )
    with pytest.raises(PolicyError) as error:
        from_registry(registry)
    assert error.value.code == "policy.profile_twice"


def test_unknown_names_are_listed_not_applied_and_empty_values_are_not_set() -> None:
    registry = FakeRegistry(
        {
            ROOT: {"SandboxDisable": 1, "DataDir": "  "},  # a typo; a blank text box
            f"{ROOT}\\Future": {"Anything": 1},
            f"{ROOT}\\Locked": {"Proxy": 1},
        }
    )
    policy = from_registry(registry)
    assert policy.sandbox_disabled is False and policy.data_dir is None
    assert policy.ignored == (
        "registry: SandboxDisable",
        "registry: Future\\",
        "registry: Locked\\Proxy",
    )
    assert not policy.is_empty  # something is set there, even if nothing applies


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[Policy]\nSandboxDisabled = 1\nSandboxDisabled = 0\n", "policy.ini_syntax"),
        ("SandboxDisabled = 1\n", "policy.ini_syntax"),  # a value before any section
        ("[Policy]\n[policy]\n", "policy.ini_section_twice"),
        ("[TeamDatabase]\nHost = db\nDatabase = t\nPort = 0\n", "policy.port_range"),
    ],
)
def test_a_bad_ini_file_is_refused(tmp_path: Path, text: str, code: str) -> None:
    ini = write_ini(tmp_path / "policy.ini", text)
    with pytest.raises(PolicyError) as error:
        read_policy([IniKeys.read(ini)])
    assert error.value.code == code
    assert error.value.params["source"] == str(ini)


def test_an_oversized_ini_file_is_refused(tmp_path: Path) -> None:
    ini = write_ini(tmp_path / "policy.ini", "[Policy]\n" + ";" * 300_000 + "\n")
    with pytest.raises(PolicyError) as error:
        IniKeys.read(ini)
    assert error.value.code == "policy.ini_too_large"


def test_a_registry_that_cannot_be_read_is_refused() -> None:
    class Denied(FakeRegistry):
        def open_key(self, path: str) -> Any:
            raise PermissionError(5, "Access is denied")

    with pytest.raises(PolicyError) as error:
        from_registry(Denied())
    assert error.value.code == "policy.source_unreadable"


def test_the_admin_ini_is_beside_the_installed_executable_only(tmp_path: Path) -> None:
    exe = tmp_path / "Treasury" / "treasury-app.exe"
    assert admin_ini_path(str(exe), frozen=True) == exe.resolve().parent / "policy.ini"
    assert admin_ini_path(str(exe), frozen=False) is None  # from the sources: no INI


def test_machine_sources_registry_first_then_the_ini(tmp_path: Path) -> None:
    ini = write_ini(tmp_path / "policy.ini", "[Policy]\nSandboxDisabled = 1\n")
    registry = FakeRegistry({ROOT: {"DataDir": "/d"}})
    sources = machine_sources(registry=registry, ini_path=ini)
    assert [source.source for source in sources] == ["registry", "ini"]
    policy = load_machine_policy(registry=registry, ini_path=ini, environ={})
    assert policy.sandbox_disabled and policy.data_dir == Path("/d")
    assert policy.origins == {"SandboxDisabled": "ini", "DataDir": "registry"}


def test_the_settings_list_says_where_each_comes_from_and_what_is_locked() -> None:
    rows = {row.name: row for row in from_registry(full_registry()).settings()}
    assert list(rows) == [
        "SandboxDisabled",
        "DataDir",
        "BackupDir",
        "TeamDatabase",
        "Release",
        "Profiles\\Main bank",
        "Locked\\Profiles",
        "Locked\\TeamDatabase",
        "Locked\\BackupDir",
    ]
    assert rows["TeamDatabase"].value == "maria_x@db.example.com:6432/treasury (verify-ca)"
    assert rows["TeamDatabase"].locked and not rows["Release"].locked
    assert {row.source for row in rows.values()} == {"registry"}
