#!/usr/bin/env bash
# Build the one-folder Treasury app with PyInstaller, then check the result:
#   dist/treasury-app/treasury-app --version     prints "treasury-app <version>"
#   dist/treasury-app/treasury-app --self-test   passes (offscreen when there is no display)
#
# Usage: packaging/build.sh [--no-check]      (make package runs it with the project's venv)
# Env:   PYTHON  the interpreter with the project and PyInstaller (default: .venv/bin/python)
# Windows: see packaging/WINDOWS.md (the same spec, run from PowerShell).
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}
NAME=treasury-app
DIST=dist/$NAME
CHECK=1
[ "${1:-}" = "--no-check" ] && CHECK=0

started=$(date +%s)
if ! "$PYTHON" -c 'import PyInstaller' 2>/dev/null; then
    echo "PyInstaller is missing: installing the 'package' extra..."
    "$PYTHON" -m pip install --quiet -e '.[package]'
fi
if ! ls resources/translations/*.qm >/dev/null 2>&1; then
    echo "No compiled translation: run 'make translations' first." >&2
    exit 1
fi

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
