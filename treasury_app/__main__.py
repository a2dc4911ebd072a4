"""``python -m treasury_app`` starts the desktop application (``--run-sandbox ...`` runs the
sandbox bank instead: the frozen build's entry point is the same function)."""

from treasury_app.app import entry

raise SystemExit(entry())
