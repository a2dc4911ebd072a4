"""The receipt viewer: a payment receipt PDF shown from memory (no temporary file), with zoom,
page navigation, "Save as…", "Print…" and "Open folder" of the local archive."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QCoreApplication,
    QIODevice,
    QPointF,
    QRectF,
    QSize,
    QStandardPaths,
    Qt,
    QUrl,
)
from PySide6.QtGui import QColor, QDesktopServices, QImage, QKeySequence, QPainter
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app.ui.csv_files import file_error, save_file
from treasury_app.ui.receipt_names import MAX_NAME_LENGTH, suggested_receipt_name
from treasury_app.ui.screen_fit import resize_to_fit

__all__ = ["MAX_NAME_LENGTH", "ReceiptViewer", "open_receipt_viewer", "suggested_receipt_name"]

if TYPE_CHECKING:
    from treasury_app.ledger.journal import Entry
    from treasury_app.ledger.receipts import Receipt
from treasury_app.services.payees import registered_names
from treasury_app.services.tracker import PaymentTracker

ZOOM_STEP = 1.25
ZOOM_MIN = 0.25
ZOOM_MAX = 5.0
# Pages go to the printer as images: 300 dpi is sharp on paper, while the printer's own
# resolution (1200 dpi for PDF output) would make an A4 page a half-gigabyte image.
PRINT_DPI = 300


class ReceiptViewer(QDialog):
    """Shows ``pdf`` (bytes) in a :class:`QPdfView`. Bytes that are not a readable PDF show
    a message instead of the page; "Save as…" still writes them as they are."""

    def __init__(
        self,
        pdf: bytes,
        *,
        title: str,
        suggested_name: str,
        folder: Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("receipt-viewer")
        self.setWindowTitle(title)
        resize_to_fit(self, 720, 860)
        self.pdf = pdf
        self.suggested_name = suggested_name
        self.folder = folder
        self._printer: QPrinter | None = None
        self._dialogs: list[QDialog] = []  # the open file/print dialog, kept alive

        self.document = QPdfDocument(self)
        # Parented to the document: an unparented buffer, once garbage-collected, crashes the
        # process on the next page access.
        self._buffer = _buffer(pdf, self.document)

        self.view = QPdfView(self)
        self.view.setObjectName("receipt-view")
        self.view.setPageMode(QPdfView.PageMode.SinglePage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.view.setDocument(self.document)
        self.message = QLabel(self)
        self.message.setObjectName("receipt-message")
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.view)
        self.pages.addWidget(self.message)

        self.previous_button = self._button(self.tr("◀ Previous"), self.previous_page)
        self.previous_button.setShortcut(QKeySequence(Qt.Key.Key_PageUp))
        self.page_label = QLabel(self)
        self.page_label.setObjectName("receipt-page-label")
        self.next_button = self._button(self.tr("Next ▶"), self.next_page)
        self.next_button.setShortcut(QKeySequence(Qt.Key.Key_PageDown))
        self.zoom_out_button = self._button(self.tr("Zoom out"), self.zoom_out)
        self.zoom_out_button.setShortcut(QKeySequence.StandardKey.ZoomOut)
        self.zoom_in_button = self._button(self.tr("Zoom in"), self.zoom_in)
        self.zoom_in_button.setShortcut(QKeySequence.StandardKey.ZoomIn)
        self.fit_button = self._button(self.tr("Fit width"), self.fit_width)
        self.save_button = self._button(self.tr("Save as…"), self.choose_save_path)
        self.save_button.setShortcut(QKeySequence.StandardKey.Save)
        self.print_button = self._button(self.tr("Print…"), self.choose_printer)
        self.print_button.setShortcut(QKeySequence.StandardKey.Print)
        self.folder_button = self._button(self.tr("Open folder"), self.open_folder)
        self.folder_button.setEnabled(folder is not None)
        if folder is None:
            self.folder_button.setToolTip(self.tr("This receipt is not in the local archive."))
        self.status = QLabel(self)
        self.status.setObjectName("receipt-status")
        self.status.setWordWrap(True)

        navigation = QHBoxLayout()
        for widget in (self.previous_button, self.page_label, self.next_button):
            navigation.addWidget(widget)
        navigation.addStretch(1)
        for widget in (self.zoom_out_button, self.zoom_in_button, self.fit_button):
            navigation.addWidget(widget)
        actions = QHBoxLayout()
        for widget in (self.save_button, self.print_button, self.folder_button):
            actions.addWidget(widget)
        actions.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        actions.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(navigation)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.status)
        layout.addLayout(actions)

        self.warning = QLabel(self)
        self.warning.setObjectName("receipt-warning")
        self.warning.setWordWrap(True)
        self.warning.setProperty("role", "warning")
        self.warning.hide()
        layout.insertWidget(0, self.warning)

        self.view.pageNavigator().currentPageChanged.connect(self._update_navigation)
        self.document.statusChanged.connect(self._update_status)
        self.document.load(self._buffer)  # returns None: the outcome is in status()
        self._update_status()

    def _button(self, text: str, slot: Any) -> QPushButton:
        button = QPushButton(text, self)
        button.setAutoDefault(False)
        button.clicked.connect(lambda _checked=False: slot())
        return button

    # ---- state

    @property
    def loaded(self) -> bool:
        return self.document.status() == QPdfDocument.Status.Ready

    def page_count(self) -> int:
        return self.document.pageCount() if self.loaded else 0

    def current_page(self) -> int:
        return self.view.pageNavigator().currentPage()

    def _update_status(self, *_: object) -> None:
        status = self.document.status()
        if status == QPdfDocument.Status.Ready:
            self.pages.setCurrentWidget(self.view)
        elif status == QPdfDocument.Status.Error:
            self.message.setText(
                self.tr(
                    "This receipt cannot be shown: the file is not a readable PDF (%1). You can "
                    "still save it and open it in another program."
                ).replace("%1", self.document.error().name)
            )
            self.pages.setCurrentWidget(self.message)
        else:  # loading: a buffer loads at once, but a status change may still come
            self.message.setText(self.tr("Opening the receipt…"))
            self.pages.setCurrentWidget(self.message)
        for button in (self.zoom_in_button, self.zoom_out_button, self.fit_button):
            button.setEnabled(self.loaded)
        self.print_button.setEnabled(self.loaded)
        self._update_navigation()

    def _update_navigation(self, *_: object) -> None:
        count = self.page_count()
        page = self.current_page()
        self.previous_button.setEnabled(count > 0 and page > 0)
        self.next_button.setEnabled(page + 1 < count)
        self.page_label.setText(
            self.tr("Page %1 of %2").replace("%1", str(page + 1)).replace("%2", str(count))
            if count
            else ""
        )

    # ---- navigation and zoom

    def go_to_page(self, page: int) -> None:
        count = self.page_count()
        if count == 0:
            return
        page = min(max(page, 0), count - 1)
        self.view.pageNavigator().jump(page, QPointF(), self.view.pageNavigator().currentZoom())
        self._update_navigation()

    def next_page(self) -> None:
        self.go_to_page(self.current_page() + 1)

    def previous_page(self) -> None:
        self.go_to_page(self.current_page() - 1)

    def zoom_factor(self) -> float:
        return float(self.view.zoomFactor())

    def set_zoom(self, factor: float) -> None:
        self.view.setZoomMode(QPdfView.ZoomMode.Custom)
        self.view.setZoomFactor(min(max(factor, ZOOM_MIN), ZOOM_MAX))

    def zoom_in(self) -> None:
        self.set_zoom(self._shown_zoom() * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self._shown_zoom() / ZOOM_STEP)

    def fit_width(self) -> None:
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)

    def _shown_zoom(self) -> float:
        """The zoom the user sees: in "fit width" mode the page's width over the view's."""
        if self.view.zoomMode() == QPdfView.ZoomMode.Custom or not self.loaded:
            return self.zoom_factor()
        points = self.document.pagePointSize(self.current_page()).width()
        pixels = self.view.viewport().width() - 2 * self.view.documentMargins().left()
        dpi = self.view.logicalDpiX()
        return pixels / (points / 72 * dpi) if points > 0 and dpi > 0 else self.zoom_factor()

    # ---- save, print, folder

    def choose_save_path(self) -> QFileDialog:
        """Ask where to save (window-modal, without a nested event loop)."""
        start = Path(
            QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
            or Path.home()
        )
        dialog = QFileDialog(
            self, self.tr("Save receipt"), str(start / self.suggested_name), self.tr("PDF (*.pdf)")
        )
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("pdf")
        dialog.selectFile(self.suggested_name)
        dialog.fileSelected.connect(lambda path: self.save_to(Path(path)))
        self._keep_open(dialog)
        return dialog

    def save_to(self, path: Path) -> bool:
        """Write the receipt's bytes, unchanged, to ``path``; says the outcome in the dialog."""
        try:
            save_file(path, self.pdf)  # whole or not at all; a PDF open elsewhere is said so
        except OSError as error:
            self.status.setText(
                self.tr("The receipt was not saved: %1").replace(
                    "%1", file_error(error, path).message
                )
            )
            return False
        self.status.setText(self.tr("Saved to %1.").replace("%1", str(path)))
        return True

    def choose_printer(self) -> QPrintDialog:
        if self._printer is None:
            self._printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            self._printer.setDocName(self.suggested_name)
        printer = self._printer
        dialog = QPrintDialog(printer, self)
        dialog.setMinMax(1, max(self.page_count(), 1))
        dialog.accepted.connect(lambda: self.print_to(printer))
        self._keep_open(dialog)
        return dialog

    def print_to(self, printer: QPrinter) -> bool:
        """Print every page (or the range chosen in the print dialog), each scaled to fit the
        printable area; says the outcome in the dialog."""
        count = self.page_count()
        if count == 0:
            return False
        first, last = printer.fromPage(), printer.toPage()
        pages = range(first - 1, last) if first > 0 and last >= first else range(count)
        pages = range(max(pages.start, 0), min(pages.stop, count))
        painter = QPainter()
        if not painter.begin(printer):
            self.status.setText(self.tr("The printer could not be started."))
            return False
        try:
            area = printer.pageRect(QPrinter.Unit.DevicePixel)
            for index, page in enumerate(pages):
                if index and not printer.newPage():
                    raise OSError("newPage")
                self._paint_page(painter, page, area.width(), area.height(), printer.resolution())
        except OSError:
            self.status.setText(self.tr("Printing stopped: the printer refused a page."))
            return False
        finally:
            painter.end()
        self.status.setText(self.tr("Sent to the printer."))
        return True

    def _paint_page(
        self, painter: QPainter, page: int, width: float, height: float, resolution: int
    ) -> None:
        points = self.document.pagePointSize(page)
        if points.width() <= 0 or points.height() <= 0:
            return
        scale = min(width / points.width(), height / points.height())
        target = QRectF(0, 0, points.width() * scale, points.height() * scale)
        pixels_per_point = min(scale, PRINT_DPI / 72, resolution / 72)
        size = QSize(
            round(points.width() * pixels_per_point), round(points.height() * pixels_per_point)
        )
        painter.drawImage(target, on_white(self.document.render(page, size)))

    def open_folder(self) -> bool:
        if self.folder is None:
            return False
        return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.folder))))

    def _keep_open(self, dialog: QDialog) -> None:
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._dialogs.append(dialog)
        dialog.finished.connect(lambda _result: self._dialogs.remove(dialog))
        # QPrintDialog (and QFileDialog) expose only open(receiver, member) to Python, which
        # hides QDialog.open(): call the base class's, window-modal, no nested event loop.
        QDialog.open(dialog)


