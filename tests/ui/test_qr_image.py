"""Reading a Pix code from a picture of its QR Code: the decoder alone, then the Pix tab."""

from __future__ import annotations

from decimal import Decimal

import pytest
import segno
from PySide6.QtGui import QColor, QImage

from treasury_app.domain import brcode
from treasury_app.domain.money import format_brl
from treasury_app.ui.qr_image import QrImageError, decode_qr_image
from treasury_app.ui.tabs.payouts_tab import PayoutsTab

SUPPLIER = "fornecedor.pix@empresa.com.br"


def _payload(amount: Decimal | None = Decimal("58.70")) -> str:
    return brcode.build(
        merchant_name="Padaria Pao Quente",
        merchant_city="Sao Paulo",
        key=SUPPLIER,
        amount=amount,
        txid="PEDIDO4711",
    )


def _qr_png(path, payload: str, **options):
    segno.make(payload, error="M").save(str(path), **({"scale": 8} | options))
    return path


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("big.png", {"scale": 8}),
        ("small-unaligned-rows.png", {"scale": 3, "border": 1}),  # stride != width
        ("code.jpg", {"scale": 6}),  # re-saved as JPEG below
    ],
)
def test_decodes_a_static_brcode_exactly(tmp_path, name, options) -> None:
    payload = _payload()
    target = tmp_path / name
    if target.suffix == ".jpg":
        png = _qr_png(tmp_path / "source.png", payload, **options)
        assert QImage(str(png)).save(str(target), "JPEG", 85)
    else:
        _qr_png(target, payload, **options)
    assert decode_qr_image(target) == payload
    assert decode_qr_image(str(target)) == payload
    assert brcode.parse(decode_qr_image(target)).amount == Decimal("58.70")


def test_an_image_without_a_qr_code(tmp_path) -> None:
    blank = tmp_path / "blank.png"
    image = QImage(300, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    assert image.save(str(blank))
    with pytest.raises(QrImageError) as error:
        decode_qr_image(blank)
    assert (error.value.code, dict(error.value.params)) == (
        "qr_image.no_code",
        {"file": "blank.png"},
    )


def test_a_file_that_is_not_an_image(tmp_path) -> None:
    text = tmp_path / "payload.png"
    text.write_text(_payload(), "utf-8")  # a text file, even with an image's name
    with pytest.raises(QrImageError) as error:
        decode_qr_image(text)
    assert error.value.code == "qr_image.unreadable"
    with pytest.raises(QrImageError) as error:
        decode_qr_image(tmp_path / "missing.png")
    assert (error.value.code, error.value.params["file"]) == ("qr_image.unreadable", "missing.png")
    assert issubclass(QrImageError, ValueError)


@pytest.fixture
def tab(qtbot, open_workspace):
    tab = PayoutsTab(open_workspace())
    qtbot.addWidget(tab)
    tab.show()
    qtbot.waitExposed(tab)
    yield tab
    tab.shutdown()


def test_load_qr_image_fills_the_payload_and_preview(tmp_path, tab) -> None:
    payload = _payload()
    assert tab.load_qr_image(_qr_png(tmp_path / "code.png", payload))

    assert tab.forms.currentIndex() == 1
    assert tab.qr_payload.toPlainText() == payload
    preview = tab.qr_preview.text()
    assert "Padaria Pao Quente" in preview and "PEDIDO4711" in preview
    assert format_brl(Decimal("58.70")) in preview
    assert not tab.qr_amount.isEnabled() and tab.qr_amount.value() == Decimal("58.70")
    assert tab.qr_review_button.isEnabled()
    assert tab.banner.isHidden()


def test_load_qr_image_errors_go_to_the_banner(tmp_path, tab) -> None:
    payload = _payload()
    tab.qr_payload.setPlainText(payload)
    not_an_image = tmp_path / "notes.txt"
    not_an_image.write_text("hello", "utf-8")

    assert not tab.load_qr_image(not_an_image)
    assert not tab.banner.isHidden()
    assert tab.banner.title.text() == "Could not read the QR Code"
    assert "notes.txt" in tab.banner.detail.text()
    assert tab.qr_payload.toPlainText() == payload  # left as it was

    blank = tmp_path / "blank.png"
    image = QImage(120, 120, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    assert image.save(str(blank))
    assert not tab.load_qr_image(blank)
    assert "No QR Code" in tab.banner.detail.text()


def test_open_image_button_opens_a_picker(qtbot, tmp_path, tab) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    tab.forms.setCurrentIndex(1)
    qtbot.mouseClick(tab.qr_image_button, Qt.MouseButton.LeftButton)
    picker = tab.qr_image_dialog
    assert picker is not None and picker.isVisible()
    assert picker.fileMode() == QFileDialog.FileMode.ExistingFile
    assert "*.png" in picker.nameFilters()[0]

    payload = _payload(amount=None)
    image = _qr_png(tmp_path / "code.png", payload)
    picker.setDirectory(str(tmp_path))
    picker.selectFile(str(image))
    picker.accept()  # what a double click on the file does
    assert not picker.isVisible()
    assert tab.qr_payload.toPlainText() == payload
    assert "No amount" in tab.qr_preview.text()
