"""The "New recurrence" wizard (Pix Automático): choose how the payer authorises it (the four
journeys of the bank's contract), type the terms and what the journey needs, review, create;
then show the confirmation request (journey 1) or the QR Code to present to the payer.

Pages: journey → terms → payer's account (journey 1) or first charge (journeys 3, 4) → review →
result. Moving forward checks each page locally (nothing is sent); only "Create" talks to the
bank, through :func:`~treasury_app.ui.operation.run_operation`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.errors import ApiFailure, TransportFailure
from treasury_app.api.qrcodes.automatico_models import RecCompleta, RecStatus
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import ChargeQrError, charge_qr
from treasury_app.services.recurrences import (
    JourneyIncomplete,
    QrJourney,
    SolicitationJourney,
)
from treasury_app.services.sandbox_console import payer_of
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.models.recurrences_model import (
    closing_note,
    closing_text,
    enum_text,
    status_and_closing,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.sandbox_actions import sandbox_button, simulated
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.theme import text_style
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.qr_code_view import QrCodeView
from treasury_app.ui.widgets.recurrence_terms_form import (
    JourneyChargeForm,
    PayerAccountForm,
    Problem,
    RecurrenceTermsForm,
)

__all__ = ["JOURNEYS", "RecurrenceWizard", "pages_of"]

JOURNEYS = (1, 2, 3, 4)

JOURNEY_PAGE, TERMS_PAGE, DETAILS_PAGE, REVIEW_PAGE, RESULT_PAGE = range(5)

_TITLE_STYLE = "font-size: 13pt; font-weight: bold;"

log = logging.getLogger(__name__)


def pages_of(journey: int) -> list[int]:
    """The pages a journey goes through, in order (journey 2 needs no details page)."""
    if journey == 2:
        return [JOURNEY_PAGE, TERMS_PAGE, REVIEW_PAGE, RESULT_PAGE]
    return [JOURNEY_PAGE, TERMS_PAGE, DETAILS_PAGE, REVIEW_PAGE, RESULT_PAGE]


class RecurrenceWizard(QDialog):
    """Create a recurrence through one of the four authorisation journeys.

    Open it with :func:`~treasury_app.ui.async_tools.ask` (or ``open()``). "Create" runs
    :meth:`create_recurrence` as :attr:`create_task` (tests may await it directly; it is not
    called ``create``, which would hide ``QWidget.create``).
    After a creation, :attr:`result_rec` is the ``idRec``, :attr:`outcome` the service's
    answer, and :attr:`recurrence_created` has been emitted (also when a later step of the
    journey failed but the recurrence exists).
    """

    recurrence_created = Signal(str)
    """The ``idRec`` of the recurrence just created: the tab refreshes its list."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.result_rec: str | None = None
        self.outcome: SolicitationJourney | QrJourney | None = None
        self.stopped: JourneyIncomplete | None = None
        self.unknown: TransportFailure | None = None
        self.create_task: asyncio.Task[Any] | None = None
        self.status_task: asyncio.Task[Any] | None = None
        self.sandbox_task: asyncio.Task[Any] | None = None
        self.is_sandbox = workspace.session.profile.environment == "sandbox"
        self.setObjectName("recurrence-wizard")
        self.setWindowTitle(self.tr("New recurrence (Pix Automático)"))
        resize_to_fit(self, 640, 620)
        today = workspace.recurrences.today()

        self.title = QLabel(self)
        self.title.setObjectName("wizard-title")
        self.title.setStyleSheet(_TITLE_STYLE)
        self.banner = ErrorBanner(self)
        self.pages = QStackedWidget(self)
        self.terms_form = RecurrenceTermsForm(today, self)
        self.payer_form = PayerAccountForm(self)
        self.charge_form = JourneyChargeForm(today, workspace.pix_keys, self)
        self.details = QStackedWidget(self)
        self.details.addWidget(self.payer_form)
        self.details.addWidget(self.charge_form)
        self.pages.addWidget(self._build_journey_page())
        self.pages.addWidget(self.terms_form)
        self.pages.addWidget(self.details)
        self.pages.addWidget(self._build_review_page())
        self.pages.addWidget(self._build_result_page())

        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("wizard-cancel")
        self.cancel_button.clicked.connect(self.reject)
        self.back_button = QPushButton(self.tr("< Back"), self)
        self.back_button.setObjectName("wizard-back")
        self.back_button.clicked.connect(self.go_back)
        self.next_button = QPushButton(self.tr("Next >"), self)
        self.next_button.setObjectName("wizard-next")
        self.next_button.setDefault(True)
        self.next_button.clicked.connect(self.go_next)
        self.create_button = QPushButton(self.tr("Create"), self)
        self.create_button.setObjectName("wizard-create")
        self.create_button.clicked.connect(self._create_clicked)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.setObjectName("wizard-close")
        self.close_button.clicked.connect(self.accept)
        buttons = QHBoxLayout()
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        for button in (self.back_button, self.next_button, self.create_button, self.close_button):
            buttons.addWidget(button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.banner)
        layout.addWidget(self.pages, 1)
        layout.addLayout(buttons)
        self._show_page(JOURNEY_PAGE)

    # -- building --------------------------------------------------------------------------------

    def _build_journey_page(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        layout.addWidget(QLabel(self.tr("How will the payer authorise the recurrence?"), page))
        self.journey_group = QButtonGroup(page)
        self.journey_buttons: dict[int, QRadioButton] = {}
        choices = (
            (
                1,
                self.tr("Request through the payer's bank (journey 1)"),
                self.tr(
                    "We send a confirmation request to the payer's bank, which asks them to "
                    "authorise it in their banking app; no QR Code, nothing paid now."
                ),
            ),
            (
                2,
                self.tr("Recurrence QR Code (journey 2)"),
                self.tr(
                    "You show the payer a QR Code that only authorises the recurrence; the first "
                    "charge comes later, on its due date."
                ),
            ),
            (
                3,
                self.tr("QR Code with a payment now (journey 3)"),
                self.tr(
                    "The payer scans one QR Code that pays an immediate charge (the first "
                    "instalment, for example) and authorises the recurrence at the same time."
                ),
            ),
            (
                4,
                self.tr("QR Code with a due-date charge (journey 4)"),
                self.tr(
                    "The payer scans one QR Code that pays a charge with a due date and "
                    "authorises the recurrence at the same time."
                ),
            ),
        )
        for journey, text, explanation in choices:
            button = QRadioButton(text, page)
            button.setObjectName(f"journey-{journey}")
            self.journey_group.addButton(button, journey)
            self.journey_buttons[journey] = button
            note = QLabel(explanation, page)
            note.setObjectName(f"journey-{journey}-explanation")
            note.setWordWrap(True)
            note.setContentsMargins(24, 0, 0, 8)
            layout.addWidget(button)
            layout.addWidget(note)
        self.journey_buttons[2].setChecked(True)
        layout.addStretch(1)
        return page

    def _build_review_page(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        intro = QLabel(
            self.tr("Check the terms: the payer will authorise exactly these. Then click Create."),
            page,
        )
        intro.setWordWrap(True)
        self.review_form = QFormLayout()
        self.review_labels: dict[str, QLabel] = {}
        layout.addWidget(intro)
        layout.addLayout(self.review_form)
        layout.addStretch(1)
        return page

    def _build_result_page(self) -> QWidget:
        page = QWidget(self)
        self.outcome_label = QLabel(page)
        self.outcome_label.setObjectName("result-outcome")
        self.outcome_label.setWordWrap(True)
        self.outcome_label.setStyleSheet(f"{text_style('success', self)} font-weight: bold;")
        self.rec_id_label = QLabel(page)
        self.rec_id_label.setObjectName("result-idrec")
        self.rec_status_label = QLabel(page)
        self.rec_status_label.setObjectName("result-rec-status")
        self.solicrec_id_label = QLabel(page)
        self.solicrec_id_label.setObjectName("result-idsolicrec")
        self.solicrec_status_label = QLabel(page)
        self.solicrec_status_label.setObjectName("result-solicrec-status")
        self.charge_label = QLabel(page)
        self.charge_label.setObjectName("result-charge")
        self.charge_label.setWordWrap(True)
        for label in (self.rec_id_label, self.solicrec_id_label, self.charge_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_form = QFormLayout()
        self.result_form.addRow(self.tr("Recurrence (idRec)"), self.rec_id_label)
        self.result_form.addRow(self.tr("Status"), self.rec_status_label)
        self.result_form.addRow(self.tr("Confirmation request"), self.solicrec_id_label)
        self.result_form.addRow(self.tr("Request status"), self.solicrec_status_label)
        self.result_form.addRow(self.tr("Charge"), self.charge_label)
        self.refresh_button = QPushButton(self.tr("Refresh status"), page)
        self.refresh_button.setObjectName("result-refresh")
        self.refresh_button.clicked.connect(self._refresh_clicked)
        self.sandbox_button = sandbox_button(
            page,
            self.tr("Sandbox: authorise as the payer"),
            "result-sandbox-authorise",
            self.tr(
                "Sandbox only: approves the recurrence (journeys 1 and 2) or pays the charge "
                "(journeys 3 and 4) as the payer would. With a real bank the payer does this "
                "in their own banking app."
            ),
            self._sandbox_clicked,
        )
        self.sandbox_button.hide()

        self.qr_view = QrCodeView(page)
        self.qr_view.setObjectName("result-qr")
        self.qr_kind_label = QLabel(page)
        self.qr_kind_label.setObjectName("result-qr-kind")
        self.qr_kind_label.setWordWrap(True)
        self.copy_text = QPlainTextEdit(page)
        self.copy_text.setObjectName("result-copia-e-cola")
        self.copy_text.setReadOnly(True)
        self.copy_text.setMaximumHeight(70)
        self.copy_button = QPushButton(self.tr("Copy"), page)
        self.copy_button.setObjectName("result-copy")
        self.copy_button.setToolTip(self.tr("Copy the Pix Copia e Cola text"))
        self.copy_button.clicked.connect(self.copy_code)
        copy_row = QHBoxLayout()
        copy_row.addWidget(self.copy_text, 1)
        copy_row.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        self.qr_box = QWidget(page)
        qr_layout = QVBoxLayout(self.qr_box)
        qr_layout.setContentsMargins(0, 0, 0, 0)
        qr_layout.addWidget(self.qr_kind_label)
        qr_layout.addWidget(self.qr_view, 1)
        qr_layout.addWidget(QLabel(self.tr("Pix Copia e Cola"), self.qr_box))
        qr_layout.addLayout(copy_row)

        layout = QVBoxLayout(page)
        layout.addWidget(self.outcome_label)
        layout.addLayout(self.result_form)
        actions = QHBoxLayout()
        actions.addWidget(self.refresh_button)
        actions.addWidget(self.sandbox_button)
        actions.addStretch(1)
        layout.addLayout(actions)
        layout.addWidget(self.qr_box, 1)
        return page

    # -- navigation ------------------------------------------------------------------------------

    def journey(self) -> int:
        """The journey chosen on the first page (1 to 4)."""
        return self.journey_group.checkedId()

    def current_page(self) -> int:
        return self.pages.currentIndex()

    def go_next(self) -> bool:
        """Check the current page locally and move to the next one; ``False`` when refused."""
        page = self.current_page()
        if page in (REVIEW_PAGE, RESULT_PAGE):
            return False
        self.banner.clear()  # first: unmarking the bank's marks must not undo the form's
        problems = self._page_problems(page)
        if problems:
            self._show_problems(problems)
            return False
        order = pages_of(self.journey())
        following = order[order.index(page) + 1]
        if following == DETAILS_PAGE:
            self._prepare_details()
        if following == REVIEW_PAGE:
            self._fill_review()
        self._show_page(following)
        return True

    def go_back(self) -> None:
        page = self.current_page()
        if page in (JOURNEY_PAGE, RESULT_PAGE):
            return
        order = pages_of(self.journey())
        self.banner.clear()
        self._show_page(order[order.index(page) - 1])

    def _show_page(self, page: int) -> None:
        self.pages.setCurrentIndex(page)
        titles = {
            JOURNEY_PAGE: self.tr("1. How the payer authorises"),
            TERMS_PAGE: self.tr("2. Terms of the recurrence"),
            DETAILS_PAGE: self.tr("3. Payer's account")
            if self.journey() == 1
            else self.tr("3. Charge paid with the QR Code"),
            REVIEW_PAGE: self.tr("Review"),
            RESULT_PAGE: self.tr("Done"),
        }
        self.title.setText(titles[page])
        done = page == RESULT_PAGE
        self.back_button.setVisible(not done)
        self.back_button.setEnabled(page != JOURNEY_PAGE)
        self.next_button.setVisible(page not in (REVIEW_PAGE, RESULT_PAGE))
        self.create_button.setVisible(page == REVIEW_PAGE)
        started = self._started()
        self.create_button.setEnabled(page == REVIEW_PAGE and not started)
        self.cancel_button.setVisible(not done and not started)
        self.close_button.setVisible(done or started)
        # Enter and the focus go to the safe choice: Next on the way, Back on the review (never
        # Create, which writes at the bank, and never Cancel, which loses what was typed).
        review = page == REVIEW_PAGE
        self.create_button.setAutoDefault(False)
        self.cancel_button.setAutoDefault(False)
        self.next_button.setDefault(not review and not done)
        self.back_button.setDefault(review)
        if review:
            self.back_button.setFocus(Qt.FocusReason.OtherFocusReason)
        elif done:
            self.close_button.setDefault(True)

    def _started(self) -> bool:
        """Something may exist at the bank: a second "Create" could make a duplicate."""
        return self.result_rec is not None or self.stopped is not None or self.unknown is not None

    def _page_problems(self, page: int) -> list[Problem]:
        if page == TERMS_PAGE:
            return self.terms_form.problems()
        if page == DETAILS_PAGE:
            return self._details_form().problems()
        return []

    def _details_form(self) -> PayerAccountForm | JourneyChargeForm:
        return self.payer_form if self.journey() == 1 else self.charge_form

    def _prepare_details(self) -> None:
        journey = self.journey()
        self.details.setCurrentWidget(self._details_form())
        if journey == 1 and not self.payer_form.document_edit.text().strip():
            self.payer_form.document_edit.setText(self.terms_form.document_edit.text().strip())
        if journey in (3, 4):
            self.charge_form.set_journey(journey)
            fixed = self.terms_form.amount()
            if self.charge_form.amount_edit.is_empty() and fixed is not None:
                self.charge_form.amount_edit.set_value(fixed)

    def _show_problems(self, problems: list[Problem]) -> None:
        detail = "\n".join(f"• {message}" for _field, message in problems)
        self.banner.show_message(self.tr("Please check the form"), detail)

    def all_problems(self) -> list[Problem]:
        """Every local check of the pages the chosen journey uses (nothing is sent)."""
        found = self.terms_form.problems()
        if self.journey() != 2:
            found += self._details_form().problems()
        return found

    # -- review ----------------------------------------------------------------------------------

    def _fill_review(self) -> None:
        while self.review_form.rowCount():
            self.review_form.removeRow(0)
        self.review_labels.clear()
        journeys = {
            1: self.tr("Confirmation request through the payer's bank (journey 1)"),
            2: self.tr("Recurrence QR Code (journey 2)"),
            3: self.tr("Composite QR Code with an immediate charge (journey 3)"),
            4: self.tr("Composite QR Code with a due-date charge (journey 4)"),
        }
        rows = [("journey", self.tr("Authorisation"), journeys[self.journey()])]
        rows += self.terms_form.summary()
        if self.journey() != 2:
            rows += self._details_form().summary()
        for key, title, value in rows:
            label = QLabel(value, self)
            label.setObjectName(f"review-{key}")
            label.setWordWrap(True)
            self.review_labels[key] = label
            self.review_form.addRow(title, label)

    # -- creating --------------------------------------------------------------------------------

    def fields(self) -> dict[str, QWidget]:
        """Wire field names to widgets for the chosen journey (for the bank's ``violacoes``)."""
        fields = dict(self.terms_form.fields())
        if self.journey() != 2:
            fields.update(self._details_form().fields())
        return fields

    def _create_clicked(self) -> None:
        if self.create_task is not None and not self.create_task.done():
            return
        self.create_task = spawn_for(self, self.create_recurrence(), name="recurrence-create")

    async def create_recurrence(self) -> str | None:
        """Create the recurrence through the chosen journey; its ``idRec`` (``None`` when the
        form is refused locally, the bank refuses it or its answer is lost; the banner says why)."""
        if self._started():
            return self.result_rec  # created once (or maybe): never twice from the same wizard
        self.banner.clear()
        problems = self.all_problems()
        if problems:
            self._show_problems(problems)
            self._go_to_marked()
            return None
        controls = [self.create_button, self.back_button, self.cancel_button]
        outcome = await run_operation(
            self._guarded(self._start()),
            controls=controls,
            banner=self.banner,
            fields=self.fields(),
            changes_ledger=True,
        )
        if outcome is None:
            self._go_to_marked()
            return None
        if isinstance(outcome, JourneyIncomplete):
            return self._incomplete(outcome)
        if isinstance(outcome, TransportFailure):
            self._outcome_unknown(outcome)
            return None
        self.outcome = outcome
        self.result_rec = outcome.rec.id_rec
        self._show_result(outcome)
        self.recurrence_created.emit(self.result_rec)
        return self.result_rec

    def _start(self) -> Awaitable[SolicitationJourney | QrJourney]:
        service = self.workspace.recurrences
        terms = self.terms_form.terms()
        journey = self.journey()
        if journey == 1:
            return service.start_journey_1(
                terms,
                payer=self.payer_form.payer(),
                expires_at=service.now() + self.payer_form.expires_in(),
            )
        if journey == 2:
            return service.start_journey_2(terms)
        charge = self.charge_form
        if journey == 3:
            return service.start_journey_3(
                terms,
                amount=charge.amount() or "",
                key=charge.key() or "",
                description=charge.description(),
                expires_in=charge.expires_in(),
            )
        return service.start_journey_4(
            terms,
            amount=charge.amount() or "",
            key=charge.key() or "",
            due_date=charge.due_date(),
            days_valid_after_due=charge.after_due_spin.value(),
            description=charge.description(),
        )

    @staticmethod
    async def _guarded(
        work: Awaitable[SolicitationJourney | QrJourney],
    ) -> SolicitationJourney | QrJourney | JourneyIncomplete | TransportFailure:
        # A journey stopped half-way is not a plain failure: what was created must be shown.
        # Nor is a lost answer: the bank may have created the recurrence (POST /rec has no
        # idempotency key, so it cannot be sent again safely).
        try:
            return await work
        except JourneyIncomplete as stopped:
            return stopped
        except TransportFailure as failure:
            if not failure.outcome_unknown:
                raise
            return failure

    def _stopped_words(self, stopped: JourneyIncomplete) -> str:
        """What was created and what was not, in the UI's language (the service's sentence
        is for the log)."""
        rec = stopped.rec.id_rec if stopped.rec is not None else ""
        words = {
            "solicrec": self.tr(
                "The recurrence %1 was created but the confirmation request was not."
            ),
            "cob": self.tr("The recurrence %1 was created but its charge was not."),
            "rec": self.tr("The charge %2 was created but its recurrence was not."),
            "dadosQR": self.tr("The recurrence %1 was created but its QR Code could not be read."),
        }
        text = words.get(stopped.step, self.tr("Part of the recurrence was created."))
        return text.replace("%1", rec).replace("%2", stopped.txid or "")

    def _incomplete(self, stopped: JourneyIncomplete) -> str | None:
        cause = stopped.__cause__
        if isinstance(cause, ApiFailure):
            self.banner.show_error(cause, self.fields())  # marks the fields it names
        else:
            self.banner.show_message("")
        self.banner.title.setText(self.tr("The journey stopped half-way"))
        log.warning("journey stopped at %s: %s", stopped.step, stopped)
        self.banner.detail.setText(
            self._stopped_words(stopped)
            + " "
            + self.tr("Finish or cancel it from the recurrences list.")
        )
        # Something exists at the bank now: a second "Create" would make a duplicate.
        self.stopped = stopped
        self.create_button.setEnabled(False)
        self.cancel_button.hide()
        self.close_button.show()
        rec = stopped.rec
        if rec is None:
            return None
        self.result_rec = rec.id_rec
        self.recurrence_created.emit(rec.id_rec)
        return rec.id_rec

    def _outcome_unknown(self, failure: TransportFailure) -> None:
        """No answer to a request that reached the bank: the recurrence may exist. Creating it
        again would make a duplicate (and a second request to the payer), so Create stays
        disabled and the person is told to look for it first."""
        self.unknown = failure
        contract = self.terms_form.contract_edit.text().strip()
        self.banner.show_message(
            self.tr("The bank's answer was lost: the recurrence may have been created"),
            self.tr(
                "The request reached the bank but no answer came back (%1). Check the "
                "Recurrences list for contract %2 before trying again: creating it again "
                "could make a duplicate recurrence and a second request to the payer."
            )
            .replace("%1", failure_words(failure).rstrip("."))  # by its kind, never its English
            .replace("%2", contract),
        )
        self.create_button.setEnabled(False)
        self.cancel_button.hide()
        self.close_button.show()

    def _go_to_marked(self) -> None:
        """Show the first page holding a field a check or the bank complained about."""
        for page, form in (
            (TERMS_PAGE, self.terms_form),
            (DETAILS_PAGE, self._details_form()),
        ):
            if page == DETAILS_PAGE and self.journey() == 2:
                continue
            if any(w.property("invalid") for w in form.fields().values()):
                self._show_page(page)
                return

    # -- result ----------------------------------------------------------------------------------

    def _show_result(self, outcome: SolicitationJourney | QrJourney) -> None:
        rec = outcome.rec
        self.rec_id_label.setText(rec.id_rec)
        self._show_rec_status(rec)
        is_request = isinstance(outcome, SolicitationJourney)
        self.result_form.setRowVisible(self.solicrec_id_label, is_request)
        self.result_form.setRowVisible(self.solicrec_status_label, is_request)
        self.sandbox_button.setVisible(self.is_sandbox)
        if isinstance(outcome, SolicitationJourney):
            self.solicrec_id_label.setText(outcome.solicrec.id_solic_rec)
            self.solicrec_status_label.setText(
                code_word(Family.SOLICREC_STATUS, outcome.solicrec.status)
            )
            self.outcome_label.setText(
                self.tr(
                    "Recurrence created and confirmation request sent: the payer's bank will "
                    "ask them to authorise it."
                )
            )
            self.result_form.setRowVisible(self.charge_label, False)
            self.qr_box.hide()
        else:
            self._show_qr(outcome)
        self._show_page(RESULT_PAGE)

    def _show_rec_status(self, rec: RecCompleta) -> None:
        """The recurrence's status, with why it ended when it did (refused, cancelled); the
        sandbox's payer has nothing left to authorise once it is no longer waiting for them."""
        status = code_word(Family.REC_STATUS, rec.status)
        closing = closing_text(rec.encerramento)
        self.rec_status_label.setText(status_and_closing(status, closing))
        self.rec_status_label.setToolTip(closing_note(rec.encerramento))
        if enum_text(rec.status) != RecStatus.CRIADA.value:
            self.sandbox_button.setEnabled(False)

    def _show_qr(self, outcome: QrJourney) -> None:
        charge = outcome.charge
        self.result_form.setRowVisible(self.charge_label, charge is not None)
        if charge is not None:
            self.charge_label.setText(
                self.tr("%1, txid %2, %3")
                .replace("%1", format_brl(charge.valor.original))
                .replace("%2", charge.txid)
                .replace("%3", code_word(Family.COB_STATUS, charge.status))
            )
            self.outcome_label.setText(
                self.tr(
                    "Recurrence and charge created: show this QR Code to the payer. Paying the "
                    "charge authorises the recurrence."
                )
            )
        else:
            self.outcome_label.setText(
                self.tr(
                    "Recurrence created: show this QR Code to the payer, who authorises the "
                    "recurrence by scanning it."
                )
            )
        self.copy_text.setPlainText(outcome.pix_copia_e_cola)
        self.qr_box.show()
        try:
            qr = charge_qr(outcome.pix_copia_e_cola)
        except (ChargeQrError, DomainError) as error:
            self.qr_kind_label.setStyleSheet(f"{text_style('warning', self)} font-weight: bold;")
            self.qr_kind_label.setText(
                self.tr("The bank's code could not be read: %1").replace("%1", failure_words(error))
            )
            return
        self.qr_view.set_matrix(qr.matrix)
        self.qr_kind_label.setStyleSheet("")
        self.qr_kind_label.setText(
            self.tr("Composite QR Code: pays the charge and authorises the recurrence.")
            if qr.code.is_composite and not qr.code.is_recurrence_only
            else self.tr("Recurrence QR Code: authorises the recurrence only.")
        )

    def copy_code(self) -> None:
        """Put the Pix Copia e Cola text on the clipboard."""
        QGuiApplication.clipboard().setText(self.copy_text.toPlainText())
        self.copy_button.setText(self.tr("Copied"))

    def _refresh_clicked(self) -> None:
        if self.status_task is not None and not self.status_task.done():
            return
        self.status_task = spawn_for(self, self.refresh_status(), name="recurrence-status")

    async def refresh_status(self) -> None:
        """Read the recurrence (and its confirmation request) again from the bank."""
        if self.outcome is None:
            return
        service = self.workspace.recurrences
        rec = await run_operation(
            service.get_rec(self.outcome.rec.id_rec),
            controls=[self.refresh_button],
            banner=self.banner,
        )
        if rec is None:
            return
        self._show_rec_status(rec)
        if isinstance(self.outcome, SolicitationJourney):
            solicrec = await run_operation(
                service.get_solicrec(self.outcome.solicrec.id_solic_rec),
                controls=[self.refresh_button],
                banner=self.banner,
            )
            if solicrec is not None:
                self.solicrec_status_label.setText(
                    code_word(Family.SOLICREC_STATUS, solicrec.status)
                )

    def _sandbox_clicked(self) -> None:
        if self.sandbox_task is not None and not self.sandbox_task.done():
            return
        self.sandbox_task = spawn_for(self, self.sandbox_authorise(), name="recurrence-sandbox")

    async def sandbox_authorise(self) -> bool:
        """Sandbox only: authorise the recurrence as the payer would, then read its status."""
        if not self.is_sandbox or self.outcome is None:
            return False
        debtor = self.terms_form.terms().debtor
        payer = payer_of(debtor.name, debtor.document)
        done = await run_operation(
            simulated(self.workspace.sandbox.authorise(self.outcome, payer)),
            controls=[self.sandbox_button],
            banner=self.banner,
        )
        if done is None:
            return False
        self.sandbox_button.setEnabled(False)  # once: a second payment would be refused
        await self.refresh_status()
        return True
