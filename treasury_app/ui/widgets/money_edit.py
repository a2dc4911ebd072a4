"""The amount field of every form: reads what a Brazilian types (``1.234,56``, ``1234.56``,
``R$ 1.234,56``) with :func:`~treasury_app.domain.money.parse_brl` and only ever holds a
``Decimal``, never a float."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import QLineEdit, QWidget

from treasury_app.domain.errors import MoneyError
from treasury_app.domain.money import format_brl, parse_brl
from treasury_app.ui.rule_words import rule_text

__all__ = ["PIX_MAXIMUM", "MoneyEdit"]

# A sensible cap for one Pix payment typed by hand; forms pass it as ``maximum``.
PIX_MAXIMUM = Decimal("1000000.00")

# The same red as the error banner's marks, so a local and a bank complaint look alike.
_INVALID_STYLE = "border: 1px solid #d93025;"


class MoneyEdit(QLineEdit):
    """A line edit for an amount in reais.

    :meth:`value` is the amount typed (a ``Decimal`` with 2 places) or ``None`` while the field
    is empty or its text is not a valid amount. Invalid text is never blocked: the field is
    marked instead (property ``invalid``, a red border and the reason as its tooltip), so a
    person can type ``1.`` on the way to ``1.234,56``. When editing finishes (Return or focus
    out) a valid amount is rewritten in the usual form ``1.234,56``.
    """

    value_changed = Signal(object)
    """The new :meth:`value` (``Decimal`` or ``None``), emitted only when it changes."""

    def __init__(self, parent: QWidget | None = None, *, maximum: Decimal | None = None) -> None:
        super().__init__(parent)
        self._maximum = _checked_maximum(maximum)
        self._value: Decimal | None = None
        self._error: str | None = None
        self._plain_tooltip = ""
        self.setPlaceholderText(self.tr("0,00"))
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setProperty("invalid", False)
        self.textChanged.connect(self._revalidate)
        self.editingFinished.connect(self._reformat)

    # ---------------------------------------------------------------------------------------
    # Public API

    def value(self) -> Decimal | None:
        """The amount typed, or ``None`` while the field is empty or invalid."""
        return self._value

    def set_value(self, value: Decimal | None) -> None:
        """Show ``value`` as ``1.234,56`` (``None`` clears the field).

        Raises ``TypeError`` for anything but a ``Decimal`` (floats included) and
        :class:`MoneyError` for negatives, NaN, more than 2 significant decimals or amounts
        beyond the domain's ``MAX_AMOUNT``. An amount above :meth:`maximum` is shown, marked
        invalid, so the person can correct it.
        """
        if value is None:
            self.clear()
            return
        if not isinstance(value, Decimal):
            raise TypeError(f"MoneyEdit.set_value expects Decimal or None, not {type(value)}")
        text = _plain(value)  # raises MoneyError for NaN and extra decimals
        if value < 0:
            raise MoneyError("money.negative")
        self.setText(text)

    def is_valid(self) -> bool:
        """Whether the field holds an amount (not empty, readable, within the maximum)."""
        return self._value is not None

    def is_empty(self) -> bool:
        return not self.text().strip()

    def error(self) -> str | None:
        """Why the current text is not an amount (``None`` when valid or empty)."""
        return self._error

    def maximum(self) -> Decimal | None:
        return self._maximum

    def set_maximum(self, maximum: Decimal | None) -> None:
        """Change the largest amount accepted (``None``: only the domain's own limit)."""
        self._maximum = _checked_maximum(maximum)
        self._revalidate(self.text())

    # ---------------------------------------------------------------------------------------
    # Qt overrides and slots

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt's name
        super().focusOutEvent(event)
        self._reformat()

    def _revalidate(self, text: str) -> None:
        value, error = self._read(text)
        self._show_error(error)
        if value != self._value:
            self._value = value
            self.value_changed.emit(value)

    def _read(self, text: str) -> tuple[Decimal | None, str | None]:
        if not text.strip():
            return None, None
        try:
            value = parse_brl(text)
        except MoneyError as exc:
            return None, rule_text(exc)
        if self._maximum is not None and value > self._maximum:
            message = self.tr("The amount is above the maximum of %1.")
            return None, message.replace("%1", format_brl(self._maximum))
        return value, None

    def _reformat(self) -> None:
        if self._value is None:
            return
        plain = _plain(self._value)
        if plain != self.text():
            # The value is the same, so this emits textChanged but not value_changed.
            self.setText(plain)

    def _show_error(self, error: str | None) -> None:
        if error == self._error:
            return
        if self._error is None:
            self._plain_tooltip = self.toolTip()
        self._error = error
        self.setProperty("invalid", error is not None)
        self.setToolTip(error if error is not None else self._plain_tooltip)
        self.setAccessibleDescription(error or "")
        self.setStyleSheet(_INVALID_STYLE if error is not None else "")


def _plain(value: Decimal) -> str:
    """``1.234,56``: the display form without the currency prefix."""
    return format_brl(value).removeprefix("R$ ")


def _checked_maximum(maximum: Decimal | None) -> Decimal | None:
    if maximum is None:
        return None
    if not isinstance(maximum, Decimal):
        raise TypeError(f"maximum must be a Decimal, not {type(maximum).__name__}")
    if not maximum.is_finite() or maximum <= 0:
        raise ValueError(f"maximum must be a positive amount, not {maximum}")
    format_brl(maximum)  # more than 2 places or beyond MAX_AMOUNT raise MoneyError here
    return maximum
