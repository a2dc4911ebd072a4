"""The audit log in Settings: every row reachable page by page, filtered by action, text and
date range, and exported as a spreadsheet reads it."""

from __future__ import annotations

import csv
import io
import secrets
from decimal import Decimal

from PySide6.QtCore import QDate

from tests.waiting import qt_wait_until
from treasury_app.ledger import open_ledger
from treasury_app.ui.widgets.audit_panel import PAGE_SIZE, AuditPanel


def _shown(qtbot, panel: AuditPanel) -> None:
    """Wait until the page the panel asked for is shown (the audit is read in the background)."""
    task = panel.load_task
    assert task is not None
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() is True


def test_pages_filters_and_export(qtbot, run, tmp_path) -> None:
    ledger = open_ledger(tmp_path / "audit.sqlite3", profile="p", user="carla")
    tag = secrets.token_hex(3)

    async def record() -> None:
        for i in range(450):
            await ledger.audit.record(
                "payout.send" if i % 2 else "receipt.save",
                "accepted" if i % 2 else "ok",
                reference=f"{tag}-{i:04d}",
                amount=Decimal("10.00") if i % 2 else None,
            )

    run(record())
    panel = AuditPanel(ledger)
    qtbot.addWidget(panel)
    _shown(qtbot, panel)
    assert panel.total == 450 and panel.table.rowCount() == PAGE_SIZE
    assert panel.page_label.text() == "1–200 of 450"
    assert panel.table.item(0, 4).text() == f"{tag}-0449"  # newest first
    assert not panel.previous_button.isEnabled() and panel.next_button.isEnabled()
    panel.next_button.click()
    _shown(qtbot, panel)
    panel.next_button.click()
    _shown(qtbot, panel)
    assert panel.page_label.text() == "401–450 of 450" and not panel.next_button.isEnabled()
    assert panel.table.item(panel.table.rowCount() - 1, 4).text() == f"{tag}-0000"

    panel.action_combo.setCurrentIndex(panel.action_combo.findData("payout.send"))
    _shown(qtbot, panel)
    assert panel.total == 225 and panel.page == 0
    assert {panel.table.item(r, 2).text() for r in range(panel.table.rowCount())} == {"Pix payout"}
    panel.text_edit.setText(f"{tag}-0101")
    _shown(qtbot, panel)
    assert panel.total == 1 and panel.table.item(0, 5).text() == "R$ 10,00"

    panel.text_edit.clear()
    panel.action_combo.setCurrentIndex(0)
    panel.range_check.setChecked(True)
    panel.end_edit.setDate(QDate(2020, 1, 1))
    panel.start_edit.setDate(QDate(2019, 1, 1))
    _shown(qtbot, panel)
    assert panel.total == 0 and panel.page_label.text() == "0–0 of 0"
    panel.range_check.setChecked(False)
    _shown(qtbot, panel)

    path = tmp_path / "auditoria.csv"
    assert run(panel.export_csv(path)) == 450  # every page, not only the one shown
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8-sig")), delimiter=";"))
    assert rows[0][2] == "Action" and len(rows) == 451
    assert rows[1][4] == f"{tag}-0449" and rows[1][5] == "10,00"
    panel.shutdown()
    run(ledger.close())


def test_an_export_is_good_news_not_an_error(qtbot, run, tmp_path) -> None:
    import re

    from PySide6.QtGui import QColor

    def hue(widget) -> str:
        """Whether the text colour a style sheet gives is green or red."""
        found = re.search(r"(?<![-\w])color: (#[0-9a-f]{6})", widget.styleSheet())
        assert found, widget.styleSheet()
        color = QColor(found.group(1))
        return "green" if color.green() > color.red() else "red"

    ledger = open_ledger(tmp_path / "audit.sqlite3", profile="p", user="carla")
    run(ledger.audit.record("payout.send", "accepted", reference="x-1"))
    panel = AuditPanel(ledger)
    qtbot.addWidget(panel)
    panel.show()
    _shown(qtbot, panel)
    path = tmp_path / "auditoria.csv"
    assert run(panel.export_to(str(path))) == 1
    banner = panel.banner
    assert banner.isVisible() and banner.title.text() == "Exported"
    assert banner.detail.text() == f"1 row(s) saved to {path}"
    assert banner.tone == "success"
    assert hue(banner) == hue(banner.title) == "green"  # not the red error box
    # A problem afterwards is an error again.
    run(panel.export_to(str(tmp_path / "missing-folder" / "x.csv")))
    assert banner.tone == "error" and banner.title.text() != "Exported"
    assert hue(banner) == hue(banner.title) == "red"
    panel.shutdown()
    run(ledger.close())


def test_an_amount_typed_the_brazilian_way_finds_the_same_rows(qtbot, run, tmp_path) -> None:
    ledger = open_ledger(tmp_path / "audit.sqlite3", profile="p", user="carla")
    run(ledger.audit.record("payout.send", "accepted", reference="big", amount=Decimal("1234.56")))
    run(ledger.audit.record("payout.send", "accepted", reference="small", amount=Decimal("7.50")))
    panel = AuditPanel(ledger)
    qtbot.addWidget(panel)
    _shown(qtbot, panel)
    for typed, found in (
        ("1234.56", ["big"]),
        ("1.234,56", ["big"]),
        ("R$ 1.234,56", ["big"]),
        ("R$1.234,56", ["big"]),
        ("1234,56", ["big"]),
        ("7,5", ["small"]),
        ("9,99", []),
    ):
        panel.text_edit.setText(typed)
        _shown(qtbot, panel)
        shown = [panel.table.item(r, 4).text() for r in range(panel.table.rowCount())]
        assert shown == found, typed
    panel.shutdown()
    run(ledger.close())
