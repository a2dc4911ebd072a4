"""The Pix key field: a line edit with a small label under it that says, as the person types,
which kind of key it is (CPF, CNPJ, e-mail, phone, random key) or why it is not one yet."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QVBoxLayout, QWidget

from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DocumentError, PixKeyError
from treasury_app.domain.pixkey import KeyType, detect_key_type, normalize_key
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style

__all__ = ["PixKeyEdit"]

_INVALID_STYLE = "border: 1px solid #d93025;"
_LABEL_STYLE = "font-size: 9pt; color: palette(mid);"


class PixKeyEdit(QWidget):
    """A Pix key field. The typed text is never rewritten; :meth:`key` is its normalised form
    (``+5511987654321``, lower-case e-mail, bare CPF/CNPJ, lower-case UUID) or ``None``.

    The label under the field names the detected type; a CPF or CNPJ is shown there with
    :func:`mask_document` so the person can check it. While the text is not a valid key the
    label gives the reason and the widget's ``invalid`` property is set (an empty field is
    neither valid nor marked invalid).
    """

    changed = Signal()
    """Emitted after every change of the text, once :meth:`key` and :meth:`key_type` match it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key: str | None = None
        self._key_type: KeyType | None = None
        self._error: str | None = None

        self.line_edit = QLineEdit(self)
        self.line_edit.setObjectName("pix-key-input")
        self.line_edit.setPlaceholderText(self.tr("CPF, CNPJ, e-mail, phone (+55…) or random key"))
        self.line_edit.setClearButtonEnabled(True)
        self.type_label = QLabel(self)
        self.type_label.setObjectName("pix-key-type")
        self.type_label.setWordWrap(True)
        self.type_label.setStyleSheet(_LABEL_STYLE)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.line_edit)
        layout.addWidget(self.type_label)
        self.setFocusProxy(self.line_edit)
        self.setProperty("invalid", False)

        self.line_edit.textChanged.connect(self._on_text_changed)

    # ---------------------------------------------------------------------------------------
    # Public API

    def key(self) -> str | None:
        """The key normalised for the API (``normalize_key``), or ``None`` if not valid."""
        return self._key

    def key_type(self) -> KeyType | None:
        """The detected key type, or ``None`` while the text is empty or not a valid key."""
        return self._key_type

    def is_valid(self) -> bool:
        return self._key is not None

    def error(self) -> str | None:
        """Why the text is not a valid key (``None`` when valid or empty)."""
        return self._error

    def text(self) -> str:
        """The text exactly as typed."""
        return self.line_edit.text()

    def set_text(self, text: str) -> None:
        self.line_edit.setText(text)

    def clear(self) -> None:
        self.line_edit.clear()

    # ---------------------------------------------------------------------------------------

    def _on_text_changed(self, text: str) -> None:
        self._key, self._key_type, self._error = _read_key(text)
        self._show_state()
        self.changed.emit()

    def _show_state(self) -> None:
        invalid = self._error is not None
        if self._key is not None and self._key_type is not None:
            self.type_label.setText(self._describe(self._key, self._key_type))
        else:
            # Domain messages are English sentences; translated when the .ts carries them.
            self.type_label.setText(self.tr(self._error) if self._error else "")
        self.type_label.setStyleSheet(
            f"font-size: 9pt; {text_style('error', self)}" if invalid else _LABEL_STYLE
        )
        if bool(self.property("invalid")) != invalid:
            self.setProperty("invalid", invalid)
            self.line_edit.setProperty("invalid", invalid)
            self.line_edit.setStyleSheet(_INVALID_STYLE if invalid else "")
        self.line_edit.setAccessibleDescription(self.type_label.text())

    def _describe(self, key: str, key_type: KeyType) -> str:
        match key_type:
            case KeyType.CPF:
                return self.tr("CPF %1").replace("%1", _masked(key))
            case KeyType.CNPJ:
                return self.tr("CNPJ %1").replace("%1", _masked(key))
            case KeyType.EMAIL:
                return self.tr("E-mail")
            case KeyType.PHONE:
                return self.tr("Phone")
            case KeyType.EVP:
                return self.tr("Random key")
        return str(key_type)


def _read_key(text: str) -> tuple[str | None, KeyType | None, str | None]:
    """(normalised key, type, None) for a valid key, (None, None, reason) for an invalid one,
    all ``None`` for an empty text."""
    if not text.strip():
        return None, None, None
    try:
        key_type = detect_key_type(text)
        return normalize_key(text, key_type), key_type, None
    except PixKeyError as exc:
        return None, None, rule_text(exc)


def _masked(document: str) -> str:
    try:
        return mask_document(document)
    except DocumentError:  # cannot happen for a key detect_key_type accepted
        return ""
