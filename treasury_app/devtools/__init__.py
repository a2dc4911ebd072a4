"""Developers' and newcomers' tools that are not part of the desktop app (never imported by
it, so never in the packaged build): ``python -m treasury_app.devtools.<tool>``."""
