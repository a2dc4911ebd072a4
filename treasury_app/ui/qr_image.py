"""Read a Pix "copia e cola" payload from an image file of its QR Code (PNG, JPEG, ...).

Qt reads the image (no Pillow, no numpy): it is converted to 8-bit grayscale and its bytes,
with Qt's row stride, are handed to zxing-cpp as a luminance :class:`zxingcpp.ImageView`.
"""

from __future__ import annotations

import os

import zxingcpp
from PySide6.QtGui import QImage, QImageReader


class QrImageError(ValueError):
    """The file is not a readable image, or no QR Code could be read in it."""


def decode_qr_image(path: str | os.PathLike[str]) -> str:
    """The text of the first QR Code found in the image at ``path``.

    Raises :class:`QrImageError` when the file cannot be read as an image or holds no
    readable QR Code.
    """
    name = os.fspath(path)
    shown = os.path.basename(name) or name
    reader = QImageReader(name)
    reader.setAutoTransform(True)  # JPEG photos: honour the EXIF orientation
    image = reader.read()
    if image.isNull():
        raise QrImageError(
            f"{shown} could not be opened as an image ({reader.errorString()}). "
            "Choose a PNG or JPEG picture of the QR Code."
        )
    gray = image.convertToFormat(QImage.Format.Format_Grayscale8)
    if gray.isNull() or gray.width() == 0 or gray.height() == 0:
        raise QrImageError(f"{shown} could not be converted to grayscale for reading.")
    # Rows are padded to 4 bytes: pass Qt's stride rather than assume width == stride.
    view = zxingcpp.ImageView(
        memoryview(gray.constBits()),
        gray.width(),
        gray.height(),
        zxingcpp.ImageFormat.Lum,
        gray.bytesPerLine(),
        1,
    )
    barcodes = zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode)
    for barcode in barcodes:
        if barcode.text:
            return str(barcode.text)
    raise QrImageError(
        f"No QR Code was found in {shown}. Use a sharp, well-lit picture showing the whole code."
    )


__all__ = ["QrImageError", "decode_qr_image"]
