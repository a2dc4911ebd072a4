"""HTTP routes of the sandbox's Accounts API (Cash Out, balances, statement, boletos,
webhooks, infractions); the rules themselves live in ``accounts_bank``."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
from decimal import Decimal
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from treasury_app.domain import documents
from treasury_app.domain.clock import InstantForm, format_date, format_instant
from treasury_app.domain.money import format_brl
from treasury_app.sandbox.accounts_bank import RECEIPT_STATUSES, WEBHOOK_TYPES, AccountsBank
from treasury_app.sandbox.auth import AuthService
from treasury_app.sandbox.pdf import render_receipt
from treasury_app.sandbox.problems import Problem, Violation, invalid
from treasury_app.sandbox.web import JsonResponse, paged, query_int, read_json

API = "accounts"
INTERNAL_FIELDS = ("clientId", "debitEntryId")


def public(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in INTERNAL_FIELDS}


def _parse_day(request: Request, name: str, default: dt.date) -> dt.date:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        if len(raw) == 10:
            return dt.date.fromisoformat(raw)
        # An RFC 3339 instant is accepted too (its date part); trailing garbage is not.
        return dt.datetime.fromisoformat(raw.replace("Z", "+00:00")).date()
    except ValueError:
        raise invalid(
            f"{name} deve ser uma data AAAA-MM-DD.", Violation("data inválida", name, raw)
        ) from None


def _document_display(document: str | None) -> str:
    if not document:
        return "-"
    try:
        return documents.mask_document(document)
    except ValueError:
        return document


def _when(text: str) -> str:
    return format_instant(text, InstantForm.SECONDS) + " (horário de Brasília)"


# A receipt is in Portuguese, like a Brazilian bank's: its status in words, never the API's code.
RECEIPT_STATUS_WORDS = {
    "ON_QUEUE": "Na fila",
    "PROCESSING": "Em processamento",
    "SETTLED": "Efetivado",
    "LIQUIDATED": "Pago",
    "CANCELED": "Cancelado",
    "REJECTED": "Rejeitado",
    "WAITING_APPROVAL": "Aguardando aprovação",
    "WAITING_CONFIRMATION": "Aguardando confirmação",
    "REFUNDED": "Devolvido",
    "PARTIALLY_REFUNDED": "Devolvido em parte",
}


def _situacao(status: str) -> str:
    return RECEIPT_STATUS_WORDS.get(status, "Outra situação")


def _day(text: str | None) -> str:
    """A calendar date of the API (``2026-12-03``) as a receipt prints it: ``03/12/2026``."""
    if not text:
        return "-"
    try:
        return format_date(dt.date.fromisoformat(text))
    except ValueError:
        return text


def _pdf_response(pdf: bytes, name: str) -> JsonResponse:
    return JsonResponse(
        {
            "data": {
                "pdf": base64.b64encode(pdf).decode("ascii"),
                "fileName": name,
                "contentType": "application/pdf",
            }
        }
    )


def _authentication(*parts: str) -> str:
    digest = hashlib.sha256("|".join(parts).encode("utf-8")).hexdigest().upper()
    return " ".join(digest[i : i + 4] for i in range(0, 32, 4))


def pix_receipt(payment: dict[str, Any]) -> bytes:
    creditor, debtor = payment["creditorAccount"], payment["debtorAccount"]
    amount: Decimal = payment["payment"]["amount"]
    rows = [
        ("Valor", format_brl(amount)),
        ("Data e hora", _when(payment.get("settledAt") or payment["updatedAt"])),
        ("Situação", _situacao(payment["status"])),
        ("Recebedor", creditor["name"]),
        ("CPF/CNPJ do recebedor", _document_display(creditor.get("document"))),
        ("Instituição (ISPB)", str(creditor.get("ispb"))),
        ("Agência e conta", f"{creditor.get('issuer') or '-'} / {creditor.get('number') or '-'}"),
    ]
    if payment.get("pixKey"):
        rows.append(("Chave Pix", payment["pixKey"]))
    rows += [
        ("Pagador", debtor["name"]),
        ("CNPJ do pagador", documents.format_cnpj(debtor["document"])),
        ("Descrição", payment.get("description") or "-"),
        ("ID da transação (E2E)", payment["endToEndId"]),
        ("Chave de idempotência", payment["idempotencyKey"]),
    ]
    for refund in payment.get("refunds", []):
        rows.append(
            ("Devolução", f"{format_brl(Decimal(refund['amount']))} ({refund['endToEndId']})")
        )
    return render_receipt(
        "Comprovante de Pix",
        rows,
        subtitle="Transferência via Pix - "
        + {"DICT": "por chave", "MANU": "por dados bancários"}.get(
            payment["localInstrument"], "por QR Code"
        ),
        footer="Autenticação: " + _authentication(payment["endToEndId"], str(amount)),
        created=dt.datetime.fromisoformat(payment.get("settledAt") or payment["updatedAt"]),
    )


def billet_receipt(payment: dict[str, Any]) -> bytes:
    info = payment["billetInfo"]
    beneficiary = info["beneficiary"]
    rows = [
        ("Valor pago", format_brl(payment["payment"]["amount"])),
        ("Data do pagamento", _when(payment.get("settledAt") or payment["updatedAt"])),
        ("Situação", _situacao(payment["status"])),
        ("Beneficiário", beneficiary["name"]),
        ("CNPJ do beneficiário", _document_display(beneficiary.get("document"))),
        ("Banco", f"{beneficiary.get('bankCode')} - {beneficiary.get('bankName')}"),
        ("Linha digitável", payment["digitableCode"]),
        ("Vencimento", _day(info.get("dueDate"))),
        ("Valor original", format_brl(info["originalAmount"]) if info["originalAmount"] else "-"),
        ("Multa", format_brl(info["fine"])),
        ("Juros", format_brl(info["interest"])),
        ("Pagador", payment["debtorAccount"]["name"]),
        ("Descrição", payment.get("description") or "-"),
        ("Identificador", str(payment["id"])),
    ]
    return render_receipt(
        "Comprovante de pagamento de boleto",
        rows,
        subtitle="Pagamento de título",
        footer="Autenticação: " + _authentication(str(payment["id"]), payment["barcode"]),
        created=dt.datetime.fromisoformat(payment.get("settledAt") or payment["updatedAt"]),
    )


def routes(bank: AccountsBank, auth: AuthService) -> list[Route]:
    """Every Accounts API route, bound to one bank and one token service."""

    def authorize(request: Request, *scopes: str) -> str:
        return auth.authorize(request, API, *scopes).client_id

    async def token(request: Request) -> Response:
        return JsonResponse(await auth.token_request(request, API))

    async def balances(request: Request) -> Response:
        authorize(request, "account.read", "pix.read")
        account = bank.company["account"]
        return JsonResponse(
            {
                "data": [
                    {
                        "accountNumber": account["number"],
                        "branch": account["issuer"],
                        "ispb": account["ispb"],
                        "balanceAmount": {
                            "currency": "BRL",
                            "available": bank.store.balance(),
                            "blocked": Decimal("0.00"),
                            "overdraft": Decimal("0.00"),
                        },
                        "updatedAt": bank._now(),
                    }
                ]
            }
        )

    async def transactions(request: Request) -> Response:
        authorize(request, "transactions.read", "pix.read")
        bank.tick()
        today = bank.clock.today()
        start = _parse_day(request, "startDate", today - dt.timedelta(days=30))
        end = _parse_day(request, "endDate", today)
        if end < start:
            raise invalid("endDate é anterior a startDate.", Violation("intervalo", "endDate"))
        page = query_int(request, "page", 1, 1, 10**6)
        per_page = query_int(request, "perPage", 50, 1, 1000)
        credit_debit = request.query_params.get("creditDebitType")
        if credit_debit not in (None, "CREDIT", "DEBIT"):
            raise invalid(
                "creditDebitType deve ser CREDIT ou DEBIT.",
                Violation("valor não permitido", "creditDebitType", credit_debit),
            )
        items, total = bank.store.entries(
            start_day=start.isoformat(),
            end_day=end.isoformat(),
            credit_debit=credit_debit,
            type_=request.query_params.get("transactionType"),
            offset=(page - 1) * per_page,
            limit=per_page,
        )
        return JsonResponse(
            {
                "data": items,
                "meta": {
                    "page": page,
                    "perPage": per_page,
                    "totalItems": total,
                    "totalPages": max(1, -(-total // per_page)),
                    "startDate": start.isoformat(),
                    "endDate": end.isoformat(),
                },
            }
        )

    async def transaction(request: Request) -> Response:
        authorize(request, "transactions.read", "pix.read")
        raw = request.path_params["id"]
        entry = bank.store.entry(int(raw)) if raw.isdigit() else None
        if entry is None:
            raise Problem(404, "Lançamento não encontrado.")
        return JsonResponse({"data": entry})

    def pay(method: str) -> Any:
        async def handler(request: Request) -> Response:
            client = authorize(request, "pix.write")
            body = await read_json(request)
            key = request.headers.get("x-idempotency-key")
            payment = getattr(bank, method)(body, key, client)
            return JsonResponse({"data": public(payment)}, status_code=202)

        return handler

    async def pix_payment(request: Request) -> Response:
        authorize(request, "pix.read")
        return JsonResponse({"data": public(bank.pix_payment(request.path_params["e2e"]))})

    async def pix_by_key(request: Request) -> Response:
        authorize(request, "pix.read")
        payment = bank.pix_payment_by_key(request.path_params["key"])
        return JsonResponse({"data": public(payment)})

    async def pix_receipt_route(request: Request) -> Response:
        authorize(request, "pix.read")
        payment = bank.pix_payment(request.path_params["e2e"])
        if payment["status"] not in RECEIPT_STATUSES:
            raise Problem(
                422, f"Comprovante disponível após a liquidação (situação: {payment['status']})."
            )
        return _pdf_response(pix_receipt(payment), f"comprovante-pix-{payment['endToEndId']}.pdf")

    async def billet_info(request: Request) -> Response:
        authorize(request, "billets.read", "billets.write")
        return JsonResponse({"data": bank.billet_info(await read_json(request))})

    def pay_billet(by: str) -> Any:
        async def handler(request: Request) -> Response:
            client = authorize(request, "billets.write")
            body = await read_json(request)
            payment = bank.pay_billet(body, request.headers.get("x-idempotency-key"), client, by=by)
            return JsonResponse({"data": public(payment)}, status_code=202)

        return handler

    async def billets(request: Request) -> Response:
        authorize(request, "billets.read")
        page = query_int(request, "page", 1, 1, 10**6)
        per_page = query_int(request, "perPage", 50, 1, 1000)
        items = [public(p) for p in bank.billets(request.query_params.get("idempotencyKey"))]
        return JsonResponse(paged(items, page, per_page))

    def _billet(request: Request) -> dict[str, Any]:
        authorize(request, "billets.read")
        return bank.billet(request.path_params["id"])

    async def billet(request: Request) -> Response:
        payment = public(_billet(request))
        payment.pop("billetInfo", None)
        return JsonResponse({"data": payment})

    async def billet_details(request: Request) -> Response:
        payment = _billet(request)
        return JsonResponse(
            {
                "data": {
                    "id": payment["id"],
                    "status": payment["status"],
                    "idempotencyKey": payment["idempotencyKey"],
                    "payment": payment["payment"],
                    "billetInfo": payment["billetInfo"],
                    "creditorAccount": payment["creditorAccount"],
                    "debtorAccount": payment["debtorAccount"],
                    "history": payment["history"],
                    "createdAt": payment["createdAt"],
                    "settledAt": payment.get("settledAt"),
                }
            }
        )

    async def billet_receipt_route(request: Request) -> Response:
        payment = _billet(request)
        if payment["status"] not in RECEIPT_STATUSES:
            raise Problem(
                422, f"Comprovante disponível após a liquidação (situação: {payment['status']})."
            )
        return _pdf_response(billet_receipt(payment), f"comprovante-boleto-{payment['id']}.pdf")

    async def webhook_of_type(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in WEBHOOK_TYPES:
            raise Problem(404, "Tipo de webhook desconhecido.")
        if request.method == "POST":
            authorize(request, "webhook.write")
            webhook, created = bank.put_webhook(kind, await read_json(request))
            return JsonResponse({"data": webhook}, status_code=201 if created else 200)
        if request.method == "DELETE":
            authorize(request, "webhook.write")
            existing = bank.webhook_of_type(kind)
            if existing is None:
                raise Problem(404, "Webhook não configurado.")
            bank.store.delete("webhook", str(existing["id"]))
            return Response(status_code=204)
        authorize(request, "webhook.read")
        existing = bank.webhook_of_type(kind)
        if existing is None:
            raise Problem(404, "Webhook não configurado.")
        return JsonResponse({"data": existing})

    async def webhooks(request: Request) -> Response:
        authorize(request, "webhook.read")
        return JsonResponse({"data": bank.webhooks()})

    async def webhook_by_id(request: Request) -> Response:
        webhook_id = str(request.path_params["id"])
        authorize(request, "webhook.write" if request.method == "DELETE" else "webhook.read")
        existing = bank.store.get("webhook", webhook_id)
        if existing is None:
            raise Problem(404, "Webhook não encontrado.")
        if request.method == "DELETE":
            bank.store.delete("webhook", webhook_id)
            return Response(status_code=204)
        return JsonResponse({"data": existing})

    async def infractions(request: Request) -> Response:
        authorize(request, "pix.read")
        page = query_int(request, "page", 1, 1, 10**6)
        per_page = query_int(request, "perPage", 50, 1, 1000)
        items = bank.store.all("infraction")
        status = request.query_params.get("status")
        if status:
            items = [i for i in items if i["status"] == status]
        items.sort(key=lambda i: i["createdAt"], reverse=True)
        return JsonResponse(paged(items, page, per_page))

    async def infraction(request: Request) -> Response:
        authorize(request, "pix.read")
        return JsonResponse({"data": bank.infraction(request.path_params["id"])})

    async def defenses(request: Request) -> Response:
        infraction_id = request.path_params["id"]
        if request.method == "POST":
            authorize(request, "pix.write")
            defense = bank.add_defense(infraction_id, await read_json(request))
            return JsonResponse({"data": defense}, status_code=201)
        authorize(request, "pix.read")
        return JsonResponse({"data": bank.infraction(infraction_id).get("defenses", [])})

    return [
        Route("/api/v2/oauth/token", token, methods=["POST"]),
        Route("/api/v2/accounts/balances", balances, methods=["GET"]),
        Route("/api/v2/accounts/balances/", balances, methods=["GET"]),
        Route("/api/v2/accounts/transactions", transactions, methods=["GET"]),
        Route("/api/v2/accounts/transactions/{id}", transaction, methods=["GET"]),
        Route("/api/v2/pix/payments/dict", pay("pay_by_key"), methods=["POST"]),
        Route("/api/v2/pix/payments/qrc", pay("pay_by_qrcode"), methods=["POST"]),
        Route("/api/v2/pix/payments/manu", pay("pay_by_bank_data"), methods=["POST"]),
        Route("/api/v2/pix/payments/idempotencyKey/{key}", pix_by_key, methods=["GET"]),
        Route("/api/v2/pix/payments/receipt/{e2e}", pix_receipt_route, methods=["GET"]),
        Route("/api/v2/pix/payments/{e2e}", pix_payment, methods=["GET"]),
        Route("/api/v2/billets/info", billet_info, methods=["POST"]),
        Route("/api/v2/billets/payments", pay_billet("digitableCode"), methods=["POST"]),
        Route("/api/v2/billets/pay", pay_billet("billetCode"), methods=["POST"]),
        Route("/api/v2/billets/payments/receipt/{id}", billet_receipt_route, methods=["GET"]),
        Route("/api/v2/billets", billets, methods=["GET"]),
        Route("/api/v2/billets/{id}/details", billet_details, methods=["GET"]),
        Route("/api/v2/billets/{id}", billet, methods=["GET"]),
        Route("/api/v2/webhooks", webhooks, methods=["GET"]),
        Route("/api/v2/webhooks/{id:int}", webhook_by_id, methods=["GET", "DELETE"]),
        Route("/api/v2/webhooks/{kind}", webhook_of_type, methods=["GET", "POST", "DELETE"]),
        Route("/api/v2/infractions", infractions, methods=["GET"]),
        Route("/api/v2/infractions/{id}/defenses", defenses, methods=["GET", "POST"]),
        Route("/api/v2/infractions/{id}", infraction, methods=["GET"]),
    ]
