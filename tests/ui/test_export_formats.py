"""Choosing the export format in the save dialog (for a pt-BR Excel, the default in Portuguese,
or machine-readable) for the statement, the payments and the charges, through the same
non-modal dialog a person uses; and a file held open by another program (Excel) shown in the
tab's banner as "close it and try again", never a ``WinError``."""

from __future__ import annotations

import csv
import datetime as dt
import errno
import io
import re
import secrets
from decimal import Decimal
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QFileDialog, QLineEdit, QWidget

from tests.waiting import qt_wait_until
from treasury_app.api.accounts.models import CreditDebitType, TransactionType
from treasury_app.api.qrcodes.cashin_models import CobCompleta, CobVCompleta
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.services import files
from treasury_app.services.exports import ExportFormat, datetime_cell
from treasury_app.services.files import FileInUseError, FolderNotWritableError
from treasury_app.services.statement import CSV_COLUMNS
from treasury_app.ui.csv_files import (
    chosen_format,
    export_dialog,
    export_format_filters,
    file_error,
    statement_header,
    write_csv_text,
)
from treasury_app.ui.dialogs.receipt_viewer import ReceiptViewer
from treasury_app.ui.models.charges_model import ChargeRow
from treasury_app.ui.tabs.statement_tab import StatementTab
from treasury_app.ui.widgets.charges_list import ChargesList
from treasury_app.ui.widgets.payments_list import PaymentsList

EXCEL, MACHINE = ExportFormat.EXCEL, ExportFormat.MACHINE
BOM = b"\xef\xbb\xbf"
EXCEL_MOMENT = re.compile(r"[0-3][0-9]/[01][0-9]/20[0-9]{2} [0-2][0-9]:[0-5][0-9]")
CLOSE_IT = "is open in another program (Excel?): close it and try again."


def portuguese() -> None:
    QLocale.setDefault(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))


def english() -> None:
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


