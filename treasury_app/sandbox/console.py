"""The sandbox's control surface: JSON endpoints under ``/sandbox`` and a small HTML console
for what the specification leaves to the outside world (the bank's web console approving
held payments, money arriving from third parties, time passing, faults)."""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import parse_qsl, urlencode

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from treasury_app.domain import documents
from treasury_app.domain.clock import InstantForm, format_date, format_instant
from treasury_app.domain.money import MoneyError, format_brl, parse_brl
from treasury_app.sandbox.accounts_bank import AccountsBank
from treasury_app.sandbox.accounts_routes import public
from treasury_app.sandbox.auth import AuthService
from treasury_app.sandbox.clock import SandboxClock, iso
from treasury_app.sandbox.faults import FaultInjector, FaultRule
from treasury_app.sandbox.problems import Problem, Violation, invalid
from treasury_app.sandbox.web import JsonResponse, read_json

log = logging.getLogger("treasury_app.sandbox")

PAGE = jinja2.Environment(autoescape=True).from_string(
    """<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Sandbox Bank — console</title>
<style>
 body{font-family:system-ui,sans-serif;margin:2rem;color:#1d2b36;background:#f5f7f8}
 h1{color:#0b5563} section{background:#fff;border-radius:8px;padding:1rem 1.5rem;margin:1rem 0;
 box-shadow:0 1px 3px #0002} table{border-collapse:collapse;width:100%}
 td,th{padding:.35rem .5rem;border-bottom:1px solid #e3e8eb;text-align:left}
 .amount{font-variant-numeric:tabular-nums;text-align:right} button{margin-right:.3rem}
 .note{color:#677}
</style></head><body>
<h1>Sandbox Bank — console</h1>
<p class="note">Relógio do sandbox: <b>{{ now }}</b> · Saldo: <b>{{ balance }}</b> ·
 Falhas ativas: {{ faults|length }}</p>
<section><h2>Pagamentos aguardando aprovação</h2>
{% if held %}<table><tr><th>Tipo</th><th>Favorecido</th><th class="amount">Valor</th>
<th>Criado</th><th></th></tr>
{% for p in held %}<tr><td>{{ p.kind }}</td><td>{{ p.name }}</td>
<td class="amount">{{ p.amount }}</td><td>{{ p.created }}</td><td>
<form method="post" action="/sandbox/console/decide" style="display:inline">
<input type="hidden" name="kind" value="{{ p.kind }}">
<input type="hidden" name="id" value="{{ p.id }}">
<button name="decision" value="approve">Aprovar</button>
<button name="decision" value="reject">Rejeitar</button></form></td></tr>{% endfor %}
</table>{% else %}<p class="note">Nenhum pagamento aguardando aprovação.</p>{% endif %}
</section>
{% if result %}<p class="note">Última ação: <b>{{ result }}</b></p>{% endif %}
{% if "pay-charge" in extra %}<section><h2>Pagar uma cobrança (como pagador)</h2>
<form method="post" action="/sandbox/console/pay-charge">
 txid <input name="txid" size="36" required> Pagador <input name="name" value="Maria da Silva">
 <button>Pagar</button></form></section>{% endif %}
{% if "rec" in extra %}<section><h2>Pix Automático</h2>
<form method="post" action="/sandbox/console/rec">
 idRec <input name="idRec" size="30" required>
 <button name="action" value="approve">Aprovar</button>
 <button name="action" value="reject">Rejeitar</button>
 <button name="action" value="expire">Expirar</button></form>
<form method="post" action="/sandbox/console/cobr-fail">
 txid da cobr <input name="txid" size="36" required>
 <button>Falhar a próxima tentativa</button></form></section>{% endif %}
<section><h2>Creditar um Pix recebido</h2>
<form method="post" action="/sandbox/console/incoming">
 Valor (R$) <input name="amount" value="1.000,00" required>
 Pagador <input name="name" value="Cliente Exemplo Ltda" required>
 <button>Creditar</button></form></section>
<section><h2>Relógio</h2>
<form method="post" action="/sandbox/console/clock">
 Avançar <input name="seconds" value="60" size="6"> segundos <button>Avançar</button>
 <button name="seconds" value="3600">+1 hora</button>
 <button name="seconds" value="86400">+1 dia</button></form>
<p class="note">No aplicativo, a aba Calendário tem os mesmos botões (e segue o relógio ao
 atualizar).</p>
</section>
<section><h2>Falhas injetadas</h2>
{% if faults %}<pre>{{ faults_text }}</pre>
<form method="post" action="/sandbox/console/faults"><button>Limpar falhas</button></form>
{% else %}<p class="note">Nenhuma. Use PUT /sandbox/faults para configurar.</p>{% endif %}
</section>
<section><h2>Notificações (últimas 30)</h2>
{% if notifications %}<table><tr><th>API</th><th>Tipo</th><th>Destino</th><th>Situação</th>
<th>Tentativas</th><th>Resultado</th></tr>
{% for n in notifications %}<tr><td>{{ n.api }}</td><td>{{ n.kind }}</td><td>{{ n.url or "-" }}</td>
<td>{{ n.status }}</td><td>{{ n.attempts or 0 }}</td><td>{{ n.lastResult or "" }}</td></tr>
{% endfor %}</table>{% else %}<p class="note">Nenhuma notificação.</p>{% endif %}</section>
<section><h2>Boletos pagáveis</h2><table><tr><th>Descrição</th><th>Linha digitável</th>
<th class="amount">Valor</th><th>Vencimento</th></tr>
{% for s in slips %}<tr><td>{{ s.label }}</td><td><code>{{ s.line }}</code></td>
<td class="amount">{{ s.amount }}</td><td>{{ s.due }}</td></tr>{% endfor %}</table></section>
</body></html>"""
)


