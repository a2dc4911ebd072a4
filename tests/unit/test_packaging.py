"""The Windows packaging as far as it can be checked off Windows (packaging/WINDOWS.md): the
version resource text PyInstaller embeds in both .exe files, the spec's Windows branch (two
executables, one folder), the MSI recipe (per-machine, stable UpgradeCode, major upgrades,
Start menu shortcut, harvested files), the Windows workflow, and the hashed lock files the
package builds install from."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.waiting import LONG_WAIT_SECONDS
from treasury_app import __version__
from treasury_app.config import APP_AUTHOR

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
WINDOWS_DIR = PACKAGING / "windows"
SPEC = PACKAGING / "treasury.spec"
WXS = WINDOWS_DIR / "treasury.wxs"
BUILD_MSI = WINDOWS_DIR / "build-msi.ps1"
WORKFLOW = ROOT / ".github" / "workflows" / "windows.yml"
LOCKS = {
    "linux": ROOT / "requirements" / "linux.lock",
    "win32": ROOT / "requirements" / "windows.lock",
}
WIX_NS = "{http://wixtoolset.org/schemas/v4/wxs}"
# The product's identity for Windows Installer across all versions: changing it would make
# the next MSI install beside the old one instead of upgrading it.
UPGRADE_CODE = "{7A4C2E51-93B8-4D6F-A1E2-5C0B8F3D9E64}"
EXE_NAMES = ("treasury-app.exe", "treasury-app-cli.exe")
PUBLISHER = "Tesouraria Exemplo Ltda"  # a build parameter: any company's name


def load_version_info() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("version_info", WINDOWS_DIR / "version_info.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


version_info = load_version_info()
NUMBERS = version_info.numeric_version(__version__)
DOTTED = ".".join(map(str, NUMBERS))


# --- the version resource ------------------------------------------------------------------

VERSIONINFO_CLASSES = (
    "VSVersionInfo",
    "FixedFileInfo",
    "StringFileInfo",
    "StringTable",
    "StringStruct",
    "VarFileInfo",
    "VarStruct",
)


class Recorded:
    """Stands for one of PyInstaller's versioninfo classes: keeps what it was built with."""

    def __init__(self, kind: str, *args: Any, **kwargs: Any) -> None:
        self.kind, self.args, self.kwargs = kind, args, kwargs


def evaluate_like_pyinstaller(text: str) -> Recorded:
    """PyInstaller ``eval()``s the version file with its versioninfo classes in scope: check
    that the text is one expression made only of those calls and literals, then evaluate it
    with no builtins and recording stand-ins for the classes."""
    tree = ast.parse(text, mode="eval")
    allowed = (
        ast.Expression,
        ast.Call,
        ast.Name,
        ast.Load,
        ast.keyword,
        ast.Constant,
        ast.Tuple,
        ast.List,
    )
    for node in ast.walk(tree):
        assert isinstance(node, allowed), f"unexpected {type(node).__name__} in the version file"
        if isinstance(node, ast.Name):
            assert node.id in VERSIONINFO_CLASSES, node.id
    namespace: dict[str, Any] = {"__builtins__": {}}
    for kind in VERSIONINFO_CLASSES:
        namespace[kind] = lambda *a, _kind=kind, **k: Recorded(_kind, *a, **k)
    result = eval(compile(tree, "version-file", "eval"), namespace)
    assert isinstance(result, Recorded) and result.kind == "VSVersionInfo"
    return result


def strings_of(info: Recorded) -> dict[str, str]:
    (string_file_info,) = [kid for kid in info.kwargs["kids"] if kid.kind == "StringFileInfo"]
    (table,) = string_file_info.args[0]
    language, structs = table.args
    assert language == "040904B0"  # U.S. English, Unicode
    return {struct.args[0]: struct.args[1] for struct in structs}


@pytest.mark.parametrize("exe_name", EXE_NAMES)
def test_the_version_file_carries_the_project_version(exe_name: str) -> None:
    info = evaluate_like_pyinstaller(version_info.version_file_text(exe_name, publisher=PUBLISHER))
    ffi = info.kwargs["ffi"]
    assert ffi.kind == "FixedFileInfo"
    assert ffi.kwargs["filevers"] == ffi.kwargs["prodvers"] == NUMBERS
    assert ffi.kwargs["fileType"] == 0x1  # an application
    strings = strings_of(info)
    assert strings["FileVersion"] == strings["ProductVersion"] == DOTTED
    assert strings["OriginalFilename"] == exe_name
    assert strings["InternalName"] == exe_name.removesuffix(".exe")
    assert strings["ProductName"] == "Treasury"
    assert strings["CompanyName"] == PUBLISHER
    assert strings["Comments"] == f"treasury-app {__version__}"
    (var_file_info,) = [kid for kid in info.kwargs["kids"] if kid.kind == "VarFileInfo"]
    (translation,) = var_file_info.args[0]
    assert translation.args == ("Translation", [0x0409, 1200])


