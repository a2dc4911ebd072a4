"""QR Codes API of the sandbox: cashin endpoints (filled in by sandbox part 2)."""

from __future__ import annotations

from starlette.routing import Route

from treasury_app.sandbox.context import QrContext


def routes(ctx: QrContext) -> list[Route]:
    """Routes of the QR Codes API server."""
    return []


def control_routes(ctx: QrContext) -> list[Route]:
    """Routes under /sandbox/... (control surface), mounted on both servers."""
    return []


def tick(ctx: QrContext) -> None:
    """Called by the sandbox ticker (every 0.25 s and after the clock moves)."""
