"""The status bar's right side: the environment (sandbox clearly marked) and, per API, a light:
connected or not, and the certificate's days to expiry when under 30 (a warning). Short enough
for a 1366 px laptop's bar beside the team's labels; the details are in the tooltips."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QT_TRANSLATE_NOOP, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from treasury_app.api.tls import EXPIRY_WARNING_DAYS
from treasury_app.services.profiles import APIS
from treasury_app.services.session import Session
from treasury_app.ui.code_words import api_title, api_word
from treasury_app.ui.theme import text_style
from treasury_app.ui.times import InstantForm, format_instant

ENVIRONMENT_STYLES = {
    "sandbox": (
        QT_TRANSLATE_NOOP("EnvironmentBadge", "SANDBOX"),
        QT_TRANSLATE_NOOP("EnvironmentBadge", "SANDBOX — test bank, no real money"),
        "background:#f9ab00;color:#202124;",
    ),
    "production": (
        QT_TRANSLATE_NOOP("EnvironmentBadge", "PRODUCTION"),
        QT_TRANSLATE_NOOP("EnvironmentBadge", "PRODUCTION — the bank itself, real money"),
        "background:#188038;color:white;",
    ),
}


class EnvironmentBadge(QLabel):
    def __init__(self, environment: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("environment-badge")
        name = environment.upper()
        text, sentence, style = ENVIRONMENT_STYLES.get(environment, (name, name, ""))
        self.setText(self.tr(text))
        self.setToolTip(self.tr(sentence))
        self.setStyleSheet(f"QLabel {{ {style} padding: 2px 8px; border-radius: 3px; }}")


class ApiStatus(QLabel):
    """One API as a light, short enough for a laptop's status bar: ``QR Codes ✓`` (a valid
    token), ``✗`` (not connected), ``○`` (no token yet), and ``· cert. 12 d`` while the
    certificate expires within 30 days; the token's expiry and the rest in the tooltip."""

    def __init__(self, api: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.api = api
        self.setObjectName(f"api-status-{api}")
        self.warning = False

    def update_from(self, session: Session | None, now: datetime | None = None) -> None:
        label = api_word(self.api)
        if session is None or session.closed:
            self.setText(self.tr("%1: locked").replace("%1", label))
            self.warning = False
            self.setStyleSheet("")
            return
        now = now or datetime.now(UTC)
        state = session.token_states()[self.api]  # type: ignore[index]
        certificate = session.certificates[self.api]  # type: ignore[index]
        days = (certificate.not_after - now).days
        parts = [label]
        if state.last_error:
            parts.append("✗")
            connection = self.tr("not connected")
        elif state.valid_until is not None and state.valid_until > now:
            parts.append("✓")
            connection = self.tr("connected")
        else:
            parts.append("○")
            connection = ""
        if days < EXPIRY_WARNING_DAYS:
            parts.append(self.tr("· cert. %1 d").replace("%1", str(days)))
        self.warning = days < EXPIRY_WARNING_DAYS or bool(state.last_error)
        self.setText(" ".join(parts))
        details = [
            api_title(self.api) + (f": {connection}" if connection else ""),
            (
                self.tr("Token valid until %1").replace(
                    "%1", format_instant(state.valid_until, InstantForm.TIME)
                )
                if state.valid_until is not None and state.valid_until > now
                else self.tr("No token yet")
            ),
            certificate.subject,
            self.tr("Certificate valid until %1 (%2 days)")
            .replace("%1", format_instant(certificate.not_after, InstantForm.DATE))
            .replace("%2", str(days)),
        ]
        if certificate.expiry_warning:
            details.append(certificate.expiry_warning)
        if state.last_error:
            details.append(state.last_error)
        self.setToolTip("\n".join(details))
        warning = f"{text_style('error', self)} font-weight: bold;"
        self.setStyleSheet(warning if self.warning else "")


class StatusPanel(QWidget):
    """Environment badge and both APIs' status, refreshed every 15 s and on demand."""

    def __init__(self, session: Session | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        environment = session.profile.environment if session is not None else "sandbox"
        self.badge = EnvironmentBadge(environment, self)
        layout.addWidget(self.badge)
        self.apis = {api: ApiStatus(api, self) for api in APIS}
        for widget in self.apis.values():
            layout.addWidget(widget)
        self.timer = QTimer(self)
        self.timer.setInterval(15_000)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.refresh()

    def refresh(self) -> None:
        for widget in self.apis.values():
            widget.update_from(self.session)
