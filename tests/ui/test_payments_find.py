"""Finding a payment: text search over payee, key, the bank's name, amount (as typed either
way) and endToEndId; a filter by batch labelled with its date and size; export of exactly the
rows shown, as a pt-BR spreadsheet opens it."""

from __future__ import annotations

import csv
import io
import secrets
from decimal import Decimal

import pytest

from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.ui.widgets.payments_list import PaymentsList


@pytest.fixture
def listing(qtbot, open_workspace):
    workspace = open_workspace()
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1300, 600)
    widget.show()
    yield widget, workspace
    widget.shutdown()


def shown_ids(widget) -> set[int]:
    return {e.id for e in widget.shown_entries()}


def test_search_batch_filter_and_export(qtbot, run, settle, listing, tmp_path) -> None:
    widget, workspace = listing
    tag = secrets.token_hex(3)
    single = run(
        workspace.payouts.send(
            run(workspace.payouts.prepare_key(f"busca{tag}@empresa.com.br", "1.234,56"))
        )
    )
    batch = run(
        workspace.payouts.parse_batch_csv(
            f"chave;valor\nlote{tag}a@empresa.com.br;7,01\nlote{tag}b@empresa.com.br;7,02\n"
        )
    )
    sent = run(workspace.payouts.send_batch(batch, label=f"Fornecedores {tag}"))
    assert settle(widget.refresh()) is True

    for text in (f"busca{tag}", "1.234,56", "1234,56", "1234.56", single.end_to_end_id):
        widget.search_edit.setText(text)
        assert single.id in shown_ids(widget), text
    widget.search_edit.setText(f"BUSCA{tag} {single.creditor_name.split()[0].upper()}")
    assert shown_ids(widget) == {single.id}  # every word, case and accents ignored
    widget.search_edit.setText(f"lote{tag}")
    assert shown_ids(widget) == {e.id for e in sent}
    widget.search_edit.clear()

    index = widget.batch_combo.findData(batch.batch_id)
    assert index > 0
    label = widget.batch_combo.itemText(index)
    assert "2 payments" in label and "R$ 14,03" in label
    assert label.startswith(f"Fornecedores {tag} — ")  # the label the person gave
    widget.batch_combo.setCurrentIndex(index)
    assert shown_ids(widget) == {e.id for e in sent}

    path = tmp_path / "pagamentos.csv"
    assert widget.export_csv(path) == 2
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM: Excel keeps the accents
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:4] == ["Date", "Payee", "Key or account", "Amount"]
    assert sorted(r[3] for r in rows[1:]) == ["7,01", "7,02"]  # decimal comma
    assert {r[2] for r in rows[1:]} == {f"lote{tag}a@empresa.com.br", f"lote{tag}b@empresa.com.br"}
    # Text cells are defused against spreadsheet formulas; our amounts stay numbers.
    hostile = run(
        workspace.ledger.journal.create(
            NewEntry(
                kind=EntryKind.PIX_KEY,
                amount=Decimal("3.33"),
                idempotency_key=secrets.token_hex(8),
                request={},
                payee_detail=f"formula{tag}@empresa.com.br",
                description='=HYPERLINK("http://x.example","clique")',
            )
        )
    )
    run(
        workspace.ledger.journal.update(
            hostile.id, EntryState.REJECTED, final=True, creditor_name="+SUM(1,2)"
        )
    )
    assert settle(widget.refresh()) is True
    widget.batch_combo.setCurrentIndex(0)
    widget.search_edit.setText(f"formula{tag}")
    assert widget.export_csv(path) == 1
    (row,) = list(csv.reader(io.StringIO(path.read_text("utf-8-sig")), delimiter=";"))[1:]
    assert row[1] == "'+SUM(1,2)" and row[5].startswith("'=HYPERLINK")
    assert row[3] == "3,33"
    widget.search_edit.clear()
    assert {single.id, *(e.id for e in sent)} <= shown_ids(widget)
    assert sum((e.amount for e in sent), Decimal(0)) == Decimal("14.03")
