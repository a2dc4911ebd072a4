"""Wire models of the Accounts API (Cash Out, balances, statement, webhooks, infractions,
boletos).

The spec shows few of these bodies; where it says "not shown" the shapes follow what the
sandbox bank documents (``treasury_app/sandbox/README.md``, "Shapes chosen where the spec says
not shown") and what integrations of this API (ONZ) read. Every answer is wrapped in
``{"data": ...}``; lists add ``meta`` (:class:`PageMeta`, pages from 1), read as :class:`Page`.

Requests use closed enums (we only send values the bank documents); responses use
:func:`~treasury_app.api.modeling.open_enum` so a status or type the bank adds is kept as a
plain ``str`` instead of failing. Amounts are :data:`AccountsMoney` (``Decimal``, exact JSON
numbers), timestamps :data:`UtcDatetime`, dates :data:`ApiDate`.
"""

from __future__ import annotations

import base64
import binascii
from decimal import Decimal
from enum import StrEnum
from typing import Any, Generic, TypeVar

from pydantic import Field

from treasury_app.api.modeling import AccountsMoney, ApiDate, ApiModel, UtcDatetime, open_enum
from treasury_app.domain.pixkey import KeyType

T = TypeVar("T")

ResourceId = int | str
"""Ids of payments, entries, webhooks and defenses: integers at the sandbox and at ONZ, but a
bank writing them as text must not break the app."""


# --------------------------------------------------------------------------------------------
# Enumerations


class PaymentStatus(StrEnum):
    """Status of a Pix payment (Cash Out) or of a slip payment (Boleto)."""

    ON_QUEUE = "ON_QUEUE"
    PROCESSING = "PROCESSING"
    SETTLED = "SETTLED"
    LIQUIDATED = "LIQUIDATED"
    CANCELED = "CANCELED"
    REJECTED = "REJECTED"
    WAITING_APPROVAL = "WAITING_APPROVAL"
    WAITING_CONFIRMATION = "WAITING_CONFIRMATION"
    REFUNDED = "REFUNDED"
    PARTIALLY_REFUNDED = "PARTIALLY_REFUNDED"


class PaymentFlow(StrEnum):
    """``INSTANT`` processes at once; ``APPROVAL_REQUIRED`` waits for approval in the console."""

    INSTANT = "INSTANT"
    APPROVAL_REQUIRED = "APPROVAL_REQUIRED"


class Priority(StrEnum):
    """Priority of a Pix payment; ``HIGH`` requires ``creditorDocument``."""

    HIGH = "HIGH"
    NORM = "NORM"


PixKeyType = KeyType
"""``pixKeyType``: CPF, CNPJ, EMAIL, PHONE, EVP (the domain's :class:`KeyType`)."""


class AccountType(StrEnum):
    """ISO account types: checking, savings, salary, prepaid (transactional)."""

    CACC = "CACC"
    SVGS = "SVGS"
    SLRY = "SLRY"
    TRAN = "TRAN"


class CreditDebitType(StrEnum):
    CREDIT = "CREDIT"
    DEBIT = "DEBIT"


class TransactionType(StrEnum):
    """Type of a statement entry (``PIX``/``BILLET`` also type payments)."""

    PIX = "PIX"
    BILLET = "BILLET"
    REFUND = "REFUND"
    FEE = "FEE"
    TED = "TED"


class LocalInstrument(StrEnum):
    """How a Pix was initiated: by key (DICT), static or dynamic QR, or bank data (MANU)."""

    DICT = "DICT"
    QRES = "QRES"
    QRDN = "QRDN"
    MANU = "MANU"
    INIC = "INIC"


class WebhookType(StrEnum):
    """The four event webhooks; ``value.lower()`` is the path segment."""

    TRANSFER = "TRANSFER"
    RECEIVE = "RECEIVE"
    REFUND = "REFUND"
    CASHOUT = "CASHOUT"


class WebhookMethod(StrEnum):
    POST = "POST"
    PUT = "PUT"


class InfractionStatus(StrEnum):
    OPEN = "OPEN"
    UNDER_REVIEW = "UNDER_REVIEW"
    CLOSED = "CLOSED"


class InfractionReason(StrEnum):
    FRAUD = "FRAUD"
    REFUND_REQUEST = "REFUND_REQUEST"


class DefenseStatus(StrEnum):
    SUBMITTED = "SUBMITTED"


class BilletType(StrEnum):
    """Bank slip (47-digit line) or utility/tax collection slip (48-digit line)."""

    BANK = "BANK"
    COLLECTION = "COLLECTION"


