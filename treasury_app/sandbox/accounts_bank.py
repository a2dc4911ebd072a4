"""What the sandbox bank does on the Accounts API side, without HTTP: Pix payouts by key,
QR Code and bank data, boleto payments, the payment state machine on the sandbox clock,
the statement, webhooks configuration and infractions."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from treasury_app.domain import boleto, brcode, documents, identifiers, pixkey
from treasury_app.domain.business_days import next_business_day
from treasury_app.domain.errors import DomainError
from treasury_app.sandbox import seed
from treasury_app.sandbox.clock import BRASILIA, SandboxClock, iso
from treasury_app.sandbox.problems import Problem, Violation, domain_detail, invalid
from treasury_app.sandbox.store import Store

SANDBOX_ISPB = seed.SANDBOX_ISPB
CENT = Decimal("0.01")
MAX_PIX_AMOUNT = Decimal("1000000.00")
BILLET_CUTOFF = dt.time(20, 0)  # Brasília time: later boleto payments are refused (422)
PIX_TIMELINE = (("PROCESSING", 1.0), ("SETTLED", 3.0))  # seconds after entering ON_QUEUE
BILLET_TIMELINE = (("PROCESSING", 1.0), ("LIQUIDATED", 4.0))
FINAL_STATUSES = frozenset(
    {"SETTLED", "LIQUIDATED", "CANCELED", "REFUNDED", "PARTIALLY_REFUNDED", "REJECTED"}
)
RECEIPT_STATUSES = frozenset({"SETTLED", "LIQUIDATED", "REFUNDED", "PARTIALLY_REFUNDED"})
WEBHOOK_TYPES = ("transfer", "receive", "refund", "cashout")
ACCOUNT_TYPES = frozenset({"CACC", "SVGS", "SLRY", "TRAN"})
PRIORITIES = frozenset({"HIGH", "NORM"})
FLOWS = frozenset({"INSTANT", "APPROVAL_REQUIRED"})
UNKNOWN_KEYS = frozenset({"00000000-0000-0000-0000-000000000000"})
UNKNOWN_KEY_DOMAIN = "@naoexiste.sandbox"


def money(value: object, field: str, *, required: bool = True) -> Decimal | None:
    """An Accounts API amount: a JSON number in reais, positive, at most 2 decimals."""
    if value is None:
        if required:
            raise invalid("Campo obrigatório ausente.", Violation("campo obrigatório", field))
        return None
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise invalid(
            "O valor deve ser um número em reais.",
            Violation("deve ser numérico", field, str(value)),
        )
    amount = Decimal(value)
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(CENT):
        raise invalid(
            "O valor deve ser positivo e ter no máximo 2 casas decimais.",
            Violation("valor inválido", field, str(value)),
        )
    return amount.quantize(CENT)


def require_str(body: dict[str, Any], field: str, *, max_len: int = 140) -> str:
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise invalid("Campo obrigatório ausente.", Violation("campo obrigatório", field))
    if len(value) > max_len:
        raise invalid(
            f"{field} excede {max_len} caracteres.", Violation("tamanho máximo", field, value)
        )
    return value.strip()


def optional_str(body: dict[str, Any], field: str, *, max_len: int = 140) -> str | None:
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > max_len:
        raise invalid(
            f"{field} deve ser texto de até {max_len} caracteres.",
            Violation("valor inválido", field, str(value)),
        )
    return value


class AccountsBank:
    """The account of the sandbox's company and every operation on it."""

    def __init__(self, store: Store, clock: SandboxClock) -> None:
        self.store = store
        self.clock = clock
        self.company = seed.COMPANY
        # Set by the QR Codes side: location URL -> {"amount", "creditor"} of a payable charge.
        self.location_resolver: Callable[[str], dict[str, Any] | None] | None = None

    # helpers ------------------------------------------------------------------------------
    def _now(self) -> str:
        return iso(self.clock.now())

    def _day(self) -> str:
        return self.clock.today().isoformat()

    def _debtor_account(self) -> dict[str, Any]:
        return dict(self.company["account"])

    def _check_idempotency(self, key: str | None) -> str:
        if key is None or key == "":
            raise invalid(
                "O cabeçalho x-idempotency-key é obrigatório.",
                Violation("cabeçalho obrigatório", "x-idempotency-key"),
            )
        if not identifiers.is_valid_idempotency_key(key):
            raise invalid(
                "x-idempotency-key deve ter de 1 a 50 caracteres [a-zA-Z0-9].",
                Violation("formato inválido", "x-idempotency-key", key),
            )
        if self.store.idempotency_ref(key) is not None:
            raise Problem(412, "Esta x-idempotency-key já foi utilizada.")
        return key

    def _common_payment_fields(self, body: dict[str, Any]) -> dict[str, Any]:
        flow = body.get("paymentFlow", "INSTANT")
        if not isinstance(flow, str) or flow not in FLOWS:
            raise invalid(
                "paymentFlow deve ser INSTANT ou APPROVAL_REQUIRED.",
                Violation("valor não permitido", "paymentFlow", str(flow)),
            )
        priority = body.get("priority", "NORM")
        if not isinstance(priority, str) or priority not in PRIORITIES:
            raise invalid(
                "priority deve ser HIGH ou NORM.",
                Violation("valor não permitido", "priority", str(priority)),
            )
        expiration = body.get("expiration")
        if expiration is not None and (
            isinstance(expiration, bool)
            or not isinstance(expiration, int)
            or not 1 <= expiration <= 10800
        ):
            raise invalid(
                "expiration deve ser um inteiro de 1 a 10800 segundos.",
                Violation("valor inválido", "expiration", str(expiration)),
            )
        return {
            "paymentFlow": flow,
            "priority": priority,
            "expiration": expiration,
            "description": optional_str(body, "description"),
        }

    def _payment_object(self, body: dict[str, Any], *, required: bool = True) -> Decimal | None:
        payment = body.get("payment")
        if payment is None and not required:
            return None
        if not isinstance(payment, dict):
            raise invalid("Campo obrigatório ausente.", Violation("campo obrigatório", "payment"))
        currency = payment.get("currency", "BRL")
        if currency != "BRL":
            raise invalid(
                "Somente BRL é aceito.", Violation("valor não permitido", "payment.currency")
            )
        return money(payment.get("amount"), "payment.amount", required=required)

    # Pix payments -----------------------------------------------------------------------
    def pay_by_key(self, body: dict[str, Any], key: str | None, client_id: str) -> dict[str, Any]:
        idem = self._check_idempotency(key)
        common = self._common_payment_fields(body)
        amount = self._payment_object(body)
        assert amount is not None
        raw_key = require_str(body, "pixKey", max_len=77)
        key_type_text = body.get("pixKeyType")
        try:
            key_type = pixkey.KeyType(key_type_text)
        except ValueError:
            raise invalid(
                "pixKeyType deve ser CPF, CNPJ, EMAIL, PHONE ou EVP.",
                Violation("valor não permitido", "pixKeyType", str(key_type_text)),
            ) from None
        try:
            normalized = pixkey.normalize_key(raw_key, key_type)
        except DomainError as exc:
            raise invalid(
                domain_detail(exc), Violation("chave inválida", "pixKey", raw_key)
            ) from None
        creditor_document = optional_str(body, "creditorDocument", max_len=18)
        if common["priority"] == "HIGH" and not creditor_document:
            raise invalid(
                "creditorDocument é obrigatório com priority HIGH.",
                Violation("campo obrigatório", "creditorDocument"),
            )
        if creditor_document is not None:
            try:
                creditor_document = documents.normalize_document(creditor_document)
            except DomainError as exc:
                raise invalid(
                    domain_detail(exc), Violation("documento inválido", "creditorDocument")
                ) from None
        creditor = self._dict_lookup(normalized, key_type)
        if creditor_document and creditor_document != creditor["document"]:
            raise Problem(
                422,
                "O documento informado não corresponde ao titular da chave.",
                violacoes=[Violation("não corresponde ao titular da chave", "creditorDocument")],
            )
        return self._create_pix(
            idem,
            common,
            amount,
            creditor,
            client_id,
            local_instrument="DICT",
            extra={
                "pixKey": normalized,
                "pixKeyType": key_type.value,
                "creditorDocument": creditor_document,
            },
        )

    def _dict_lookup(self, key: str, key_type: pixkey.KeyType) -> dict[str, Any]:
        """The sandbox's DICT: every valid key exists except a few documented ones."""
        if key in UNKNOWN_KEYS or key.endswith(UNKNOWN_KEY_DOMAIN):
            raise Problem(422, "Chave Pix não encontrada no DICT.", type_name="ChaveNaoEncontrada")
        if key_type in (pixkey.KeyType.CPF, pixkey.KeyType.CNPJ):
            document = key
        else:
            document = seed.document_for(key)
        return seed.account_for(key, document)

    def pay_by_qrcode(
        self, body: dict[str, Any], key: str | None, client_id: str
    ) -> dict[str, Any]:
        idem = self._check_idempotency(key)
        common = self._common_payment_fields(body)
        payload = require_str(body, "qrCode", max_len=512)
        try:
            code = brcode.parse(payload)
        except DomainError as exc:
            raise invalid(domain_detail(exc), Violation("QR Code inválido", "qrCode")) from None
        if code.is_recurrence_only:
            raise Problem(422, "Este QR Code autoriza uma recorrência e não tem cobrança a pagar.")
        amount = self._payment_object(body, required=False)
        location = self.resolve_location(code.url) if code.url else None
        if code.url and location is None:
            # A real bank fetches the payload from the location; only ours are reachable here.
            raise Problem(422, "Não foi possível obter a cobrança deste QR Code dinâmico.")
        due = code.amount
        if location is not None:
            due = location["amount"]
        if due is not None and amount is not None and amount != due:
            raise Problem(422, f"O valor informado difere do valor do QR Code ({due}).")
        amount = amount or due
        if amount is None:
            raise invalid(
                "Este QR Code não tem valor: informe payment.amount.",
                Violation("campo obrigatório", "payment.amount"),
            )
        if location is not None:
            creditor = location["creditor"]
        elif code.key:
            try:
                key_type = pixkey.detect_key_type(code.key)
            except DomainError as exc:
                raise Problem(422, f"A chave do QR Code é inválida. {domain_detail(exc)}") from None
            creditor = self._dict_lookup(pixkey.normalize_key(code.key, key_type), key_type)
            creditor = {**creditor, "name": code.merchant_name}
        else:  # pragma: no cover - dynamic codes without a location were refused above
            raise Problem(422, "QR Code sem chave nem localização.")
        return self._create_pix(
            idem,
            common,
            amount,
            creditor,
            client_id,
            local_instrument="QRDN" if code.is_dynamic else "QRES",
            extra={"qrCode": payload, "pixKey": code.key, "txId": code.txid, "location": code.url},
        )

    def resolve_location(self, url: str) -> dict[str, Any] | None:
        """A dynamic QR's payload location served by this sandbox (filled by the QR Codes side)."""
        return self.location_resolver(url) if self.location_resolver else None

    def pay_by_bank_data(
        self, body: dict[str, Any], key: str | None, client_id: str
    ) -> dict[str, Any]:
        idem = self._check_idempotency(key)
        common = self._common_payment_fields(body)
        amount = self._payment_object(body)
        assert amount is not None
        account = body.get("creditorAccount")
        if not isinstance(account, dict):
            raise invalid(
                "creditorAccount é obrigatório.", Violation("campo obrigatório", "creditorAccount")
            )
        violations = []
        ispb = account.get("ispb")
        if not (isinstance(ispb, str) and len(ispb) == 8 and ispb.isascii() and ispb.isalnum()):
            violations.append(Violation("8 caracteres [0-9A-Z]", "creditorAccount.ispb", str(ispb)))
        issuer = account.get("issuer")
        if not (isinstance(issuer, str) and issuer.isdigit() and 1 <= len(issuer) <= 4):
            violations.append(Violation("agência de 1 a 4 dígitos", "creditorAccount.issuer"))
        number = account.get("number")
        if not (
            isinstance(number, str) and number.replace("-", "").isdigit() and 1 <= len(number) <= 20
        ):
            violations.append(Violation("conta de até 20 dígitos", "creditorAccount.number"))
        account_type = account.get("accountType")
        if not isinstance(account_type, str) or account_type not in ACCOUNT_TYPES:
            violations.append(
                Violation(
                    "CACC, SVGS, SLRY ou TRAN", "creditorAccount.accountType", str(account_type)
                )
            )
        document = account.get("document")
        try:
            document = documents.normalize_document(str(document or ""))
        except DomainError:
            violations.append(Violation("CPF ou CNPJ inválido", "creditorAccount.document"))
        name = account.get("name")
        if not (isinstance(name, str) and name.strip() and len(name) <= 140):
            violations.append(Violation("nome obrigatório", "creditorAccount.name"))
        if violations:
            raise invalid("Dados bancários do favorecido inválidos.", *violations)
        creditor = {
            "ispb": ispb,
            "issuer": issuer,
            "number": number.replace("-", ""),
            "accountType": account_type,
            "document": document,
            "name": name.strip(),
        }
        return self._create_pix(
            idem, common, amount, creditor, client_id, local_instrument="MANU", extra={}
        )

    def _create_pix(
        self,
        idem: str,
        common: dict[str, Any],
        amount: Decimal,
        creditor: dict[str, Any],
        client_id: str,
        *,
        local_instrument: str,
        extra: dict[str, Any],
    ) -> dict[str, Any]:
        if amount > MAX_PIX_AMOUNT:
            raise Problem(
                422, "O valor excede o limite por transação do sandbox (R$ 1.000.000,00)."
            )
        held = common["paymentFlow"] == "APPROVAL_REQUIRED"
        if not held and amount > self.store.balance():
            raise Problem(422, "Saldo insuficiente.", type_name="SaldoInsuficiente")
        now = self.clock.now()
        with self.store.transaction():
            payment_id = self.store.next_id("payment", 1_000_000)
            e2e = identifiers.new_e2eid(SANDBOX_ISPB, now)
            status = "WAITING_APPROVAL" if held else "ON_QUEUE"
            payment: dict[str, Any] = {
                "id": payment_id,
                "endToEndId": e2e,
                "idempotencyKey": idem,
                "transactionType": "PIX",
                "localInstrument": local_instrument,
                "status": status,
                "errorCode": None,
                **common,
                "remittanceInformation": common["description"],
                **{k: v for k, v in extra.items() if v is not None},
                "creditorAccount": creditor,
                "debtorAccount": self._debtor_account(),
                "payment": {"currency": "BRL", "amount": amount},
                "refunds": [],
                "createdAt": iso(now),
                "updatedAt": iso(now),
                "history": [{"status": status, "at": iso(now)}],
                "clientId": client_id,
            }
            if not held:
                self._debit_for(payment, "PIX")
            self.store.put("pix_payment", e2e, payment, iso(now))
            self.store.remember_idempotency(idem, "pix_payment", e2e, iso(now))
        return payment

    def _debit_for(self, payment: dict[str, Any], type_: str) -> None:
        creditor = payment["creditorAccount"]
        entry = self.store.add_entry(
            created=self._now(),
            day=self._day(),
            credit_debit="DEBIT",
            type_=type_,
            amount=payment["payment"]["amount"],
            body={
                "description": payment.get("description") or f"Pagamento a {creditor['name']}",
                "endToEndId": payment.get("endToEndId"),
                "paymentId": payment["id"],
                "counterparty": {k: creditor.get(k) for k in ("name", "document", "ispb")},
            },
        )
        payment["debitEntryId"] = entry["id"]

    def pix_payment(self, e2e: str) -> dict[str, Any]:
        self.tick()
        payment = self.store.get("pix_payment", e2e)
        if payment is None:
            raise Problem(404, "Pagamento não encontrado.")
        return payment

    def pix_payment_by_key(self, key: str) -> dict[str, Any]:
        self.tick()
        ref = self.store.idempotency_ref(key)
        if ref is None or ref[0] != "pix_payment":
            raise Problem(404, "Nenhum pagamento com esta chave de idempotência.")
        return self.pix_payment(ref[1])

    # boleto -----------------------------------------------------------------------------
    def _parse_slip_code(self, code: object, field: str) -> boleto.Boleto:
        if not isinstance(code, str) or not code:
            raise invalid("Campo obrigatório ausente.", Violation("campo obrigatório", field))
        if field == "billetCode" and (not code.isdigit() or not code.isascii() or len(code) > 50):
            raise invalid(
                "billetCode deve conter somente dígitos (até 50).",
                Violation("somente dígitos, até 50", field, code),
            )
        try:
            return boleto.parse(code, today=self.clock.today())
        except DomainError as exc:
            raise invalid(
                domain_detail(exc), Violation("código de barras inválido", field, code)
            ) from None

    def billet_info(self, body: dict[str, Any]) -> dict[str, Any]:
        slip = self._parse_slip_code(body.get("billetCode"), "billetCode")
        info = self._slip_info(slip)
        queried = self.store.get("slip_queried", slip.barcode) or {}
        queried.update({"barcode": slip.barcode, "at": self._now()})
        self.store.put("slip_queried", slip.barcode, queried, self._now())
        return info

    def _slip_record(self, slip: boleto.Boleto) -> dict[str, Any]:
        record = self.store.get("slip", slip.barcode)
        if record is not None:
            return record
        return seed.generic_slip(slip)

    def _slip_info(self, slip: boleto.Boleto) -> dict[str, Any]:
        record = self._slip_record(slip)
        today = self.clock.today()
        original = Decimal(record["amount"]) if record.get("amount") is not None else None
        due = dt.date.fromisoformat(record["dueDate"]) if record.get("dueDate") else None
        fine = interest = Decimal("0.00")
        days_late = 0
        if due is not None and original is not None:
            # A slip due on a weekend or holiday can be paid on the next business day as is.
            days_late = max(0, (today - next_business_day(due)).days)
            if days_late:
                days_late = (today - due).days
                fine = (original * Decimal(record["finePercent"]) / 100).quantize(
                    CENT, ROUND_HALF_UP
                )
                interest = (
                    original * Decimal(record["monthlyInterestPercent"]) / 100 / 30 * days_late
                ).quantize(CENT, ROUND_HALF_UP)
        total = (original + fine + interest) if original is not None else None
        limit = (
            (due + dt.timedelta(days=int(record["paymentLimitDays"]))).isoformat()
            if due is not None
            else None
        )
        return {
            "billetCode": slip.barcode,
            "barcode": slip.barcode,
            "digitableCode": slip.digitable_line,
            "type": "BANK" if slip.kind == "bank" else "COLLECTION",
            "dueDate": due.isoformat() if due else None,
            "paymentLimitDate": limit,
            "originalAmount": original,
            "fine": fine,
            "interest": interest,
            "discount": Decimal("0.00"),
            "totalUpdated": total,
            "daysLate": days_late,
            "allowChangeValue": bool(record.get("allowChangeValue")) or original is None,
            "beneficiary": record["beneficiary"],
            "payer": record.get("payer"),
        }

    def pay_billet(
        self, body: dict[str, Any], key: str | None, client_id: str, *, by: str
    ) -> dict[str, Any]:
        idem = self._check_idempotency(key)
        common = self._common_payment_fields(body)
        if by == "billetCode":
            slip = self._parse_slip_code(body.get("billetCode"), "billetCode")
            if self.store.get("slip_queried", slip.barcode) is None:
                raise Problem(422, "Consulte o boleto em /api/v2/billets/info antes de pagá-lo.")
        else:
            code = body.get("digitableCode")
            if isinstance(code, str):
                code = "".join(ch for ch in code if ch not in " .-")
            slip = self._parse_slip_code(code, "digitableCode")
        amount = self._payment_object(body, required=False)
        earlier = [
            p
            for p in self.store.all("billet_payment")
            if p["barcode"] == slip.barcode and p["status"] not in ("CANCELED", "REJECTED")
        ]
        if earlier:
            raise Problem(
                422,
                f"Este boleto já foi pago ou está em pagamento (pagamento {earlier[0]['id']}, "
                f"{earlier[0]['status']}, de {earlier[0]['createdAt'][:10]}).",
                type_name="BoletoJaPago",
            )
        info = self._slip_info(slip)
        self._check_billet_rules(info, amount)
        total: Decimal = info["totalUpdated"]
        held = common["paymentFlow"] == "APPROVAL_REQUIRED"
        if not held and total > self.store.balance():
            raise Problem(422, "Saldo insuficiente.", type_name="SaldoInsuficiente")
        now = self.clock.now()
        with self.store.transaction():
            billet_id = self.store.next_id("billet", 5000)
            status = "WAITING_APPROVAL" if held else "ON_QUEUE"
            beneficiary = info["beneficiary"]
            payment: dict[str, Any] = {
                "id": billet_id,
                "idempotencyKey": idem,
                "transactionType": "BILLET",
                "status": status,
                "errorCode": None,
                **common,
                "digitableCode": slip.digitable_line,
                "barcode": slip.barcode,
                "dueDate": info["dueDate"],
                "payment": {"currency": "BRL", "amount": total},
                "billetInfo": info,
                "creditorAccount": {
                    "ispb": beneficiary.get("ispb"),
                    "issuer": beneficiary.get("branch"),
                    "number": beneficiary.get("account"),
                    "accountType": "CACC",
                    "document": beneficiary.get("document"),
                    "name": beneficiary.get("name"),
                },
                "debtorAccount": self._debtor_account(),
                "createdAt": iso(now),
                "updatedAt": iso(now),
                "history": [{"status": status, "at": iso(now)}],
                "clientId": client_id,
            }
            if not held:
                self._debit_for(payment, "BILLET")
            self.store.put("billet_payment", str(billet_id), payment, iso(now))
            self.store.remember_idempotency(idem, "billet_payment", str(billet_id), iso(now))
        return payment

    def _check_billet_rules(self, info: dict[str, Any], amount: Decimal | None) -> None:
        if info["allowChangeValue"]:
            raise Problem(
                422, "Boletos de valor livre (allowChangeValue) não podem ser pagos por esta API."
            )
        if info["paymentLimitDate"] and self.clock.today().isoformat() > info["paymentLimitDate"]:
            raise Problem(
                422,
                f"Boleto vencido além do prazo de pagamento ({info['paymentLimitDate']}).",
                type_name="BoletoVencido",
            )
        if self.clock.now().astimezone(BRASILIA).time() >= BILLET_CUTOFF:
            raise Problem(
                422,
                "Pagamento após o horário limite diário (20h00, horário de Brasília).",
                type_name="ForaDoHorario",
            )
        if amount is not None and amount != info["totalUpdated"]:
            raise Problem(
                422,
                f"O pagamento deve usar o valor atualizado ({info['totalUpdated']}).",
            )

    def billet(self, billet_id: str) -> dict[str, Any]:
        self.tick()
        payment = self.store.get("billet_payment", billet_id)
        if payment is None:
            raise Problem(404, "Pagamento de boleto não encontrado.")
        return payment

    def billets(self, idempotency_key: str | None = None) -> list[dict[str, Any]]:
        self.tick()
        items = self.store.all("billet_payment")
        if idempotency_key:
            items = [p for p in items if p["idempotencyKey"] == idempotency_key]
        return sorted(items, key=lambda p: p["id"], reverse=True)

    # state machine ----------------------------------------------------------------------
    def tick(self) -> list[dict[str, Any]]:
        """Move every payment whose time has come; returns the payments that changed."""
        changed: list[dict[str, Any]] = []
        now = self.clock.now()
        for kind, timeline in (("pix_payment", PIX_TIMELINE), ("billet_payment", BILLET_TIMELINE)):
            for payment in self.store.all(kind):
                if self._advance(payment, timeline, now):
                    doc_id = payment["endToEndId"] if kind == "pix_payment" else str(payment["id"])
                    self.store.put(kind, doc_id, payment, payment["createdAt"])
                    changed.append(payment)
        return changed

    def _advance(
        self, payment: dict[str, Any], timeline: tuple[tuple[str, float], ...], now: dt.datetime
    ) -> bool:
        status = payment["status"]
        if status == "WAITING_APPROVAL" and payment.get("expiration"):
            created = dt.datetime.fromisoformat(payment["createdAt"])
            deadline = created + dt.timedelta(seconds=payment["expiration"])
            if now >= deadline:
                self._set_status(payment, "CANCELED", iso(deadline), error="EXPIRED")
                return True
        if status not in ("ON_QUEUE", "PROCESSING"):
            return False
        queued = next(h for h in reversed(payment["history"]) if h["status"] == "ON_QUEUE")
        queued_at = dt.datetime.fromisoformat(queued["at"])
        moved = False
        order = ["ON_QUEUE"] + [name for name, _ in timeline]
        for name, after in timeline:
            if order.index(name) <= order.index(payment["status"]):
                continue
            at = queued_at + dt.timedelta(seconds=after)
            if at > now:
                break
            self._set_status(payment, name, iso(at))
            moved = True
        return moved

    def _set_status(
        self, payment: dict[str, Any], status: str, at: str, *, error: str | None = None
    ) -> None:
        payment["status"] = status
        payment["updatedAt"] = at
        payment["history"].append({"status": status, "at": at})
        if error:
            payment["errorCode"] = error
        if status in ("SETTLED", "LIQUIDATED"):
            payment["settledAt"] = at

    def decide_approval(self, kind: str, doc_id: str, approve: bool) -> dict[str, Any]:
        """The bank's web console: approve or reject a payment held for approval."""
        self.tick()  # a hold that expired since the last tick must not be approved
        payment = self.store.get(kind, doc_id)
        if payment is None:
            raise Problem(404, "Pagamento não encontrado.", code="payment.not_found")
        if payment["status"] != "WAITING_APPROVAL":
            raise Problem(
                422,
                f"O pagamento está {payment['status']}, não aguarda aprovação.",
                code="payment.not_held",
                params={"status": payment["status"]},
            )
        now = self._now()
        with self.store.transaction():
            if not approve:
                self._set_status(payment, "CANCELED", now, error="REJECTED_BY_APPROVER")
            elif payment["payment"]["amount"] > self.store.balance():
                self._set_status(payment, "CANCELED", now, error="AM04")  # insufficient funds
            else:
                self._debit_for(payment, "PIX" if kind == "pix_payment" else "BILLET")
                self._set_status(payment, "ON_QUEUE", now)
            self.store.put(kind, doc_id, payment, payment["createdAt"])
        return payment

    def held_payments(self) -> list[dict[str, Any]]:
        self.tick()
        return [
            p
            for kind in ("pix_payment", "billet_payment")
            for p in self.store.all(kind)
            if p["status"] == "WAITING_APPROVAL"
        ]

    # incoming money ---------------------------------------------------------------------
    def credit_incoming_pix(
        self,
        amount: Decimal,
        payer: dict[str, Any],
        description: str | None,
        txid: str | None = None,
        end_to_end_id: str | None = None,
    ) -> dict[str, Any]:
        """Credit a Pix from a third party; ``end_to_end_id`` keeps the payer side's id."""
        now = self.clock.now()
        e2e = end_to_end_id or identifiers.new_e2eid(payer.get("ispb") or "60746948", now)
        return self.store.add_entry(
            created=iso(now),
            day=self._day(),
            credit_debit="CREDIT",
            type_="PIX",
            amount=amount,
            body={
                "description": description or f"Pix recebido de {payer.get('name')}",
                "endToEndId": e2e,
                "txId": txid,
                "counterparty": payer,
            },
        )

    def refund_sent_payment(self, e2e: str, amount: Decimal | None) -> dict[str, Any]:
        """The receiver of one of our Pix sends part or all of it back."""
        payment = self.pix_payment(e2e)
        if payment["status"] not in ("SETTLED", "PARTIALLY_REFUNDED"):
            raise Problem(422, "Só um pagamento liquidado pode ser devolvido.")
        paid: Decimal = payment["payment"]["amount"]
        refunded = sum((Decimal(r["amount"]) for r in payment["refunds"]), Decimal("0.00"))
        amount = amount or (paid - refunded)
        if amount <= 0 or refunded + amount > paid:
            raise Problem(422, "A devolução excede o valor ainda não devolvido.")
        now = self.clock.now()
        rtr = identifiers.new_rtrid(payment["creditorAccount"].get("ispb") or "60746948", now)
        with self.store.transaction():
            payment["refunds"].append(
                {
                    "endToEndId": rtr,
                    "status": "SETTLED",
                    "errorCode": None,
                    "amount": amount,
                    "pixRefundAmount": {"currency": "BRL", "amount": amount},
                    "createdAt": iso(now),
                }
            )
            status = "REFUNDED" if refunded + amount == paid else "PARTIALLY_REFUNDED"
            self._set_status(payment, status, iso(now))
            self.store.put("pix_payment", e2e, payment, payment["createdAt"])
            creditor = payment["creditorAccount"]
            self.store.add_entry(
                created=iso(now),
                day=self._day(),
                credit_debit="CREDIT",
                type_="REFUND",
                amount=amount,
                body={
                    "description": f"Devolução de Pix por {creditor['name']}",
                    "endToEndId": rtr,
                    "originalEndToEndId": e2e,
                    "counterparty": {k: creditor.get(k) for k in ("name", "document", "ispb")},
                },
            )
        return payment

    # webhooks ---------------------------------------------------------------------------
    def put_webhook(self, kind: str, body: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        uri = body.get("uri")
        violations = []
        if not isinstance(uri, str) or not uri.lower().startswith("https://") or len(uri) > 500:
            violations.append(Violation("deve ser uma URL HTTPS", "uri", str(uri)))
        method = body.get("method", "POST")
        if method not in ("POST", "PUT"):
            violations.append(Violation("POST ou PUT", "method", str(method)))
        for flag in ("enabled", "pauseOnFail"):
            if flag in body and not isinstance(body[flag], bool):
                violations.append(Violation("deve ser booleano", flag, str(body[flag])))
        email = body.get("email")
        if email is not None and (not isinstance(email, str) or "@" not in email):
            violations.append(Violation("e-mail inválido", "email", str(email)))
        headers = body.get("headers", {})
        if not isinstance(headers, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
        ):
            violations.append(Violation("objeto de cabeçalhos (texto: texto)", "headers"))
        if violations:
            raise invalid("Configuração de webhook inválida.", *violations)
        existing = self.webhook_of_type(kind)
        now = self._now()
        webhook = {
            "id": existing["id"] if existing else self.store.next_id("webhook"),
            "type": kind.upper(),
            "uri": uri,
            "method": method,
            "enabled": body.get("enabled", True),
            "pauseOnFail": body.get("pauseOnFail", False),
            "email": email,
            "headers": headers,
            "createdAt": existing["createdAt"] if existing else now,
            "updatedAt": now,
        }
        self.store.put("webhook", str(webhook["id"]), webhook, webhook["createdAt"])
        return webhook, existing is None

    def webhook_of_type(self, kind: str) -> dict[str, Any] | None:
        return next((w for w in self.store.all("webhook") if w["type"] == kind.upper()), None)

    def webhooks(self) -> list[dict[str, Any]]:
        return self.store.all("webhook")

    # infractions ------------------------------------------------------------------------
    def infraction(self, infraction_id: str) -> dict[str, Any]:
        item = self.store.get("infraction", infraction_id)
        if item is None:
            raise Problem(404, "Infração não encontrada.")
        return item

    def add_defense(self, infraction_id: str, body: dict[str, Any]) -> dict[str, Any]:
        infraction = self.infraction(infraction_id)
        description = require_str(body, "description", max_len=2000)
        attachments = body.get("attachments", [])
        if not isinstance(attachments, list) or not all(
            isinstance(a, dict) and isinstance(a.get("name"), str) for a in attachments
        ):
            raise invalid(
                "attachments deve ser uma lista de objetos com name.",
                Violation("formato inválido", "attachments"),
            )
        if infraction["status"] == "CLOSED":
            raise Problem(422, "A infração está encerrada e não aceita defesa.")
        if self._now() > infraction["defenseDeadline"]:
            raise Problem(422, "O prazo de defesa desta infração terminou.")
        defense = {
            "id": self.store.next_id("defense"),
            "infractionId": infraction_id,
            "description": description,
            "attachments": [{"name": a["name"]} for a in attachments],
            "status": "SUBMITTED",
            "createdAt": self._now(),
        }
        infraction.setdefault("defenses", []).append(defense)
        infraction["status"] = "UNDER_REVIEW"
        self.store.put("infraction", infraction_id, infraction, infraction["createdAt"])
        return defense


def stable_int(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
