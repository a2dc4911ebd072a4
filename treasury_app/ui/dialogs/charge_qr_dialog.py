"""The QR Code of a Pix charge (cob or cobv), as the payer will scan it: the symbol painted
from its modules, the "copia e cola" text with a Copy button, the charge's txid, amount and
deadline, and "Save as PNG…"/"Save as SVG…" for sending it on."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.cashin_models import CobGerada, CobVGerada
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import ChargeQr, charge_qr
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.theme import fixed_font
from treasury_app.ui.times import date_or_empty, deadline_text
from treasury_app.ui.user_errors import UserMessage
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.qr_code_view import QUIET_ZONE, QrCodeView

__all__ = ["QR_FORMATS", "ChargeQrDialog", "qr_file_bytes"]

QR_FORMATS = {".png": "png", ".svg": "svg"}
"""File suffix -> segno's ``kind``: the formats "Save as…" writes."""

_SAVE_SCALE = 10  # pixels (PNG) or user units (SVG) per module: prints well, scans well


def qr_file_bytes(qr: ChargeQr, kind: str) -> bytes:
    """The symbol as a ``png`` or ``svg`` file's bytes, with the standard quiet zone."""
    if kind not in QR_FORMATS.values():
        raise ValueError(f"Unknown QR Code file format: {kind!r}.")
    buffer = io.BytesIO()
    qr.symbol.save(buffer, kind=kind, scale=_SAVE_SCALE, border=QUIET_ZONE)
    return buffer.getvalue()