# Open variants for responses: known values become members, unknown strings are kept.
PaymentStatusValue = open_enum(PaymentStatus)
PaymentFlowValue = open_enum(PaymentFlow)
PriorityValue = open_enum(Priority)
PixKeyTypeValue = open_enum(KeyType)
AccountTypeValue = open_enum(AccountType)
CreditDebitTypeValue = open_enum(CreditDebitType)
TransactionTypeValue = open_enum(TransactionType)
LocalInstrumentValue = open_enum(LocalInstrument)
WebhookTypeValue = open_enum(WebhookType)
WebhookMethodValue = open_enum(WebhookMethod)
InfractionStatusValue = open_enum(InfractionStatus)
InfractionReasonValue = open_enum(InfractionReason)
DefenseStatusValue = open_enum(DefenseStatus)
BilletTypeValue = open_enum(BilletType)


# --------------------------------------------------------------------------------------------
# Status sets

SUCCESS_STATUSES: frozenset[PaymentStatus] = frozenset(
    {
        PaymentStatus.SETTLED,
        PaymentStatus.LIQUIDATED,
        PaymentStatus.REFUNDED,
        PaymentStatus.PARTIALLY_REFUNDED,
    }
)
"""The money left the account and reached the creditor (a refund may have come back since).
Receipts exist for these. ``LIQUIDATED`` is the slip's ``SETTLED``; both are accepted for
either kind, as integrations of this API report ``LIQUIDATED`` for Pix too."""

FAILED_STATUSES: frozenset[PaymentStatus] = frozenset(
    {PaymentStatus.CANCELED, PaymentStatus.REJECTED}
)
"""The payment did not happen (rejected by the approver, expired, refused by the SPI...)."""

PENDING_STATUSES: frozenset[PaymentStatus] = frozenset(
    {
        PaymentStatus.ON_QUEUE,
        PaymentStatus.PROCESSING,
        PaymentStatus.WAITING_APPROVAL,
        PaymentStatus.WAITING_CONFIRMATION,
    }
)
"""Not decided yet: keep following the payment (webhook or query)."""

FINAL_PIX_STATUSES: frozenset[PaymentStatus] = SUCCESS_STATUSES | FAILED_STATUSES
"""Final states of a Pix payment: it will neither settle later nor fail later. (A settled
Pix may still move to ``PARTIALLY_REFUNDED``/``REFUNDED`` when its receiver returns money;
that does not change the fact it was paid.)"""

FINAL_BILLET_STATUSES: frozenset[PaymentStatus] = SUCCESS_STATUSES | FAILED_STATUSES
"""Final states of a slip payment (``LIQUIDATED`` or a failure)."""

RECEIPT_STATUSES: frozenset[PaymentStatus] = SUCCESS_STATUSES
"""States in which the bank issues a receipt (before them it answers 422)."""


def is_final_status(status: PaymentStatus | str) -> bool:
    """Whether a payment in ``status`` is decided. An unknown status is not final: the caller
    keeps following the payment rather than guessing its outcome."""
    return status in FINAL_PIX_STATUSES


def is_success_status(status: PaymentStatus | str) -> bool:
    """Whether ``status`` means the money reached the creditor."""
    return status in SUCCESS_STATUSES


def is_failed_status(status: PaymentStatus | str) -> bool:
    """Whether ``status`` means the payment did not happen (nothing stays debited)."""
    return status in FAILED_STATUSES


# --------------------------------------------------------------------------------------------
# Common pieces


class PageMeta(ApiModel):
    """``meta`` of a list answer: pages start at 1."""

    page: int = 1
    per_page: int = 50
    total_items: int = 0
    total_pages: int = 1


class Page(ApiModel, Generic[T]):
    """One page of a list: ``items`` (JSON ``data``) and its ``meta``."""

    items: list[T] = Field(alias="data")
    meta: PageMeta | None = None

    @property
    def total_pages(self) -> int:
        """How many pages the list has (1 when the bank sent no ``meta``)."""
        return self.meta.total_pages if self.meta is not None else 1


class PaymentAmount(ApiModel):
    """The ``payment`` object: currency (always BRL) and the amount in reais."""

    currency: str = "BRL"
    amount: AccountsMoney


class BankAccount(ApiModel):
    """A creditor or debtor account as the bank reports it (``issuer`` is the branch)."""

    ispb: str | None = None
    issuer: str | None = None
    number: str | None = None
    account_type: AccountTypeValue | None = None
    document: str | None = None
    name: str | None = None


class Counterparty(ApiModel):
    """The other party of a statement entry or infraction."""

    name: str | None = None
    document: str | None = None
    ispb: str | None = None


