"""The bank's refusal of a Pix key whose owner is not the ``creditorDocument`` sent (issue 36),
in the payments list, in English and in Portuguese: the app's own sandbox bank refuses it over
real mutual TLS (a 422 whose violation names ``creditorDocument``), the journal keeps the
refusal coded (``bank.creditor_mismatch``) and the list says what it was from that code. A
422 about anything else is not said as a mismatch; an entry journaled before refusals were
coded (its error the message alone) still reads as before."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.waiting import qt_wait_until
from treasury_app.api.errors import ApiError, Violation
from treasury_app.domain.documents import mask_document
from treasury_app.ledger.journal import EntryState
from treasury_app.sandbox import seed
from treasury_app.services.bank_refusals import (
    BANK_REFUSED,
    CREDITOR_MISMATCH,
    read_refusal,
    refusal_note,
)
from treasury_app.ui.models.payments_model import Column
from treasury_app.ui.refusals import creditor_mismatch, error_words
from treasury_app.ui.widgets.payments_list import PaymentsList

KEY = "fornecedor@example.com"
NOT_THE_OWNER = "52998224725"  # a valid CPF that is not the key owner's
MISMATCH_EN = (
    "The bank refused it: the Pix key {key} does not belong to the registered payee's CPF/CNPJ "
    "({document}). Nothing was paid; check the key with the payee."
)
MISMATCH_PT = (
    "O banco recusou: a chave Pix {key} não pertence ao CPF/CNPJ do favorecido cadastrado "
    "({document}). Nada foi pago; confirme a chave com o favorecido."
)


@pytest.fixture
def listing(qtbot, run, open_workspace):
    workspace = open_workspace()
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    qtbot.waitExposed(widget)
    qt_wait_until(qtbot, widget.refresh_task.done, "the list read")
    yield widget, workspace
    widget.shutdown()


def test_a_key_not_the_documents_is_said_as_such_in_english_and_portuguese(
    run, listing, qapp, restore_translation
) -> None:
    widget, workspace = listing
    assert seed.document_for(KEY) != NOT_THE_OWNER
    review = run(workspace.payouts.prepare_key(KEY, "9,90", creditor_document=NOT_THE_OWNER))
    entry = run(workspace.payouts.send(review))
    assert entry.state == EntryState.REJECTED
    refusal = read_refusal(entry.error)
    assert refusal is not None and refusal.code == CREDITOR_MISMATCH
    assert refusal.status == 422 and refusal.fields == ("creditorDocument",)
    words = {"key": KEY, "document": mask_document(NOT_THE_OWNER)}
    english = MISMATCH_EN.format(**words)
    row = widget.proxy.row_of(entry.id)
    assert widget.proxy.index(row, Column.STATUS).data() == "Rejected"
    assert widget.proxy.index(row, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole) == english
    widget.select_entry(entry.id)
    assert widget.details["error"].text() == english

    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"
    assert error_words(entry) == MISMATCH_PT.format(**words)


def test_a_422_about_another_field_is_not_a_mismatch(qtbot, run, listing) -> None:
    widget, workspace = listing
    journal = workspace.ledger.journal

    def refused(error: ApiError) -> object:
        review = run(workspace.payouts.prepare_key(KEY, "1,00", creditor_document=NOT_THE_OWNER))
        entry = run(journal.create(review.new_entry()))
        run(journal.update(entry.id, EntryState.SENT, note="sending"))
        note = refusal_note(entry, error)
        return run(journal.update(entry.id, EntryState.REJECTED, final=True, error=note))

    # A 422 whose violation names another field, though its sentence speaks of a document.
    other = refused(
        ApiError(
            422,
            title="Business rule violated",
            detail="O documento do pagador está bloqueado.",
            violacoes=[Violation("bloqueado", "debtorDocument")],
            method="POST",
            path="/api/v2/pix/payments/dict",
        )
    )
    refusal = read_refusal(other.error)  # type: ignore[attr-defined]
    assert refusal is not None and refusal.code == BANK_REFUSED
    assert creditor_mismatch(other) is None  # type: ignore[arg-type]
    qt_wait_until(qtbot, widget.refresh().done, "the list read again")
    widget.select_entry(other.id)  # type: ignore[attr-defined]
    said = widget.details["error"].text()
    assert said.startswith("The bank refused it: O documento do pagador está bloqueado.")
    assert "does not belong" not in said


def test_a_refusal_journaled_before_refusals_were_coded_still_reads(run, listing) -> None:
    _widget, workspace = listing
    journal = workspace.ledger.journal
    path = "[POST /api/v2/pix/payments/dict]"
    texts = {
        # what the journal kept of the bank's mismatch before: the message alone
        f"422 Business rule violated: O documento informado não corresponde ao titular da "
        f"chave. {path}": True,
        f"422 Business rule violated: Documento bloqueado. (debtorDocument: bloqueado) {path}": (
            False
        ),
        f"422 Business rule violated: Saldo insuficiente. {path}": False,
    }
    for text, mismatch in texts.items():
        review = run(
            workspace.payouts.prepare_key(KEY, Decimal("2.00"), creditor_document=NOT_THE_OWNER)
        )
        entry = run(journal.create(review.new_entry()))
        run(journal.update(entry.id, EntryState.SENT, note="sending"))
        entry = run(journal.update(entry.id, EntryState.REJECTED, final=True, error=text))
        assert read_refusal(entry.error) is None
        assert (creditor_mismatch(entry) is not None) is mismatch, text
        if not mismatch:
            assert error_words(entry).startswith("The bank refused it: "), text