def held_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every replacement refused as Windows refuses it while Excel shows the file."""

    def refuse(source: str, target: str) -> None:
        raise PermissionError(
            errno.EACCES,
            "The process cannot access the file because it is being used by another process",
            source,
            32,
            target,
        )

    monkeypatch.setattr(files.os, "replace", refuse)
    monkeypatch.setattr(files.time, "sleep", lambda _seconds: None)


def answer(qtbot, dialog: QFileDialog | None, path: Path, export_format: ExportFormat) -> None:
    """As a person does: pick the file type, type the name, Save."""
    assert dialog is not None
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    dialog.selectNameFilter(export_format_filters()[export_format])
    assert chosen_format(dialog) == export_format
    dialog.findChild(QLineEdit, "fileNameEdit").setText(str(path))
    dialog.accept()


def read(path: Path) -> tuple[bytes, list[list[str]]]:
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig" if raw.startswith(BOM) else "utf-8")
    return raw, list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))


# The dialog ------------------------------------------------------------------------------------
def test_the_dialog_offers_both_formats_excel_by_default_in_portuguese(
    qtbot, restore_translation
) -> None:
    parent = QWidget()
    qtbot.addWidget(parent)
    portuguese()
    dialog = export_dialog(parent, "Export", "extrato.csv")
    assert dialog.nameFilters() == ["CSV for Excel (*.csv)", "CSV, machine-readable (*.csv)"]
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    assert chosen_format(dialog) == EXCEL
    english()
    dialog = export_dialog(parent, "Export", "extrato.csv")
    assert chosen_format(dialog) == MACHINE
    dialog.selectNameFilter(export_format_filters()[EXCEL])
    assert chosen_format(dialog) == EXCEL


def test_file_errors_in_words_for_the_banner(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "x.csv"
    shown = file_error(FileInUseError(target))
    assert isinstance(shown, FileInUseError) and shown.title == "Could not save the file"
    assert shown.message == f"The file {target} {CLOSE_IT}"
    raw = PermissionError(errno.EACCES, "Access is denied", str(target), 5)
    assert file_error(raw).message == (  # the system's words are for the log
        "This computer does not allow access to “x.csv”: choose another folder, or ask IT for "
        "access."
    )
    for error in (FileInUseError(target), raw, FolderNotWritableError(target)):
        once, twice = file_error(error), file_error(file_error(error))  # passed on: same words
        assert (type(twice), twice.message, twice.path) == (type(once), once.message, once.path)
    assert file_error(FolderNotWritableError(target)).message == (
        f"The folder {tmp_path} cannot be written to: choose another folder."
    )
    assert file_error(file_error(FolderNotWritableError(target))).path == str(target)
    held_open(monkeypatch)
    with pytest.raises(FileInUseError, match=re.escape(CLOSE_IT)):
        write_csv_text(target, "a;b\r\n")  # the batch templates' writer too


# Payments --------------------------------------------------------------------------------------
@pytest.fixture
def payments(qtbot, open_workspace):
    workspace = open_workspace()
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1300, 600)
    widget.show()
    yield widget, workspace
    widget.shutdown()


def test_payments_in_either_format_and_a_file_held_open(
    qtbot, run, settle, payments, tmp_path, monkeypatch, restore_translation
) -> None:
    widget, workspace = payments
    # A letter in it: an all-digit detail is exported as Excel text (="..."), another case.
    tag = "k" + secrets.token_hex(4)
    entry = run(
        workspace.ledger.journal.create(
            NewEntry(
                kind=EntryKind.PIX_KEY,
                amount=Decimal("1234.5"),
                idempotency_key=secrets.token_hex(8),
                request={},
                payee_name="Gráfica São João",
                payee_detail=f"01234567890{tag}",
                description="Nota 1",
            )
        )
    )
    # Final, so that the tracker never asks the bank about this made-up payment.
    run(workspace.ledger.journal.update(entry.id, EntryState.REJECTED, final=True))
    assert settle(widget.refresh()) is True
    widget.search_edit.setText(tag)
    assert [e.id for e in widget.shown_entries()] == [entry.id]

    portuguese()
    excel = tmp_path / "pagamentos-excel.csv"
    widget._export_clicked()
    assert chosen_format(widget.export_dialog) == EXCEL  # the default in Portuguese
    answer(qtbot, widget.export_dialog, excel, EXCEL)
    raw, rows = read(excel)
    assert raw.startswith(BOM) and b"\r\n" in raw
    assert rows[1][0] == datetime_cell(entry.created_at, EXCEL)
    assert EXCEL_MOMENT.fullmatch(rows[1][0])
    assert rows[1][1:4] == ["Gráfica São João", f"01234567890{tag}", "1234,50"]
    assert "1 payment(s) saved to" in widget.banner.detail.text()

    english()
    machine = tmp_path / "pagamentos.csv"
    widget._export_clicked()
    assert chosen_format(widget.export_dialog) == MACHINE  # the default in English
    answer(qtbot, widget.export_dialog, machine, MACHINE)
    raw, rows = read(machine)
    assert not raw.startswith(BOM)
    assert dt.datetime.fromisoformat(rows[1][0]).utcoffset() == dt.timedelta(hours=-3)  # Brasília
    assert rows[1][3] == "1234.50"

    held_open(monkeypatch)
    widget._export_clicked()
    answer(qtbot, widget.export_dialog, tmp_path / "aberto.csv", EXCEL)
    assert widget.banner.isVisible()
    assert widget.banner.title.text() == "Could not save the file"
    assert widget.banner.detail.text() == f"The file {tmp_path / 'aberto.csv'} {CLOSE_IT}"
    assert "WinError" not in widget.banner.detail.text()
    assert not (tmp_path / "aberto.csv").exists()


# Charges ---------------------------------------------------------------------------------------
def _charges() -> list[ChargeRow]:
    cob = CobCompleta.model_validate(
        {
            "calendario": {"criacao": "2026-11-19T02:30:00Z", "expiracao": 3600},
            "txid": "exportcob" + "a" * 20,
            "revisao": 0,
            "status": "ATIVA",
            "valor": {"original": "1234.50"},
            "chave": "cobranca@empresa.com.br",
            "devedor": {"cpf": "01234567890", "nome": "Gráfica São João"},
            "location": "pix.example.com/qr/1",
        }
    )
    cobv = CobVCompleta.model_validate(
        {
            "calendario": {"criacao": "2026-11-18T13:00:00Z", "dataDeVencimento": "2026-12-01"},
            "txid": "exportcobv" + "b" * 20,
            "revisao": 0,
            "status": "CONCLUIDA",
            "valor": {"original": "10.00"},
            "chave": "cobranca@empresa.com.br",
            "devedor": {"cnpj": "11222333000181", "nome": "=Empresa"},
            "location": "pix.example.com/qr/2",
        }
    )
    return [ChargeRow("cob", cob), ChargeRow("cobv", cobv)]


@pytest.fixture
def charges(qtbot, open_workspace):
    workspace = open_workspace()
    widget = ChargesList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    widget.model.set_rows(_charges())  # no reload: the rows the test gives
    yield widget
    widget.shutdown()
    for task in (widget.task, widget.reload_task):
        if task is not None:
            qt_wait_until(qtbot, task.done, "task done")


def test_charges_in_either_format_and_a_file_held_open(
    qtbot, charges, tmp_path, monkeypatch, restore_translation
) -> None:
    widget = charges
    assert widget.export_button.isVisible()
    portuguese()
    excel = tmp_path / "cobrancas.csv"
    widget.export_button.click()
    answer(qtbot, widget.export_dialog, excel, EXCEL)
    raw, rows = read(excel)
    assert raw.startswith(BOM)
    assert rows[0] == [
        "Created",
        "txid",
        "Kind",
        "Debtor",
        "CPF/CNPJ",
        "Amount",
        "Due date",
        "Status",
    ]
    cob, cobv = rows[1:]  # newest first, as the list shows them
    assert cob[0] == "18/11/2026 23:30"  # 02:30 UTC is the evening before in Brasília
    assert cob[1:6] == [
        "exportcob" + "a" * 20,
        "Immediate (cob)",
        "Gráfica São João",
        '="01234567890"',  # the leading zero survives Excel
        "1234,50",
    ]
    assert (cob[6], cob[7]) == ("", "Active")
    assert cobv[3:8] == ["'=Empresa", '="11222333000181"', "10,00", "01/12/2026", "Paid"]
    assert "2 charge(s) saved to" in widget.banner.detail.text()

    widget.export_csv(machine := tmp_path / "cobrancas-maquina.csv", MACHINE)
    raw, rows = read(machine)
    assert not raw.startswith(BOM)
    assert rows[1][0] == "2026-11-18T23:30:00-03:00"
    assert (rows[1][4], rows[1][5]) == ("01234567890", "1234.50")
    assert rows[2][6] == "2026-12-01"

    widget.kind_combo.setCurrentIndex(2)  # cobv only: the rows shown are the rows written
    assert widget.export_csv(tmp_path / "so-cobv.csv") == 1

    held_open(monkeypatch)
    widget.export_button.click()
    answer(qtbot, widget.export_dialog, tmp_path / "aberto.csv", MACHINE)
    assert widget.banner.detail.text() == f"The file {tmp_path / 'aberto.csv'} {CLOSE_IT}"


# Statement -------------------------------------------------------------------------------------
@pytest.fixture
def statement(qtbot, run, open_workspace):
    workspace = open_workspace()
    run(workspace.session.accounts.transport.http.post("/sandbox/tokens/reset-limits"))
    tab = StatementTab(workspace, page_size=50)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    run(tab.load())
    tab.show()
    qtbot.waitExposed(tab)
    yield tab
    tab.hide()
    qt_wait_until(qtbot, lambda: not tab.loading, "not tab.loading")


def test_statement_for_excel_through_the_dialog_and_a_file_held_open(
    qtbot, qasync_loop, statement, tmp_path, monkeypatch, restore_translation
) -> None:
    tab = statement
    portuguese()
    target = tmp_path / "extrato.csv"
    exporting = qasync_loop.create_task(tab.export_csv())
    qt_wait_until(
        qtbot,
        lambda: any(d.isVisible() for d in tab.findChildren(QFileDialog)),
        "any(d.isVisible() for d in tab.findChildren(QFileDialog))",
    )
    dialog = next(d for d in tab.findChildren(QFileDialog) if d.isVisible())
    assert chosen_format(dialog) == EXCEL
    answer(qtbot, dialog, target, EXCEL)
    qt_wait_until(qtbot, exporting.done, "exporting done")
    count = exporting.result()
    assert count == tab.proxy.rowCount() > 0
    raw, rows = read(target)
    assert raw.startswith(BOM)
    header, *body = rows
    assert len(body) == count
    # For people: a header and the bank's codes in words of the UI language (issue 33; the
    # words in pt_BR: test_code_words).
    assert header == statement_header() != list(CSV_COLUMNS)
    kinds, types = CSV_COLUMNS.index("credit_debit"), CSV_COLUMNS.index("transaction_type")
    assert header[kinds] == "Credit or debit"
    assert {row[kinds] for row in body} <= {"Credit", "Debit"}
    codes = {t.value for t in TransactionType} | {c.value for c in CreditDebitType}
    assert not any(row[column] in codes for row in body for column in (kinds, types))
    assert "Pix" in {row[types] for row in body}
    created, signed = CSV_COLUMNS.index("created_at"), CSV_COLUMNS.index("signed_amount")
    assert all(EXCEL_MOMENT.fullmatch(row[created]) for row in body)
    entries = tab.proxy.entries()
    assert [Decimal(row[signed].replace(",", ".")) for row in body] == [
        e.signed_amount for e in entries
    ]
    assert all("." not in row[signed] for row in body)

    held_open(monkeypatch)
    exporting = qasync_loop.create_task(tab.export_csv(tmp_path / "aberto.csv", MACHINE))
    qt_wait_until(qtbot, exporting.done, "exporting done")
    assert exporting.result() is None
    assert tab.banner.isVisible()
    assert tab.banner.title.text() == "Could not write the file"
    assert tab.banner.detail.text() == f"The file {tmp_path / 'aberto.csv'} {CLOSE_IT}"
    assert tab.export_button.isEnabled()


# A receipt saved where Excel... or a PDF reader holds it -----------------------------------------
def test_a_receipt_saved_over_an_open_file_says_to_close_it(qtbot, tmp_path, monkeypatch) -> None:
    viewer = ReceiptViewer(b"%PDF-1.4 not really", title="Receipt", suggested_name="r.pdf")
    qtbot.addWidget(viewer)
    target = tmp_path / "comprovante.pdf"
    assert viewer.save_to(target)
    assert target.read_bytes() == b"%PDF-1.4 not really"
    held_open(monkeypatch)
    assert not viewer.save_to(target)
    assert CLOSE_IT in viewer.status.text() and "WinError" not in viewer.status.text()
    assert target.read_bytes() == b"%PDF-1.4 not really"
