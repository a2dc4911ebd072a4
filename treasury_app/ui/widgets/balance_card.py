"""The balance card at the top of the statement tab: the available balance in large type, the
blocked amount and overdraft limit small, when the bank last updated it, and a refresh
button."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.money import format_brl
from treasury_app.services.statement import BalanceView
from treasury_app.ui.times import format_instant


class BalanceCard(QFrame):
    """Shows a :class:`BalanceView`; emits :attr:`refresh_requested` when asked to reload."""

    refresh_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("balance-card")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.balance: BalanceView | None = None
        self._updated_text = ""

        self.caption = QLabel(self.tr("Available balance"), self)
        self.available = QLabel("—", self)
        self.available.setObjectName("balance-available")
        self.available.setStyleSheet("font-size: 22pt; font-weight: 600;")
        self.details = QLabel(self)
        self.details.setObjectName("balance-details")
        self.details.setStyleSheet("color: palette(mid); font-size: 9pt;")
        self.updated = QLabel(self.tr("Not loaded yet"), self)
        self.updated.setObjectName("balance-updated")
        self.updated.setStyleSheet("color: palette(mid); font-size: 9pt;")

        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.refresh_button.setToolTip(self.tr("Reload the balance and the statement (F5)"))
        self.refresh_button.clicked.connect(self.refresh_requested)

        amounts = QVBoxLayout()
        amounts.addWidget(self.caption)
        amounts.addWidget(self.available)
        amounts.addWidget(self.details)
        amounts.addWidget(self.updated)
        layout = QHBoxLayout(self)
        layout.addLayout(amounts, 1)
        layout.addWidget(self.refresh_button)

    def set_balance(self, balance: BalanceView) -> None:
        self.balance = balance
        self.available.setText(format_brl(balance.available))
        self.available.setAccessibleName(
            self.tr("Available balance: %1").replace("%1", format_brl(balance.available))
        )
        blocked = self.tr("Blocked: %1").replace("%1", format_brl(balance.blocked))
        overdraft = self.tr("Overdraft limit: %1").replace("%1", format_brl(balance.overdraft))
        self.details.setText(f"{blocked}  ·  {overdraft}")
        if balance.updated_at is None:
            self._updated_text = self.tr("Update time not reported by the bank")
        else:
            when = format_instant(balance.updated_at)
            self._updated_text = self.tr("Updated at %1").replace("%1", when)
        self.updated.setText(self._updated_text)

    def set_stale(self) -> None:
        """The last refresh failed: keep the amount but say it may be out of date."""
        if self.balance is None:
            self.updated.setText(self.tr("Could not load the balance"))
        else:
            stale = self.tr("(may be out of date)")
            self.updated.setText(f"{self._updated_text} {stale}")
