"""The receipt viewer, with a real receipt from the sandbox bank: shown from memory, zoom,
pages, save, print, the archive folder, and a clear message for bytes that are not a PDF."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QIODevice, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPdfWriter
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPrintSupport import QPrintDialog, QPrinter

from tests.waiting import qt_wait_until
from treasury_app.ui.dialogs import receipt_viewer
from treasury_app.ui.dialogs.receipt_viewer import (
    ReceiptViewer,
    on_white,
    open_receipt_viewer,
    suggested_receipt_name,
)


@pytest.fixture
def sandbox_receipt(open_workspace, run):
    """A settled Pix's receipt, archived: (workspace, entry, receipt, pdf bytes)."""
    workspace = open_workspace()
    review = run(workspace.payouts.prepare_key("fornecedor@empresa.com.br", "12.34"))
    entry = run(workspace.payouts.send(review))
    run(workspace.session.accounts.transport.http.post("/sandbox/clock", json={"advance": 3.5}))
    run(workspace.tracker.poll_once())
    entry = run(workspace.ledger.journal.get(entry.id))
    receipt = run(workspace.tracker.receipt(entry))
    return workspace, entry, receipt, run(workspace.ledger.receipts.read(receipt))


@pytest.fixture
def viewer(qtbot, sandbox_receipt, tmp_path):
    *_, pdf = sandbox_receipt
    dialog = ReceiptViewer(pdf, title="Receipt", suggested_name="receipt.pdf", folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.resize(700, 800)
    dialog.show()
    return dialog


def non_white_pixels(image) -> int:
    white = QColor("white").rgb()
    return sum(
        image.pixel(x, y) != white
        for y in range(0, image.height(), 2)
        for x in range(0, image.width(), 2)
    )


def test_the_receipt_is_shown_from_memory(viewer) -> None:
    assert viewer.document.status() == QPdfDocument.Status.Ready
    assert viewer.page_count() >= 1
    assert viewer.pages.currentWidget() is viewer.view
    assert f"of {viewer.page_count()}" in viewer.page_label.text()
    assert viewer.page_label.text().startswith("Page 1 ")
    page = on_white(viewer.document.render(0, QSize(300, 420)))
    assert non_white_pixels(page) > 50


def test_zoom_in_out_and_fit_width(viewer) -> None:
    viewer.set_zoom(1.0)
    viewer.zoom_in()
    assert viewer.zoom_factor() == pytest.approx(1.25)
    viewer.zoom_out()
    viewer.zoom_out()
    assert viewer.zoom_factor() == pytest.approx(0.8)
    for _ in range(20):
        viewer.zoom_out()
    assert viewer.zoom_factor() == pytest.approx(receipt_viewer.ZOOM_MIN)
    viewer.fit_width()
    assert viewer.view.zoomMode() == viewer.view.ZoomMode.FitToWidth
    viewer.zoom_in()  # from what "fit width" shows, not from the last custom factor
    assert viewer.view.zoomMode() == viewer.view.ZoomMode.Custom
    assert viewer.zoom_factor() > receipt_viewer.ZOOM_MIN * receipt_viewer.ZOOM_STEP


def test_navigation_stays_within_the_pages(viewer) -> None:
    count = viewer.page_count()
    assert not viewer.previous_button.isEnabled()
    viewer.previous_page()
    assert viewer.current_page() == 0
    for _ in range(count + 2):
        viewer.next_page()
    assert viewer.current_page() == count - 1
    assert not viewer.next_button.isEnabled()
    assert viewer.page_label.text().startswith(f"Page {count} ")
    viewer.go_to_page(-5)
    assert viewer.current_page() == 0


def three_pages() -> bytes:
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    painter = QPainter(writer)
    for page in range(3):
        if page:
            writer.newPage()
        painter.drawText(200, 200, f"page {page + 1}")
    painter.end()
    return bytes(buffer.data().data())


def test_navigation_through_several_pages(qtbot) -> None:
    dialog = ReceiptViewer(three_pages(), title="Three", suggested_name="three.pdf")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.page_label.text() == "Page 1 of 3"
    dialog.next_button.click()
    assert dialog.current_page() == 1
    assert dialog.page_label.text() == "Page 2 of 3"
    assert dialog.previous_button.isEnabled() and dialog.next_button.isEnabled()
    dialog.next_page()
    dialog.next_page()
    assert dialog.page_label.text() == "Page 3 of 3"
    assert not dialog.next_button.isEnabled()
    dialog.previous_button.click()
    assert dialog.current_page() == 1


def test_save_writes_the_same_bytes(viewer, sandbox_receipt, tmp_path) -> None:
    *_, pdf = sandbox_receipt
    target = tmp_path / "saved.pdf"
    assert viewer.save_to(target)
    assert target.read_bytes() == pdf
    assert str(target) in viewer.status.text()
    assert not viewer.save_to(tmp_path / "missing" / "dir" / "x.pdf")
    assert "not saved" in viewer.status.text()


def test_save_as_offers_the_suggested_name(viewer) -> None:
    dialog = viewer.choose_save_path()
    try:
        assert dialog.isVisible()
        assert dialog.defaultSuffix() == "pdf"
        assert Path(dialog.selectedFiles()[0]).name == "receipt.pdf"
    finally:
        dialog.reject()


def test_print_to_a_pdf_file(viewer, tmp_path) -> None:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)  # as "Print…" makes it
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    output = tmp_path / "printed.pdf"
    printer.setOutputFileName(str(output))
    assert viewer.print_to(printer)
    data = output.read_bytes()
    assert data.startswith(b"%PDF")
    printed = QPdfDocument(None)
    printed.load(str(output))
    assert printed.status() == QPdfDocument.Status.Ready
    assert printed.pageCount() == viewer.page_count()
    page = on_white(printed.render(0, QSize(300, 420)))
    assert non_white_pixels(page) > 50
    printed.close()