def _buffer(data: bytes, parent: QPdfDocument) -> QBuffer:
    buffer = QBuffer(parent)
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    return buffer


def on_white(image: QImage) -> QImage:
    """A rendered page has a transparent background: put it on white paper."""
    paper = QImage(image.size(), QImage.Format.Format_RGB32)
    paper.fill(QColor("white"))
    painter = QPainter(paper)
    painter.drawImage(0, 0, image)
    painter.end()
    return paper


def disputed_text(receipt: Receipt) -> str:
    """What a person is told of a receipt whose copies disagree (a team database)."""
    return (
        QCoreApplication.translate(
            "ReceiptViewer",
            "Check this receipt: %1 stored a receipt for this payment and the copy %2's "
            "computer fetched from the bank is different. The copy shown is %4. Tell the "
            "administrator: the audit log has both.",
        )
        .replace("%1", receipt.saved_by or "?")
        .replace("%2", receipt.disputed_by or "?")
        .replace(
            "%4",
            QCoreApplication.translate("ReceiptViewer", "the one this computer got from the bank")
            if receipt.sha256 == receipt.disputed_sha256
            else QCoreApplication.translate("ReceiptViewer", "the one stored first"),
        )
    )


async def open_receipt_viewer(
    tracker: PaymentTracker, entry: Entry, parent: QWidget | None
) -> ReceiptViewer:
    """Show the receipt of a settled payment: from the local archive, or fetched from the bank
    and archived first. Failures (:class:`ApiFailure`, :class:`ReceiptError`, no bank id yet)
    reach the caller, whose operation presents them."""
    receipt = await tracker.receipt(entry)
    pdf = await tracker.ledger.receipts.read(receipt)
    registered = await registered_names(tracker.ledger.payees, [entry.payee_detail])
    payee = (
        registered.get(entry.payee_detail)  # the payee the registry knows (issue 36)
        or entry.creditor_name
        or receipt.payee_name
        or entry.payee_name
        or entry.payee_detail
    )
    name = suggested_receipt_name(
        receipt.kind,
        receipt.paid_on or entry.updated_at,
        payee,
        receipt.amount if receipt.amount is not None else entry.amount,
    )
    title = QCoreApplication.translate("ReceiptViewer", "Receipt — %1").replace("%1", payee)
    viewer = ReceiptViewer(
        pdf, title=title, suggested_name=name, folder=receipt.path.parent, parent=parent
    )
    if receipt.disputed:
        viewer.warning.setText(disputed_text(receipt))
        viewer.warning.show()
    viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    viewer.open()
    return viewer
