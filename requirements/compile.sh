#!/usr/bin/env bash
# Regenerate the lock files of the package builds from pyproject.toml:
#   requirements/linux.lock     Linux x86-64 (glibc 2.34 or newer: PySide6 6.11's wheels), CPython 3.11
#   requirements/windows.lock   Windows x64, CPython 3.11
# Each pins every package of the project's dependencies and its "dev" and "package" extras
# (the test suite and PyInstaller) with the sha256 of every file of that version, so that
# `pip install --require-hashes -r requirements/<os>.lock` installs the same versions on both.
# The two files differ only in the platform-only packages (jeepney and SecretStorage for
# keyring on Linux; pywin32-ctypes, pefile, colorama on Windows).
#
# Needs uv (only to compile; nothing installs it at run time):
#   .venv/bin/python -m pip install uv        (then: requirements/compile.sh)
# Usage: requirements/compile.sh [--upgrade]   (default: keep the pinned versions that still fit)
# Env:   UV  the uv executable (default: .venv/bin/uv, else uv on PATH)
set -euo pipefail

cd "$(dirname "$0")/.."
UV=${UV:-}
if [ -z "$UV" ]; then
    if [ -x .venv/bin/uv ]; then UV=.venv/bin/uv; else UV=uv; fi
fi
command -v "$UV" >/dev/null 2>&1 || {
    echo "uv not found: run '.venv/bin/python -m pip install uv' (or set UV)." >&2
    exit 1
}

upgrade=()
[ "${1:-}" = "--upgrade" ] && upgrade=(--upgrade)

compile() {  # compile <lock file> <uv target platform>
    "$UV" pip compile pyproject.toml --quiet "${upgrade[@]}" \
        --extra dev --extra package \
        --generate-hashes --python-version 3.11 --python-platform "$2" \
        --custom-compile-command "requirements/compile.sh" \
        --output-file "$1"
}
compile requirements/linux.lock x86_64-manylinux_2_34
compile requirements/windows.lock x86_64-pc-windows-msvc
echo "requirements/linux.lock: $(grep -c '^[A-Za-z0-9]' requirements/linux.lock) packages;" \
    "requirements/windows.lock: $(grep -c '^[A-Za-z0-9]' requirements/windows.lock) packages"