class StatusChange(ApiModel):
    """One step of a payment's ``history``."""

    status: PaymentStatusValue
    at: UtcDatetime


class Receipt(ApiModel):
    """``data`` of a receipt answer: the PDF in base64."""

    pdf: str
    file_name: str | None = None
    content_type: str | None = None

    def pdf_bytes(self) -> bytes:
        """The decoded PDF; ``ValueError`` if it is not base64 of a PDF file."""
        try:
            data = base64.b64decode(self.pdf, validate=True)
        except (binascii.Error, ValueError) as error:
            raise ValueError(f"the receipt is not valid base64: {error}") from None
        if not data.startswith(b"%PDF"):
            raise ValueError("the receipt is not a PDF file")
        return data


# --------------------------------------------------------------------------------------------
# Balance and statement


class BalanceAmount(ApiModel):
    currency: str = "BRL"
    available: AccountsMoney
    blocked: AccountsMoney | None = None
    overdraft: AccountsMoney | None = None


class Balance(ApiModel):
    """One item of ``GET /api/v2/accounts/balances`` (integrations read ``data[0]``)."""

    account_number: str | None = None
    branch: str | None = None
    ispb: str | None = None
    balance_amount: BalanceAmount
    updated_at: UtcDatetime | None = None

    @property
    def available(self) -> Decimal:
        return self.balance_amount.available


class Transaction(ApiModel):
    """A statement entry (``GET /api/v2/accounts/transactions`` and ``/{id}``)."""

    id: ResourceId
    created_at: UtcDatetime
    credit_debit_type: CreditDebitTypeValue
    transaction_type: TransactionTypeValue
    amount: AccountsMoney
    balance_after: AccountsMoney | None = None
    description: str | None = None
    end_to_end_id: str | None = None
    original_end_to_end_id: str | None = None
    tx_id: str | None = None
    counterparty: Counterparty | None = None
    payment_id: ResourceId | None = None

    @property
    def signed_amount(self) -> Decimal:
        """The amount with the sign of its effect on the balance (debits negative)."""
        return -self.amount if self.credit_debit_type == CreditDebitType.DEBIT else self.amount


# --------------------------------------------------------------------------------------------
# Pix payments (Cash Out)


class _PaymentOptions(ApiModel):
    """Fields every payment creation body may carry."""

    description: str | None = None
    payment_flow: PaymentFlow | None = None
    priority: Priority | None = None
    expiration: int | None = None
    """Seconds an ``APPROVAL_REQUIRED`` payment may wait for approval (1..10800)."""


class PixKeyPaymentRequest(_PaymentOptions):
    """Body of ``POST /api/v2/pix/payments/dict``: pay to a Pix key."""

    pix_key: str
    pix_key_type: PixKeyType
    payment: PaymentAmount
    creditor_document: str | None = None
    """CPF/CNPJ of the key's owner; checked by the bank, required with ``priority`` HIGH."""
    ispb_deny: list[str] | None = None


class PixQrCodePaymentRequest(_PaymentOptions):
    """Body of ``POST /api/v2/pix/payments/qrc``: pay a BR Code ("copia e cola").

    ``payment`` is needed only when the code carries no amount, and must equal it otherwise.
    """

    qr_code: str
    payment: PaymentAmount | None = None


class ManualCreditorAccount(ApiModel):
    """Creditor of ``POST /api/v2/pix/payments/manu`` (``issuer`` is the branch)."""

    ispb: str
    issuer: str
    number: str
    account_type: AccountType
    document: str
    name: str


class PixManualPaymentRequest(_PaymentOptions):
    """Body of ``POST /api/v2/pix/payments/manu``: pay by bank data."""

    creditor_account: ManualCreditorAccount
    payment: PaymentAmount


class PixRefund(ApiModel):
    """A refund the receiver of one of our Pix sent back."""

    end_to_end_id: str | None = None
    status: PaymentStatusValue | None = None
    error_code: str | None = None
    amount: AccountsMoney | None = None
    pix_refund_amount: PaymentAmount | None = None
    created_at: UtcDatetime | None = None

    @property
    def value(self) -> Decimal | None:
        """The refunded amount, from ``amount`` or ``pixRefundAmount.amount``."""
        if self.amount is not None:
            return self.amount
        return self.pix_refund_amount.amount if self.pix_refund_amount is not None else None


