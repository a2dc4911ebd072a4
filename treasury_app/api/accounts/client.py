"""Typed async client of the Accounts API: Cash Out (Pix by key, QR Code, bank data; queries,
receipts), balance and statement, event webhooks, infractions and boletos.

One method per endpoint of the spec's Accounts API; each sends one request through the
session's :class:`~treasury_app.api.transport.ApiTransport` (which retries what is safe to
retry and raises the typed errors of :mod:`treasury_app.api.errors`) and returns the model of
the answer's ``data``. The client itself never retries.

Payment creations require the caller's ``idempotency_key``: the caller generates it
(:func:`treasury_app.domain.identifiers.new_idempotency_key`), records it before sending, and
uses it to find the payment again when an answer is lost.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

from treasury_app.api.accounts.models import (
    Balance,
    BilletCodePaymentRequest,
    BilletDetails,
    BilletInfo,
    BilletInfoRequest,
    BilletPayment,
    BilletPaymentRequest,
    CreditDebitType,
    Defense,
    DefenseRequest,
    Infraction,
    InfractionStatus,
    Page,
    PixKeyPaymentRequest,
    PixManualPaymentRequest,
    PixPayment,
    PixQrCodePaymentRequest,
    Receipt,
    Transaction,
    TransactionType,
    Webhook,
    WebhookConfig,
    WebhookType,
)
from treasury_app.api.errors import ResponseFormatError
from treasury_app.api.modeling import ApiModel, parse_model
from treasury_app.api.pagination import iterate_pages
from treasury_app.domain.boleto import normalize_billet_code
from treasury_app.domain.identifiers import is_valid_idempotency_key

if TYPE_CHECKING:
    from treasury_app.api.transport import ApiTransport

M = TypeVar("M", bound=ApiModel)

FIRST_PAGE = 1
DEFAULT_PER_PAGE = 50


def _segment(value: object) -> str:
    """One path segment, percent-encoded (``/`` included)."""
    return quote(str(value), safe="")


def _check_idempotency_key(key: str) -> str:
    if not is_valid_idempotency_key(key):
        raise ValueError("An idempotency key is 1 to 50 characters of [a-zA-Z0-9].")
    return key


def _webhook_kind(kind: WebhookType | str) -> str:
    """The path segment of a webhook type: ``transfer``, ``receive``, ``refund``, ``cashout``."""
    try:
        return WebhookType(str(kind).upper()).value.lower()
    except ValueError:
        allowed = ", ".join(t.value.lower() for t in WebhookType)
        raise ValueError(f"Unknown webhook type {kind!r}; expected one of {allowed}.") from None


def _data(body: Any) -> Any:
    """The ``data`` of an answer (an unwrapped object is accepted as is)."""
    if isinstance(body, dict) and "data" in body:
        return body["data"]
    if isinstance(body, dict):
        return body
    raise ResponseFormatError("The bank's answer is not a JSON object.")


def _data_list(body: Any) -> list[Any]:
    data = _data(body)
    if not isinstance(data, list):
        raise ResponseFormatError("The bank's answer does not carry a list in data.")
    return data


def _pdf(body: Any) -> bytes:
    receipt = parse_model(Receipt, _data(body))
    try:
        return receipt.pdf_bytes()
    except ValueError as error:
        raise ResponseFormatError(f"The bank's receipt is unusable: {error}.") from None


class AccountsClient:
    """The Accounts API through one session transport."""

    def __init__(self, transport: ApiTransport) -> None:
        if transport.api != "accounts":
            raise ValueError("AccountsClient needs the Accounts API's transport.")
        self._transport = transport

    @property
    def transport(self) -> ApiTransport:
        """The session's Accounts API transport (its token, connection and statistics)."""
        return self._transport

    # -- helpers -----------------------------------------------------------------------------

    async def _get(
        self, path: str, params: dict[str, Any] | None = None, *, document: bool = False
    ) -> Any:
        return await self._transport.request_json("GET", path, params=params, document=document)

    async def _one(self, model: type[M], path: str) -> M:
        return parse_model(model, _data(await self._get(path)))

    async def _many(self, model: type[M], path: str) -> list[M]:
        return [parse_model(model, item) for item in _data_list(await self._get(path))]

    async def _page(self, model: type[M], path: str, params: dict[str, Any]) -> Page[M]:
        body = await self._get(path, params)
        if not isinstance(body, dict):
            raise ResponseFormatError("The bank's list answer is not a JSON object.")
        return parse_model(Page[model], body)  # type: ignore[valid-type]

    async def _pay(self, path: str, body: ApiModel, idempotency_key: str, model: type[M]) -> M:
        key = _check_idempotency_key(idempotency_key)
        answer = await self._transport.request_json("POST", path, json=body, idempotency_key=key)
        return parse_model(model, _data(answer))

    # -- balance and statement ---------------------------------------------------------------

    async def get_balances(self) -> list[Balance]:
        """GET /api/v2/accounts/balances: the account's balance (integrations read item 0)."""
        return await self._many(Balance, "/api/v2/accounts/balances")

    async def list_transactions(
        self,
        *,
        start_date: dt.date | None = None,
        end_date: dt.date | None = None,
        page: int = FIRST_PAGE,
        per_page: int = DEFAULT_PER_PAGE,
        credit_debit_type: CreditDebitType | str | None = None,
        transaction_type: TransactionType | str | None = None,
    ) -> Page[Transaction]:
        """GET /api/v2/accounts/transactions: one page of the statement, newest first."""
        params = {
            "startDate": start_date,
            "endDate": end_date,
            "page": page,
            "perPage": per_page,
            "creditDebitType": credit_debit_type,
            "transactionType": transaction_type,
        }
        return await self._page(Transaction, "/api/v2/accounts/transactions", params)

    async def iter_transactions(
        self,
        *,
        start_date: dt.date | None = None,
        end_date: dt.date | None = None,
        per_page: int = DEFAULT_PER_PAGE,
        credit_debit_type: CreditDebitType | str | None = None,
        transaction_type: TransactionType | str | None = None,
    ) -> AsyncIterator[Transaction]:
        """GET /api/v2/accounts/transactions, every page, fetched lazily (no entry twice)."""
        # Entries posted while iterating push older ones to later pages (newest first): an
        # entry already yielded is skipped when it shows up again on the next page.
        seen: set[int | str] = set()

        async def fetch(page: int) -> tuple[Sequence[Transaction], int]:
            result = await self.list_transactions(
                start_date=start_date,
                end_date=end_date,
                page=page,
                per_page=per_page,
                credit_debit_type=credit_debit_type,
                transaction_type=transaction_type,
            )
            return result.items, result.total_pages

        async for entry in iterate_pages(fetch, first_page=FIRST_PAGE):
            if entry.id not in seen:
                seen.add(entry.id)
                yield entry

    async def get_transaction(self, transaction_id: int | str) -> Transaction:
        """GET /api/v2/accounts/transactions/{id}: one statement entry."""
        return await self._one(
            Transaction, f"/api/v2/accounts/transactions/{_segment(transaction_id)}"
        )

    # -- Pix payments ------------------------------------------------------------------------

    async def pay_pix_dict(self, body: PixKeyPaymentRequest, *, idempotency_key: str) -> PixPayment:
        """POST /api/v2/pix/payments/dict: pay by Pix key (202, ON_QUEUE)."""
        return await self._pay("/api/v2/pix/payments/dict", body, idempotency_key, PixPayment)

    async def pay_pix_qrc(
        self, body: PixQrCodePaymentRequest, *, idempotency_key: str
    ) -> PixPayment:
        """POST /api/v2/pix/payments/qrc: pay a QR Code's "copia e cola" (202, ON_QUEUE)."""
        return await self._pay("/api/v2/pix/payments/qrc", body, idempotency_key, PixPayment)

    async def pay_pix_manu(
        self, body: PixManualPaymentRequest, *, idempotency_key: str
    ) -> PixPayment:
        """POST /api/v2/pix/payments/manu: pay by bank data (202, ON_QUEUE)."""
        return await self._pay("/api/v2/pix/payments/manu", body, idempotency_key, PixPayment)

    async def get_pix_payment(self, end_to_end_id: str) -> PixPayment:
        """GET /api/v2/pix/payments/{endToEndId}: a payment by its end-to-end id."""
        return await self._one(PixPayment, f"/api/v2/pix/payments/{_segment(end_to_end_id)}")

    async def get_pix_payment_by_idempotency_key(self, idempotency_key: str) -> PixPayment:
        """GET /api/v2/pix/payments/idempotencyKey/{key}: a payment by its idempotency key."""
        key = _check_idempotency_key(idempotency_key)
        return await self._one(PixPayment, f"/api/v2/pix/payments/idempotencyKey/{key}")

    async def get_pix_receipt(self, end_to_end_id: str) -> bytes:
        """GET /api/v2/pix/payments/receipt/{endToEndId}: the PDF receipt (settled only)."""
        path = f"/api/v2/pix/payments/receipt/{_segment(end_to_end_id)}"
        return _pdf(await self._get(path, document=True))

    # -- webhooks ----------------------------------------------------------------------------

    async def post_webhook(self, kind: WebhookType | str, body: WebhookConfig) -> Webhook:
        """POST /api/v2/webhooks/{transfer,receive,refund,cashout}: register or replace one."""
        path = f"/api/v2/webhooks/{_webhook_kind(kind)}"
        return parse_model(
            Webhook, _data(await self._transport.request_json("POST", path, json=body))
        )

    async def get_webhook(self, kind: WebhookType | str) -> Webhook:
        """GET /api/v2/webhooks/{transfer,receive,refund,cashout}: the webhook of one type."""
        return await self._one(Webhook, f"/api/v2/webhooks/{_webhook_kind(kind)}")

    async def delete_webhook(self, kind: WebhookType | str) -> None:
        """DELETE /api/v2/webhooks/{transfer,receive,refund,cashout}: remove one (204)."""
        await self._transport.request("DELETE", f"/api/v2/webhooks/{_webhook_kind(kind)}")

    async def list_webhooks(self) -> list[Webhook]:
        """GET /api/v2/webhooks: every registered webhook."""
        return await self._many(Webhook, "/api/v2/webhooks")

    async def get_webhook_by_id(self, webhook_id: int | str) -> Webhook:
        """GET /api/v2/webhooks/{id}: one webhook by id."""
        return await self._one(Webhook, f"/api/v2/webhooks/{_segment(webhook_id)}")

    async def delete_webhook_by_id(self, webhook_id: int | str) -> None:
        """DELETE /api/v2/webhooks/{id}: remove one webhook by id (204)."""
        await self._transport.request("DELETE", f"/api/v2/webhooks/{_segment(webhook_id)}")

    # -- infractions -------------------------------------------------------------------------

    async def list_infractions(
        self,
        *,
        status: InfractionStatus | str | None = None,
        page: int = FIRST_PAGE,
        per_page: int = DEFAULT_PER_PAGE,
    ) -> Page[Infraction]:
        """GET /api/v2/infractions: one page of infractions, newest first."""
        params = {"status": status, "page": page, "perPage": per_page}
        return await self._page(Infraction, "/api/v2/infractions", params)

    async def iter_infractions(
        self, *, status: InfractionStatus | str | None = None, per_page: int = DEFAULT_PER_PAGE
    ) -> AsyncIterator[Infraction]:
        """GET /api/v2/infractions, every page, fetched lazily."""

        async def fetch(page: int) -> tuple[Sequence[Infraction], int]:
            result = await self.list_infractions(status=status, page=page, per_page=per_page)
            return result.items, result.total_pages

        seen: set[str] = set()  # a new infraction shifts the pages: never yield one twice
        async for item in iterate_pages(fetch, first_page=FIRST_PAGE):
            if str(item.id) not in seen:
                seen.add(str(item.id))
                yield item

    async def get_infraction(self, infraction_id: str) -> Infraction:
        """GET /api/v2/infractions/{id}: one infraction with its defenses."""
        return await self._one(Infraction, f"/api/v2/infractions/{_segment(infraction_id)}")

    async def post_defense(self, infraction_id: str, body: DefenseRequest) -> Defense:
        """POST /api/v2/infractions/{id}/defenses: submit a defense (201)."""
        path = f"/api/v2/infractions/{_segment(infraction_id)}/defenses"
        return parse_model(
            Defense, _data(await self._transport.request_json("POST", path, json=body))
        )

    async def list_defenses(self, infraction_id: str) -> list[Defense]:
        """GET /api/v2/infractions/{id}/defenses: the defenses submitted so far."""
        return await self._many(Defense, f"/api/v2/infractions/{_segment(infraction_id)}/defenses")

    # -- boletos -----------------------------------------------------------------------------

    async def get_billet_info(self, billet_code: str) -> BilletInfo:
        """POST /api/v2/billets/info: a slip's beneficiary, due date and updated amount."""
        body = BilletInfoRequest(billet_code=normalize_billet_code(billet_code))
        answer = await self._transport.request_json("POST", "/api/v2/billets/info", json=body)
        return parse_model(BilletInfo, _data(answer))

    async def pay_billet(
        self, body: BilletPaymentRequest, *, idempotency_key: str
    ) -> BilletPayment:
        """POST /api/v2/billets/payments: pay a slip by digitable line (202, ON_QUEUE)."""
        return await self._pay("/api/v2/billets/payments", body, idempotency_key, BilletPayment)

    async def pay_billet_code(
        self, body: BilletCodePaymentRequest, *, idempotency_key: str
    ) -> BilletPayment:
        """POST /api/v2/billets/pay: pay a slip queried before by billetCode (202, ON_QUEUE)."""
        normalized = body.model_copy(
            update={"billet_code": normalize_billet_code(body.billet_code)}
        )
        return await self._pay("/api/v2/billets/pay", normalized, idempotency_key, BilletPayment)

    async def list_billets(
        self,
        *,
        page: int = FIRST_PAGE,
        per_page: int = DEFAULT_PER_PAGE,
        idempotency_key: str | None = None,
    ) -> Page[BilletPayment]:
        """GET /api/v2/billets: one page of slip payments, newest first."""
        params = {"page": page, "perPage": per_page, "idempotencyKey": idempotency_key}
        return await self._page(BilletPayment, "/api/v2/billets", params)

    async def iter_billets(
        self, *, per_page: int = DEFAULT_PER_PAGE, idempotency_key: str | None = None
    ) -> AsyncIterator[BilletPayment]:
        """GET /api/v2/billets, every page, fetched lazily (no payment yielded twice)."""
        seen: set[int | str] = set()

        async def fetch(page: int) -> tuple[Sequence[BilletPayment], int]:
            result = await self.list_billets(
                page=page, per_page=per_page, idempotency_key=idempotency_key
            )
            return result.items, result.total_pages

        async for payment in iterate_pages(fetch, first_page=FIRST_PAGE):
            if payment.id not in seen:
                seen.add(payment.id)
                yield payment

    async def get_billet(self, billet_id: int | str) -> BilletPayment:
        """GET /api/v2/billets/{id}: one slip payment."""
        return await self._one(BilletPayment, f"/api/v2/billets/{_segment(billet_id)}")

    async def get_billet_details(self, billet_id: int | str) -> BilletDetails:
        """GET /api/v2/billets/{id}/details: the payment with the slip's billetInfo."""
        return await self._one(BilletDetails, f"/api/v2/billets/{_segment(billet_id)}/details")

    async def get_billet_receipt(self, billet_id: int | str) -> bytes:
        """GET /api/v2/billets/payments/receipt/{id}: the PDF receipt (liquidated only)."""
        path = f"/api/v2/billets/payments/receipt/{_segment(billet_id)}"
        return _pdf(await self._get(path, document=True))
