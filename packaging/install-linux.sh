#!/usr/bin/env bash
# Install the built folder for the current user (no root):
#   ~/.local/opt/treasury-app/          the application folder
#   ~/.local/bin/treasury-app           a link to its binary (on PATH in most desktops)
#   ~/.local/share/applications/        treasury-app.desktop (the menu entry)
#   ~/.local/share/icons/hicolor/...    the icon
# Run it from dist/treasury-app/ (build.sh copies it there) or give that folder: install-linux.sh DIR
# PREFIX=/opt sudo -E ./install-linux.sh installs for every user under /opt and /usr/local.
set -euo pipefail

SOURCE=$(cd "${1:-$(dirname "$0")}" && pwd)
[ -x "$SOURCE/treasury-app" ] || { echo "No treasury-app binary in $SOURCE" >&2; exit 1; }
if [ -n "${PREFIX:-}" ]; then
    OPT=$PREFIX/treasury-app; BIN=/usr/local/bin; SHARE=/usr/local/share
else
    OPT=$HOME/.local/opt/treasury-app; BIN=$HOME/.local/bin; SHARE=${XDG_DATA_HOME:-$HOME/.local/share}
fi

mkdir -p "$(dirname "$OPT")" "$BIN" "$SHARE/applications" \
    "$SHARE/icons/hicolor/256x256/apps" "$SHARE/icons/hicolor/scalable/apps"
rm -rf "$OPT"
cp -a "$SOURCE" "$OPT"
ln -sf "$OPT/treasury-app" "$BIN/treasury-app"
# The menu entry names the installed binary by its full path (~/.local/bin may not be on the
# desktop session's PATH).
sed -e "s|^Exec=.*|Exec=$OPT/treasury-app|" -e "s|^TryExec=.*|TryExec=$OPT/treasury-app|" \
    "$SOURCE/share/applications/treasury-app.desktop" > "$SHARE/applications/treasury-app.desktop"
cp "$SOURCE/share/icons/hicolor/256x256/apps/treasury-app.png" "$SHARE/icons/hicolor/256x256/apps/"
cp "$SOURCE/share/icons/hicolor/scalable/apps/treasury-app.svg" "$SHARE/icons/hicolor/scalable/apps/"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$SHARE/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$SHARE/icons/hicolor" || true
echo "Installed in $OPT; run 'treasury-app' or open Treasury from the applications menu."
