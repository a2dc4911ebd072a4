"""The payload locations panel against the app's own sandbox bank: a ``loc`` created, listed,
given to a charge and unlinked from it after the confirmation (and kept when the confirmation
is cancelled); the same for a ``locrec`` and a recurrence."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.waiting import qt_wait_until
from treasury_app.services.charges import Debtor
from treasury_app.services.recurrences import RecurrenceTerms
from treasury_app.ui.widgets.locations_panel import LocationsPanel


@pytest.fixture
def workspace(open_workspace):
    return open_workspace()


def panel_of(qtbot, workspace, kind: str) -> LocationsPanel:
    panel = LocationsPanel(workspace, kind=kind)
    qtbot.addWidget(panel)
    panel.resize(900, 500)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def answer_confirmation(qtbot, panel: LocationsPanel, button: QMessageBox.StandardButton) -> str:
    qt_wait_until(
        qtbot,
        lambda: panel.confirm_box is not None and panel.confirm_box.isVisible(),
        "panel.confirm_box shown",
    )
    text = panel.confirm_box.text()
    panel.confirm_box.button(button).click()
    return text


def row_texts(panel: LocationsPanel, location_id: int) -> list[str]:
    row = panel.model.row_of(location_id)
    assert row is not None, f"location {location_id} is not listed"
    return [panel.model.index(row, c).data() for c in range(panel.model.columnCount())]


def test_loc_created_listed_linked_and_unlinked(qtbot, run, workspace):
    panel = panel_of(qtbot, workspace, "cob")
    panel.tipo_combo.setCurrentIndex(panel.tipo_combo.findData("cob"))
    created = run(panel.create_location())
    assert created is not None, panel.banner.detail.text()
    assert created.tipo_cob == "cob" and created.linked is None and created.location
    assert str(created.id) in panel.status_label.text()

    # a charge takes the location; the list (GET /loc of the range) shows its txid
    cob = run(
        workspace.charges.create_cob(
            amount=Decimal("12.34"), key=workspace.pix_keys[0], location_id=created.id
        )
    )
    panel.model.set_locations([])
    run(panel.reload())
    assert row_texts(panel, created.id) == [
        str(created.id),
        created.location,
        "cob",
        cob.txid,
        row_texts(panel, created.id)[4],
    ]
    assert row_texts(panel, created.id)[4]  # the creation time

    # unlink: cancelled first (nothing changes), then confirmed
    assert panel.select(created.id) and panel.unlink_button.isEnabled()
    panel._unlink_clicked()
    text = answer_confirmation(qtbot, panel, QMessageBox.StandardButton.Cancel)
    assert str(created.id) in text and cob.txid in text
    qt_wait_until(qtbot, panel.unlink_task.done, "panel.unlink_task done")
    assert panel.unlink_task.result() is None
    assert run(workspace.charges.get_location(created.id)).txid == cob.txid

    panel._unlink_clicked()
    answer_confirmation(qtbot, panel, QMessageBox.StandardButton.Yes)
    qt_wait_until(qtbot, panel.unlink_task.done, "panel.unlink_task done")
    unlinked = panel.unlink_task.result()
    assert unlinked is not None, panel.banner.detail.text()
    assert unlinked.linked is None and row_texts(panel, created.id)[3] == "—"
    assert run(workspace.charges.get_location(created.id)).txid is None
    assert run(workspace.charges.get_cob(cob.txid)).loc is None


def test_locrec_created_listed_linked_and_unlinked(qtbot, run, workspace):
    panel = panel_of(qtbot, workspace, "rec")
    assert panel.tipo_combo is None and panel.model.columnCount() == 4
    created = run(panel.create_location())
    assert created is not None, panel.banner.detail.text()
    assert "/qr/v2/rec/" in created.location and created.linked is None

    today = workspace.charges.today()
    rec = run(
        workspace.recurrences.create_rec(
            RecurrenceTerms(
                contract="CT-UI-LOCREC",
                debtor=Debtor(document="403.644.788-29", name="Fulano de Tal"),
                first_date=today + dt.timedelta(days=1),
                periodicity="MENSAL",
                fixed_amount=Decimal("50.00"),
            )
        )
    )
    run(workspace.recurrences.link_locrec(rec.id_rec, created.id))
    panel.model.set_locations([])
    run(panel.reload())
    texts = row_texts(panel, created.id)
    assert texts[:3] == [str(created.id), created.location, rec.id_rec] and texts[3]

    assert panel.select(created.id)
    panel._unlink_clicked()
    text = answer_confirmation(qtbot, panel, QMessageBox.StandardButton.Yes)
    assert rec.id_rec in text
    qt_wait_until(qtbot, panel.unlink_task.done, "panel.unlink_task done")
    unlinked = panel.unlink_task.result()
    assert unlinked is not None, panel.banner.detail.text()
    assert unlinked.linked is None and row_texts(panel, created.id)[2] == "—"
    assert run(workspace.recurrences.get_locrec(created.id)).id_rec is None


def test_a_reversed_range_is_refused_before_asking_the_bank(qtbot, run, workspace):
    panel = panel_of(qtbot, workspace, "cob")
    panel.start_edit.setDate(panel.end_edit.date().addDays(1))
    run(panel.reload())
    assert panel.banner.isVisible() and panel.model.rowCount() == 0
    assert not panel.unlink_button.isEnabled()
