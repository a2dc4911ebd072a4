"""The Linux signing path (``packaging/sign.py``, osslsigncode): with a throwaway code-signing
certificate made here (a CA and its code-signing leaf, as a company's chain is), a real PE
file is signed and verifies against that CA; a byte changed after signing, an unsigned file
and a wrong password all fail. The password never appears on osslsigncode's command line."""

from __future__ import annotations

import datetime as dt
import importlib.util
import shutil
import subprocess
import sys
import types
from collections.abc import Sequence
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "senha de teste 123"

NEEDS_OSSLSIGNCODE = pytest.mark.skipif(
    shutil.which("osslsigncode") is None,
    reason="osslsigncode is not installed (make sign-deps: Debian package osslsigncode)",
)


def load_sign() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("sign", ROOT / "packaging" / "sign.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("sign", module)
    spec.loader.exec_module(module)
    return module


sign = load_sign()


def a_small_pe() -> Path:
    """A real Windows executable shipped inside a Python package: pip's distlib launcher
    (or setuptools' on an older pip)."""
    import pip

    candidates = [
        Path(pip.__file__).parent / "_vendor" / "distlib" / name for name in ("w64.exe", "t64.exe")
    ]
    spec = importlib.util.find_spec("setuptools")
    if spec and spec.origin:
        candidates.append(Path(spec.origin).parent / "cli-64.exe")
    for candidate in candidates:
        if candidate.is_file() and candidate.read_bytes()[:2] == b"MZ":
            return candidate
    pytest.fail(f"no PE launcher found among {candidates}")


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Tesouraria Teste Ltda"),
            x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
        ]
    )


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A throwaway CA (its PEM: the trust anchor for verifying) and a code-signing leaf it
    issued, in a password-protected PFX with the CA in its chain, as a CA delivers one."""
    folder = tmp_path_factory.mktemp("codesign")
    now = dt.datetime.now(dt.UTC)
    ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("Throwaway Test CA"))
        .issuer_name(_name("Throwaway Test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name("Tesouraria Teste Ltda"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    pfx = folder / "codesign.pfx"
    pfx.write_bytes(
        pkcs12.serialize_key_and_certificates(
            b"codesign",
            key,
            leaf,
            [ca],
            serialization.BestAvailableEncryption(PASSWORD.encode()),
        )
    )
    ca_file = folder / "ca.pem"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return {"pfx": pfx, "ca": ca_file}


def signer(certificates: dict[str, Path], password: str = PASSWORD) -> object:
    return sign.Signer(certificates["pfx"], password, description="Treasury")


def test_the_command_reads_the_password_from_input_and_timestamps_when_asked() -> None:
    chosen = sign.Signer(
        Path("c.pfx"), "segredo", timestamp_url="http://ts.example", description="Treasury"
    )
    command = sign.sign_command("osslsigncode", chosen, Path("a.exe"), Path("a.exe.signing"))
    assert "segredo" not in " ".join(command)
    assert command[:5] == ["osslsigncode", "sign", "-pkcs12", "c.pfx", "-readpass"]
    assert command[5] == sign.PASSWORD_INPUT  # its standard input
    assert command[command.index("-h") + 1] == "sha256"
    assert command[command.index("-ts") + 1] == "http://ts.example"
    assert command[-4:] == ["-in", "a.exe", "-out", "a.exe.signing"]
    unstamped = sign.Signer(Path("c.pfx"), "segredo")
    assert "-ts" not in sign.sign_command("osslsigncode", unstamped, Path("a"), Path("b"))


@NEEDS_OSSLSIGNCODE
def test_a_signed_pe_verifies_and_a_tampered_one_does_not(
    certificates: dict[str, Path], tmp_path: Path
) -> None:
    exe = tmp_path / "treasury-app.exe"
    shutil.copyfile(a_small_pe(), exe)
    unsigned = exe.read_bytes()
    assert sign.verify(exe, ca_file=certificates["ca"]).returncode != 0  # not signed yet

    sign.sign(exe, signer(certificates), ca_file=certificates["ca"])
    signed = exe.read_bytes()
    assert signed != unsigned and signed[:2] == b"MZ"
    assert not list(tmp_path.glob("*.signing"))
    verified = sign.verify(exe, ca_file=certificates["ca"])
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "Tesouraria Teste Ltda" in verified.stdout  # the signer, as Windows shows it

    # One byte of the program changed after signing (in the code, not the signature).
    tampered = tmp_path / "tampered.exe"
    data = bytearray(signed)
    data[0x400] ^= 0xFF
    tampered.write_bytes(bytes(data))
    refused = sign.verify(tampered, ca_file=certificates["ca"])
    assert refused.returncode != 0, refused.stdout

    # Signed, but by a chain this machine does not trust: no CA file, the system's roots.
    assert sign.verify(exe).returncode != 0


@NEEDS_OSSLSIGNCODE
def test_a_wrong_password_leaves_the_file_unsigned(
    certificates: dict[str, Path], tmp_path: Path
) -> None:
    exe = tmp_path / "treasury-app-cli.exe"
    shutil.copyfile(a_small_pe(), exe)
    before = exe.read_bytes()
    with pytest.raises(sign.SigningError, match="sign failed"):
        sign.sign(exe, signer(certificates, "errada"), ca_file=certificates["ca"])
    assert exe.read_bytes() == before
    assert not list(tmp_path.glob("*.signing"))


@NEEDS_OSSLSIGNCODE
def test_the_script_signs_every_file_with_the_password_from_the_environment(
    certificates: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = [tmp_path / "treasury-app.exe", tmp_path / "treasury-app-cli.exe"]
    for path in files:
        shutil.copyfile(a_small_pe(), path)
    seen: list[list[str]] = []
    real_run = subprocess.run

    def recording_run(command: Sequence[str], **kwargs: object) -> object:
        seen.append(list(command))
        return real_run(command, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(sign.subprocess, "run", recording_run)
    monkeypatch.delenv("SIGN_PFX_PASSWORD", raising=False)
    common = ["--pfx", str(certificates["pfx"]), "--ca-file", str(certificates["ca"])]
    assert sign.main([*common, *map(str, files)]) == 1  # no password: nothing signed
    assert seen == []

    monkeypatch.setenv("SIGN_PFX_PASSWORD", PASSWORD)
    assert sign.main([*common, *map(str, files)]) == 0
    assert all(PASSWORD not in " ".join(command) for command in seen)
    for path in files:
        assert sign.verify(path, ca_file=certificates["ca"]).returncode == 0