def test_the_print_button_opens_the_print_dialog_and_prints(qtbot, viewer, tmp_path) -> None:
    """Print… shows the print dialog (it did nothing before: QPrintDialog.open() needs its
    base class's call from Python); accepting it prints every page."""
    # No printer on a test machine: the viewer's printer prints to a file (set before the
    # dialog opens, as the dialog's "Print to file" would).
    output = tmp_path / "from-dialog.pdf"
    viewer._printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    viewer._printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    viewer._printer.setOutputFileName(str(output))
    qtbot.mouseClick(viewer.print_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: any(isinstance(d, QPrintDialog) for d in viewer._dialogs),
        "any(isinstance(d, QPrintDialog) for d in viewer._dialogs)",
    )
    dialog = next(d for d in viewer._dialogs if isinstance(d, QPrintDialog))
    assert dialog.isVisible()
    assert dialog.minPage() == 1 and dialog.maxPage() == viewer.page_count()
    assert dialog.printer() is viewer._printer
    dialog.accept()
    qt_wait_until(
        qtbot,
        lambda: viewer.status.text() == "Sent to the printer.",
        'viewer.status.text() == "Sent to the printer."',
    )
    assert output.read_bytes().startswith(b"%PDF")
    assert viewer._dialogs == []


def test_open_folder(viewer, monkeypatch, tmp_path) -> None:
    opened = []

    class FakeDesktop:
        @staticmethod
        def openUrl(url):
            opened.append(url.toLocalFile())
            return True

    monkeypatch.setattr(receipt_viewer, "QDesktopServices", FakeDesktop)
    assert viewer.folder_button.isEnabled()
    viewer.folder_button.click()
    assert opened == [str(tmp_path)]