class ChargeQrDialog(QDialog):
    """Shows the QR Code of ``charge`` (as created, or read back with ``get_cob``/``get_cobv``).

    Raises :class:`~treasury_app.services.charges.ChargeQrError` when the charge has no usable
    payload. :meth:`save_qr` writes the file; the Save buttons ask for its name first.
    """

    def __init__(
        self,
        charge: CobGerada | CobVGerada,
        parent: QWidget | None = None,
        *,
        qr: ChargeQr | None = None,
    ) -> None:
        super().__init__(parent)
        self.charge = charge
        self.qr = qr if qr is not None else charge_qr(charge)
        self.file_dialog: QFileDialog | None = None
        self.setObjectName("charge-qr")
        self.setWindowTitle(self.tr("Pix charge %1").replace("%1", charge.txid))

        self.banner = ErrorBanner(self)
        self.view = QrCodeView(self)
        self.view.set_matrix(self.qr.matrix)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.view, 1)
        layout.addLayout(self._build_details())
        layout.addWidget(QLabel(self.tr("Pix Copia e Cola"), self))
        layout.addLayout(self._build_copy_row())
        self.status = QLabel(self)
        self.status.setObjectName("charge-qr-status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        layout.addLayout(self._build_buttons())
        resize_to_fit(self, 460, 680)

    # -- building --------------------------------------------------------------------------------

    def _build_details(self) -> QFormLayout:
        form = QFormLayout()
        self.txid_label = self._value_label("charge-qr-txid", self.charge.txid)
        self.amount_label = self._value_label(
            "charge-qr-amount", format_brl(self.charge.valor.original)
        )
        self.amount_label.setStyleSheet("font-size: 16pt; font-weight: bold;")
        deadline_title, deadline = self._deadline()
        self.deadline_label = self._value_label("charge-qr-deadline", deadline)
        form.addRow(self.tr("Transaction id (txid)"), self.txid_label)
        form.addRow(self.tr("Amount"), self.amount_label)
        form.addRow(deadline_title, self.deadline_label)
        if self.charge.devedor is not None and self.charge.devedor.nome:
            form.addRow(
                self.tr("Debtor"), self._value_label("charge-qr-debtor", self.charge.devedor.nome)
            )
        return form

    def _value_label(self, name: str, text: str) -> QLabel:
        label = QLabel(text, self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label

    def _deadline(self) -> tuple[str, str]:
        """("Expires", when) for a cob; ("Due date", date and days payable after) for a cobv."""
        calendario = self.charge.calendario
        if isinstance(self.charge, CobVGerada):
            due = self.charge.calendario.data_de_vencimento
            text = date_or_empty(due)
            after = self.charge.calendario.validade_apos_vencimento
            if after:
                text += " " + self.tr("(payable for %1 days after)").replace("%1", str(after))
            return self.tr("Due date"), text
        expiracao = getattr(calendario, "expiracao", None)
        criacao = calendario.criacao
        if criacao is None or expiracao is None:
            seconds = str(expiracao) if expiracao is not None else "?"
            return self.tr("Expires"), self.tr("%1 s after creation").replace("%1", seconds)
        return self.tr("Expires"), deadline_text(criacao + timedelta(seconds=expiracao))

    def _build_copy_row(self) -> QHBoxLayout:
        self.copy_paste = QPlainTextEdit(self.qr.pix_copia_e_cola, self)
        self.copy_paste.setObjectName("charge-qr-copia-e-cola")
        self.copy_paste.setReadOnly(True)
        self.copy_paste.setFont(fixed_font())
        self.copy_paste.setFixedHeight(self.copy_paste.fontMetrics().lineSpacing() * 4 + 12)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setObjectName("charge-qr-copy")
        self.copy_button.setToolTip(self.tr("Copy the Pix Copia e Cola text to the clipboard"))
        self.copy_button.clicked.connect(self.copy_text)
        row = QHBoxLayout()
        row.addWidget(self.copy_paste, 1)
        row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        return row

    def _build_buttons(self) -> QHBoxLayout:
        self.save_png_button = QPushButton(self.tr("Save as PNG…"), self)
        self.save_png_button.setObjectName("charge-qr-save-png")
        self.save_png_button.clicked.connect(lambda: self.ask_save_path("png"))
        self.save_svg_button = QPushButton(self.tr("Save as SVG…"), self)
        self.save_svg_button.setObjectName("charge-qr-save-svg")
        self.save_svg_button.clicked.connect(lambda: self.ask_save_path("svg"))
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.setObjectName("charge-qr-close")
        self.close_button.setDefault(True)
        self.close_button.clicked.connect(self.accept)
        row = QHBoxLayout()
        row.addWidget(self.save_png_button)
        row.addWidget(self.save_svg_button)
        row.addStretch(1)
        row.addWidget(self.close_button)
        return row

    # -- actions ---------------------------------------------------------------------------------

    def copy_text(self) -> None:
        """Put the Pix Copia e Cola text on the clipboard."""
        QGuiApplication.clipboard().setText(self.qr.pix_copia_e_cola)
        self.status.setText(self.tr("Pix Copia e Cola copied to the clipboard."))

    def save_qr(self, path: Path) -> Path:
        """Write the QR Code to ``path``, PNG or SVG by its suffix (:class:`UserMessage` for
        any other). Written beside it first, then renamed: never a half-written file."""
        path = Path(path)
        kind = QR_FORMATS.get(path.suffix.lower())
        if kind is None:
            raise UserMessage(
                self.tr("Choose a file name ending in .png or .svg (not %1).").replace(
                    "%1", path.suffix or path.name
                )
            )
        data = qr_file_bytes(self.qr, kind)
        partial = path.with_name(f".{path.name}.part")
        try:
            partial.write_bytes(data)
            partial.replace(path)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        return path

    def ask_save_path(self, kind: str) -> QFileDialog:
        """Open a (window-modal, non-blocking) file dialog; the chosen file is saved by
        :meth:`save_selected`."""
        title = (
            self.tr("Save the QR Code as PNG")
            if kind == "png"
            else self.tr("Save the QR Code as SVG")
        )
        name_filter = (
            self.tr("PNG image (*.png)") if kind == "png" else self.tr("SVG image (*.svg)")
        )
        dialog = QFileDialog(self, title, f"pix-{self.charge.txid}.{kind}", name_filter)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setDefaultSuffix(kind)
        dialog.fileSelected.connect(self.save_selected)
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def save_selected(self, name: str) -> Path | None:
        """The file dialog's slot: save, then say where (or why not) in the dialog."""
        if not name:
            return None
        try:
            saved = self.save_qr(Path(name))
        except (OSError, UserMessage) as error:
            self.banner.show_message(
                self.tr("Could not save the QR Code"), failure_words(error, file=name)
            )
            return None
        self.banner.clear()
        self.status.setText(self.tr("QR Code saved to %1").replace("%1", str(saved)))
        return saved
