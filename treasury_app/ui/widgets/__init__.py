"""Reusable widgets (money field, QR view, PDF view, status badge, error banner)."""
