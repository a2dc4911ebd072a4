"""Minimal, dependency-free PDF 1.4 writer for sandbox bank payment receipts.

Uses the standard 14 Helvetica fonts with WinAnsiEncoding; the output is deterministic.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

__all__ = ["render_receipt"]

# --------------------------------------------------------------------------- page geometry

PAGE_WIDTH = 595
PAGE_HEIGHT = 842
MARGIN = 50
CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN

HEADER_HEIGHT = 64
BRAND = "Sandbox Bank"
BRAND_SIZE = 18.0
HEADER_COLOR = (0.0, 0.36, 0.4)  # dark teal

TITLE_SIZE = 16.0
TITLE_LEADING = 20.0
TITLE_MAX_LINES = 2
SUBTITLE_SIZE = 11.0
SUBTITLE_LEADING = 14.0
SUBTITLE_MAX_LINES = 2

LABEL_SIZE = 10.0
LABEL_LEADING = 12.5
LABEL_WIDTH = 180.0
LABEL_MAX_LINES = 4
VALUE_SIZE = 11.0
VALUE_LEADING = 14.0
VALUE_X = MARGIN + LABEL_WIDTH + 15.0
VALUE_WIDTH = PAGE_WIDTH - MARGIN - VALUE_X
VALUE_MAX_LINES = 8
ROW_PADDING = 7.0
ROW_ASCENT = 9.0
ROW_DESCENT = 3.0

FOOTER_SIZE = 8.0
FOOTER_LEADING = 10.0
FOOTER_MAX_LINES = 4
FOOTER_BASELINE = 40.0
PAGE_NUMBER_BASELINE = 24.0

TEXT_BLACK = 0.0
TEXT_GREY = 0.4
SUBTITLE_GREY = 0.35
FOOTER_GREY = 0.45
RULE_GREY = 0.82

REGULAR = "F1"
BOLD = "F2"
_BASE_FONTS = {REGULAR: "Helvetica", BOLD: "Helvetica-Bold"}

ELLIPSIS = b"\x85"  # "…" in WinAnsiEncoding / cp1252

# --------------------------------------------------------------------------- font metrics

# Advance widths (1/1000 em) of the printable ASCII characters 32..126 (Adobe AFM files).
_HELVETICA_ASCII = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)  # fmt: skip
_HELVETICA_BOLD_ASCII = (
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
)  # fmt: skip

# Non-ASCII WinAnsi glyphs that are not simply an accented ASCII letter: (regular, bold).
_EXTRA_WIDTHS: dict[str, tuple[int, int]] = {
    "€": (556, 556), "‚": (222, 278), "ƒ": (556, 556), "„": (333, 500), "…": (1000, 1000),
    "†": (556, 556), "‡": (556, 556), "ˆ": (333, 333), "‰": (1000, 1000), "‹": (333, 333),
    "Œ": (1000, 1000), "‘": (222, 278), "’": (222, 278), "“": (333, 500), "”": (333, 500),
    "•": (350, 350), "–": (556, 556), "—": (1000, 1000), "˜": (333, 333), "™": (1000, 1000),
    "›": (333, 333), "œ": (944, 944), "\xa0": (278, 278), "¡": (333, 333), "¢": (556, 556),
    "£": (556, 556), "¤": (556, 556), "¥": (556, 556), "¦": (260, 280), "§": (556, 556),
    "¨": (333, 333), "©": (737, 737), "ª": (370, 370), "«": (556, 556), "¬": (584, 584),
    "\xad": (333, 333), "®": (737, 737), "¯": (333, 333), "°": (400, 400), "±": (584, 584),
    "²": (333, 333), "³": (333, 333), "´": (333, 333), "µ": (556, 611), "¶": (537, 556),
    "·": (278, 278), "¸": (333, 333), "¹": (333, 333), "º": (365, 365), "»": (556, 556),
    "¼": (834, 834), "½": (834, 834), "¾": (834, 834), "¿": (611, 611), "Æ": (1000, 1000),
    "Ð": (722, 722), "×": (584, 584), "Ø": (778, 778), "Þ": (667, 667), "ß": (611, 611),
    "æ": (889, 889), "ð": (556, 611), "÷": (584, 584), "ø": (611, 611), "þ": (556, 611),
    "ì": (278, 278), "í": (278, 278), "î": (278, 278), "ï": (278, 278),
}  # fmt: skip
_UNKNOWN_WIDTH = 1000  # conservative: never underestimate a glyph we have no metrics for


def _build_width_table(ascii_widths: Sequence[int], column: int) -> tuple[int, ...]:
    table = [_UNKNOWN_WIDTH] * 256
    for code, width in enumerate(ascii_widths, start=32):
        table[code] = width
    for code in range(128, 256):
        try:
            char = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            continue
        if char in _EXTRA_WIDTHS:
            table[code] = _EXTRA_WIDTHS[char][column]
            continue
        base = unicodedata.normalize("NFD", char)[0]
        if " " < base < "\x7f":
            table[code] = ascii_widths[ord(base) - 32]
    return tuple(table)


_WIDTHS: dict[str, tuple[int, ...]] = {
    REGULAR: _build_width_table(_HELVETICA_ASCII, 0),
    BOLD: _build_width_table(_HELVETICA_BOLD_ASCII, 1),
}


def _text_width(text: bytes, font: str, size: float) -> float:
    """Width in points of cp1252-encoded ``text`` set in ``font`` at ``size``."""
    widths = _WIDTHS[font]
    return sum(widths[byte] for byte in text) * size / 1000.0


# --------------------------------------------------------------------------- text handling


def _encode(text: str) -> bytes:
    """Encode to WinAnsi (cp1252); control characters become spaces, the rest '?'."""
    cleaned = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text)
    return cleaned.encode("cp1252", errors="replace")


def _split_word(word: bytes, font: str, size: float, max_width: float) -> list[bytes]:
    """Break a single word that is wider than ``max_width`` into fitting chunks."""
    chunks: list[bytes] = []
    while word and _text_width(word, font, size) > max_width:
        cut = 1
        while cut < len(word) and _text_width(word[: cut + 1], font, size) <= max_width:
            cut += 1
        chunks.append(word[:cut])
        word = word[cut:]
    if word:
        chunks.append(word)
    return chunks


def _truncate(line: bytes, font: str, size: float, max_width: float) -> bytes:
    """Shorten ``line`` so that it plus an ellipsis fits in ``max_width``."""
    line = line.rstrip()
    while line and _text_width(line + ELLIPSIS, font, size) > max_width:
        line = line[:-1].rstrip()
    return line + ELLIPSIS


def _wrap(text: str, font: str, size: float, max_width: float, max_lines: int) -> list[bytes]:
    """Word-wrap ``text`` (newlines honoured) into at most ``max_lines`` encoded lines.

    Overlong text is cut and its last line ends with an ellipsis.
    """
    lines: list[bytes] = []
    for paragraph in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        current = b""
        for word in _encode(paragraph).split():
            candidate = current + b" " + word if current else word
            if _text_width(candidate, font, size) <= max_width:
                current = candidate
                continue
            if current:
                lines.append(current)
            pieces = _split_word(word, font, size, max_width)
            lines.extend(pieces[:-1])
            current = pieces[-1]
        lines.append(current)
    while len(lines) > 1 and not lines[-1]:
        lines.pop()
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = _truncate(lines[-1], font, size, max_width)
    return lines


def _pdf_string(text: bytes) -> bytes:
    """A PDF literal string; non-ASCII bytes are octal-escaped so streams stay 7-bit."""
    out = bytearray(b"(")
    for byte in text:
        if byte in b"\\()":
            out += b"\\" + bytes([byte])
        elif 32 <= byte < 127:
            out.append(byte)
        else:
            out += b"\\%03o" % byte
    out += b")"
    return bytes(out)


def _text_string(text: str) -> bytes:
    """A PDF text string for the document information dictionary (UTF-16BE with BOM)."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def _num(value: float) -> bytes:
    """Compact, deterministic number formatting for content streams."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return ("0" if text in ("", "-0") else text).encode("ascii")


def _pdf_date(moment: datetime) -> bytes:
    """Format a datetime as a PDF date string ``(D:YYYYMMDDHHmmSS+HH'mm')``."""
    text = moment.strftime("D:%Y%m%d%H%M%S")
    offset = moment.utcoffset()
    if offset is not None:
        if offset == timedelta(0):
            text += "Z"
        else:
            sign = "+" if offset > timedelta(0) else "-"
            minutes = abs(int(offset.total_seconds())) // 60
            text += f"{sign}{minutes // 60:02d}'{minutes % 60:02d}'"
    return b"(" + text.encode("ascii") + b")"


# --------------------------------------------------------------------------- drawing


@dataclass
class _Canvas:
    """Accumulates the content stream operators of one page."""

    ops: list[bytes] = field(default_factory=list)

    def text(self, x: float, y: float, line: bytes, font: str, size: float, grey: float) -> None:
        self.ops.append(
            b"BT /%s %s Tf %s g %s %s Td %s Tj ET"
            % (
                font.encode("ascii"),
                _num(size),
                _num(grey),
                _num(x),
                _num(y),
                _pdf_string(line),
            )
        )

    def text_right(
        self, right: float, y: float, line: bytes, font: str, size: float, grey: float
    ) -> None:
        self.text(right - _text_width(line, font, size), y, line, font, size, grey)

    def rule(self, x1: float, x2: float, y: float, grey: float, width: float = 0.5) -> None:
        self.ops.append(
            b"%s G %s w %s %s m %s %s l S"
            % (_num(grey), _num(width), _num(x1), _num(y), _num(x2), _num(y))
        )

    def band(self, y: float, height: float, rgb: tuple[float, float, float]) -> None:
        r, g, b = (_num(c) for c in rgb)
        self.ops.append(
            b"%s %s %s rg 0 %s %s %s re f" % (r, g, b, _num(y), _num(PAGE_WIDTH), _num(height))
        )

    def stream(self) -> bytes:
        return b"\n".join(self.ops)


@dataclass(frozen=True)
class _Row:
    label: list[bytes]
    value: list[bytes]
    height: float


def _layout_row(label: str, value: str) -> _Row:
    label_lines = _wrap(label, REGULAR, LABEL_SIZE, LABEL_WIDTH, LABEL_MAX_LINES)
    value_lines = _wrap(value, BOLD, VALUE_SIZE, VALUE_WIDTH, VALUE_MAX_LINES)
    extra = max((len(label_lines) - 1) * LABEL_LEADING, (len(value_lines) - 1) * VALUE_LEADING)
    height = 2 * ROW_PADDING + ROW_ASCENT + ROW_DESCENT + extra
    return _Row(label_lines, value_lines, height)


def _draw_header(canvas: _Canvas, title: list[bytes], subtitle: list[bytes]) -> float:
    """Draw the brand band, title and subtitle; return the y where the table starts."""
    band_bottom = PAGE_HEIGHT - HEADER_HEIGHT
    canvas.band(band_bottom, HEADER_HEIGHT, HEADER_COLOR)
    canvas.text(MARGIN, band_bottom + 24, _encode(BRAND), BOLD, BRAND_SIZE, 1.0)

    y: float = band_bottom - 40
    for line in title:
        canvas.text(MARGIN, y, line, BOLD, TITLE_SIZE, TEXT_BLACK)
        y -= TITLE_LEADING
    if subtitle:
        y += TITLE_LEADING - SUBTITLE_LEADING - 4
        for line in subtitle:
            canvas.text(MARGIN, y, line, REGULAR, SUBTITLE_SIZE, SUBTITLE_GREY)
            y -= SUBTITLE_LEADING
    top = y + 4
    canvas.rule(MARGIN, PAGE_WIDTH - MARGIN, top, RULE_GREY, 0.75)
    return top


def _draw_row(canvas: _Canvas, row: _Row, top: float) -> float:
    """Draw one label/value row below ``top``; return the row's bottom y."""
    baseline = top - ROW_PADDING - ROW_ASCENT
    for index, line in enumerate(row.label):
        canvas.text(MARGIN, baseline - index * LABEL_LEADING, line, REGULAR, LABEL_SIZE, TEXT_GREY)
    for index, line in enumerate(row.value):
        canvas.text(VALUE_X, baseline - index * VALUE_LEADING, line, BOLD, VALUE_SIZE, TEXT_BLACK)
    bottom = top - row.height
    canvas.rule(MARGIN, PAGE_WIDTH - MARGIN, bottom, RULE_GREY)
    return bottom


