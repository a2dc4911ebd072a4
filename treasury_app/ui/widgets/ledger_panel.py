"""Settings → Profile: where the open profile's ledger lives (this computer's file, or the team
database with this person's login, roles and server), the team link's state, and a warning
banner when the team audit no longer holds the head this computer kept (its anchor)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from treasury_app.ui.theme import banner_style
from treasury_app.ui.widgets.team_status import TeamStatusLabel


class LedgerPanel(QWidget):
    """The ledger of ``session`` (an open :class:`~treasury_app.services.session.Session`);
    :meth:`shutdown` stops following the team link."""

    def __init__(self, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ledger-panel")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

        self.anchor_banner = QLabel(self)
        self.anchor_banner.setObjectName("anchor-warning")
        self.anchor_banner.setWordWrap(True)
        self.anchor_banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.anchor_banner.setStyleSheet(
            f"QLabel {{ {banner_style('warning', self)} padding: 6px; font-weight: bold; }}"
        )
        anchor = getattr(session, "anchor", None)
        if anchor is not None and not anchor.ok:
            self.anchor_banner.setText(self.anchor_text(anchor))
        else:
            self.anchor_banner.hide()
        layout.addWidget(self.anchor_banner)

        box = QGroupBox(self.tr("Ledger"), self)
        form = QFormLayout(box)
        self.location_label = QLabel(self.location_text(session), box)
        self.location_label.setObjectName("settings-ledger")
        self.location_label.setWordWrap(True)
        self.location_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Where it lives"), self.location_label)
        self.team_status: TeamStatusLabel | None = None
        if getattr(session, "team", None) is not None:
            self.team_status = TeamStatusLabel(session.team, box)
            self.team_status.setObjectName("settings-team-status")
            self.team_status.setWordWrap(True)
            form.addRow(self.tr("Link"), self.team_status)
        layout.addWidget(box)

    def location_text(self, session: Any) -> str:
        ledger = session.ledger
        identity = getattr(ledger, "identity", None)
        if getattr(ledger, "path", None) is not None or identity is None:
            return self.tr("This computer: %1").replace("%1", str(ledger.path))
        roles = ", ".join(identity.roles) or self.tr("none")
        return (
            self.tr("Team database: %1 — roles %2, PostgreSQL %3")
            .replace("%1", ledger.describe())
            .replace("%2", roles)
            .replace("%3", identity.server_version)
        )

    def anchor_text(self, anchor: Any) -> str:
        # The words of AnchorCheck.message(), in the person's language.
        row = str(anchor.kept.seq) if anchor.kept is not None else "?"
        return "⚠ " + self.tr(
            "The team audit was rewritten: row %1 is no longer what this computer saw. "
            "Tell the administrator (treasury-admin verify-audit)."
        ).replace("%1", row)

    def shutdown(self) -> None:
        if self.team_status is not None:
            self.team_status.stop()