def test_the_four_numbers_of_a_version() -> None:
    assert NUMBERS[:3] == tuple(int(part) for part in __version__.split("."))
    assert version_info.numeric_version("0.2.0") == (0, 2, 0, 0)
    assert version_info.numeric_version("1.2") == (1, 2, 0, 0)
    assert version_info.numeric_version("1.2.3.4") == (1, 2, 3, 4)
    assert version_info.numeric_version("1.0.0rc1") == (1, 0, 0, 0)
    assert version_info.numeric_version("2.1.0.post3+local") == (2, 1, 0, 0)
    for bad in ("1.2.3.4.5", "70000.0.0", "release"):
        with pytest.raises(ValueError):
            version_info.numeric_version(bad)
    with pytest.raises(ValueError):
        version_info.version_file_text("other.exe", publisher=PUBLISHER)


def test_the_publisher_is_a_build_parameter_never_a_placeholder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(version_info.PUBLISHER_ENV, raising=False)
    with pytest.raises(ValueError, match="TREASURY_PUBLISHER"):
        version_info.version_file_text("treasury-app.exe")
    monkeypatch.setenv(version_info.PUBLISHER_ENV, "   ")
    with pytest.raises(ValueError, match="TREASURY_PUBLISHER"):
        version_info.version_file_text("treasury-app.exe")
    monkeypatch.setenv(version_info.PUBLISHER_ENV, " ACME Tesouraria Ltda ")
    text = version_info.version_file_text("treasury-app.exe")
    assert strings_of(evaluate_like_pyinstaller(text))["CompanyName"] == "ACME Tesouraria Ltda"
    # Not the users' data folder's "author": that one must not move with the builder.
    assert APP_AUTHOR == "Treasury"
    assert not hasattr(version_info, "COMPANY_NAME")


def test_the_version_script_prints_the_msi_version_and_writes_the_file(tmp_path: Path) -> None:
    script = WINDOWS_DIR / "version_info.py"
    numeric = subprocess.run(
        [sys.executable, str(script), "--numeric"],
        capture_output=True,
        text=True,
        check=True,
        timeout=LONG_WAIT_SECONDS,
    )
    assert numeric.stdout.strip() == DOTTED
    written = version_info.write_version_file(
        "treasury-app-cli.exe", tmp_path / "work", publisher=PUBLISHER
    )
    assert written.name == "version-treasury-app-cli.txt"
    assert written.read_text("utf-8") == version_info.version_file_text(
        "treasury-app-cli.exe", publisher=PUBLISHER
    )
    refused = subprocess.run(  # no publisher: a clear error, nothing written
        [sys.executable, str(script), "--output", str(tmp_path / "v.txt")],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != version_info.PUBLISHER_ENV},
        check=False,
        timeout=LONG_WAIT_SECONDS,
    )
    assert refused.returncode == 2 and "TREASURY_PUBLISHER" in refused.stderr
    assert not (tmp_path / "v.txt").exists()


