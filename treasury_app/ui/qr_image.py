"""Read a Pix "copia e cola" payload from an image file of its QR Code (PNG, JPEG, ...).

Qt reads the image (no Pillow, no numpy): it is converted to 8-bit grayscale and its bytes,
with Qt's row stride, are handed to zxing-cpp as a luminance :class:`zxingcpp.ImageView`.
"""

from __future__ import annotations

import logging
import os

import zxingcpp
from PySide6.QtGui import QImage, QImageReader

from treasury_app.domain.errors import RuleError

log = logging.getLogger(__name__)


class QrImageError(RuleError):
    """The file is not a readable image, or no QR Code could be read in it: ``qr_image.*``
    with the ``file``'s name."""


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
        log.info("%s is not an image Qt reads: %s", shown, reader.errorString())
        raise QrImageError("qr_image.unreadable", file=shown)
    gray = image.convertToFormat(QImage.Format.Format_Grayscale8)
    if gray.isNull() or gray.width() == 0 or gray.height() == 0:
        raise QrImageError("qr_image.grayscale", file=shown)
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
    raise QrImageError("qr_image.no_code", file=shown)


__all__ = ["QrImageError", "decode_qr_image"]
