"""A walk in pt_BR over every screen that shows the bank's codes (issue 33): the infractions
(list and detail), the recurrences, the charges, the audit log, with a charge and an
authorised recurrence of this test on screen: no code of any family (``REFUND_REQUEST``,
``UNDER_REVIEW``, ``DEBITED_PARTICIPANT``, ``MENSAL``, ``NAO_PERMITE``, ``JORNADA_1``,
``APROVADA``, ``ATIVA``, ``DEVOLVIDO``, ``EMAIL``...) and no audit action (``charge.create``)
is shown raw. (The statement's export for Excel is walked in test_export_formats.)"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtWidgets import QTabWidget, QWidget

from tests.ui.test_code_words import ENUMS, SAME_AS_CODE, SANDBOX_INFRACTION_CODES
from tests.ui.test_pt_br_walk import visible_texts
from tests.waiting import qt_turn, qt_wait_until
from treasury_app.api.accounts.models import PaymentStatus
from treasury_app.api.qrcodes.automatico_models import Periodicidade
from treasury_app.services.charges import Debtor
from treasury_app.services.recurrences import RecurrenceTerms
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.main_window import MainWindow
from treasury_app.ui.rule_words import RULES
from treasury_app.ui.status_words import known_actions
from treasury_app.ui.widgets.infractions_panel import InfractionsPanel

CPF = "52998224725"
ACTION = re.compile(r"^[a-z]+(\.[a-z_]+)+$")  # charge.create, payment.resend_held
CODE_PREFIXES = frozenset(code.split(".")[0] for code in known_actions() | set(RULES))
"""The first words of the audit actions and the rules' codes (charge, payment, document...):
a dotted word that starts with another ("contrato.pdf", an attachment) is not a code."""


def _raw_codes() -> set[str]:
    codes: set[str] = {status.value for status in PaymentStatus}
    for enum in ENUMS.values():
        if enum is not None:
            codes |= {member.value for member in enum}
    for extra in SANDBOX_INFRACTION_CODES.values():
        codes |= extra
    # A code that is also the word ("CPF"), or a lower-case one that is an English or
    # Portuguese word in a text ("cob"): not evidence of a raw code on its own.
    return {code for code in codes if code not in SAME_AS_CODE and code.isupper()}


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _pages(window: MainWindow) -> list[tuple[str, QTabWidget, int]]:
    """Every (name, tab widget, index) under the window: its tabs and their sections."""
    found = []
    for widget in window.findChildren(QTabWidget):
        for index in range(widget.count()):
            found.append((widget.tabText(index), widget, index))
    return found


def _settled(qtbot: Any) -> None:
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "the screen's reads over")
    qt_turn(qtbot)


def _problems(window: QWidget, where: str, codes: set[str]) -> list[str]:
    problems = []
    for widget, text in visible_texts(window):
        for part in filter(None, (p.strip() for p in re.split(r"[\n·—:,()]", text))):
            if part in codes or (ACTION.fullmatch(part) and part.split(".")[0] in CODE_PREFIXES):
                problems.append(f"{where} {widget}: {part!r}")
    return problems


def test_no_bank_code_on_screen_in_portuguese(qtbot, run, open_workspace, portuguese) -> None:
    workspace = open_workspace()
    charge = run(workspace.charges.create_cob(amount=Decimal("33.30"), key=workspace.pix_keys[0]))
    service = workspace.recurrences
    today = service.today()
    rec = run(
        service.create_rec(
            RecurrenceTerms(
                contract="CT-WALK-33",
                debtor=Debtor(document=CPF, name="Caminhada da Silva"),
                first_date=today,
                periodicity=Periodicidade.MENSAL,
                fixed_amount=Decimal("50.00"),
                end_date=today + dt.timedelta(days=400),
            )
        )
    )
    run(workspace.sandbox.approve_rec(rec.id_rec))
    codes = _raw_codes()
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.resize(1366, 698)
    window.show()
    qtbot.waitExposed(window)
    problems: list[str] = []
    shown: set[str] = set()

    def look(where: str) -> None:
        _settled(qtbot)
        problems.extend(_problems(window, where, codes))
        shown.update(text for _widget, text in visible_texts(window))

    try:
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            look(window.tabs.tabText(index))
            # Each section of the tab (received Pix, batches, locations; the infractions, the
            # audit log...), loaded when first shown.
            for name, tabs, page in _pages(window):
                if tabs is window.tabs or not tabs.isVisibleTo(window):
                    continue
                tabs.setCurrentIndex(page)
                look(f"{window.tabs.tabText(index)} / {name}")
                panel = tabs.widget(page)
                if isinstance(panel, InfractionsPanel) and panel.proxy.rowCount():
                    for row in range(panel.proxy.rowCount()):  # each detail, with defenses
                        panel.select(panel.proxy.infraction(row).id)
                        look(f"{name} / infraction {row}")
    finally:
        window.set_workspace(None)
    assert problems == []
    # The walk saw what it is about: the recurrence, the charge, an infraction, the audit.
    joined = "\n".join(shown)
    for word in ("Mensal", "Autorizada", "Ativa", "Instituição do pagador", "Cobrança criada"):
        assert word in joined, word
    assert charge.txid in joined and rec.id_rec in joined