def test_invalid_bytes_give_a_message(qtbot, tmp_path) -> None:
    dialog = ReceiptViewer(b"not a pdf at all", title="Receipt", suggested_name="r.pdf")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.document.status() == QPdfDocument.Status.Error
    assert dialog.pages.currentWidget() is dialog.message
    assert "not a readable PDF" in dialog.message.text()
    assert dialog.page_count() == 0
    assert dialog.page_label.text() == ""
    for button in (dialog.print_button, dialog.zoom_in_button, dialog.next_button):
        assert not button.isEnabled()
    assert not dialog.folder_button.isEnabled()  # no archive folder given
    assert not dialog.open_folder()
    dialog.next_page()
    dialog.zoom_in()
    printer = QPrinter()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "nothing.pdf"))
    assert not dialog.print_to(printer)
    assert dialog.save_to(tmp_path / "raw.bin")  # the bytes can still be kept as they are


def test_open_receipt_viewer_from_the_archive(qtbot, run, sandbox_receipt) -> None:
    workspace, entry, receipt, pdf = sandbox_receipt
    viewer = run(open_receipt_viewer(workspace.tracker, entry, None))
    qtbot.addWidget(viewer)
    assert viewer.isVisible()
    assert viewer.pdf == pdf
    assert viewer.folder == receipt.path.parent
    assert viewer.suggested_name.startswith("comprovante-pix-")
    assert viewer.suggested_name.endswith("-R$12,34.pdf")
    assert viewer.loaded
    assert viewer.warning.isHidden()  # nobody disputes it
    viewer.close()


def test_a_disputed_receipt_says_so_and_whose_copy_it_shows(
    qtbot, run, sandbox_receipt, monkeypatch
) -> None:
    """A team database: max stored a receipt and bruno's computer got other bytes from the
    bank; the viewer names both and says which copy it shows."""
    workspace, entry, receipt, pdf = sandbox_receipt
    disputed = replace(receipt, saved_by="max", disputed_by="bruno", disputed_sha256=receipt.sha256)

    async def the_disputed(_entry):
        return disputed

    monkeypatch.setattr(workspace.tracker, "receipt", the_disputed)
    viewer = run(open_receipt_viewer(workspace.tracker, entry, None))
    qtbot.addWidget(viewer)
    assert viewer.pdf == pdf and not viewer.warning.isHidden()
    text = viewer.warning.text()
    assert "max stored a receipt" in text and "bruno's computer" in text
    assert "the one this computer got from the bank" in text
    viewer.close()
    first = replace(disputed, disputed_sha256="0" * 64)
    assert "the one stored first" in receipt_viewer.disputed_text(first)


@pytest.mark.parametrize(
    ("kind", "paid_on", "payee", "amount", "expected"),
    [
        (
            "PIX",
            "2026-11-18",
            "Fornecedor Ltda",
            Decimal("1234.56"),
            "comprovante-pix-2026-11-18-fornecedor-ltda-R$1234,56.pdf",
        ),
        (
            "BILLET",
            date(2026, 1, 2),
            "Águas & Energia S/A — São João",
            Decimal("10"),
            "comprovante-boleto-2026-01-02-aguas-energia-s-a-sao-joao-R$10,00.pdf",
        ),
        (
            "PIX",
            "2026-11-18T13:00:03Z",
            "../../etc/passwd",
            Decimal("0.5"),
            "comprovante-pix-2026-11-18-etc-passwd-R$0,50.pdf",
        ),
        ("PIX", "2026-11-18", "", Decimal("1"), "comprovante-pix-2026-11-18-R$1,00.pdf"),
    ],
)
def test_suggested_receipt_name(kind, paid_on, payee, amount, expected) -> None:
    assert suggested_receipt_name(kind, paid_on, payee, amount) == expected


def test_suggested_receipt_name_is_short_and_safe() -> None:
    name = suggested_receipt_name("PIX", "2026-11-18", "Empresa " * 40, Decimal("987654.32"))
    assert len(name) <= receipt_viewer.MAX_NAME_LENGTH
    assert name.startswith("comprovante-pix-2026-11-18-empresa-")
    assert name.endswith("-R$987654,32.pdf")
    assert "--" not in name
    assert "/" not in name and "\\" not in name
    assert name.isascii()