class PixPayment(ApiModel):
    """A Pix payment as created (202) and as queried (by endToEndId or idempotency key)."""

    end_to_end_id: str
    status: PaymentStatusValue
    id: ResourceId | None = None
    idempotency_key: str | None = None
    transaction_type: TransactionTypeValue | None = None
    local_instrument: LocalInstrumentValue | None = None
    error_code: str | None = None
    payment_flow: PaymentFlowValue | None = None
    priority: PriorityValue | None = None
    expiration: int | None = None
    description: str | None = None
    remittance_information: str | None = None
    pix_key: str | None = None
    pix_key_type: PixKeyTypeValue | None = None
    creditor_document: str | None = None
    tx_id: str | None = None
    qr_code: str | None = None
    location: str | None = None
    creditor_account: BankAccount | None = None
    debtor_account: BankAccount | None = None
    payment: PaymentAmount | None = None
    refunds: list[PixRefund] = Field(default_factory=list)
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None
    settled_at: UtcDatetime | None = None
    history: list[StatusChange] = Field(default_factory=list)

    @property
    def amount(self) -> Decimal | None:
        return self.payment.amount if self.payment is not None else None

    @property
    def is_final(self) -> bool:
        return is_final_status(self.status)

    @property
    def refunded_amount(self) -> Decimal:
        """Sum of the refunds received so far."""
        return sum((r.value or Decimal("0.00") for r in self.refunds), Decimal("0.00"))


# --------------------------------------------------------------------------------------------
# Webhooks


class WebhookConfig(ApiModel):
    """Body of ``POST /api/v2/webhooks/{transfer,receive,refund,cashout}`` (HTTPS ``uri``)."""

    uri: str
    enabled: bool | None = None
    email: str | None = None
    method: WebhookMethod | None = None
    pause_on_fail: bool | None = None
    headers: dict[str, str] | None = None
    """Header names and values the bank sends with each notification."""


class Webhook(ApiModel):
    """A registered webhook (one per type; a second POST replaces it, same ``id``)."""

    id: ResourceId
    type: WebhookTypeValue | None = None
    uri: str
    method: WebhookMethodValue | None = None
    enabled: bool = True
    pause_on_fail: bool = False
    email: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None


class PixPaymentEvent(PixPayment):
    """``data`` of a TRANSFER notification: the payment at one step of its history."""

    webhook_type: WebhookTypeValue | None = None


class TransactionEvent(ApiModel):
    """``data`` of a RECEIVE or REFUND notification: the statement entry credited.

    Integrations of this API have also seen the amount as ``payment.amount`` (sometimes a
    string); :attr:`value` reads either.
    """

    id: ResourceId | None = None
    created_at: UtcDatetime | None = None
    credit_debit_type: CreditDebitTypeValue | None = None
    transaction_type: TransactionTypeValue | None = None
    amount: AccountsMoney | None = None
    payment: PaymentAmount | None = None
    balance_after: AccountsMoney | None = None
    description: str | None = None
    end_to_end_id: str | None = None
    original_end_to_end_id: str | None = None
    tx_id: str | None = None
    counterparty: Counterparty | None = None
    webhook_type: WebhookTypeValue | None = None

    @property
    def value(self) -> Decimal | None:
        if self.amount is not None:
            return self.amount
        return self.payment.amount if self.payment is not None else None


class CashoutEventData(ApiModel):
    """``data`` of a CASHOUT notification: one of our Pix failed."""

    status: PaymentStatusValue
    message: str | None = None
    created_at: UtcDatetime | None = None
    end_to_end_id: str | None = None
    idempotency_key: str | None = None
    webhook_type: WebhookTypeValue | None = None


class CashoutTransaction(ApiModel):
    """``transaction`` of a CASHOUT notification (``reference`` is the idempotency key)."""

    status: PaymentStatusValue | None = None
    message: str | None = None
    reference: str | None = None


class TransferNotification(ApiModel):
    type: WebhookTypeValue
    data: PixPaymentEvent


class ReceiveNotification(ApiModel):
    type: WebhookTypeValue
    data: TransactionEvent


class RefundNotification(ApiModel):
    type: WebhookTypeValue
    data: TransactionEvent


class CashoutNotification(ApiModel):
    type: WebhookTypeValue
    data: CashoutEventData
    transaction: CashoutTransaction | None = None


class OtherNotification(ApiModel):
    """A notification of a type this app does not know (e.g. ``INFRACTION``): kept raw."""

    type: str
    data: Any = None


AccountsNotification = (
    TransferNotification
    | ReceiveNotification
    | RefundNotification
    | CashoutNotification
    | OtherNotification
)

NOTIFICATION_MODELS: dict[str, type[ApiModel]] = {
    WebhookType.TRANSFER: TransferNotification,
    WebhookType.RECEIVE: ReceiveNotification,
    WebhookType.REFUND: RefundNotification,
    WebhookType.CASHOUT: CashoutNotification,
}
"""Model of a notification body by its ``type`` (others: :class:`OtherNotification`)."""


