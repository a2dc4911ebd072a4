#!/usr/bin/env bash
# Build the one-folder Treasury app with PyInstaller, then check the result:
#   dist/treasury-app/treasury-app --version     prints "treasury-app <version>"
#   dist/treasury-app/treasury-app --self-test   passes (offscreen when there is no display)
#
# PyInstaller runs in a build venv (build/package-venv) holding exactly the versions of
# requirements/linux.lock, installed with --require-hashes (the Windows build installs
# requirements/windows.lock the same way: the same versions on both), plus the project from
# the checkout. The venv is made again whenever the lock or pyproject.toml changes.
#
# Usage: packaging/build.sh [--no-check]      (make package runs it)
# Env:   PYTHON        CPython 3.11 (the lock's Python), the base of the build venv (default: python3)
#        PACKAGE_VENV  the build venv (default: build/package-venv)
# Windows: see packaging/WINDOWS.md (the same spec, from PowerShell or .github/workflows/windows.yml).
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
PACKAGE_VENV=${PACKAGE_VENV:-build/package-venv}
LOCK=requirements/linux.lock
NAME=treasury-app
DIST=dist/$NAME
CHECK=1
[ "${1:-}" = "--no-check" ] && CHECK=0

started=$(date +%s)
if ! ls resources/translations/*.qm >/dev/null 2>&1; then
    echo "No compiled translation: run 'make translations' first." >&2
    exit 1
fi

# The lock is compiled for CPython 3.11 (requirements/compile.sh), the Python the app ships.
base_version=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if [ "$base_version" != 3.11 ]; then
    echo "The package build needs Python 3.11 ($LOCK is compiled for it); $PYTHON is $base_version." >&2
    echo "Run with PYTHON=python3.11 (make package PYTHON=python3.11)." >&2
    exit 1
fi

# The build venv: made again when the lock, pyproject.toml or the base Python changed.
wanted="$(sha256sum "$LOCK" pyproject.toml | sha256sum | cut -d' ' -f1) $("$PYTHON" -c 'import sys; print(sys.version.split()[0])')"
stamp="$PACKAGE_VENV/.lock-stamp"
VENV_PYTHON=$PACKAGE_VENV/bin/python
if [ ! -x "$VENV_PYTHON" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "== build venv $PACKAGE_VENV from $LOCK (pip --require-hashes)"
    rm -rf "$PACKAGE_VENV"
    "$PYTHON" -m venv "$PACKAGE_VENV"
    "$VENV_PYTHON" -m pip install --quiet --disable-pip-version-check --require-hashes -r "$LOCK"
    # The project itself from the checkout, without dependencies (all came from the lock) and
    # with the lock's setuptools as build backend (no download outside the lock).
    "$VENV_PYTHON" -m pip install --quiet --disable-pip-version-check --no-deps \
        --no-build-isolation -e .
    "$VENV_PYTHON" -m pip check
    echo "$wanted" >"$stamp"
fi
PYTHON=$VENV_PYTHON

echo "== PyInstaller ($("$PYTHON" -m PyInstaller --version)) -> $DIST"
"$PYTHON" -m PyInstaller --noconfirm --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/treasury.spec

# The freedesktop entry and icon, laid out as under a prefix (packaging/install-linux.sh
# copies them into ~/.local/share).
mkdir -p "$DIST/share/applications" "$DIST/share/icons/hicolor/256x256/apps" \
    "$DIST/share/icons/hicolor/scalable/apps"
cp packaging/treasury-app.desktop "$DIST/share/applications/"
cp packaging/treasury-app.png "$DIST/share/icons/hicolor/256x256/apps/"
cp packaging/treasury-app.svg "$DIST/share/icons/hicolor/scalable/apps/"
cp packaging/install-linux.sh "$DIST/"
built=$(date +%s)
echo "== built in $((built - started)) s: $(du -sh "$DIST" | cut -f1) in $DIST"

[ "$CHECK" = 1 ] || exit 0

expected="treasury-app $("$PYTHON" -c 'import treasury_app; print(treasury_app.__version__)')"
version=$("$DIST/$NAME" --version)
if [ "$version" != "$expected" ]; then
    echo "FAILED: --version printed '$version', expected '$expected'" >&2
    exit 1
fi
echo "== --version: $version"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    export QT_QPA_PLATFORM=offscreen
fi
echo "== --self-test"
"$DIST/$NAME" --self-test
echo "== package ready: $DIST ($(du -sh "$DIST" | cut -f1), $(($(date +%s) - started)) s)"
