"""What the sandbox-only buttons share: their look (plainly not part of a real bank's flow) and
the sandbox console's failures said in the user's language. The buttons call
:class:`~treasury_app.services.sandbox_console.SandboxConsole` (``workspace.sandbox``) through
:func:`simulated`; the UI never talks to the sandbox itself."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QPushButton, QWidget

from treasury_app.services.sandbox_console import (
    NoPendingAttempt,
    NotASandbox,
    SandboxClockUnknown,
    SandboxConsoleError,
    SandboxRefused,
    SandboxUnreachable,
)
from treasury_app.ui.user_errors import UserMessage

__all__ = ["SANDBOX_STYLE", "console_text", "sandbox_button", "simulated"]

T = TypeVar("T")

SANDBOX_STYLE = (
    "QPushButton { border: 1px dashed #c98a00; border-radius: 3px; padding: 3px 10px;"
    " background: palette(button); color: palette(button-text); }"
)
"""The look of sandbox-only actions: a dashed amber edge; text and face from the palette, so
the button reads in a dark palette too (a constant: the lists import it)."""

log = logging.getLogger(__name__)


def sandbox_button(
    parent: QWidget, text: str, name: str, tip: str, clicked: Callable[[], object]
) -> QPushButton:
    """A sandbox-only action's button: its look, and ``tip`` saying what it plays instead of a
    real bank or payer. Whether it shows is the caller's choice."""
    button = QPushButton(text, parent)
    button.setObjectName(name)
    button.setStyleSheet(SANDBOX_STYLE)
    button.setToolTip(tip)
    button.clicked.connect(lambda: clicked())
    return button


def console_text(error: SandboxConsoleError) -> str:
    """What went wrong with a simulation, in the user's language."""
    translate = QCoreApplication.translate
    if isinstance(error, SandboxRefused):  # its path and status are for the log, not people
        log.info("the sandbox refused %s (%s): %s", error.action, error.status, error.detail)
        refused = translate("SandboxActions", "The sandbox bank refused this simulation.")
        return f"{refused} {error.detail}".strip()
    if isinstance(error, SandboxClockUnknown):
        return translate("SandboxActions", "The sandbox clock could not be read: %1").replace(
            "%1", error.reason
        )
    if isinstance(error, SandboxUnreachable):
        return translate("SandboxActions", "The sandbox bank could not be reached: %1").replace(
            "%1", error.reason
        )
    if isinstance(error, NoPendingAttempt):
        return translate("SandboxActions", "The charge has no attempt waiting to be settled.")
    if isinstance(error, NotASandbox):
        return translate(
            "SandboxActions",
            "This profile is not the sandbox bank's: simulations exist only in the sandbox.",
        )
    return str(error)


async def simulated(work: Awaitable[T]) -> T:
    """Await a sandbox console call; its failure becomes a :class:`UserMessage` in the user's
    language, which the operation's banner shows."""
    try:
        return await work
    except SandboxConsoleError as error:
        raise UserMessage(console_text(error)) from None
