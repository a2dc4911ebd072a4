"""Authenticode signatures from Linux: the two ``.exe`` files and the ``.msi`` signed with
``osslsigncode`` (Debian package ``osslsigncode``; ``make sign-deps`` installs it), the same
SHA-256 signature and RFC 3161 timestamp that ``signtool`` makes on Windows
(``packaging/windows/build-msi.ps1``), then verified.

    SIGN_PFX_PASSWORD=... python packaging/sign.py --pfx codesign.pfx \\
        [--timestamp http://timestamp.example.com] [--ca-file chain.pem] FILE [FILE ...]

The password is read from the environment variable ``--password-env`` names (default
``SIGN_PFX_PASSWORD``) and handed to osslsigncode on its standard input (``-readpass``):
never on a command line, where any process list shows it. Each file is signed into a new file
beside it, that file is verified, and only then does it replace the original: a failed
signature never leaves a half-signed file behind. Exit status 0 when every file is signed and
verifies, 1 otherwise (the reason on standard error).

Verification is ``osslsigncode verify``: the signature's digest matches the file, and the
certificate chains to a trusted root (``--ca-file``, default the system's bundle), as does the
timestamp's (``--tsa-ca-file``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PASSWORD_ENV = "SIGN_PFX_PASSWORD"
DIGEST = "sha256"
# osslsigncode reads the password from this file: its standard input. "/dev/stdin" works with
# every version (Debian 12 has 2.5, which reads "-" as a file of that name); "-" on Windows.
PASSWORD_INPUT = "-" if sys.platform == "win32" else "/dev/stdin"


class SigningError(RuntimeError):
    """A file could not be signed or did not verify; the message says which and why."""


@dataclass(frozen=True)
class Signer:
    """How to sign: the PFX, its password, and the optional timestamp and description."""

    pfx: Path
    password: str
    timestamp_url: str | None = None
    description: str | None = None
    url: str | None = None


def osslsigncode_path() -> str:
    """The ``osslsigncode`` on PATH, or :class:`SigningError` naming how to install it."""
    found = shutil.which("osslsigncode")
    if found is None:
        raise SigningError(
            "osslsigncode not found: apt-get install osslsigncode (or make sign-deps)"
        )
    return found


def sign_command(tool: str, signer: Signer, source: Path, target: Path) -> list[str]:
    """The osslsigncode command that writes ``target``, ``source`` signed (the password is
    read from standard input, :data:`PASSWORD_INPUT`)."""
    command = [tool, "sign", "-pkcs12", str(signer.pfx), "-readpass", PASSWORD_INPUT, "-h", DIGEST]
    if signer.description:
        command += ["-n", signer.description]
    if signer.url:
        command += ["-i", signer.url]
    if signer.timestamp_url:
        command += ["-ts", signer.timestamp_url]  # RFC 3161, as signtool's /tr
    return [*command, "-in", str(source), "-out", str(target)]


def verify_command(
    tool: str, path: Path, ca_file: Path | None = None, tsa_ca_file: Path | None = None
) -> list[str]:
    command = [tool, "verify"]
    if ca_file is not None:
        command += ["-CAfile", str(ca_file)]
    if tsa_ca_file is not None:
        command += ["-TSA-CAfile", str(tsa_ca_file)]
    return [*command, "-in", str(path)]


def verify(
    path: Path, *, ca_file: Path | None = None, tsa_ca_file: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``osslsigncode verify`` of ``path`` (never raises on a bad signature: see returncode)."""
    return subprocess.run(
        verify_command(osslsigncode_path(), path, ca_file, tsa_ca_file),
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )


def sign(
    path: Path, signer: Signer, *, ca_file: Path | None = None, tsa_ca_file: Path | None = None
) -> None:
    """Sign ``path`` in place, verified before it replaces the unsigned file."""
    tool = osslsigncode_path()
    signed = path.with_name(f"{path.name}.signing")
    signed.unlink(missing_ok=True)
    try:
        outcome = subprocess.run(
            sign_command(tool, signer, path, signed),
            input=signer.password + "\n",
            capture_output=True,
            text=True,
            errors="replace",
            check=False,
        )
        if outcome.returncode != 0 or not signed.exists():
            raise SigningError(f"{path}: osslsigncode sign failed: {_last_words(outcome)}")
        checked = verify(signed, ca_file=ca_file, tsa_ca_file=tsa_ca_file)
        if checked.returncode != 0:
            raise SigningError(f"{path}: the signature does not verify: {_last_words(checked)}")
        os.replace(signed, path)
    finally:
        signed.unlink(missing_ok=True)


def _last_words(outcome: subprocess.CompletedProcess[str]) -> str:
    text = (outcome.stderr or "") + (outcome.stdout or "")
    lines = [line for line in text.splitlines() if line.strip()]
    return " / ".join(lines[-4:]) or f"exit status {outcome.returncode}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help=".exe, .dll or .msi files")
    parser.add_argument("--pfx", type=Path, required=True, help="code-signing certificate")
    parser.add_argument("--password-env", default=DEFAULT_PASSWORD_ENV)
    parser.add_argument("--timestamp", help="RFC 3161 timestamp server URL")
    parser.add_argument("--description", default="Treasury", help="the signed program's name")
    parser.add_argument("--url", help="the publisher's web address, shown by Windows")
    parser.add_argument("--ca-file", type=Path, help="trusted roots for verifying")
    parser.add_argument("--tsa-ca-file", type=Path, help="trusted roots of the timestamp")
    args = parser.parse_args(argv)
    password = os.environ.get(args.password_env)
    if password is None:
        print(f"sign: set {args.password_env} to the PFX password", file=sys.stderr)
        return 1
    signer = Signer(args.pfx, password, args.timestamp, args.description, args.url)
    try:
        for path in args.files:
            sign(path, signer, ca_file=args.ca_file, tsa_ca_file=args.tsa_ca_file)
            print(f"signed and verified: {path}")
    except SigningError as error:
        print(f"sign: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