def _amount(value: object, field: str) -> Decimal:
    try:
        if isinstance(value, str):
            amount = parse_brl(value)
        elif isinstance(value, int | Decimal) and not isinstance(value, bool):
            amount = Decimal(value)
        else:
            raise MoneyError("money.form")
    except (MoneyError, InvalidOperation):
        raise invalid("Valor inválido.", Violation("valor inválido", field, str(value))) from None
    if amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise invalid("Valor inválido.", Violation("positivo, 2 casas", field, str(value)))
    return amount


def routes(
    bank: AccountsBank,
    clock: SandboxClock,
    faults: FaultInjector,
    auth: AuthService,
    tick: Callable[[], object] | None = None,
    actions: dict[str, Callable[[dict[str, str]], object]] | None = None,
) -> list[Route]:
    """The control surface; ``tick`` moves every state machine after the clock changes."""
    store = bank.store
    tick_all = tick or bank.tick
    extra_actions = actions or {}

    def payment_kind(kind: str) -> str:
        return {"pix": "pix_payment", "billets": "billet_payment"}[kind]

    async def status(request: Request) -> Response:
        return JsonResponse(
            {
                "now": iso(clock.now()),
                "offsetSeconds": Decimal(str(clock.offset.total_seconds())),
                "balance": store.balance(),
                "faults": faults.snapshot(),
                "faultsInjected": faults.injected,
                "tokenRequests": auth.token_requests,
                "heldPayments": len(bank.held_payments()),
            }
        )

    async def clock_route(request: Request) -> Response:
        body = await read_json(request)
        try:
            if "advance" in body:
                clock.advance(float(body["advance"]))
            elif "set" in body:
                clock.set(dt.datetime.fromisoformat(str(body["set"]).replace("Z", "+00:00")))
            else:
                raise invalid("Informe advance (segundos) ou set (instante RFC 3339).")
        except (ValueError, TypeError) as exc:
            # Python's own message (English) goes to the log, not to the answer.
            log.info("clock move refused: %s", exc)
            problem = invalid("Relógio: advance deve ser um número e set um instante RFC 3339.")
            problem.code = "clock.invalid"
            raise problem from None
        tick_all()
        return JsonResponse({"now": iso(clock.now())})

    async def faults_route(request: Request) -> Response:
        if request.method == "DELETE":
            faults.clear()
        elif request.method in ("PUT", "POST"):
            body = await read_json(request)
            raw_rules = body.get("rules", []) if request.method == "PUT" else [body]
            try:
                rules = [FaultRule.from_dict(dict(r)) for r in raw_rules]
            except (TypeError, ValueError) as exc:
                log.info("fault rule refused: %s", exc)
                raise invalid("Regra de falha inválida (veja o README do sandbox).") from None
            if request.method == "PUT":
                faults.replace(rules)
            else:
                faults.add(rules[0])
        return JsonResponse({"rules": faults.snapshot()})

    def decide(kind: str) -> Any:
        async def handler(request: Request) -> Response:
            decision = request.path_params["decision"]
            if decision not in ("approve", "reject"):
                raise Problem(404, "Use approve ou reject.")
            payment = bank.decide_approval(
                payment_kind(kind), request.path_params["id"], decision == "approve"
            )
            return JsonResponse({"data": public(payment)})

        return handler

    decide_pix, decide_billet = decide("pix"), decide("billets")

    async def held(request: Request) -> Response:
        return JsonResponse({"data": [public(p) for p in bank.held_payments()]})

    async def incoming(request: Request) -> Response:
        body = await read_json(request)
        amount = _amount(body.get("amount"), "amount")
        payer = body.get("payer") or {}
        if not isinstance(payer, dict):
            raise invalid("payer deve ser um objeto.")
        name = str(payer.get("name") or "Cliente Exemplo Ltda")
        document = str(payer.get("document") or "60391947000100")
        if not (documents.is_valid_cpf(document) or documents.is_valid_cnpj(document)):
            raise invalid("payer.document inválido.", Violation("CPF ou CNPJ", "payer.document"))
        entry = bank.credit_incoming_pix(
            amount,
            {
                "name": name,
                "document": documents.normalize_document(document),
                "ispb": str(payer.get("ispb") or "60746948"),
            },
            body.get("description"),
            body.get("txid"),
        )
        return JsonResponse({"data": entry}, status_code=201)

    async def refund(request: Request) -> Response:
        body = await read_json(request) if await request.body() else {}
        amount = _amount(body["amount"], "amount") if body.get("amount") is not None else None
        payment = bank.refund_sent_payment(request.path_params["e2e"], amount)
        return JsonResponse({"data": public(payment)})

    async def slips(request: Request) -> Response:
        return JsonResponse({"data": store.all("slip")})

    async def reset_limits(request: Request) -> Response:
        auth.reset_limits()
        return JsonResponse({"ok": True})

    # HTML console ---------------------------------------------------------------------
    async def console(request: Request) -> Response:
        held_rows = []
        for p in bank.held_payments():
            kind = "pix" if p["transactionType"] == "PIX" else "billets"
            held_rows.append(
                {
                    "kind": kind,
                    "id": p["endToEndId"] if kind == "pix" else p["id"],
                    "name": p["creditorAccount"]["name"],
                    "amount": format_brl(p["payment"]["amount"]),
                    "created": p["createdAt"],
                }
            )
        slip_rows = [
            {
                "label": s.get("label"),
                "line": s.get("digitableCode"),
                "amount": format_brl(Decimal(s["amount"])) if s.get("amount") else "livre",
                "due": format_date(dt.date.fromisoformat(s["dueDate"]))
                if s.get("dueDate")
                else None,
            }
            for s in store.all("slip")
        ]
        html = PAGE.render(
            now=format_instant(clock.now(), InstantForm.SECONDS),
            balance=format_brl(store.balance()),
            held=held_rows,
            slips=slip_rows,
            faults=faults.rules,
            faults_text=json.dumps(faults.snapshot(), indent=1, default=str),
            result=request.query_params.get("result"),
            notifications=[
                {
                    k: n.get(k)
                    for k in (
                        "id",
                        "api",
                        "kind",
                        "url",
                        "status",
                        "attempts",
                        "lastResult",
                        "createdAt",
                    )
                }
                for n in store.all("notification")[-30:][::-1]
            ],
            extra=sorted(extra_actions),
        )
        return HTMLResponse(html)

    async def console_form(request: Request) -> Response:
        # The console's forms are URL-encoded; parsed here so that Starlette's form parser
        # (which needs the optional python-multipart package) is not required.
        form = dict(parse_qsl((await request.body()).decode("utf-8", "replace")))
        action = request.path_params["action"]
        try:
            if action == "decide":
                bank.decide_approval(
                    payment_kind(str(form["kind"])),
                    str(form["id"]),
                    form.get("decision") == "approve",
                )
            elif action == "incoming":
                bank.credit_incoming_pix(
                    _amount(str(form["amount"]), "amount"),
                    {"name": str(form["name"]), "document": "60391947000100", "ispb": "60746948"},
                    None,
                )
            elif action == "clock":
                clock.advance(float(str(form["seconds"])))
                tick_all()
            elif action == "faults":
                faults.clear()
            elif action in extra_actions:
                extra_actions[action](form)
                tick_all()
            else:
                raise KeyError(action)
            result = "ok"
        except Problem as exc:
            result = exc.detail
        except (KeyError, ValueError) as exc:
            log.info("console form refused: %s", exc)
            result = "dados inválidos"
        return RedirectResponse(f"/sandbox/?{urlencode({'result': result})}", status_code=303)

    return [
        Route("/sandbox/", console, methods=["GET"]),
        Route("/sandbox/status", status, methods=["GET"]),
        Route("/sandbox/clock", clock_route, methods=["POST"]),
        Route("/sandbox/faults", faults_route, methods=["GET", "PUT", "POST", "DELETE"]),
        Route("/sandbox/held", held, methods=["GET"]),
        Route("/sandbox/pix/{id}/{decision:str}", decide_pix, methods=["POST"]),
        Route("/sandbox/billets/{id}/{decision:str}", decide_billet, methods=["POST"]),
        Route("/sandbox/incoming-pix", incoming, methods=["POST"]),
        Route("/sandbox/pix/payments/{e2e}/refund", refund, methods=["POST"]),
        Route("/sandbox/slips", slips, methods=["GET"]),
        Route("/sandbox/tokens/reset-limits", reset_limits, methods=["POST"]),
        Route("/sandbox/console/{action}", console_form, methods=["POST"]),
    ]
