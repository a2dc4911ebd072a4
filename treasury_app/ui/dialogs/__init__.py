"""Dialogs: one per file (welcome, profile, unlock)."""