def notification_model(body: Any) -> type[ApiModel]:
    """The model that reads a notification ``body`` (chosen by its ``type`` field)."""
    kind = body.get("type") if isinstance(body, dict) else None
    if isinstance(kind, str):
        return NOTIFICATION_MODELS.get(kind.upper(), OtherNotification)
    return OtherNotification


# --------------------------------------------------------------------------------------------
# Infractions


class DefenseAttachment(ApiModel):
    name: str


class DefenseRequest(ApiModel):
    """Body of ``POST /api/v2/infractions/{id}/defenses`` (description up to 2000 chars)."""

    description: str
    attachments: list[DefenseAttachment] | None = None


class Defense(ApiModel):
    id: ResourceId
    infraction_id: str | None = None
    description: str | None = None
    attachments: list[DefenseAttachment] = Field(default_factory=list)
    status: DefenseStatusValue | None = None
    created_at: UtcDatetime | None = None


class Infraction(ApiModel):
    """An infraction (MED) reported about a Pix of the account."""

    id: str
    status: InfractionStatusValue
    end_to_end_id: str | None = None
    reported_by: str | None = None
    reason: InfractionReasonValue | None = None
    situation: str | None = None
    amount: AccountsMoney | None = None
    description: str | None = None
    counterparty: Counterparty | None = None
    created_at: UtcDatetime | None = None
    defense_deadline: UtcDatetime | None = None
    analysis_result: str | None = None
    defenses: list[Defense] = Field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Boletos


class BilletInfoRequest(ApiModel):
    """Body of ``POST /api/v2/billets/info``: digits only, at most 50."""

    billet_code: str


class Beneficiary(ApiModel):
    name: str | None = None
    document: str | None = None
    bank_code: str | None = None
    bank_name: str | None = None
    ispb: str | None = None
    branch: str | None = None
    account: str | None = None


class BilletPayer(ApiModel):
    name: str | None = None
    document: str | None = None


class BilletInfo(ApiModel):
    """What the bank's slip registry says of a slip, with the updated amount to pay."""

    billet_code: str | None = None
    barcode: str | None = None
    digitable_code: str | None = None
    type: BilletTypeValue | None = None
    due_date: ApiDate | None = None
    payment_limit_date: ApiDate | None = None
    original_amount: AccountsMoney | None = None
    fine: AccountsMoney | None = None
    interest: AccountsMoney | None = None
    discount: AccountsMoney | None = None
    total_updated: AccountsMoney | None = None
    """Amount to pay today, fine and interest included (``None``: the slip has none)."""
    days_late: int | None = None
    allow_change_value: bool = False
    """Free-value slip: cannot be paid through this API."""
    beneficiary: Beneficiary | None = None
    payer: BilletPayer | None = None


class BilletPaymentRequest(_PaymentOptions):
    """Body of ``POST /api/v2/billets/payments``: pay by digitable line (punctuation allowed).

    ``payment`` may be left out; given, it must equal the slip's ``totalUpdated``.
    """

    digitable_code: str
    payment: PaymentAmount | None = None


class BilletCodePaymentRequest(_PaymentOptions):
    """Body of ``POST /api/v2/billets/pay``: pay a slip queried with ``/billets/info`` before."""

    billet_code: str
    payment: PaymentAmount | None = None


class BilletPayment(ApiModel):
    """A slip payment (creation answer, ``GET /api/v2/billets/{id}``, list items)."""

    id: ResourceId
    status: PaymentStatusValue
    idempotency_key: str | None = None
    transaction_type: TransactionTypeValue | None = None
    error_code: str | None = None
    payment_flow: PaymentFlowValue | None = None
    priority: PriorityValue | None = None
    expiration: int | None = None
    description: str | None = None
    digitable_code: str | None = None
    barcode: str | None = None
    due_date: ApiDate | None = None
    payment: PaymentAmount | None = None
    creditor_account: BankAccount | None = None
    debtor_account: BankAccount | None = None
    created_at: UtcDatetime | None = None
    updated_at: UtcDatetime | None = None
    settled_at: UtcDatetime | None = None
    history: list[StatusChange] = Field(default_factory=list)

    @property
    def amount(self) -> Decimal | None:
        return self.payment.amount if self.payment is not None else None

    @property
    def is_final(self) -> bool:
        return self.status in FINAL_BILLET_STATUSES


class BilletDetails(BilletPayment):
    """``GET /api/v2/billets/{id}/details``: the payment with the slip's ``billetInfo``."""

    billet_info: BilletInfo | None = None
