"""Opening a batch file never freezes the window: the file is read in a worker thread behind a
progress bar with Cancel; a file that cannot be read (a workbook, too large, Cancel) says so
in the banner and leaves the batch already shown as it was."""

from __future__ import annotations

import codecs
import datetime as dt
import secrets

import pytest
from PySide6.QtCore import Qt

from tests.waiting import qt_turn, qt_wait_until
from treasury_app.services.csv_input import MAX_FILE_BYTES
from treasury_app.ui.dialogs.charge_batch_dialog import ChargeBatchDialog
from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog

CPF = "52998224725"


@pytest.fixture
def workspace(open_workspace):
    return open_workspace()


@pytest.fixture
def payout_dialog(qtbot, workspace):
    dialog = PayoutBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog
    dialog.reject()
    if dialog.load_task is not None:
        qt_wait_until(qtbot, dialog.load_task.done, "dialog.load_task done")


def big_payout_file(tmp_path, rows: int) -> tuple:
    tag = secrets.token_hex(4)
    path = tmp_path / f"lote-{tag}.csv"
    lines = [f"p{i}-{tag}@empresa.com.br;{i % 90 + 1},00;Nota {i}" for i in range(rows)]
    path.write_text("chave;valor;descricao\r\n" + "\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path, tag


def load(qtbot, dialog, path) -> None:
    task = dialog.load_file(path)
    assert task is not None
    qt_wait_until(qtbot, task.done, "task done")


def test_a_long_file_is_read_behind_a_progress_bar_while_the_window_keeps_painting(
    qtbot, payout_dialog, tmp_path
):
    path, _tag = big_payout_file(tmp_path, 10_000)
    seen: list[int] = []
    task = payout_dialog.load_file(path)
    assert task is not None
    qt_wait_until(qtbot, lambda: payout_dialog.reader.isVisible(), "payout_dialog.reader shown")
    assert not payout_dialog.open_button.isEnabled() and not payout_dialog.send_button.isEnabled()
    assert payout_dialog.load_file(path) is None  # a second file waits for the first

    def read_through() -> bool:  # the event loop runs between looks: the bar moves meanwhile
        seen.append(payout_dialog.reader.bar.value())
        return task.done()

    qt_wait_until(qtbot, read_through, "the file read")
    assert any(0 < value < 100 for value in seen), seen
    assert not payout_dialog.reader.isVisible() and payout_dialog.open_button.isEnabled()
    assert payout_dialog.batch is not None and len(payout_dialog.batch.rows) == 10_000
    assert payout_dialog.rows_model.rowCount() == 10_000
    assert payout_dialog.totals_label.text().startswith("10000 payment(s)")


def test_cancel_stops_the_reading_and_keeps_the_batch_shown(qtbot, run, payout_dialog, tmp_path):
    run(payout_dialog.load_text(f"chave;valor\nkept-{secrets.token_hex(4)}@empresa.com.br;7,00\n"))
    shown = payout_dialog.batch
    path, _tag = big_payout_file(tmp_path, 10_000)
    task = payout_dialog.load_file(path)
    qt_wait_until(qtbot, lambda: payout_dialog.reader.reading, "payout_dialog.reader.reading")
    qtbot.mouseClick(payout_dialog.reader.cancel_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, task.done, "task done")
    assert payout_dialog.batch is shown and payout_dialog.rows_model.rowCount() == 1
    assert payout_dialog.banner.isVisible()
    assert payout_dialog.banner.title.text() == "Reading cancelled"
    assert path.name in payout_dialog.banner.detail.text()
    assert payout_dialog.open_button.isEnabled()


def test_a_workbook_or_a_file_too_large_is_refused_in_the_banner(
    qtbot, run, payout_dialog, tmp_path
):
    run(payout_dialog.load_text(f"chave;valor\nkept-{secrets.token_hex(4)}@empresa.com.br;7,00\n"))
    shown = payout_dialog.batch
    workbook = tmp_path / "pagamentos.csv"
    workbook.write_bytes(b"PK\x03\x04" + bytes(500))
    load(qtbot, payout_dialog, workbook)
    assert payout_dialog.banner.title.text() == "This file cannot be read"
    assert "workbook" in payout_dialog.banner.detail.text()
    assert payout_dialog.batch is shown
    large = tmp_path / "grande.csv"
    with large.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    load(qtbot, payout_dialog, large)
    assert "larger than 20 MB" in payout_dialog.banner.detail.text()
    assert payout_dialog.batch is shown
    missing = tmp_path / "gone.csv"
    load(qtbot, payout_dialog, missing)
    assert payout_dialog.banner.isVisible() and payout_dialog.batch is shown


def test_a_utf16_excel_file_with_bad_lines_opens_in_the_payout_dialog(
    qtbot, payout_dialog, tmp_path
):
    tag = secrets.token_hex(4)
    text = (
        "chave;valor;descricao\r\n"
        f"a-{tag}@empresa.com.br;1.234,56;Manutenção\r\n"
        f"b-{tag}@empresa.com.br;2,00;Nota\x00 2\r\n"
        f"{CPF};3,00;Café\r\n"
    )
    path = tmp_path / "unicode.csv"
    path.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    load(qtbot, payout_dialog, path)
    rows = [
        tuple(payout_dialog.errors_model.index(r, c).data() for c in range(3))
        for r in range(payout_dialog.errors_model.rowCount())
    ]
    assert [(line, column) for line, column, _ in rows] == [("3", "(whole line)")]
    assert "U+0000" in rows[0][2]
    assert payout_dialog.rows_model.rowCount() == 2
    assert payout_dialog.batch.rows[0].review.description == "Manutenção"
    assert payout_dialog.source_label.text() == "unicode.csv"


def test_the_charge_dialog_reads_a_windows_1252_file_in_the_worker(qtbot, workspace, tmp_path):
    dialog = ChargeBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    due = workspace.charges.today() + dt.timedelta(days=10)
    text = (
        "nome;cpf_cnpj;valor;vencimento;descricao\r"
        f"João Araújo;{CPF};150,00;{due:%d/%m/%Y};Mensalidade de março\r"
    )
    path = tmp_path / "cobrancas.csv"
    path.write_bytes(text.encode("cp1252"))
    task = dialog.load_file(path)
    assert task is not None
    qt_wait_until(qtbot, task.done, "task done")
    assert dialog.batch is not None and dialog.batch.ok
    assert dialog.batch.parsed.rows[0].name == "João Araújo"
    assert dialog.model.rowCount() == 1 and dialog.source_label.text() == "cobrancas.csv"
    dialog.reject()


def test_closing_the_dialog_while_a_file_is_read_raises_nothing(
    qtbot, workspace, tmp_path, monkeypatch
):
    import sys

    caught: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, error, trace: caught.append(error))
    dialog = PayoutBatchDialog(workspace)
    dialog.show()
    path, _tag = big_payout_file(tmp_path, 10_000)
    task = dialog.load_file(path)
    assert task is not None
    qt_wait_until(qtbot, lambda: dialog.reader.reading, "dialog.reader.reading")
    dialog.reject()
    gone: list[bool] = []
    dialog.destroyed.connect(lambda: gone.append(True))
    dialog.deleteLater()
    qt_wait_until(qtbot, lambda: gone, "the dialog deleted")
    qt_wait_until(qtbot, task.done, "the reading over")
    qt_turn(qtbot)  # what its end set off has run
    assert caught == []


def test_the_payout_check_column_shows_a_padded_ispb_warning(qtbot, run, payout_dialog):
    run(
        payout_dialog.load_text(
            "ispb;agencia;conta;tipo_conta;documento;nome;valor\n"
            f"208;1234;98765-4;CACC;{CPF};Maria;1,00\n"
        )
    )
    model = payout_dialog.rows_model
    check = model.index(0, model.headers.index("Check"))
    assert "ISPB 208 read as 00000208" in check.data()
    assert "ISPB 208 read as 00000208" in check.data(Qt.ItemDataRole.ToolTipRole)
