"""What the sandbox-only buttons share: their look (plainly not part of a real bank's flow) and
the sandbox console's failures said in the user's language (from the code the sandbox gives
its refusal; its own sentences, paths and Python's messages go to the log). The buttons call
:class:`~treasury_app.services.sandbox_console.SandboxConsole` (``workspace.sandbox``) through
:func:`simulated`; the UI never talks to the sandbox itself."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QPushButton, QWidget

from treasury_app.services.sandbox_console import (
    NoPendingAttempt,
    NotASandbox,
    SandboxClockUnknown,
    SandboxConsoleError,
    SandboxRefused,
    SandboxUnreachable,
)
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.status_words import status_word
from treasury_app.ui.user_errors import UserMessage

__all__ = ["SANDBOX_STYLE", "SimulationFailed", "console_text", "sandbox_button", "simulated"]

T = TypeVar("T")

SANDBOX_STYLE = (
    "QPushButton { border: 1px dashed #c98a00; border-radius: 3px; padding: 3px 10px;"
    " background: palette(button); color: palette(button-text); }"
    " QPushButton:disabled { color: palette(mid); border-color: palette(mid); }"
)
"""The look of sandbox-only actions: a dashed amber edge; text and face from the palette, so
the button reads in a dark palette too; greyed when off, as every other button (a constant:
the lists import it)."""

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


_REFUSED = QT_TRANSLATE_NOOP("SandboxActions", "The sandbox bank refused this simulation.")
# Why, by the code the sandbox gives its refusal (``%1``: the status it names, in words).
_WHY: dict[str, str] = {
    "rec.not_found": QT_TRANSLATE_NOOP(
        "SandboxActions", "The sandbox bank does not know this recurrence."
    ),
    "rec.not_pending": QT_TRANSLATE_NOOP(
        "SandboxActions", "The recurrence is no longer waiting for the payer (its status: %1)."
    ),
    "solicrec.not_found": QT_TRANSLATE_NOOP(
        "SandboxActions", "The sandbox bank does not know this confirmation request."
    ),
    "cobr.not_found": QT_TRANSLATE_NOOP(
        "SandboxActions", "The sandbox bank does not know this recurring charge."
    ),
    "cobr.not_open": QT_TRANSLATE_NOOP(
        "SandboxActions", "The recurring charge has no next attempt (its status: %1)."
    ),
    "charge.not_found": QT_TRANSLATE_NOOP(
        "SandboxActions", "The sandbox bank does not know this charge."
    ),
    "charge.amount_fixed": QT_TRANSLATE_NOOP(
        "SandboxActions", "The charge's amount is fixed: the payer cannot pay another."
    ),
    "payment.not_found": QT_TRANSLATE_NOOP(
        "SandboxActions", "The sandbox bank does not know this payment."
    ),
    "payment.not_held": QT_TRANSLATE_NOOP(
        "SandboxActions", "The payment is no longer waiting for approval (its status: %1)."
    ),
    "clock.invalid": QT_TRANSLATE_NOOP(
        "SandboxActions", "The sandbox clock cannot be moved to that time."
    ),
}
# Without a code the sandbox knows (a fault injected, another version of it): by its status.
_BY_STATUS: dict[int, str] = {
    401: QT_TRANSLATE_NOOP(
        "SandboxActions", "It did not accept this profile's certificate or credentials."
    ),
    403: QT_TRANSLATE_NOOP(
        "SandboxActions", "It did not accept this profile's certificate or credentials."
    ),
    404: QT_TRANSLATE_NOOP("SandboxActions", "It does not know what was asked."),
    429: QT_TRANSLATE_NOOP("SandboxActions", "It is busy: try again in a moment."),
}
_FAILED = QT_TRANSLATE_NOOP(
    "SandboxActions", "It failed on its side (an injected fault, or an error of its own)."
)


def _status_words(code: str, status: str) -> str:
    """The status a refusal names, as the word people read for it."""
    if code.startswith("rec."):
        return code_word(Family.REC_STATUS, status)
    if code.startswith("cobr."):
        return code_word(Family.COBR_STATUS, status)
    return status_word(status)


def _why(error: SandboxRefused) -> str:
    translate = QCoreApplication.translate
    source = _WHY.get(error.code or "")
    if source is not None:
        status = error.params.get("status", "")
        return translate("SandboxActions", source).replace(
            "%1", _status_words(error.code or "", status) if status else ""
        )
    if error.code:
        log.warning("a sandbox refusal without words: %s %s", error.code, error.params)
    if error.status >= 500:
        return translate("SandboxActions", _FAILED)
    source = _BY_STATUS.get(error.status)
    return translate("SandboxActions", source) if source else ""


def console_text(error: SandboxConsoleError) -> str:
    """What went wrong with a simulation, in the user's language: from the sandbox's code for
    its refusal, never its own sentence, path or status (those go to the log), nor the English
    text of a connection error."""
    translate = QCoreApplication.translate
    if isinstance(error, SandboxRefused):
        log.info(
            "the sandbox refused %s (%s, %s): %s",
            error.action,
            error.status,
            error.code or "no code",
            error.detail,
        )
        refused = translate("SandboxActions", _REFUSED)
        return f"{refused} {_why(error)}".strip()
    if isinstance(error, SandboxClockUnknown):
        log.info("the sandbox clock could not be read: %s", error.reason)
        return translate("SandboxActions", "The sandbox clock could not be read.")
    if isinstance(error, SandboxUnreachable):
        log.info("the sandbox could not be reached (%s): %s", error.action, error.reason)
        return translate(
            "SandboxActions",
            "The sandbox bank could not be reached: is it running? (The log has the details.)",
        )
    if isinstance(error, NoPendingAttempt):
        return translate("SandboxActions", "The charge has no attempt waiting to be settled.")
    if isinstance(error, NotASandbox):
        return translate(
            "SandboxActions",
            "This profile is not the sandbox bank's: simulations exist only in the sandbox.",
        )
    log.warning("a sandbox failure without words: %r", error)
    return translate("SandboxActions", _REFUSED)


class SimulationFailed(UserMessage):
    """A simulation the sandbox did not make, in the user's words; titled as such on the
    banner (nothing typed in a form is at fault)."""

    # The banner translates its titles (context ErrorBanner).
    title = QT_TRANSLATE_NOOP("ErrorBanner", "The simulation was not made")


async def simulated(work: Awaitable[T]) -> T:
    """Await a sandbox console call; its failure becomes a :class:`SimulationFailed` in the
    user's language, which the operation's banner shows."""
    try:
        return await work
    except SandboxConsoleError as error:
        raise SimulationFailed(console_text(error)) from None
