"""Tests for the hand-written PDF 1.4 receipt writer of the sandbox bank."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtPdf import QPdfDocument

from tests.waiting import qt_wait_until
from treasury_app.sandbox.pdf import render_receipt

ROWS = [
    ("Tipo de transferência", "Pix"),
    ("Cidade", "São Paulo"),
    ("Valor", "R$ 1.234,56"),
    ("Favorecido", "Conceição Ação & Filhos (Matriz) \\ Nº 1"),
    ("Descrição", "Pagamento " * 120),  # must wrap / be truncated, never overflow
    ("Emoji", "café ☕ 🙂"),  # not in WinAnsi: replaced by '?'
]
FOOTER = "Autenticação: 7F3A-91C2-0B44-E1D8"


def _receipt(**kwargs: object) -> bytes:
    params: dict[str, object] = {
        "footer": FOOTER,
        "subtitle": "Pix enviado em 02/01/2024 às 10:15",
        "created": datetime(2024, 1, 2, 10, 15, 0, tzinfo=UTC),
    }
    params.update(kwargs)
    return render_receipt("Comprovante de transferência", ROWS, **params)  # type: ignore[arg-type]


def _xref(pdf: bytes) -> tuple[int, list[bytes]]:
    match = re.search(rb"startxref\r?\n(\d+)\r?\n%%EOF\r?\n?$", pdf)
    assert match, "missing startxref / %%EOF at the end of the file"
    offset = int(match.group(1))
    header = re.compile(rb"xref\r?\n0 (\d+)\r?\n").match(pdf, offset)
    assert header, "startxref does not point at an xref table"
    size = int(header.group(1))
    start = header.end()
    entries = [pdf[start + 20 * i : start + 20 * (i + 1)] for i in range(size)]
    trailer = pdf[start + 20 * size :]
    assert trailer.startswith(b"trailer")
    assert re.search(rb"/Size %d\b" % size, trailer)
    assert re.search(rb"/Root \d+ 0 R", trailer)
    return size, entries


def test_header_and_eof() -> None:
    pdf = _receipt()
    assert pdf.startswith(b"%PDF-1.4")
    assert re.search(rb"%%EOF\r?\n$", pdf)


def test_every_xref_offset_points_at_its_object() -> None:
    for pdf in (_receipt(), render_receipt("Extrato", [("Linha", str(i)) for i in range(80)])):
        size, entries = _xref(pdf)
        assert size > 5
        assert all(len(e) == 20 and e.endswith((b"\r\n", b" \n")) for e in entries)
        assert entries[0][:18] == b"0000000000 65535 f"
        for number, entry in enumerate(entries[1:], start=1):
            assert re.fullmatch(rb"\d{10} 00000 n", entry[:18]), entry
            offset = int(entry[:10])
            assert pdf[offset:].startswith(b"%d 0 obj" % number), (number, offset)
            assert pdf[offset - 1 : offset] in (b"\n", b"\r")


def test_stream_lengths_are_exact() -> None:
    pdf = _receipt()
    streams = list(re.finditer(rb"<< /Length (\d+) >>\nstream\n", pdf))
    assert streams
    for match in streams:
        end = match.end() + int(match.group(1))
        assert pdf[end:].startswith(b"\nendstream")


def test_info_dictionary_and_fonts() -> None:
    pdf = _receipt()
    assert b"/Producer <FEFF" + "Sandbox Bank".encode("utf-16-be").hex().upper().encode() in pdf
    assert b"/Title <FEFF" in pdf
    assert b"/CreationDate (D:20240102101500Z)" in pdf
    assert pdf.count(b"/Encoding /WinAnsiEncoding") == 2
    assert b"/BaseFont /Helvetica-Bold" in pdf
    assert b"(S\\343o Paulo)" in pdf  # cp1252 "ã" = 0xE3
    assert b"\\(Matriz\\) \\\\ N\\272 1" in pdf  # escaped parens / backslash, "º" = 0xBA
    assert b"caf\\351 ? ?" in pdf  # unencodable characters become '?'
    assert b"\\205)" in pdf  # the long description is truncated with an ellipsis


def test_deterministic_output() -> None:
    assert _receipt() == _receipt()
    assert render_receipt("X", []) == render_receipt("X", [])
    assert _receipt() != _receipt(footer="Autenticação: 0000")
    assert render_receipt("A", [("a", "1")]) != render_receipt("A", [("a", "2")])
    assert _receipt() != _receipt(created=datetime(2024, 1, 3, tzinfo=UTC))


@pytest.fixture
def open_pdf(qapp, qtbot) -> Iterator:
    docs: list[QPdfDocument] = []

    def _open(data: bytes) -> QPdfDocument:
        doc = QPdfDocument(None)
        docs.append(doc)
        buffer = QBuffer(doc)  # parented: must outlive the load
        buffer.setData(QByteArray(data))
        assert buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        doc.load(buffer)
        qt_wait_until(
            qtbot,
            lambda: doc.status() in (QPdfDocument.Status.Ready, QPdfDocument.Status.Error),
            "doc.status() in (QPdfDocument.Status.Ready, QPdfDocument.Status.Error)",
        )
        assert doc.status() == QPdfDocument.Status.Ready, doc.error()
        return doc

    yield _open
    for doc in docs:
        doc.close()


def _page_text(doc: QPdfDocument, page: int) -> str:
    return doc.getAllText(page).text()


def test_qt_pdf_engine_opens_the_receipt(open_pdf) -> None:
    doc = open_pdf(_receipt())
    assert doc.pageCount() == 1
    size = doc.pagePointSize(0)
    assert (round(size.width()), round(size.height())) == (595, 842)
    text = _page_text(doc, 0)
    for expected in (
        "Sandbox Bank",
        "Comprovante de transferência",
        "Pix enviado em 02/01/2024 às 10:15",
        "Tipo de transferência",
        "São Paulo",
        "R$ 1.234,56",
        "Conceição Ação & Filhos (Matriz) \\ Nº 1",
        FOOTER,
    ):
        assert expected in text, (expected, text)
    assert "…" in text


def test_many_rows_continue_on_further_pages(open_pdf) -> None:
    rows = [(f"Lançamento {i:02d}", f"Crédito nº {i:02d} — R$ {i},00") for i in range(80)]
    doc = open_pdf(render_receipt("Extrato de conta", rows, footer=FOOTER))
    assert doc.pageCount() > 1
    texts = [_page_text(doc, page) for page in range(doc.pageCount())]
    for label, value in rows:
        assert any(value in text for text in texts), value
        assert any(label in text for text in texts), label
    for page, text in enumerate(texts, start=1):
        assert "Extrato de conta" in text
        assert FOOTER in text
        assert f"Página {page} de {len(texts)}" in text
