"""How long a charge stays payable, typed in hours or days (the wire wants seconds)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QSpinBox, QWidget

from treasury_app.services.charges import DEFAULT_EXPIRATION

__all__ = ["ExpiryEdit", "human_duration"]


def human_duration(seconds: int) -> str:
    """``86400`` -> ``1 d``, ``5400`` -> ``1 h 30 min``: the expiry as a person reads it."""
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{v} {u}" for v, u in ((days, "d"), (hours, "h"), (minutes, "min"), (secs, "s")) if v]
    return " ".join(parts) or "0 s"


class ExpiryEdit(QWidget):
    """How long an immediate charge stays payable, in hours or days (the wire wants seconds;
    nobody thinks in seconds). :meth:`seconds` and :meth:`set_seconds` convert."""

    changed = Signal(int)  # seconds

    UNITS = (("hours", 3600), ("days", 86400))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.amount = QSpinBox(self)
        self.amount.setObjectName("charge-expiry")
        self.amount.setRange(1, 9999)
        self.unit = QComboBox(self)
        self.unit.setObjectName("charge-expiry-unit")
        self.unit.addItem(self.tr("hour(s)"), 3600)
        self.unit.addItem(self.tr("day(s)"), 86400)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.amount, 1)
        layout.addWidget(self.unit)
        self.amount.valueChanged.connect(lambda _value: self.changed.emit(self.seconds()))
        self.unit.currentIndexChanged.connect(lambda _index: self.changed.emit(self.seconds()))
        self.set_seconds(DEFAULT_EXPIRATION)

    def seconds(self) -> int:
        return int(self.amount.value()) * int(self.unit.currentData())

    # A spin box's names, for the places that read and set a number of seconds.
    def value(self) -> int:
        return self.seconds()

    def setValue(self, seconds: int) -> None:  # noqa: N802 - as QSpinBox
        self.set_seconds(seconds)

    def set_seconds(self, seconds: int) -> None:
        """Days when it is a whole number of days, else hours (rounded up: never shorter)."""
        if seconds % 86400 == 0:
            self.unit.setCurrentIndex(1)
            self.amount.setValue(seconds // 86400)
        else:
            self.unit.setCurrentIndex(0)
            self.amount.setValue(max(1, -(-seconds // 3600)))
