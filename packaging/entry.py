"""Entry script of the frozen build (PyInstaller): ``--run-sandbox ...`` runs the sandbox bank,
anything else the desktop app (see ``treasury_app.app.entry``)."""

from treasury_app.app import entry

raise SystemExit(entry())
