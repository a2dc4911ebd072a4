"""Banks by name: the Pix by bank data form picks the bank by a piece of its name or its code
and names it; the review, the payments list and the approval name the bank of the ISPB; an
ISPB the (partial, or old) table does not know is shown as the number, with a note, and is
paid all the same."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.ui.test_payouts_tab import _confirm_and_send, _wait_for_review
from tests.waiting import qt_wait_until
from treasury_app.domain.banks import Bank, BankTable
from treasury_app.domain.clock import format_date
from treasury_app.ledger.journal import EntryKind
from treasury_app.services.bank_list import packaged_table
from treasury_app.ui.bank_names import bank_detail_text, bank_hint, bank_text
from treasury_app.ui.tabs.payouts_tab import PayoutsTab
from treasury_app.ui.widgets.payments_list import PaymentsList

TABLE = BankTable(
    banks=(
        Bank("60701190", "341", "ITAÚ UNIBANCO S.A.", "Itaú Unibanco S.A."),
        Bank("00038166", None, "Bacen", "Banco Central do Brasil"),
    ),
    as_of=dt.date(2026, 11, 30),
    source="test",
)


def test_bank_texts_name_the_bank_or_say_the_list_may_be_old(qapp) -> None:
    assert bank_text("60701190", TABLE) == "Itaú Unibanco S.A. (code 341, ISPB 60701190)"
    assert bank_text("00038166", TABLE) == "Banco Central do Brasil (ISPB 00038166)"
    unknown = bank_text("12345678", TABLE)
    assert unknown.startswith("ISPB 12345678") and "30/11/2026" in unknown
    assert "out of date" in unknown
    assert bank_text("", TABLE) == ""
    no_list = BankTable(banks=(), as_of=dt.date.min, source="", partial=True)
    assert bank_text("60701190", no_list) == "ISPB 60701190 (no bank list to name it)"
    assert bank_hint("itau", TABLE) == "Pick the bank from the list for its ISPB (1 found)"
    assert "30/11/2026" in bank_hint("zzz", TABLE)
    assert bank_hint("60701190", TABLE) == bank_text("60701190", TABLE)
    assert bank_hint("12345678", TABLE) == bank_text("12345678", TABLE)
    assert bank_hint("UNIBANCO", TABLE).startswith("Pick the bank")  # a name, not an ISPB


def test_a_journal_detail_by_bank_data_names_the_bank(qapp) -> None:
    itau = packaged_table().by_compe("341")
    assert itau is not None
    text = bank_detail_text(f"{itau.ispb}/0001/12345-6")
    assert text.startswith(itau.name) and text.endswith(", branch 0001, account 12345-6")
    assert bank_detail_text("someone@example.com") == "someone@example.com"


@pytest.fixture
def tab(qtbot, open_workspace):
    workspace = open_workspace()
    tab = PayoutsTab(workspace)
    qtbot.addWidget(tab)
    tab.resize(1000, 800)
    tab.show()
    qtbot.waitExposed(tab)
    tab.forms.setCurrentIndex(2)
    yield tab
    tab.shutdown()
    if tab.review_task is not None:
        qt_wait_until(qtbot, tab.review_task.done, "tab.review_task done")


def _fill_the_rest(qtbot, tab: PayoutsTab, amount: str) -> None:
    for edit, text in (
        (tab.bank_branch, "0001"),
        (tab.bank_account, "123456"),
        (tab.bank_document, "52998224725"),
        (tab.bank_name, "Maria da Silva"),
        (tab.bank_amount, amount),
    ):
        qtbot.keyClicks(edit, text)


def test_pick_the_bank_by_name_and_every_view_names_it(qtbot, run, settle, tab) -> None:
    itau = packaged_table().by_compe("341")
    assert itau is not None
    qtbot.keyClicks(tab.bank_ispb, "ITAU unib")  # the name is "Itaú": accents and case ignored
    popup = tab.bank_completer.popup()
    qt_wait_until(qtbot, popup.isVisible, "the list of banks pops up")
    shown = [
        tab.bank_completer.completionModel().index(row, 0).data()
        for row in range(tab.bank_completer.completionCount())
    ]
    assert shown == [f"{itau.name} · code 341 · ISPB {itau.ispb}"]
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert tab.bank_ispb.text() == itau.ispb  # the pick writes the ISPB
    assert tab.review_task is None  # and Enter on the list only picks: no review of a half form
    assert tab.bank_ispb_name.text() == f"{itau.name} (code 341, ISPB {itau.ispb})"

    _fill_the_rest(qtbot, tab, "12,34")
    qtbot.mouseClick(tab.bank_review_button, Qt.MouseButton.LeftButton)
    dialog = _wait_for_review(qtbot, tab)
    assert (
        dialog.fields["bank"]
        .text()
        .startswith(f"{itau.name} (code 341, ISPB {itau.ispb}), branch 0001, account 123456")
    )
    entry = _confirm_and_send(qtbot, tab, Decimal("12.34"))
    assert entry.kind == EntryKind.PIX_MANU and entry.payee_detail.startswith(itau.ispb)

    payments = PaymentsList(tab.workspace)
    qtbot.addWidget(payments)
    assert settle(payments.refresh_task) is True
    assert payments.select_entry(entry.id)
    assert payments.details["destination"].text().startswith(f"{itau.name} (code 341")
    payments.search_edit.setText(f"{itau.name.split()[0]} maria")  # found by its bank's name
    assert entry.id in {shown.id for shown in payments.shown_entries()}


def test_a_bank_code_alone_asks_to_pick_the_bank_and_a_click_picks_it(qtbot, tab) -> None:
    qtbot.keyClicks(tab.bank_ispb, "341")
    found = len(packaged_table().search("341"))
    assert found >= 1  # COMPE 341, and any ISPB with 341 in it
    assert tab.bank_ispb_name.text() == f"Pick the bank from the list for its ISPB ({found} found)"
    popup = tab.bank_completer.popup()
    qt_wait_until(qtbot, popup.isVisible, "the list of banks pops up")
    first = popup.visualRect(popup.model().index(0, 0)).center()
    qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=first)
    assert tab.bank_ispb.text() == packaged_table().by_compe("341").ispb  # type: ignore[union-attr]


def test_an_ispb_missing_from_the_list_is_paid_all_the_same(qtbot, tab) -> None:
    table = packaged_table()
    ispb = "12345678"
    assert table.by_ispb(ispb) is None
    qtbot.keyClicks(tab.bank_ispb, ispb)
    note = tab.bank_ispb_name.text()
    assert note.startswith(f"ISPB {ispb}") and format_date(table.as_of) in note
    _fill_the_rest(qtbot, tab, "5,67")
    qtbot.mouseClick(tab.bank_review_button, Qt.MouseButton.LeftButton)
    dialog = _wait_for_review(qtbot, tab)
    assert dialog.fields["bank"].text().startswith(f"ISPB {ispb} (not in the bank list of")
    entry = _confirm_and_send(qtbot, tab, Decimal("5.67"))
    assert entry.kind == EntryKind.PIX_MANU and entry.payee_detail.startswith(ispb)


def test_bank_texts_in_portuguese(qapp, restore_translation) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"
    assert bank_text("60701190", TABLE) == "Itaú Unibanco S.A. (código 341, ISPB 60701190)"
    assert bank_text("12345678", TABLE) == (
        "ISPB 12345678 (fora da lista de bancos de 30/11/2026, que pode estar desatualizada)"
    )
    assert bank_hint("itau", TABLE) == (
        "Escolha o banco na lista para preencher o ISPB (1 encontrado(s))"
    )
    assert bank_detail_text("60701190/0001/99-1").endswith(", agência 0001, conta 99-1")
