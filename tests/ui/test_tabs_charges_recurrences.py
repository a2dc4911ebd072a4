"""The "Charges & batches" and "Recurrences" tabs as the main window builds them: each section
loads when first shown, a charge created from the tab's form appears in its list, the wizard
opens from the tab, and nothing keeps running after the tab is shut down (lock)."""

from __future__ import annotations

import uuid
from decimal import Decimal

from PySide6.QtCore import Qt

from tests.waiting import qt_wait_until
from treasury_app.ui.tabs.charges_tab import ChargesTab
from treasury_app.ui.tabs.recurrences_tab import RecurrencesTab

CPF = "52998224725"


def test_charges_tab_creates_a_charge_and_lists_it(qtbot, run, open_workspace) -> None:
    workspace = open_workspace()
    tab = ChargesTab(workspace)
    qtbot.addWidget(tab)
    assert tab.load_task is None  # nothing is asked of the bank before the tab is seen
    tab.show()
    qt_wait_until(
        qtbot, lambda: tab.load_task is not None and tab.load_task.done(), "tab.load_task done"
    )
    assert tab.sections.count() == 4

    form = tab.open_new_charge()
    qt_wait_until(qtbot, form.isVisible, "form shown")
    txid = "tab" + uuid.uuid4().hex
    qtbot.keyClicks(form.amount_edit, "77,10")
    qtbot.keyClicks(form.document_edit, CPF)
    qtbot.keyClicks(form.name_edit, "Cliente da Aba")
    qtbot.keyClicks(form.txid_edit, txid)
    qtbot.mouseClick(form.submit_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, form.submit_task.done, "form.submit_task done")
    assert form.submit_task.result() is not None, form.banner.detail.text()
    # The tab shows the charges section and reloads it: the new charge is there.
    assert tab.sections.currentWidget() is tab.charges
    qt_wait_until(
        qtbot,
        lambda: tab.charges.proxy.row_of(txid) is not None,
        "tab.charges.proxy.row_of(txid) is not None",
    )
    row = tab.charges.proxy.row_of(txid)
    assert tab.charges.proxy.charge(row).amount == Decimal("77.10")
    if form.qr_dialog is not None:
        form.qr_dialog.close()

    # Each other section loads the first time it is shown, once.
    for index in range(1, tab.sections.count()):
        tab.sections.setCurrentIndex(index)
        task = tab.load_task
        qt_wait_until(qtbot, task.done, "task done")
        assert task.exception() is None
    tab.sections.setCurrentIndex(1)
    tab.sections.setCurrentIndex(2)
    assert tab.load_task is task  # no second load of a section already loaded

    tab.shutdown()
    tab.sections.setCurrentIndex(0)
    tab.hide()
    tab.show()
    assert tab.load_task is task  # after shutdown (lock) no section loads again


def test_recurrences_tab_loads_the_list_and_opens_the_wizard(qtbot, run, open_workspace) -> None:
    workspace = open_workspace()
    tab = RecurrencesTab(workspace)
    qtbot.addWidget(tab)
    tab.show()
    qt_wait_until(
        qtbot, lambda: tab.load_task is not None and tab.load_task.done(), "tab.load_task done"
    )
    assert tab.load_task.exception() is None
    tab.sections.setCurrentWidget(tab.locations)
    qt_wait_until(qtbot, tab.load_task.done, "tab.load_task done")
    assert tab.load_task.exception() is None

    wizard = tab.open_wizard()
    qt_wait_until(qtbot, wizard.isVisible, "wizard shown")
    assert tab.wizard is wizard
    wizard.recurrence_created.emit("RR1234567820261118abcdefghijk")  # as after a creation
    assert tab.sections.currentWidget() is tab.recurrences
    qt_wait_until(qtbot, tab.load_task.done, "tab.load_task done")
    wizard.reject()
    tab.shutdown()