def _draw_footer(canvas: _Canvas, footer: list[bytes], page: int, pages: int) -> None:
    for index, line in enumerate(footer):
        y = FOOTER_BASELINE + (len(footer) - 1 - index) * FOOTER_LEADING
        canvas.text(MARGIN, y, line, REGULAR, FOOTER_SIZE, FOOTER_GREY)
    if pages > 1:
        label = _encode(f"Página {page} de {pages}")
        canvas.text_right(
            PAGE_WIDTH - MARGIN, PAGE_NUMBER_BASELINE, label, REGULAR, FOOTER_SIZE, FOOTER_GREY
        )


def _paginate(rows: list[_Row], table_top: float, table_bottom: float) -> list[list[_Row]]:
    pages: list[list[_Row]] = [[]]
    y = table_top
    for row in rows:
        if pages[-1] and y - row.height < table_bottom:
            pages.append([])
            y = table_top
        pages[-1].append(row)
        y -= row.height
    return pages


# --------------------------------------------------------------------------- file assembly


def _serialize(objects: list[bytes], info_number: int) -> bytes:
    """Join numbered objects (1..n) into a PDF file with an exact cross-reference table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    file_id = hashlib.sha256(bytes(out)).hexdigest()[:32].upper().encode("ascii")
    xref_offset = len(out)
    size = len(objects) + 1
    out += b"xref\n0 %d\n" % size
    out += b"0000000000 65535 f\r\n"
    for offset in offsets:
        out += b"%010d 00000 n\r\n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R /ID [<%s> <%s>] >>\n" % (
        size,
        info_number,
        file_id,
        file_id,
    )
    out += b"startxref\n%d\n%%%%EOF\n" % xref_offset
    return bytes(out)


def render_receipt(
    title: str,
    rows: Sequence[tuple[str, str]],
    *,
    footer: str = "",
    subtitle: str = "",
    created: datetime | None = None,
) -> bytes:
    """Render a payment receipt as an A4 PDF 1.4 document and return its bytes.

    ``rows`` are (label, value) pairs laid out as a two-column table that continues on
    further pages when needed.  ``created`` becomes the /CreationDate; without it the
    date is omitted so that identical inputs always give identical bytes.
    """
    title_lines = _wrap(title, BOLD, TITLE_SIZE, CONTENT_WIDTH, TITLE_MAX_LINES)
    subtitle_lines = (
        _wrap(subtitle, REGULAR, SUBTITLE_SIZE, CONTENT_WIDTH, SUBTITLE_MAX_LINES)
        if subtitle.strip()
        else []
    )
    footer_lines = (
        _wrap(footer, REGULAR, FOOTER_SIZE, CONTENT_WIDTH, FOOTER_MAX_LINES)
        if footer.strip()
        else []
    )
    laid_out = [_layout_row(label, value) for label, value in rows]

    footer_top = FOOTER_BASELINE + FOOTER_SIZE + (len(footer_lines) - 1) * FOOTER_LEADING
    table_bottom = footer_top + 16 if footer_lines else FOOTER_BASELINE + 12
    table_top = _draw_header(_Canvas(), title_lines, subtitle_lines)  # same on every page
    pages = _paginate(laid_out, table_top, table_bottom)

    fonts = {name: 3 + index for index, name in enumerate(_BASE_FONTS)}
    info_number = 3 + len(fonts)
    first_page = info_number + 1
    page_numbers = [first_page + 2 * index for index in range(len(pages))]

    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % n for n in page_numbers), len(pages)),
    ]
    for name, base in _BASE_FONTS.items():
        objects.append(
            b"<< /Type /Font /Subtype /Type1 /Name /%s /BaseFont /%s"
            b" /Encoding /WinAnsiEncoding >>" % (name.encode("ascii"), base.encode("ascii"))
        )
    info = b"<< /Title %s /Producer %s /Creator %s" % (
        _text_string(title),
        _text_string(BRAND),
        _text_string(BRAND),
    )
    if created is not None:
        info += b" /CreationDate %s" % _pdf_date(created)
    objects.append(info + b" >>")

    font_resources = b" ".join(
        b"/%s %d 0 R" % (name.encode("ascii"), number) for name, number in fonts.items()
    )
    for index, page_rows in enumerate(pages):
        canvas = _Canvas()
        y = _draw_header(canvas, title_lines, subtitle_lines)
        for row in page_rows:
            y = _draw_row(canvas, row, y)
        _draw_footer(canvas, footer_lines, index + 1, len(pages))
        content = canvas.stream()
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d]"
            b" /Resources << /Font << %s >> /ProcSet [/PDF /Text] >> /Contents %d 0 R >>"
            % (PAGE_WIDTH, PAGE_HEIGHT, font_resources, page_numbers[index] + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")

    return _serialize(objects, info_number)
