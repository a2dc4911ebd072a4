"""The error banner every tab shows above its content: what went wrong in the person's
language (a bank's problem by its type, a rule by its code, a failure by its kind), and the
form fields the bank's ``violacoes`` (or a local check) name, marked in place."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from treasury_app.api.connect import ProfileFileError
from treasury_app.api.errors import ApiError, ApiFailure, ProxyFailure, TransportFailure
from treasury_app.api.tls import CertificateError
from treasury_app.domain.errors import RuleError
from treasury_app.ledger.errors import (
    BlockingSession,
    LedgerBlocked,
    LedgerOpenError,
    LedgerRefused,
    LedgerUnavailable,
)
from treasury_app.ledger.team.settings import TeamSettingsError
from treasury_app.services.files import FileWriteError
from treasury_app.services.sandbox_console import SandboxConsoleError
from treasury_app.services.session import MissingSecret, TeamPasswordNeeded
from treasury_app.ui.failure_words import failure_words, typed_reason
from treasury_app.ui.refusals import ledger_refusal_words, problem_words
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import Tinted, banner_style, text_style

_SESSION_STATES = {  # pg_stat_activity.state
    "idle in transaction": QT_TRANSLATE_NOOP("ErrorBanner", "with a transaction left open"),
    "idle in transaction (aborted)": QT_TRANSLATE_NOOP(
        "ErrorBanner", "with a failed transaction left open"
    ),
    "active": QT_TRANSLATE_NOOP("ErrorBanner", "running a statement"),
}


def _holder_words(holder: BlockingSession) -> str:
    from treasury_app.ui.times import InstantForm, instant_or_empty

    words = (
        QCoreApplication.translate("ErrorBanner", "%1 (%2)")
        .replace("%1", holder.login)
        .replace("%2", holder.application or "?")
    )
    state = _SESSION_STATES.get(holder.state or "")
    if state is not None:
        words += ", " + QCoreApplication.translate("ErrorBanner", str(state))
    if holder.since is not None:
        stamp = holder.since.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        words += " " + QCoreApplication.translate("ErrorBanner", "since %1").replace(
            "%1", instant_or_empty(stamp, InstantForm.SECONDS)
        )
    return words


def blocked_message(error: LedgerBlocked) -> tuple[str, str]:
    """(title, detail) of a write the team database gave up waiting for: who held it up."""
    title = QCoreApplication.translate("ErrorBanner", "Held up by another session")
    if not error.holders:
        return title, QCoreApplication.translate(
            "ErrorBanner",
            "Nothing was changed: the team database waited too long for another session. "
            "Try again in a moment.",
        )
    return title, QCoreApplication.translate(
        "ErrorBanner",
        "Nothing was changed: the team database waited for %1 and gave up. Try again once "
        "that session is done; if it stays, ask them (or the administrator) to end it.",
    ).replace("%1", "; ".join(_holder_words(holder) for holder in error.holders))


# The titles of the typed failures that carry a rule's code (ui/failure_words.typed_reason).
_CODED_TITLES: tuple[tuple[type[BaseException], str], ...] = (
    (ProfileFileError, QT_TRANSLATE_NOOP("ErrorBanner", "The profile file cannot be used")),
    (
        TeamSettingsError,
        QT_TRANSLATE_NOOP("ErrorBanner", "Please check the team database's settings"),
    ),
    (MissingSecret, QT_TRANSLATE_NOOP("ErrorBanner", "A password is needed")),
    (TeamPasswordNeeded, QT_TRANSLATE_NOOP("ErrorBanner", "A password is needed")),
)


def friendly_message(error: BaseException) -> tuple[str, str]:
    """A (title, detail) a treasury user can act on, in the person's language; never a
    traceback, a secret, nor the English ``str()`` of an error (only a
    :class:`~treasury_app.ui.user_errors.UserMessage` is shown as it is: it is words already).
    A title may be an English source text that :meth:`ErrorBanner.show_error` translates."""
    from treasury_app.ui.user_errors import UserMessage

    if isinstance(error, LedgerBlocked):
        return blocked_message(error)
    if isinstance(error, ApiError):  # words for its type; the bank's detail, marked as such
        return problem_words(error)
    if isinstance(error, LedgerRefused):  # the team database's rule, in words
        title = QT_TRANSLATE_NOOP("ErrorBanner", "Refused by the team database")
        return title, ledger_refusal_words(error)
    # The titles are English source texts that show_error translates (context ErrorBanner).
    if isinstance(error, ProxyFailure) and error.reason is not None:  # a route refused
        if error.reason.code.startswith("proxy.pac_"):
            title = QT_TRANSLATE_NOOP("ErrorBanner", "The automatic proxy script cannot be used")
        else:
            title = QT_TRANSLATE_NOOP("ErrorBanner", "The proxy asks for a login")
        return title, rule_text(error.reason)
    if isinstance(error, TransportFailure):  # by its kind, never httpx's or the OS's English
        if error.request_sent:
            return (
                QT_TRANSLATE_NOOP("ErrorBanner", "No answer from the bank"),
                failure_words(error)
                + " "
                + QCoreApplication.translate(
                    "ErrorBanner",
                    "If this was a payment, it will be checked with the bank before anything "
                    "is sent again.",
                ),
            )
        return QT_TRANSLATE_NOOP("ErrorBanner", "The bank could not be reached"), failure_words(
            error
        )
    if isinstance(error, LedgerUnavailable):  # the team database offline: its code in words
        return QT_TRANSLATE_NOOP("ErrorBanner", "The team database cannot be reached"), (
            failure_words(error)
        )
    if isinstance(error, FileWriteError):  # its words by its kind, naming the file
        from treasury_app.ui.csv_files import file_error

        shown = file_error(error)
        return shown.title, shown.message
    if isinstance(error, ApiFailure | LedgerOpenError | OSError):
        return QT_TRANSLATE_NOOP("ErrorBanner", "It could not be done"), failure_words(error)
    if isinstance(error, RuleError):
        named = getattr(error, "title", None)  # a refusal that names itself (a slip paid before)
        if isinstance(named, str) and named:
            return named, rule_text(error)
        return QT_TRANSLATE_NOOP("ErrorBanner", "Please check the form"), rule_text(error)
    coded = typed_reason(error)
    if coded is not None:
        title = next(
            (title for kind, title in _CODED_TITLES if isinstance(error, kind)),
            QT_TRANSLATE_NOOP("ErrorBanner", "Please check the form"),
        )
        return title, rule_text(coded)
    if isinstance(error, SandboxConsoleError):
        return QT_TRANSLATE_NOOP("ErrorBanner", "The simulation did not happen"), failure_words(
            error
        )
    if isinstance(error, CertificateError):
        title = QT_TRANSLATE_NOOP("ErrorBanner", "The certificate cannot be used")
        return title, failure_words(error)
    if isinstance(error, UserMessage):  # already in the person's words
        return QT_TRANSLATE_NOOP("ErrorBanner", "Please check the form"), str(error)
    # Anything else is not the person's to fix (ui/user_errors.py): a general sentence, with
    # the error in the log, never its English.
    return QT_TRANSLATE_NOOP("ErrorBanner", "It could not be done"), failure_words(error)


class ErrorBanner(QFrame):
    """Hidden until :meth:`show_error`; ``fields`` maps property names to their widgets."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("error-banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        self.title = QLabel(self)
        self.title.setObjectName("error-title")
        self.tone: Tinted = "error"
        """``error`` for a problem; ``success`` for good news (:meth:`show_notice`)."""
        self._set_tone("error")
        self.detail = QLabel(self)
        self.detail.setObjectName("error-detail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(self)
        close.setText("✕")
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self.clear)
        layout.addWidget(self.title)
        layout.addWidget(self.detail, 1)
        layout.addWidget(close)
        self._marked: list[QWidget] = []
        self.hide()

    def show_error(
        self, error: BaseException, fields: Mapping[str, QWidget] | None = None
    ) -> list[str]:
        """Show ``error``; mark the widgets its violations name. Returns the marked names."""
        title, detail = friendly_message(error)
        self.show_message(self.tr(title), detail)
        names: list[str] = []
        if isinstance(error, ApiError):
            for violation in error.violacoes:
                name = _match(violation.propriedade, fields or {})
                if name:
                    self._mark(fields[name], violation.razao)  # type: ignore[index]
                    names.append(name)
        field_name = getattr(error, "field", None)
        if isinstance(field_name, str) and fields and field_name in fields:
            self._mark(fields[field_name], detail)
            names.append(field_name)
        return names

    def show_message(self, title: str, detail: str = "") -> None:
        """Show a problem (in the error tone)."""
        self._unmark()
        self._set_tone("error")
        self.title.setText(title)
        self.detail.setText(detail)
        self.show()

    def show_notice(self, title: str, detail: str = "") -> None:
        """Show good news (an export written) in the same place, in the success tone: never
        as an error."""
        self.show_message(title, detail)
        self._set_tone("success")

    def _set_tone(self, tone: Tinted) -> None:
        if tone == self.tone and self.styleSheet():
            return
        self.tone = tone
        self.setStyleSheet(f"#error-banner {{ {banner_style(tone, self)} }}")
        self.title.setStyleSheet(f"font-weight: bold; {text_style(tone, self)}")

    def clear(self) -> None:
        self._unmark()
        self.hide()
        self.dismissed.emit()

    def _mark(self, widget: QWidget, reason: str) -> None:
        widget.setProperty("invalid", True)
        widget.setToolTip(reason)
        widget.setStyleSheet("border: 1px solid #d93025;")
        self._marked.append(widget)

    def _unmark(self) -> None:
        for widget in self._marked:
            widget.setProperty("invalid", False)
            widget.setToolTip("")
            widget.setStyleSheet("")
        self._marked.clear()


def _match(propriedade: str, fields: Mapping[str, QWidget]) -> str | None:
    """``cob.valor.original`` matches a field named ``valor.original``, ``original`` or
    ``cob.valor.original``: the longest dotted suffix that names a field."""
    parts = [p for p in propriedade.replace("[", ".").replace("]", "").split(".") if p]
    for start in range(len(parts)):
        candidate = ".".join(parts[start:])
        if candidate in fields:
            return candidate
    return None