def pyinstaller_versioninfo(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """PyInstaller's own reader of version files. It imports pefile (installed with PyInstaller
    on Windows only) and PyInstaller.compat.win32api (defined on Windows only; it is used to
    write the resource into an .exe, not to read the file)."""
    pytest.importorskip("PyInstaller", reason="PyInstaller: the 'package' extra, or a lock")
    pytest.importorskip("pefile", reason="pefile: PyInstaller's dependency on Windows")
    import PyInstaller.compat

    if sys.platform != "win32":
        monkeypatch.setattr(PyInstaller.compat, "win32api", None, raising=False)
        monkeypatch.delitem(sys.modules, "PyInstaller.utils.win32.versioninfo", raising=False)
    from PyInstaller.utils.win32 import versioninfo

    return versioninfo


@pytest.mark.parametrize("exe_name", EXE_NAMES)
def test_pyinstaller_loads_the_version_file(
    exe_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    versioninfo = pyinstaller_versioninfo(monkeypatch)
    path = version_info.write_version_file(exe_name, tmp_path, publisher=PUBLISHER)
    info = versioninfo.load_version_info_from_text_file(str(path))
    assert isinstance(info, versioninfo.VSVersionInfo)
    major, minor, patch, build = NUMBERS
    assert (info.ffi.fileVersionMS, info.ffi.fileVersionLS) == (
        major << 16 | minor,
        patch << 16 | build,
    )
    assert (info.ffi.productVersionMS, info.ffi.productVersionLS) == (
        info.ffi.fileVersionMS,
        info.ffi.fileVersionLS,
    )
    (string_file_info,) = [kid for kid in info.kids if isinstance(kid, versioninfo.StringFileInfo)]
    strings = {s.name: s.val for s in string_file_info.kids[0].kids}
    assert strings["FileVersion"] == DOTTED
    assert strings["OriginalFilename"] == exe_name
    if sys.platform == "win32":  # the binary layout uses Windows' 32-bit longs
        again = versioninfo.VSVersionInfo()
        again.fromRaw(info.toRaw())
        assert again.toRaw() == info.toRaw()
        assert again.ffi.fileVersionMS == info.ffi.fileVersionMS


# --- the spec ------------------------------------------------------------------------------


def test_the_spec_compiles() -> None:
    compile(SPEC.read_text("utf-8"), str(SPEC), "exec")


class Built:
    def __init__(self, kind: str, *args: Any, **kwargs: Any) -> None:
        self.kind, self.args, self.kwargs = kind, args, kwargs
        self.pure = self.scripts = self.binaries = self.datas = []


def run_spec(platform: str, workpath: Path, monkeypatch: pytest.MonkeyPatch) -> list[Built]:
    """Run the spec as PyInstaller would on ``platform``, with stand-ins for PyInstaller's
    build classes (nothing is built) and for collect_submodules and collect_data_files."""
    built: list[Built] = []

    def factory(kind: str) -> Any:
        def make(*args: Any, **kwargs: Any) -> Built:
            built.append(Built(kind, *args, **kwargs))
            return built[-1]

        return make

    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_submodules = lambda package, filter=None: [package]  # type: ignore[attr-defined]
    hooks.collect_data_files = lambda package: [(f"{package}/data.js", package)]  # type: ignore[attr-defined]
    for name in ("PyInstaller", "PyInstaller.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setenv(version_info.PUBLISHER_ENV, PUBLISHER)
    namespace = {
        "__name__": "__main__",
        "SPECPATH": str(PACKAGING),
        "workpath": str(workpath),
        **{kind: factory(kind) for kind in ("Analysis", "PYZ", "EXE", "COLLECT")},
    }
    exec(compile(SPEC.read_text("utf-8"), str(SPEC), "exec"), namespace)
    return built


def test_the_spec_builds_a_windowed_and_a_console_exe_with_version_resources_on_windows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = run_spec("win32", tmp_path, monkeypatch)
    monkeypatch.undo()
    exes = [item for item in built if item.kind == "EXE"]
    assert [exe.kwargs["name"] for exe in exes] == ["treasury-app", "treasury-app-cli"]
    assert [exe.kwargs["console"] for exe in exes] == [False, True]
    for exe, exe_name in zip(exes, EXE_NAMES, strict=True):
        assert exe.kwargs["exclude_binaries"] is True  # one folder: the COLLECT holds the rest
        assert Path(exe.kwargs["icon"]).name == "treasury-app.ico"
        version_file = Path(exe.kwargs["version"])
        assert version_file.parent == tmp_path
        assert version_file.read_text("utf-8") == version_info.version_file_text(
            exe_name, publisher=PUBLISHER
        )
    (collect,) = [item for item in built if item.kind == "COLLECT"]
    assert collect.kwargs["name"] == "treasury-app"
    assert [arg for arg in collect.args if getattr(arg, "kind", None) == "EXE"] == exes


def test_the_spec_builds_one_console_binary_without_version_resource_on_linux(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = run_spec("linux", tmp_path, monkeypatch)
    monkeypatch.undo()
    (exe,) = [item for item in built if item.kind == "EXE"]
    assert exe.kwargs["name"] == "treasury-app"
    assert exe.kwargs["console"] is True
    assert exe.kwargs["version"] is None and exe.kwargs["icon"] is None
    assert not list(tmp_path.iterdir())


# --- the MSI recipe ------------------------------------------------------------------------


def wix(tag: str) -> str:
    return WIX_NS + tag


def test_the_server_commands_are_pip_console_scripts_not_part_of_the_desktop_msi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The releaser and the receiver run on a server, installed with pip (the docs say how):
    console scripts of the package, while the MSI's folder is built from the desktop's entry
    alone."""
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert scripts["treasury-releaser"] == "treasury_app.releaser:main"
    assert scripts["treasury-receiver"].startswith("treasury_app.receiver")
    built = run_spec("win32", tmp_path, monkeypatch)
    monkeypatch.undo()
    (analysis,) = [item for item in built if item.kind == "Analysis"]
    assert [Path(entry).name for entry in analysis.args[0]] == ["entry.py"]
    assert "releaser" not in (PACKAGING / "entry.py").read_text("utf-8")
    assert "releaser" not in WXS.read_text("utf-8")
    guide = (ROOT / "docs" / "team-mode.md").read_text("utf-8")
    assert "/opt/treasury-releaser/bin/pip install --no-deps ." in guide
    assert "neither `treasury-releaser` nor\n`treasury-receiver` is in it" in guide


def test_the_msi_is_per_machine_in_program_files_and_upgrades_itself() -> None:
    root = ET.parse(WXS).getroot()
    assert root.tag == wix("Wix")  # WiX v4 schema (built with WiX v5: the Files element)
    (package,) = root.iter(wix("Package"))
    assert package.get("Scope") == "perMachine"
    assert package.get("UpgradeCode") == UPGRADE_CODE, "the UpgradeCode must never change"
    assert package.get("ProductCode") is None  # a new one at each build: major upgrades
    assert package.get("Version") == "$(var.Version)"
    assert package.get("Manufacturer") == "$(var.Publisher)"  # a build parameter
    assert package.get("Name") == version_info.PRODUCT_NAME
    (upgrade,) = package.iter(wix("MajorUpgrade"))
    assert upgrade.get("DowngradeErrorMessage")
    (media,) = package.iter(wix("MediaTemplate"))
    assert media.get("EmbedCab") == "yes"  # one .msi file to deploy

    (program_files,) = [
        d for d in root.iter(wix("StandardDirectory")) if d.get("Id") == "ProgramFiles64Folder"
    ]
    (install_folder,) = program_files.iter(wix("Directory"))
    assert (install_folder.get("Id"), install_folder.get("Name")) == ("INSTALLFOLDER", "Treasury")


def test_the_msi_has_a_start_menu_shortcut_and_harvests_the_onedir() -> None:
    root = ET.parse(WXS).getroot()
    (shortcut,) = root.iter(wix("Shortcut"))
    assert shortcut.get("Directory") == "ProgramMenuFolder"
    assert shortcut.get("WorkingDirectory") == "INSTALLFOLDER"
    (main_file,) = [f for f in root.iter(wix("File")) if shortcut in list(f)]
    assert main_file.get("Source") == r"!(bindpath.App)\treasury-app.exe"
    assert main_file.get("KeyPath") == "yes"
    (files,) = root.iter(wix("Files"))
    assert files.get("Include") == r"!(bindpath.App)\**"
    assert [e.get("Files") for e in files.iter(wix("Exclude"))] == [main_file.get("Source")]
    (icon,) = root.iter(wix("Icon"))
    assert icon.get("SourceFile") == r"!(bindpath.Packaging)\treasury-app.ico"
    assert (PACKAGING / "treasury-app.ico").is_file()
    referenced = {ref.get("Id") for ref in root.iter(wix("ComponentRef"))}
    referenced |= {ref.get("Id") for ref in root.iter(wix("ComponentGroupRef"))}
    defined = {c.get("Id") for c in root.iter(wix("Component"))}
    defined |= {g.get("Id") for g in root.iter(wix("ComponentGroup"))}
    # The policy's properties come from policy.wxi, included beside it (tests/policy).
    assert "<?include policy.wxi?>" in WXS.read_text("utf-8")
    included = ET.parse(WXS.parent / "policy.wxi").getroot()
    defined |= {g.get("Id") for g in included.iter(wix("ComponentGroup"))}
    assert (
        referenced
        == defined
        == {
            "MainExecutable",
            "ApplicationFiles",
            "MachinePolicy",
            "EventLogSource",
        }
    )


def test_the_msi_has_no_per_user_part() -> None:
    text = WXS.read_text("utf-8")
    root = ET.fromstring(text)
    assert not [r for r in root.iter() if r.get("Root") in ("HKCU", "HKMU")]
    per_user = ("AppDataFolder", "LocalAppDataFolder", "PersonalFolder", "DesktopFolder")
    used = {e.get("Id") for e in root.iter(wix("StandardDirectory"))}
    used |= {e.get("Directory") for e in root.iter() if e.get("Directory")}
    assert not used & set(per_user)
    assert text.isascii()  # the MSI's code page


def test_the_msi_script_builds_from_the_onedir_with_the_project_version() -> None:
    script = BUILD_MSI.read_text("utf-8")
    assert "version_info.py --numeric" in script
    assert "wix build -arch x64" in script
    assert '-d "Version=$Version"' in script
    assert '-bindpath "App=$distPath"' in script
    assert "-bindpath \"Packaging=$(Join-Path $Root 'packaging')\"" in script
    assert r"packaging\windows\treasury.wxs" in script
    for exe_name in EXE_NAMES:  # both executables and their version resources are checked
        assert f'"{exe_name}"' in script
    assert "VersionInfo" in script


UTIL_NS = "{http://wixtoolset.org/schemas/v4/wxs/util}"


def test_the_msi_needs_windows_10_1809_64_bit_except_to_repair_or_remove() -> None:
    root = ET.parse(WXS).getroot()
    (package,) = root.iter(wix("Package"))
    (launch,) = package.iter(wix("Launch"))
    condition = launch.get("Condition", "")
    assert condition.startswith("Installed OR ")  # never blocks a repair or an uninstall
    assert "VersionNT64" in condition and "WINDOWSBUILDNUMBER >= 17763" in condition
    assert "1809" in launch.get("Message", "")
    (build,) = [p for p in package.iter(wix("Property")) if p.get("Id") == "WINDOWSBUILDNUMBER"]
    (search,) = build.iter(wix("RegistrySearch"))
    assert (search.get("Root"), search.get("Name")) == ("HKLM", "CurrentBuildNumber")
    assert search.get("Key") == r"SOFTWARE\Microsoft\Windows NT\CurrentVersion"


def test_an_upgrade_closes_the_running_app_without_a_reboot() -> None:
    root = ET.parse(WXS).getroot()
    (close,) = root.iter(UTIL_NS + "CloseApplication")
    assert close.get("Target") == "treasury-app.exe"
    # WM_CLOSE from the user's session and from the elevated (deployment) one; no reboot.
    assert close.get("CloseMessage") == close.get("ElevatedCloseMessage") == "yes"
    assert close.get("RebootPrompt") == "no"
    # Restart Manager is Windows Installer's default: nothing may turn it off.
    assert "MSIRESTARTMANAGERCONTROL" not in WXS.read_text("utf-8")
    assert "-ext WixToolset.Util.wixext" in BUILD_MSI.read_text("utf-8")


def test_the_msi_registers_the_event_log_source_the_app_writes_to() -> None:
    from treasury_app import eventlog

    root = ET.parse(WXS).getroot()
    (source,) = root.iter(UTIL_NS + "EventSource")
    assert (source.get("Log"), source.get("Name")) == ("Application", eventlog.SOURCE)
    assert source.get("EventMessageFile", "").endswith(r"\EventLogMessages.dll")
    (component,) = (c for c in root.iter(WIX_NS + "Component") if source in list(c))
    refs = {ref.get("Id") for ref in root.iter(WIX_NS + "ComponentRef")}
    assert component.get("Id") in refs  # installed with the app's feature


def test_the_msi_script_takes_the_publisher_and_signs_or_says_unsigned() -> None:
    script = BUILD_MSI.read_text("utf-8")
    assert '-d "Publisher=$Publisher"' in script
    assert "-Publisher is required" in script
    assert "$info.CompanyName -ne $Publisher" in script  # the .exe files say the same
    assert "the certificate is issued to" in script  # and so does the certificate
    # signtool: SHA-256, RFC 3161 timestamp, then verified; executables before the MSI.
    assert "sign /fd SHA256 /f $SignPfx" in script and "/tr $TimestampUrl /td SHA256" in script
    assert "verify /pa" in script and "Get-AuthenticodeSignature" in script
    exes = script.index('Invoke-Signing -Paths @((Join-Path $distPath "treasury-app.exe")')
    assert (
        exes
        < script.index("wix build -arch x64")
        < script.index("Invoke-Signing -Paths @($Output)")
    )
    assert "-UNSIGNED.msi" in script
    assert "[string]$SignPasswordEnv" in script and "[string]$SignPassword " not in script


# --- the bundle trim -----------------------------------------------------------------------


def load_bundle_trim() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("bundle_trim", PACKAGING / "bundle_trim.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bundle_trim = load_bundle_trim()

LEFT_OUT = [
    # Windows (PySide6's wheel layout there)
    r"PySide6\plugins\platforminputcontexts\qtvirtualkeyboardplugin.dll",
    r"PySide6\Qt6VirtualKeyboard.dll",
    r"PySide6\Qt6Quick.dll",
    r"PySide6\Qt6QmlModels.dll",
    r"PySide6\Qt6Qml.dll",
    r"PySide6\opengl32sw.dll",
    r"PySide6\translations\qtbase_de.qm",
    r"PySide6\translations\qt_help_pt_BR.qm",
    r"PySide6\translations\qt_pt_PT.qm",
    r"PySide6\qml\QtQuick\Controls\qmldir",
    # Linux
    "PySide6/Qt/plugins/platforminputcontexts/libqtvirtualkeyboardplugin.so",
    "PySide6/Qt/lib/libQt6VirtualKeyboardQml.so.6",
    "PySide6/Qt/lib/libQt6Quick.so.6",
    "libQt6Qml.so.6",  # PyInstaller's link at the top of _internal
    "PySide6/Qt/lib/libQt6QmlWorkerScript.so.6",
    "PySide6/Qt/translations/qt_ar.qm",
]
KEPT = [
    r"PySide6\plugins\platforms\qwindows.dll",
    r"PySide6\plugins\platforminputcontexts\qtvirtualkeyboardplugin_not.txt",
    r"PySide6\plugins\imageformats\qsvg.dll",
    r"PySide6\Qt6Widgets.dll",
    r"PySide6\Qt6Pdf.dll",
    r"PySide6\Qt6Svg.dll",
    r"PySide6\Qt6OpenGL.dll",
    r"PySide6\translations\qtbase_pt_BR.qm",
    r"PySide6\translations\qt_pt_BR.qm",
    r"PySide6\translations\qtbase_en.qm",
    "PySide6/Qt/plugins/platforminputcontexts/libibusplatforminputcontextplugin.so",
    "PySide6/Qt/plugins/platforms/libqxcb.so",
    "PySide6/Qt/lib/libQt6Gui.so.6",
    "PySide6/Qt/translations/qtbase_pt_BR.qm",
    "treasury_app/resources/data/translations/treasury_pt_BR.qm",
    "PySide6/QtQuickNothing.txt",
]


@pytest.mark.parametrize("path", LEFT_OUT)
def test_the_bundle_leaves_out_what_a_widgets_app_never_loads(path: str) -> None:
    assert bundle_trim.unwanted(path)


@pytest.mark.parametrize("path", KEPT)
def test_the_bundle_keeps_what_the_app_loads(path: str) -> None:
    assert bundle_trim.unwanted(path) is None


def test_the_spec_trims_the_binaries_and_data_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toc = [(name, f"/src/{i}", "BINARY") for i, name in enumerate(LEFT_OUT + KEPT)]
    real_built_init = Built.__init__

    def analysis_with_files(self: Built, kind: str, *args: Any, **kwargs: Any) -> None:
        real_built_init(self, kind, *args, **kwargs)
        if kind == "Analysis":
            self.binaries, self.datas = list(toc), list(toc)

    monkeypatch.setattr(Built, "__init__", analysis_with_files)
    built = run_spec("win32", tmp_path, monkeypatch)
    (collect,) = [item for item in built if item.kind == "COLLECT"]
    handed = [arg for arg in collect.args if isinstance(arg, list)]
    assert len(handed) == 2  # binaries and datas
    for files in handed:
        assert [entry[0] for entry in files] == KEPT


DIST = ROOT / "dist" / "treasury-app"


@pytest.mark.skipif(not DIST.is_dir(), reason="no build in dist/treasury-app (make package)")
def test_a_built_folder_holds_none_of_the_left_out_files() -> None:
    files = [p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if not p.is_dir()]
    left_in = [f for f in files if bundle_trim.unwanted(f)]
    assert not left_in, f"{DIST} was built before the trim or without it: {left_in[:10]}"
    names = {Path(f).name for f in files}
    assert {"qtbase_pt_BR.qm", "treasury_pt_BR.qm"} <= names


# --- the Windows workflow ------------------------------------------------------------------


def workflow_steps(job: dict[str, Any]) -> str:
    return "\n".join(str(step.get("run", "")) for step in job["steps"])


ACTION_MAJORS = {  # Node 24 majors (the runners' Node 20 is retired)
    "actions/checkout": "v6",
    "actions/setup-python": "v6",
    "actions/upload-artifact": "v7",
}


def test_the_windows_workflow_parses_and_has_the_jobs_and_steps() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as True
    assert {"push", "pull_request", "workflow_dispatch"} <= set(triggers)
    assert workflow["defaults"]["run"]["shell"] == "pwsh"
    jobs = workflow["jobs"]
    assert set(jobs) == {"parse", "tests", "package"}
    for job in jobs.values():
        assert job["runs-on"] == "windows-2022"
        uses = [step.get("uses", "") for step in job["steps"]]
        assert uses[0].startswith("actions/checkout@")
        for use in filter(None, uses):
            action, major = use.split("@")
            assert ACTION_MAJORS[action] == major, use

    # PowerShell's own parser, with both PowerShells, before any other job starts.
    parse = jobs["parse"]
    steps = [step for step in parse["steps"] if "run" in step]
    assert [step.get("shell", "pwsh") for step in steps] == ["pwsh", "powershell"]
    for step in steps:
        assert "[System.Management.Automation.Language.Parser]::ParseFile(" in step["run"]
        assert "-Filter *.ps1 -Recurse" in step["run"]
        assert 'throw "$failed parse errors"' in step["run"]
    assert jobs["tests"]["needs"] == jobs["package"]["needs"] == "parse"

    for name in ("tests", "package"):
        job = jobs[name]
        (python,) = [
            s for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python@")
        ]
        assert python["with"]["python-version"] == "3.11"
        run = workflow_steps(job)
        assert r"pip install --require-hashes -r requirements\windows.lock" in run
        assert "pip install --no-deps --no-build-isolation -e ." in run

    tests = jobs["tests"]
    assert tests["env"]["QT_QPA_PLATFORM"] == "offscreen"
    assert "-m pytest" in workflow_steps(tests)
    assert "faketime" not in workflow_steps(tests)

    package = jobs["package"]
    run = workflow_steps(package)
    order = [
        r"-m PyInstaller --noconfirm",
        r"packaging\treasury.spec",
        r"dist\treasury-app\treasury-app-cli.exe --self-test",
        r'tests\unit\test_packaging.py -k "bundle or built_folder"',
        "dotnet tool install --global wix --version $env:WIX_VERSION",
        'extension add --global "WixToolset.Util.wixext/$env:WIX_VERSION"',
        "[Convert]::FromBase64String($env:SIGNING_PFX_BASE64)",
        r"packaging\windows\build-msi.ps1",
        "wix msi validate $msi",
        '/i `"$env:RELEASE_MSI`" /qn /norestart /l*v',
        r'"$app\treasury-app-cli.exe" --self-test',
        r'Start-Process "$app\treasury-app.exe" -PassThru',
        '/i `"$env:UPGRADE_MSI`" /qn',
        "Wait-Until { $running.HasExited }",
        '/x `"$env:UPGRADE_MSI`" /qn',
    ]
    positions = [run.index(fragment) for fragment in order]
    assert positions == sorted(positions)
    assert workflow["env"]["WIX_VERSION"].startswith("5.")
    assert "5." in BUILD_MSI.read_text("utf-8")

    # Signing only with the secret; the publisher from a repository variable; unsigned named so.
    assert package["env"]["SIGNING_PFX_BASE64"] == "${{ secrets.WINDOWS_SIGNING_PFX_BASE64 }}"
    assert package["env"]["SIGN_PFX_PASSWORD"] == "${{ secrets.WINDOWS_SIGNING_PFX_PASSWORD }}"
    assert "vars.TREASURY_PUBLISHER" in package["env"]["TREASURY_PUBLISHER"]
    (certificate,) = [s for s in package["steps"] if "SIGNING_PFX_BASE64" in s.get("run", "")]
    assert certificate["if"] == "env.SIGNING_PFX_BASE64 != ''"
    assert '-like "*-UNSIGNED.msi"' in run and "Get-AuthenticodeSignature" in run
    # Nothing may need a reboot: msiexec must answer 0, not 3010.
    assert "if ($process.ExitCode -ne 0)" in run


# --- the lock files ------------------------------------------------------------------------


def read_lock(path: Path) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) of a pip requirements file with hashes (uv pip compile)."""
    text = path.read_text("utf-8")
    entries = re.split(r"\n(?=\S)", re.sub(r"^#.*\n", "", text, flags=re.M).strip())
    pins: dict[str, tuple[str, list[str]]] = {}
    for entry in entries:
        logical = re.sub(r"\s*#.*", "", entry).replace("\\\n", " ")
        requirement, *options = logical.split(" --")
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==([^\s;]+)", requirement.strip())
        assert match, f"{path.name}: not an exact pin: {requirement!r}"
        hashes = [o.strip().removeprefix("hash=") for o in options if o.startswith("hash=")]
        assert len(hashes) == len(options), f"{path.name}: options other than --hash: {options}"
        pins[canonicalize_name(match.group(1))] = (match.group(2), hashes)
    return pins


def project_requirements() -> list[tuple[Requirement, str]]:
    """The project's dependencies and its dev and package extras, from pyproject.toml."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    found = [(Requirement(r), "") for r in project["dependencies"]]
    for extra in ("dev", "package"):
        found += [(Requirement(r), extra) for r in project["optional-dependencies"][extra]]
    return found


@pytest.mark.parametrize("platform", sorted(LOCKS))
def test_the_lock_pins_every_dependency_with_hashes(platform: str) -> None:
    path = LOCKS[platform]
    text = path.read_text("utf-8")
    assert "requirements/compile.sh" in text.splitlines()[1]  # how to regenerate it
    assert "://" not in text and "--index-url" not in text
    pins = read_lock(path)
    for _version, hashes in pins.values():
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes)
    environment = {
        "python_version": "3.11",
        "python_full_version": "3.11.9",
        "sys_platform": platform,
        "platform_system": "Windows" if platform == "win32" else "Linux",
        "os_name": "nt" if platform == "win32" else "posix",
    }
    for requirement, extra in project_requirements():
        if requirement.marker and not requirement.marker.evaluate({**environment, "extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{path.name} lacks {name}: run requirements/compile.sh"
        version, _ = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{path.name} pins {name}=={version}, pyproject.toml asks {requirement.specifier}:"
            " run requirements/compile.sh"
        )
    assert "pyinstaller" in pins and "setuptools" in pins  # the build and its backend


def test_linux_and_windows_builds_install_the_same_versions() -> None:
    linux, windows = read_lock(LOCKS["linux"]), read_lock(LOCKS["win32"])
    shared = set(linux) & set(windows)
    assert {"pyside6-essentials", "pyside6-addons", "pyinstaller", "cryptography"} <= shared
    assert {name: linux[name][0] for name in shared} == {name: windows[name][0] for name in shared}
    # Only platform-specific packages differ (keyring's and PyInstaller's back ends, colorama).
    assert set(linux) - shared <= {"jeepney", "secretstorage"}
    assert set(windows) - shared <= {"pywin32-ctypes", "pefile", "colorama"}


def test_the_package_builds_install_from_the_locks() -> None:
    build = (PACKAGING / "build.sh").read_text("utf-8")
    assert "LOCK=requirements/linux.lock" in build
    assert '--require-hashes -r "$LOCK"' in build
    assert "--no-deps" in build and "--no-build-isolation -e ." in build
    assert ".[package]" not in build  # nothing unpinned
    makefile = (ROOT / "Makefile").read_text("utf-8")
    package = re.search(r"^package:.*?(?=^\S|\Z)", makefile, re.S | re.M)
    assert package and "packaging/build.sh" in package.group(0)
    assert "pip install" not in package.group(0)


@pytest.mark.skipif(sys.platform == "win32" or not shutil.which("bash"), reason="bash -n")
def test_the_shell_scripts_parse() -> None:
    for script in (PACKAGING / "build.sh", ROOT / "requirements" / "compile.sh"):
        subprocess.run(["bash", "-n", str(script)], check=True, timeout=LONG_WAIT_SECONDS)


def test_the_windows_note_names_the_upgrade_code_and_the_silent_commands() -> None:
    note = (PACKAGING / "WINDOWS.md").read_text("utf-8")
    assert UPGRADE_CODE in note
    for command in ("msiexec /i", "msiexec /x", "/qn", "requirements\\windows.lock"):
        assert command in note
