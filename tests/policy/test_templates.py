"""The ADMX/ADML template and the MSI's properties name what the app reads: every value the
template writes is one the policy reader knows (and the reverse), under the key it reads; every
string and presentation resolves in both languages; every MSI property lands in a section and
key of the admin INI file that the reader takes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from treasury_app.policy import LOCKABLE, POLICY_KEY
from treasury_app.policy.reader import (
    LOCKED_KEY,
    PROFILE_VALUES,
    PROFILES_KEY,
    ROOT_VALUES,
    TEAM_KEY,
    TEAM_VALUES,
)
from treasury_app.policy.sources import INI_NAME, INI_ROOT_SECTION

WINDOWS = Path(__file__).resolve().parents[2] / "packaging" / "windows"
ADMX = WINDOWS / "policy" / "treasury.admx"
ADML = {lang: WINDOWS / "policy" / lang / "treasury.adml" for lang in ("en-US", "pt-BR")}
WXI = WINDOWS / "policy.wxi"
GP = "{http://schemas.microsoft.com/GroupPolicy/2006/07/PolicyDefinitions}"
WIX = "{http://wixtoolset.org/schemas/v4/wxs}"


def expected(key: str) -> set[str]:
    """The value names the reader takes under ``key`` (relative to the policy's root)."""
    if key == "":
        return set(ROOT_VALUES)
    if key == TEAM_KEY:
        return set(TEAM_VALUES)
    if key == LOCKED_KEY:
        return set(LOCKABLE)
    if key.startswith(PROFILES_KEY + "\\"):
        return set(PROFILE_VALUES)
    raise AssertionError(f"a key the reader does not read: {key!r}")


def admx_values() -> dict[str, set[str]]:
    """Key (relative to the policy's root) -> the value names the template writes there."""
    written: dict[str, set[str]] = {}
    for policy in ET.parse(ADMX).getroot().iter(GP + "policy"):
        assert policy.get("class") == "Machine", policy.get("name")
        key = policy.get("key", "")
        assert key == POLICY_KEY or key.startswith(POLICY_KEY + "\\"), key
        relative = key[len(POLICY_KEY) + 1 :]
        names = written.setdefault(relative, set())
        if policy.get("valueName"):
            names.add(policy.get("valueName", ""))
        for element in policy.iter():
            if element.get("valueName") and element is not policy:
                assert element.get("key") is None  # every value under its policy's key
                names.add(element.get("valueName", ""))
    return written


def test_the_admx_writes_exactly_what_the_reader_reads() -> None:
    written = admx_values()
    assert set(written) == {"", TEAM_KEY, LOCKED_KEY, *(f"{PROFILES_KEY}\\{n}" for n in (1, 2, 3))}
    for key, names in written.items():
        assert names == expected(key), key


def test_path_values_are_expandable_in_the_template() -> None:
    root = ET.parse(ADMX).getroot()
    texts = {e.get("id"): e.get("expandable") == "true" for e in root.iter(GP + "text")}
    for name in ("DataDir", "BackupDir", "CaFile", "CertFile", "KeyFile", "User"):
        assert texts[name], name
    assert texts["QrCodesCertificate"] and not texts["Host"]


@pytest.mark.parametrize("lang", sorted(ADML))
def test_every_string_and_presentation_resolves(lang: str) -> None:
    admx_text = ADMX.read_text("utf-8")
    root = ET.parse(ADML[lang]).getroot()
    strings = {s.get("id"): s.text or "" for s in root.iter(GP + "string")}
    presentations = {p.get("id"): p for p in root.iter(GP + "presentation")}
    import re

    for ref in re.findall(r"\$\(string\.([A-Za-z0-9_]+)\)", admx_text):
        assert strings.get(ref, "").strip(), f"{lang}: string {ref}"
    for ref in re.findall(r"\$\(presentation\.([A-Za-z0-9_]+)\)", admx_text):
        assert ref in presentations, f"{lang}: presentation {ref}"
    for ref in re.findall(r"\$\(string\.([A-Za-z0-9_]+)\)", ADML[lang].read_text("utf-8")):
        assert ref in strings, f"{lang}: string {ref} in a presentation"
    # Each element of a policy has its control in the policy's presentation.
    for policy in ET.parse(ADMX).getroot().iter(GP + "policy"):
        ids = {e.get("id") for e in policy.iter() if e.get("id") and e is not policy}
        if not ids:
            continue
        presentation = (policy.get("presentation") or "")[len("$(presentation.") : -1]
        shown = {c.get("refId") for c in presentations[presentation]}
        assert ids == shown, policy.get("name")


def wxi_properties() -> dict[str, tuple[str, str]]:
    """MSI property -> (INI section, key) it writes."""
    root = ET.parse(WXI).getroot()
    mapping: dict[str, tuple[str, str]] = {}
    for component in root.iter(WIX + "Component"):
        (ini,) = component.iter(WIX + "IniFile")
        value = ini.get("Value", "")
        assert value.startswith("[") and value.endswith("]")
        prop = value[1:-1]
        assert component.get("Condition") == prop  # a property not given writes nothing
        assert ini.get("Name") == INI_NAME and ini.get("Directory") == "INSTALLFOLDER"
        mapping[prop] = (ini.get("Section", ""), ini.get("Key", ""))
    return mapping


def test_every_msi_property_writes_a_setting_the_reader_takes() -> None:
    mapping = wxi_properties()
    assert {"SANDBOX_DISABLED", "DATA_DIR", "BACKUP_DIR", "TEAM_HOST", "LOCK_TEAM_DATABASE"} <= set(
        mapping
    )
    for prop, (section, key) in mapping.items():
        relative = "" if section == INI_ROOT_SECTION else section
        assert key in expected(relative), prop
    # Everything the reader takes at the root, of the team database and of the locks has its
    # property (the preset profiles: the first one).
    covered = {(section, key) for section, key in mapping.values()}
    for key in ROOT_VALUES:
        assert (INI_ROOT_SECTION, key) in covered
    for key in (*TEAM_VALUES,):
        assert (TEAM_KEY, key) in covered
    for key in LOCKABLE:
        assert (LOCKED_KEY, key) in covered
    for key in PROFILE_VALUES:
        assert (f"{PROFILES_KEY}\\1", key) in covered


def test_the_msi_properties_are_secure_remembered_and_machine_wide() -> None:
    root = ET.parse(WXI).getroot()
    properties = {p.get("Id"): p for p in root.iter(WIX + "Property")}
    for prop in wxi_properties():
        assert properties[prop].get("Secure") == "yes"  # passed to the elevated install
        (search,) = properties[prop].iter(WIX + "RegistrySearch")
        assert search.get("Root") == "HKLM" and search.get("Name") == prop
    assert not [e for e in root.iter() if e.get("Root") in ("HKCU", "HKMU")]
    assert WXI.read_text("utf-8").isascii()  # the MSI's code page
    help_texts = "".join(ADML["en-US"].read_text("utf-8"))
    for prop in wxi_properties():  # the template's help names each property
        assert prop in help_texts, prop
