"""The Pix forms and the payee registry (issue 36): a payee picked by typing fills the form
(key and document), and a key typed by hand that is another registered payee's is flagged
under the form before the review, and again in the review."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import Qt

from tests.ui.test_payouts_tab import _review_key, tab_and_workspace  # noqa: F401 (fixture)
from tests.waiting import qt_wait_until
from treasury_app.ui.tabs.payouts_tab import PayoutsTab

PAPELARIA_KEY = "pix@papelariaipiranga.com.br"
PAPELARIA = "Papelaria Ipiranga"  # its own: the workspace's ledger is shared with other tests
GRAFICA_KEY = "contas@graficaexpressa.com.br"


def test_picking_fills_the_form_and_another_payees_key_is_flagged(
    qtbot: Any,
    run: Any,
    tab_and_workspace: Any,
) -> None:
    tab, workspace = tab_and_workspace
    assert isinstance(tab, PayoutsTab)
    service = workspace.payees
    papelaria = run(service.save_payee(PAPELARIA, "11.444.777/0001-61", "fornecedor"))
    run(service.add(papelaria.id, service.key(PAPELARIA_KEY)))
    grafica = run(service.save_payee("Gráfica Expressa", "12.ABC.345/01DE-35"))
    run(service.add(grafica.id, service.key(GRAFICA_KEY)))
    run(service.index(fresh=True))
    picker = tab.pickers["key"]
    picker.setFocus()
    qtbot.keyClicks(picker, "ipiran")
    assert [m.payee.name for m in picker.matches] == [PAPELARIA]
    picker.choose(picker.matches[0])
    assert tab.key_edit.line_edit.text() == PAPELARIA_KEY
    assert tab.key_document.text() == "11444777000161"
    note = tab.registry_notes["key"]
    # the key typed by hand over the picked payee's: Gráfica's
    tab.key_edit.clear()
    qtbot.keyClicks(tab.key_edit.line_edit, GRAFICA_KEY)
    qt_wait_until(qtbot, note.isVisible, "the registry's flag under the form")
    first, fresh = note.text().split("\n")
    assert first == f"This key is registered to Gráfica Expressa, not to {PAPELARIA}."
    assert fresh.endswith("check it with Gráfica Expressa by phone before paying.")
    tab.key_document.clear()
    tab.key_amount.clear()
    qtbot.keyClicks(tab.key_amount, "10,00")
    qtbot.mouseClick(tab.key_review_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, lambda: tab.review_dialog is not None, "the review")
    codes = [reason.code for reason in tab.review_dialog.review.warnings]
    assert "registry.key_registered_to_other" in codes
    # the bank is told the registered payee's document for this key
    assert tab.review_dialog.review.request["creditorDocument"] == "12ABC34501DE35"
    tab.review_dialog.reject()
    # a settled payment the bank says went to someone else: the desk is alerted
    paid = SimpleNamespace(payee_detail=GRAFICA_KEY)
    for listener in workspace.engine.mismatch_listeners:
        listener(paid, "Outra Pessoa", "***.456.789-**")
    assert tab.banner.isVisible()
    assert "the bank names Outra Pessoa (***.456.789-**)" in tab.banner.detail.text()


def test_a_batch_review_shows_each_rows_registry_status(
    qtbot: Any, run: Any, open_workspace: Any
) -> None:
    from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog

    workspace = open_workspace()
    service = workspace.payees
    grafica = run(service.save_payee("Gráfica Expressa", "12.ABC.345/01DE-35"))
    key = "lote@graficaexpressa.com.br"  # the workspace's ledger outlives one test
    run(service.add(grafica.id, service.key(key)))
    dialog = PayoutBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    text = f"chave;valor;descricao\n{key};10,00;nota 1\ndesconhecido@example.com;5,00;nota 2\n"
    assert run(dialog.load_text(text))
    column = dialog.rows_model.columnCount() - 1
    assert dialog.rows_model.headerData(column, Qt.Orientation.Horizontal, 0) == "Registry"
    cells = [dialog.rows_model.data(dialog.rows_model.index(row, column), 0) for row in (0, 1)]
    assert cells == ["Changed recently (Gráfica Expressa)", "Unknown"]


def test_the_picker_says_loading_until_the_registry_is_in(
    qtbot: Any, run: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    """The first keystroke does not wait for the registry: the list says it is loading, and
    the matches of what is typed by then come once it is in (issue 36, no freeze)."""
    import asyncio

    from treasury_app.ledger import open_ledger
    from treasury_app.services.payees import PayeeService
    from treasury_app.ui.widgets.payee_picker import PayeePicker

    ledger = open_ledger(tmp_path / "ledger.sqlite3", profile="test", user="ana")
    service = PayeeService(ledger)
    payee = run(service.save_payee("Papelaria Central", "11.222.333/0001-81"))
    run(service.add(payee.id, service.key(PAPELARIA_KEY)))
    service.forget()
    gate = asyncio.Event()
    read = ledger.payees.registry

    async def slow() -> Any:
        await gate.wait()  # the registry still on its way
        return await read()

    monkeypatch.setattr(ledger.payees, "registry", slow)
    picker = PayeePicker(service)
    qtbot.addWidget(picker)
    picker.show()
    picker.setFocus()
    qtbot.keyClicks(picker, "pa")
    assert picker._model.stringList() == ["Loading the payee registry…"]
    assert picker.matches == [] and picker.loading
    qtbot.keyClicks(picker, "pel")  # typing goes on; one read
    gate.set()
    qt_wait_until(qtbot, lambda: bool(picker.matches), "the matches once the registry is in")
    assert [m.payee.name for m in picker.matches] == ["Papelaria Central"]
    assert picker._model.stringList()[0].startswith("Papelaria Central")
    ledger.close_now()
