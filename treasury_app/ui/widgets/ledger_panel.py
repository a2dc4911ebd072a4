"""Settings → Profile: where the open profile's ledger lives (this computer's file, or the team
database with this person's login, roles and server), the team link's state, and a warning
banner when the team audit no longer holds the head this computer kept (its anchor)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from treasury_app.domain.money import format_brl
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
        self.policy_label = QLabel(self.policy_text(session), box)
        self.policy_label.setObjectName("settings-approval-policy")
        self.policy_label.setWordWrap(True)
        self.policy_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Dual control"), self.policy_label)
        layout.addWidget(box)

    def policy_text(self, session: Any) -> str:
        """The approval policy, read only (an administrator changes it with treasury-admin)."""
        if getattr(session, "team", None) is None:
            return self.tr(
                "Needs a team database: on this computer the review (typing the amount) is the "
                "only check before a payment is sent."
            )
        desk = getattr(session, "approvals", None)
        policy = getattr(desk, "policy_at_unlock", None)
        if policy is None:
            return self.tr("Off: the team's policy asks for no approvals.")
        threshold = (
            format_brl(policy.threshold) if policy.threshold is not None else self.tr("none")
        )
        expiry = (
            self.tr("at the end of the Brasília day of the first approval")
            if policy.expiry_hours is None
            else self.tr("%1 h after the first approval").replace("%1", str(policy.expiry_hours))
        )
        return (
            self.tr(
                "%1 approval(s) by someone other than the maker; %2 above %3; %4 more for a payee "
                "never paid; approvals expire %5. Policy version %6, set by %7 "
                "(treasury-admin policy)."
            )
            .replace("%1", str(policy.approvals))
            .replace("%2", str(policy.approvals_above))
            .replace("%3", threshold)
            .replace("%4", str(policy.new_payee_extra))
            .replace("%5", expiry)
            .replace("%6", str(policy.version))
            .replace("%7", policy.set_by)
        )

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
