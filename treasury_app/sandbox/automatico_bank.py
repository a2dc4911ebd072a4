"""Pix Automático of the sandbox bank (BCB Pix API 2.8+): recurrences (rec), confirmation
requests (solicrec), recurring charges (cobr), recurrence locations (locrec) and the global
webhooks, with the state machines the sandbox clock moves and the notification records.

Documents live in the store under the kinds ``rec``, ``solicrec``, ``cobr``, ``locrec``,
``webhookrec``/``webhookcobr`` (id ``global``) and ``notification``. Keys starting with ``_``
are the sandbox's own bookkeeping and never leave the server.
"""

from __future__ import annotations

import base64
import datetime as dt
import re
import secrets
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from treasury_app.domain import brcode, business_days, documents, identifiers
from treasury_app.domain.money import to_api_string
from treasury_app.sandbox import cashin_bank, notifier
from treasury_app.sandbox.clock import BRASILIA, iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem, Violation, invalid
from treasury_app.sandbox.seed import COMPANY, SANDBOX_ISPB

Doc = dict[str, Any]

REC_STATUSES = ("CRIADA", "APROVADA", "REJEITADA", "EXPIRADA", "CANCELADA")
REC_FINAL = frozenset({"REJEITADA", "EXPIRADA", "CANCELADA"})
SOLICREC_STATUSES = (
    "CRIADA",
    "ENVIADA",
    "RECEBIDA",
    "REJEITADA",
    "ACEITA",
    "EXPIRADA",
    "CANCELADA",
)
SOLICREC_PENDING = frozenset({"CRIADA", "ENVIADA", "RECEBIDA"})
SOLICREC_ACTIVE = SOLICREC_PENDING | {"ACEITA"}
COBR_STATUSES = ("CRIADA", "ATIVA", "CONCLUIDA", "EXPIRADA", "REJEITADA", "CANCELADA")
COBR_OPEN = frozenset({"CRIADA", "ATIVA"})
ATTEMPT_PENDING = frozenset({"SOLICITADA", "AGENDADA"})
PERIODICIDADES = ("SEMANAL", "MENSAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL")
POLICIES = ("NAO_PERMITE", "PERMITE_3R_7D")
ACCOUNT_TYPES = ("CORRENTE", "POUPANCA", "PAGAMENTO")
MAX_RETRIES = 3
RETRY_WINDOW_DAYS = 7
SETTLEMENT_TIME = dt.time(10, 0)  # Brasília: scheduled debits settle at 10:00 of their date
SOLICREC_STEP_SECONDS = 0.5  # CRIADA -> ENVIADA -> RECEBIDA, one step per half second
DEFAULT_PAYER_ISPB = "60746948"
MERCHANT_CITY = "SAO PAULO"
RETRY_NOT_ALLOWED = "A política configurada na recorrência não permite retentativa de cobrança."
REJECTION_TEXTS = {
    "AM04": "Saldo insuficiente na conta do usuário pagador.",
    "AM02": "Valor acima do limite autorizado pelo usuário pagador.",
    "AC06": "Conta do usuário pagador bloqueada.",
    "AC05": "Conta do usuário pagador encerrada.",
    "MSUC": "Liquidação não concluída.",
}

_MONEY_RE = re.compile(r"[0-9]{1,10}\.[0-9]{2}")
_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CPF_RE = re.compile(r"[0-9]{11}")
_CNPJ_RE = re.compile(r"[0-9A-Z]{14}")
_ISPB_RE = re.compile(r"[0-9A-Z]{8}")
_IDREC_RE = re.compile(r"[a-zA-Z0-9]{29}")
_CODE_RE = re.compile(r"[A-Z0-9]{4}")


def public(doc: Doc) -> Doc:
    """The document without the sandbox's bookkeeping keys."""
    return {k: v for k, v in doc.items() if not k.startswith("_")}


def parse_date(text: object) -> dt.date | None:
    if not isinstance(text, str) or not _DATE_RE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def parse_instant(text: object) -> dt.datetime | None:
    if not isinstance(text, str) or "T" not in text:
        return None
    try:
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo is not None else None


def cycle_of(periodicidade: str, day: dt.date) -> str:
    """The charging cycle containing ``day``: the calendar week (ISO), month, quarter,
    half-year or year, by the recurrence's periodicity."""
    if periodicidade == "SEMANAL":
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    if periodicidade == "MENSAL":
        return f"{day.year}-{day.month:02d}"
    if periodicidade == "TRIMESTRAL":
        return f"{day.year}-T{(day.month - 1) // 3 + 1}"
    if periodicidade == "SEMESTRAL":
        return f"{day.year}-S{(day.month - 1) // 6 + 1}"
    return str(day.year)


class Checker:
    """Collects BCB ``violacoes`` for one request and raises them as one 400."""

    def __init__(self, prefix: str, type_name: str) -> None:
        self.prefix = prefix
        self.type_name = type_name
        self.violations: list[Violation] = []

    def prop(self, field: str) -> str:
        return f"{self.prefix}.{field}" if field else self.prefix

    def fail(self, field: str, razao: str | None = None, valor: object = None) -> None:
        prop = self.prop(field)
        text = razao or f"O campo {prop} não respeita o _schema_."
        shown = None if valor is None else str(valor)[:140]
        self.violations.append(Violation(text, prop, shown))

    def error(self, field: str, razao: str, valor: object = None) -> Problem:
        """A 400 for one semantic rule (raised at once)."""
        shown = None if valor is None else str(valor)[:140]
        return invalid(razao, Violation(razao, self.prop(field), shown), type_name=self.type_name)

    def check(self) -> None:
        if self.violations:
            detail = " ".join(v.razao for v in self.violations[:5])
            raise invalid(detail, *self.violations, type_name=self.type_name)

    # typed readers: None when absent or wrong (the violation is recorded) ---------------
    def obj(self, parent: Doc, key: str, field: str, *, required: bool) -> Doc | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.fail(field, f"O campo {self.prop(field)} é obrigatório.")
            return None
        if not isinstance(value, dict):
            self.fail(field, f"O campo {self.prop(field)} deve ser um objeto.")
            return None
        return value

    def text(
        self, parent: Doc, key: str, field: str, *, max_len: int, required: bool
    ) -> str | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.fail(field, f"O campo {self.prop(field)} é obrigatório.")
            return None
        if not isinstance(value, str) or not value.strip() or len(value) > max_len:
            self.fail(
                field,
                f"O campo {self.prop(field)} deve ser um texto de 1 a {max_len} caracteres.",
                value,
            )
            return None
        return value

    def choice(
        self, parent: Doc, key: str, field: str, options: tuple[str, ...], *, required: bool
    ) -> str | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.fail(field, f"O campo {self.prop(field)} é obrigatório.")
            return None
        if value not in options:
            self.fail(
                field, f"O campo {self.prop(field)} deve ser um de: {', '.join(options)}.", value
            )
            return None
        return str(value)

    def date(self, parent: Doc, key: str, field: str, *, required: bool) -> dt.date | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.fail(field, f"O campo {self.prop(field)} é obrigatório.")
            return None
        day = parse_date(value)
        if day is None:
            self.fail(field, f"O campo {self.prop(field)} deve ser uma data AAAA-MM-DD.", value)
        return day

    def money(self, parent: Doc, key: str, field: str, *, required: bool) -> Decimal | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.fail(field, f"O campo {self.prop(field)} é obrigatório.")
            return None
        if not isinstance(value, str) or not _MONEY_RE.fullmatch(value) or Decimal(value) <= 0:
            self.fail(
                field,
                f"O campo {self.prop(field)} deve ser um valor positivo em texto com duas "
                'casas decimais (ex.: "100.00").',
                value,
            )
            return None
        return Decimal(value)

    def person(self, parent: Doc, field: str, *, name_required: bool) -> Doc | None:
        """``cpf`` XOR ``cnpj`` (valid check digits) and, when asked, ``nome`` (≤140)."""
        cpf, cnpj = parent.get("cpf"), parent.get("cnpj")
        result: Doc = {}
        if (cpf is None) == (cnpj is None):
            self.fail(f"{field}.cpf", f"Informe {self.prop(field)}.cpf ou .cnpj (um deles).")
            return None
        if cpf is not None:
            if not (
                isinstance(cpf, str) and _CPF_RE.fullmatch(cpf) and documents.is_valid_cpf(cpf)
            ):
                self.fail(f"{field}.cpf", f"O campo {self.prop(field)}.cpf é inválido.", cpf)
                return None
            result["cpf"] = cpf
        else:
            if not (
                isinstance(cnpj, str) and _CNPJ_RE.fullmatch(cnpj) and documents.is_valid_cnpj(cnpj)
            ):
                self.fail(f"{field}.cnpj", f"O campo {self.prop(field)}.cnpj é inválido.", cnpj)
                return None
            result["cnpj"] = cnpj
        if name_required:
            nome = self.text(parent, "nome", f"{field}.nome", max_len=140, required=True)
            if nome is None:
                return None
            result["nome"] = nome
        return result


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class AutomaticoBank:
    """The Pix Automático state of one sandbox; every method works on the shared store."""

    def __init__(self, ctx: QrContext) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.clock = ctx.clock

    # helpers ----------------------------------------------------------------------------
    def _now(self) -> str:
        return iso(self.clock.now())

    def _today(self) -> dt.date:
        return self.clock.today()

    @staticmethod
    def _cashin(name: str) -> Callable[..., Any] | None:
        """A function of the cash-in module (imported late: it is written separately)."""
        from treasury_app.sandbox import cashin

        found = getattr(cashin, name, None)
        return found if callable(found) else None

    def _charge(self, txid: str) -> Doc | None:
        get_charge = self._cashin("get_charge")
        if get_charge is None:
            return None
        charge = get_charge(self.ctx, txid)
        return charge if isinstance(charge, dict) else None

    @staticmethod
    def _charge_kind(charge: Doc) -> str:
        if charge.get("tipoCob") in ("cob", "cobv"):
            return str(charge["tipoCob"])
        loc = charge.get("loc")
        if isinstance(loc, dict) and loc.get("tipoCob") in ("cob", "cobv"):
            return str(loc["tipoCob"])
        calendario = charge.get("calendario")
        if isinstance(calendario, dict) and "dataDeVencimento" in calendario:
            return "cobv"
        return "cob"

    @staticmethod
    def _charge_paid(charge: Doc) -> bool:
        return charge.get("status") == "CONCLUIDA" or bool(charge.get("pix"))

    def _charge_location(self, charge: Doc) -> str | None:
        location_of = self._cashin("location_of")
        if location_of is not None:
            try:
                value = location_of(self.ctx, charge)
            except Problem:  # the charge's location was unlinked: no composite code
                return None
            if isinstance(value, str) and value:
                return value
        value = charge.get("location") or (charge.get("loc") or {}).get("location")
        return str(value) if value else None

    def _location_host(self) -> str:
        base = self.ctx.base_url()
        return base.split("://", 1)[-1].rstrip("/")

    # notifications ----------------------------------------------------------------------
    def _notify(self, kind: str, payload: Doc) -> None:
        hook = self.store.get(f"webhook{kind}", "global")
        if hook is None:
            return
        notifier.queue(
            self.store,
            self.ctx.clock,
            api="qrcodes",
            kind=kind,
            url=str(hook["webhookUrl"]).rstrip("/") + f"/{kind}",
            payload=payload,
        )

    def _notify_rec(self, rec: Doc) -> None:
        item: Doc = {k: rec[k] for k in ("idRec", "status", "atualizacao") if k in rec}
        for key in ("encerramento", "ativacao"):
            if key in rec:
                item[key] = rec[key]
        self._notify("rec", {"recs": [item]})

    def _notify_cobr(self, cobr: Doc) -> None:
        item: Doc = {k: cobr[k] for k in ("idRec", "txid", "status", "atualizacao") if k in cobr}
        for key in ("encerramento", "tentativas", "pix"):
            if cobr.get(key):
                item[key] = cobr[key]
        self._notify("cobr", {"cobsr": [item]})

    def notifications(self, kind: str | None) -> list[Doc]:
        return [
            n
            for n in self.store.all("notification")
            if n.get("api") == "qrcodes"
            and n.get("kind") in ("rec", "cobr")
            and (kind is None or n.get("kind") == kind)
        ]

    # locrec -----------------------------------------------------------------------------
    def create_locrec(self) -> Doc:
        loc_id = self.store.next_id("locrec")
        token = secrets.token_hex(16)
        now = self._now()
        doc = {
            "id": loc_id,
            "location": f"{self._location_host()}/qr/v2/rec/{token}",
            "criacao": now,
            "_token": token,
        }
        self.store.put("locrec", str(loc_id), doc, now)
        return doc

    def locrec(self, loc_id: str) -> Doc:
        doc = self.store.get("locrec", loc_id) if loc_id.isdigit() else None
        if doc is None:
            raise Problem(
                404,
                f"Location de recorrência {loc_id} não encontrada.",
                type_name="PayloadLocationRecNaoEncontrado",
            )
        return doc

    def unlink_locrec(self, loc_id: str) -> Doc:
        with self.store.transaction():
            doc = self.locrec(loc_id)
            id_rec = doc.pop("idRec", None)
            if id_rec:
                rec = self.store.get("rec", id_rec)
                if rec is not None and rec.get("_locId") == doc["id"]:
                    rec.pop("_locId", None)
                    self._put_rec(rec)
            self.store.put("locrec", loc_id, doc, doc["criacao"])
        return doc

    def _claim_locrec(self, check: Checker, field: str, value: object, id_rec: str) -> Doc:
        if isinstance(value, bool) or not isinstance(value, int):
            raise check.error(field, f"O campo {check.prop(field)} deve ser um inteiro.", value)
        doc = self.store.get("locrec", str(value))
        if doc is None:
            raise check.error(
                field, f"O location referenciado por {check.prop(field)} inexiste.", value
            )
        if doc.get("idRec") and doc["idRec"] != id_rec:
            raise check.error(
                field,
                f"O location referenciado por {check.prop(field)} já está sendo utilizado "
                "por outra recorrência.",
                value,
            )
        return doc

    def locrec_by_token(self, token: str) -> Doc | None:
        for doc in self.store.all("locrec"):
            if doc.get("_token") == token:
                return doc
        return None

    # rec --------------------------------------------------------------------------------
    def _put_rec(self, rec: Doc) -> None:
        self.store.put("rec", rec["idRec"], rec, rec["_created"])

    def rec(self, id_rec: str) -> Doc:
        doc = self.store.get("rec", id_rec)
        if doc is None:
            raise Problem(
                404, f"Recorrência {id_rec} não encontrada.", type_name="RecNaoEncontrada"
            )
        return doc

    def rec_view(self, rec: Doc, *, full: bool = False) -> Doc:
        out = public(rec)
        loc_id = rec.get("_locId")
        if loc_id is not None:
            loc = self.store.get("locrec", str(loc_id))
            if loc is not None:
                out["loc"] = public(loc)
        if full:
            requests = [
                self.solicrec_view(s, rec)
                for s in self.store.all("solicrec")
                if s["idRec"] == rec["idRec"]
            ]
            if requests:
                out["solicitacao"] = requests
        return out

    def _set_rec_status(self, rec: Doc, status: str) -> None:
        rec["status"] = status
        rec["atualizacao"].append({"status": status, "data": self._now()})

    def create_rec(self, body: Doc) -> Doc:
        check = Checker("rec", "RecOperacaoInvalida")
        today = self._today()
        vinculo = check.obj(body, "vinculo", "vinculo", required=True)
        devedor: Doc | None = None
        contrato = objeto = None
        if vinculo is not None:
            contrato = check.text(
                vinculo, "contrato", "vinculo.contrato", max_len=35, required=True
            )
            objeto = check.text(vinculo, "objeto", "vinculo.objeto", max_len=35, required=False)
            raw = check.obj(vinculo, "devedor", "vinculo.devedor", required=True)
            if raw is not None:
                devedor = check.person(raw, "vinculo.devedor", name_required=True)
        calendario = check.obj(body, "calendario", "calendario", required=True)
        inicial = final = None
        periodicidade = None
        if calendario is not None:
            inicial = check.date(calendario, "dataInicial", "calendario.dataInicial", required=True)
            final = check.date(calendario, "dataFinal", "calendario.dataFinal", required=False)
            periodicidade = check.choice(
                calendario,
                "periodicidade",
                "calendario.periodicidade",
                PERIODICIDADES,
                required=True,
            )
            if inicial is not None and inicial < today:
                check.fail(
                    "calendario.dataInicial",
                    "O campo rec.calendario.dataInicial é anterior à data de criação da "
                    "recorrência.",
                    calendario["dataInicial"],
                )
            if inicial is not None and final is not None and final < inicial:
                check.fail(
                    "calendario.dataFinal",
                    "O campo rec.calendario.dataFinal é anterior ao campo "
                    "rec.calendario.dataInicial.",
                    calendario["dataFinal"],
                )
        valor_in = check.obj(body, "valor", "valor", required=False)
        valor: Doc = {}
        if valor_in is not None:
            fixed = check.money(valor_in, "valorRec", "valor.valorRec", required=False)
            minimum = check.money(
                valor_in, "valorMinimoRecebedor", "valor.valorMinimoRecebedor", required=False
            )
            if "valorRec" in valor_in and "valorMinimoRecebedor" in valor_in:
                check.fail(
                    "valor",
                    "Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão "
                    "preenchidos.",
                )
            elif fixed is not None:
                valor["valorRec"] = to_api_string(fixed)
            elif minimum is not None:
                valor["valorMinimoRecebedor"] = to_api_string(minimum)
        recebedor_in = check.obj(body, "recebedor", "recebedor", required=False)
        convenio = None
        if recebedor_in is not None:
            convenio = check.text(
                recebedor_in, "convenio", "recebedor.convenio", max_len=60, required=False
            )
        politica = check.choice(
            body, "politicaRetentativa", "politicaRetentativa", POLICIES, required=True
        )
        txid = None
        ativacao = check.obj(body, "ativacao", "ativacao", required=False)
        if ativacao is not None:
            dados = check.obj(ativacao, "dadosJornada", "ativacao.dadosJornada", required=False)
            if dados is not None:
                txid = dados.get("txid")
                if not isinstance(txid, str) or not identifiers.is_valid_txid(txid):
                    check.fail(
                        "ativacao.dadosJornada.txid",
                        "O campo rec.ativacao.dadosJornada.txid deve ter de 26 a 35 letras ou "
                        "dígitos.",
                        txid,
                    )
                    txid = None
        check.check()
        assert inicial is not None and periodicidade is not None and politica is not None
        assert devedor is not None and contrato is not None

        id_rec = identifiers.new_idrec(SANDBOX_ISPB, politica == "PERMITE_3R_7D", today)
        while self.store.get("rec", id_rec) is not None:
            id_rec = identifiers.new_idrec(SANDBOX_ISPB, politica == "PERMITE_3R_7D", today)
        loc = None
        if body.get("loc") is not None:
            loc = self._claim_locrec(check, "loc", body["loc"], id_rec)
        jornada = "AGUARDANDO_DEFINICAO"
        if txid is not None:
            charge = self._charge(txid)
            kind = self._charge_kind(charge) if charge else "cob"
            jornada = "JORNADA_4" if kind == "cobv" else "JORNADA_3"

        now = self._now()
        recebedor: Doc = {"cnpj": COMPANY["document"], "nome": COMPANY["name"]}
        if convenio:
            recebedor["convenio"] = convenio
        vinculo_out: Doc = {"contrato": contrato, "devedor": devedor}
        if objeto:
            vinculo_out["objeto"] = objeto
        calendario_out: Doc = {"dataInicial": inicial.isoformat()}
        if final is not None:
            calendario_out["dataFinal"] = final.isoformat()
        calendario_out["periodicidade"] = periodicidade
        ativacao_out: Doc = {"tipoJornada": jornada}
        if txid is not None:
            ativacao_out["dadosJornada"] = {"txid": txid}
        rec: Doc = {
            "idRec": id_rec,
            "vinculo": vinculo_out,
            "calendario": calendario_out,
            "valor": valor,
            "recebedor": recebedor,
            "politicaRetentativa": politica,
            "status": "CRIADA",
            "atualizacao": [{"status": "CRIADA", "data": now}],
            "ativacao": ativacao_out,
            "_created": now,
            "_qrTxids": [],
        }
        if not valor:
            del rec["valor"]
        with self.store.transaction():
            if loc is not None:
                loc["idRec"] = id_rec
                self.store.put("locrec", str(loc["id"]), loc, loc["criacao"])
                rec["_locId"] = loc["id"]
            self._put_rec(rec)
            self._notify_rec(rec)
        return rec

    def patch_rec(self, id_rec: str, body: Doc) -> Doc:
        check = Checker("rec", "RecOperacaoInvalida")
        rec = self.rec(id_rec)
        allowed = {"status", "vinculo", "loc", "calendario", "ativacao"}
        for key in body:
            if key not in allowed:
                check.fail(key, f"O campo rec.{key} não pode ser alterado.")
        if not body:
            check.fail("", "Informe ao menos um campo a alterar.")
        vinculo = check.obj(body, "vinculo", "vinculo", required=False)
        nome = None
        if vinculo is not None:
            extra = set(vinculo) - {"devedor"}
            devedor = check.obj(vinculo, "devedor", "vinculo.devedor", required=True)
            if devedor is not None:
                extra |= {f"devedor.{k}" for k in set(devedor) - {"nome"}}
                nome = check.text(
                    devedor, "nome", "vinculo.devedor.nome", max_len=140, required=True
                )
            for key in sorted(extra):
                check.fail(f"vinculo.{key}", f"O campo rec.vinculo.{key} não pode ser alterado.")
        calendario = check.obj(body, "calendario", "calendario", required=False)
        inicial = None
        if calendario is not None:
            for key in sorted(set(calendario) - {"dataInicial"}):
                check.fail(
                    f"calendario.{key}", f"O campo rec.calendario.{key} não pode ser alterado."
                )
            inicial = check.date(calendario, "dataInicial", "calendario.dataInicial", required=True)
            if inicial is not None and inicial < self._today():
                check.fail(
                    "calendario.dataInicial",
                    "O campo rec.calendario.dataInicial é anterior à data de criação da "
                    "recorrência.",
                    calendario["dataInicial"],
                )
        ativacao = check.obj(body, "ativacao", "ativacao", required=False)
        txid = None
        if ativacao is not None:
            dados = check.obj(ativacao, "dadosJornada", "ativacao.dadosJornada", required=True)
            extra = set(ativacao) - {"dadosJornada"}
            if dados is not None:
                extra |= {f"dadosJornada.{k}" for k in set(dados) - {"txid"}}
                txid = dados.get("txid")
                if not isinstance(txid, str) or not identifiers.is_valid_txid(txid):
                    check.fail(
                        "ativacao.dadosJornada.txid",
                        "O campo rec.ativacao.dadosJornada.txid deve ter de 26 a 35 letras ou "
                        "dígitos.",
                        txid,
                    )
                    txid = None
            for key in sorted(extra):
                check.fail(f"ativacao.{key}", f"O campo rec.ativacao.{key} não pode ser alterado.")
        status = body.get("status")
        if "status" in body and status != "CANCELADA":
            check.fail("status", "O campo rec.status só aceita o valor CANCELADA.", status)
        if status == "CANCELADA" and len(body) > 1:
            check.fail("status", "Cancele a recorrência sem alterar outros campos.")
        check.check()

        if rec["status"] in REC_FINAL:
            raise check.error(
                "status",
                f"A recorrência encontra-se {rec['status'].lower()} e não pode ser alterada.",
                rec["status"],
            )
        if rec["status"] != "CRIADA":
            if "loc" in body:
                raise check.error(
                    "loc",
                    "O campo rec.loc somente pode ser alterado quando a recorrência "
                    "apresentar-se com o status CRIADA.",
                )
            if inicial is not None:
                raise check.error(
                    "calendario.dataInicial",
                    "O campo rec.calendario.dataInicial somente pode ser alterado quando a "
                    "recorrência apresentar-se com o status CRIADA.",
                )
        new_loc = None
        if "loc" in body:
            new_loc = self._claim_locrec(check, "loc", body["loc"], id_rec)
        final = rec["calendario"].get("dataFinal")
        if inicial is not None and final and inicial > dt.date.fromisoformat(final):
            raise check.error(
                "calendario.dataInicial",
                "O campo rec.calendario.dataInicial é posterior ao campo rec.calendario.dataFinal.",
                inicial.isoformat(),
            )

        with self.store.transaction():
            if status == "CANCELADA":
                self._cancel_rec(rec)
            if nome is not None:
                rec["vinculo"]["devedor"]["nome"] = nome
            if inicial is not None:
                rec["calendario"]["dataInicial"] = inicial.isoformat()
            if txid is not None:
                rec.setdefault("ativacao", {})["dadosJornada"] = {"txid": txid}
                if rec["status"] == "CRIADA":
                    charge = self._charge(txid)
                    kind = self._charge_kind(charge) if charge else "cob"
                    rec["ativacao"]["tipoJornada"] = "JORNADA_4" if kind == "cobv" else "JORNADA_3"
            if new_loc is not None:
                old_id = rec.get("_locId")
                if old_id is not None and old_id != new_loc["id"]:
                    old = self.store.get("locrec", str(old_id))
                    if old is not None:
                        old.pop("idRec", None)
                        self.store.put("locrec", str(old_id), old, old["criacao"])
                new_loc["idRec"] = id_rec
                self.store.put("locrec", str(new_loc["id"]), new_loc, new_loc["criacao"])
                rec["_locId"] = new_loc["id"]
            self._put_rec(rec)
            if status == "CANCELADA":
                self._notify_rec(rec)
        return rec

    def _cancel_rec(self, rec: Doc) -> None:
        """Receiver cancels: the recurrence, its pending requests and its open charges end."""
        self._set_rec_status(rec, "CANCELADA")
        rec["encerramento"] = {
            "cancelamento": {
                "solicitante": "USUARIO_RECEBEDOR",
                "codigo": "SLCR",
                "descricao": "Cancelamento solicitado pelo usuário recebedor.",
            }
        }
        for sol in self.store.all("solicrec"):
            if sol["idRec"] == rec["idRec"] and sol["status"] in SOLICREC_PENDING:
                self._set_solicrec_status(sol, "CANCELADA")
                self._put_solicrec(sol)
        for cobr in self.store.all("cobr"):
            if cobr["idRec"] == rec["idRec"] and cobr["status"] in COBR_OPEN:
                if any(t["status"] == "PAGA" for t in cobr["tentativas"]):
                    continue
                self._close_cobr_cancelled(
                    cobr, "ACCT", "Recorrência cancelada pelo usuário recebedor."
                )
                self._put_cobr(cobr)
                self._notify_cobr(cobr)

    def rec_with_qr(self, id_rec: str, txid: str | None) -> Doc:
        """GET /rec/{idRec}: RecCompleta, with ``dadosQR`` when the locations allow it."""
        rec = self.rec(id_rec)
        out = self.rec_view(rec, full=True)
        check = Checker("txid", "RecConsultaInvalida")
        rec_location = out.get("loc", {}).get("location")
        merchant = brcode.fit_text(COMPANY["name"], 25)
        if txid is None:
            if rec_location:
                out["dadosQR"] = {
                    "jornada": "JORNADA_2",
                    "pixCopiaECola": brcode.build(
                        merchant_name=merchant,
                        merchant_city=MERCHANT_CITY,
                        recurrence_url=rec_location,
                    ),
                }
            return out
        if not identifiers.is_valid_txid(txid):
            raise check.error("", "O parâmetro txid deve ter de 26 a 35 letras ou dígitos.", txid)
        if self._cashin("get_charge") is None:
            raise Problem(
                503,
                "As cobranças (cob/cobv) ainda não estão disponíveis neste sandbox.",
                type_name="ServicoIndisponivel",
            )
        charge = self._charge(txid)
        if charge is None:
            raise check.error("", "O parâmetro txid não corresponde a uma cobrança.", txid)
        kind = self._charge_kind(charge)
        ativacao = rec.get("ativacao") or {}
        linked = (ativacao.get("dadosJornada") or {}).get("txid")
        if kind == "cobv" and ativacao.get("tipoJornada") == "JORNADA_3" and linked == txid:
            # The spec's order for journey 4: POST /rec (txid), then PUT /cobv/{txid}: the
            # journey is known once the linked charge exists, i.e. now.
            ativacao["tipoJornada"] = "JORNADA_4"
            rec["ativacao"] = ativacao
            self._put_rec(rec)
            if isinstance(out.get("ativacao"), dict):
                out["ativacao"]["tipoJornada"] = "JORNADA_4"
        elif kind == "cobv" and ativacao.get("tipoJornada") == "JORNADA_3":
            raise check.error(
                "",
                "O parâmetro txid corresponde a uma cobrança com vencimento, incompatível com "
                "ativacao.tipoJornada JORNADA_3.",
                txid,
            )
        if kind == "cob" and linked != txid:
            raise check.error(
                "",
                "O parâmetro txid corresponde a uma cobrança imediata diferente da informada "
                "no campo ativacao.dadosJornada.txid.",
                txid,
            )
        charge_location = self._charge_location(charge)
        if rec_location and charge_location:
            out["dadosQR"] = {
                "jornada": "JORNADA_4" if kind == "cobv" else "JORNADA_3",
                "pixCopiaECola": brcode.build(
                    merchant_name=merchant,
                    merchant_city=MERCHANT_CITY,
                    url=charge_location,
                    recurrence_url=rec_location,
                ),
            }
            if txid not in rec.setdefault("_qrTxids", []):
                rec["_qrTxids"].append(txid)
                self._put_rec(rec)
        return out

    def rec_payload(self, rec: Doc) -> Doc:
        """RecPayload (what the payer's PSP reads at the location)."""
        payload: Doc = {k: rec[k] for k in ("idRec", "vinculo", "calendario", "valor") if k in rec}
        payload["recebedor"] = {
            "cnpj": rec["recebedor"]["cnpj"],
            "nome": rec["recebedor"]["nome"],
            "ispbParticipante": SANDBOX_ISPB,
        }
        payload["politicaRetentativa"] = rec["politicaRetentativa"]
        payload["atualizacao"] = rec["atualizacao"]
        return payload

    def payload_jws(self, token: str) -> str:
        loc = self.locrec_by_token(token)
        rec = self.store.get("rec", loc["idRec"]) if loc and loc.get("idRec") else None
        if rec is None:
            raise Problem(
                404,
                "Nenhuma recorrência nesta location.",
                type_name="RecPayloadNaoEncontrado",
            )
        if rec["status"] in REC_FINAL:
            raise invalid(
                "A location referencia uma recorrência expirada, rejeitada ou cancelada.",
                Violation("recorrência encerrada", "recUrlAccessToken"),
                type_name="RecPayloadOperacaoInvalida",
            )
        return self._sign(self.rec_payload(rec))

    def _sign(self, payload: Doc) -> str:
        # Same key, header and key set (GET /jwks) as the Cash In payloads.
        return cashin_bank.sign_jws(self.ctx, payload)

    def list_recs(self, filters: dict[str, str | None], location: bool | None) -> list[Doc]:
        items = []
        for rec in self.store.all("rec"):
            devedor = rec["vinculo"]["devedor"]
            if filters.get("cpf") and devedor.get("cpf") != filters["cpf"]:
                continue
            if filters.get("cnpj") and devedor.get("cnpj") != filters["cnpj"]:
                continue
            if filters.get("status") and rec["status"] != filters["status"]:
                continue
            if filters.get("convenio") and rec["recebedor"].get("convenio") != filters["convenio"]:
                continue
            if location is not None and ("_locId" in rec) != location:
                continue
            items.append({**self.rec_view(rec), "criacao": rec["_created"]})
        return items

    # solicrec ---------------------------------------------------------------------------
    def _put_solicrec(self, sol: Doc) -> None:
        self.store.put("solicrec", sol["idSolicRec"], sol, sol["_created"])

    def _set_solicrec_status(self, sol: Doc, status: str) -> None:
        sol["status"] = status
        sol["atualizacao"].append({"status": status, "data": self._now()})
        sol["_changed"] = self._now()

    def solicrec(self, id_solic: str) -> Doc:
        doc = self.store.get("solicrec", id_solic)
        if doc is None:
            raise Problem(
                404,
                f"Solicitação de recorrência {id_solic} não encontrada.",
                type_name="SolicRecNaoEncontrada",
            )
        return doc

    def solicrec_view(self, sol: Doc, rec: Doc | None = None) -> Doc:
        out = public(sol)
        rec = rec or self.store.get("rec", sol["idRec"])
        if rec is not None:
            out["recPayload"] = self.rec_payload(rec)
        return out

    def create_solicrec(self, body: Doc) -> Doc:
        check = Checker("solicrec", "SolicRecOperacaoInvalida")
        id_rec = body.get("idRec")
        if not isinstance(id_rec, str) or not _IDREC_RE.fullmatch(id_rec):
            check.fail("idRec", "O campo solicrec.idRec deve ter 29 letras ou dígitos.", id_rec)
            id_rec = None
        calendario = check.obj(body, "calendario", "calendario", required=True)
        expires = None
        if calendario is not None:
            raw = calendario.get("dataExpiracaoSolicitacao")
            expires = parse_instant(raw)
            if expires is None:
                check.fail(
                    "calendario.dataExpiracaoSolicitacao",
                    "O campo solicrec.calendario.dataExpiracaoSolicitacao deve ser um instante "
                    "RFC 3339 com fuso.",
                    raw,
                )
            elif expires <= self.clock.now():
                check.fail(
                    "calendario.dataExpiracaoSolicitacao",
                    "O campo solicrec.calendario.dataExpiracaoSolicitacao é anterior à data de "
                    "criação da solicitação da recorrência.",
                    raw,
                )
        destinatario = check.obj(body, "destinatario", "destinatario", required=True)
        dest_out: Doc = {}
        if destinatario is not None:
            conta = check.text(
                destinatario, "conta", "destinatario.conta", max_len=20, required=True
            )
            ispb = destinatario.get("ispbParticipante")
            if not isinstance(ispb, str) or not _ISPB_RE.fullmatch(ispb):
                check.fail(
                    "destinatario.ispbParticipante",
                    "O campo solicrec.destinatario.ispbParticipante deve ter 8 dígitos ou "
                    "letras maiúsculas.",
                    ispb,
                )
            agencia = check.text(
                destinatario, "agencia", "destinatario.agencia", max_len=4, required=False
            )
            person = check.person(destinatario, "destinatario", name_required=False)
            if conta and person:
                if agencia:
                    dest_out["agencia"] = agencia
                dest_out["conta"] = conta
                dest_out["ispbParticipante"] = ispb
                dest_out.update(person)
        check.check()
        assert id_rec is not None and expires is not None and calendario is not None
        rec = self.store.get("rec", id_rec)
        if rec is None:
            raise check.error(
                "idRec", "A recorrência informada em solicrec.idRec inexiste.", id_rec
            )
        if rec["status"] != "CRIADA":
            raise check.error(
                "idRec",
                f"A recorrência está {rec['status']}; só se pede confirmação de uma "
                "recorrência CRIADA.",
                id_rec,
            )
        for other in self.store.all("solicrec"):
            if other["idRec"] == id_rec and other["status"] in SOLICREC_ACTIVE:
                raise check.error(
                    "idRec",
                    "Existe uma solicitação ativa referente ao mesmo solicrec.idRec "
                    f"({other['idSolicRec']}, {other['status']}).",
                    id_rec,
                )
        today = self._today()
        id_solic = identifiers.new_idsolicrec(SANDBOX_ISPB, today)
        while self.store.get("solicrec", id_solic) is not None:
            id_solic = identifiers.new_idsolicrec(SANDBOX_ISPB, today)
        now = self._now()
        sol: Doc = {
            "idSolicRec": id_solic,
            "idRec": id_rec,
            "calendario": {"dataExpiracaoSolicitacao": calendario["dataExpiracaoSolicitacao"]},
            "destinatario": dest_out,
            "status": "CRIADA",
            "atualizacao": [{"status": "CRIADA", "data": now}],
            "_created": now,
            "_changed": now,
            "_expires": iso(expires),
        }
        self._put_solicrec(sol)
        return sol

    def cancel_solicrec(self, id_solic: str, body: Doc) -> Doc:
        check = Checker("solicrec", "SolicRecOperacaoInvalida")
        sol = self.solicrec(id_solic)
        if body.get("status") != "CANCELADA" or set(body) != {"status"}:
            raise check.error(
                "status", 'O corpo deve ser {"status": "CANCELADA"}.', body.get("status")
            )
        if sol["status"] not in SOLICREC_PENDING:
            raise check.error(
                "status",
                "Não é possível cancelar uma solicitação de recorrência com o status diferente "
                f"de CRIADA, ENVIADA ou RECEBIDA (está {sol['status']}).",
                sol["status"],
            )
        self._set_solicrec_status(sol, "CANCELADA")
        self._put_solicrec(sol)
        return sol

    # cobr -------------------------------------------------------------------------------
    def _put_cobr(self, cobr: Doc) -> None:
        self.store.put("cobr", cobr["txid"], cobr, cobr["_created"])

    def cobr(self, txid: str) -> Doc:
        doc = self.store.get("cobr", txid)
        if doc is None:
            raise Problem(
                404, f"Cobrança recorrente {txid} não encontrada.", type_name="CobRNaoEncontrado"
            )
        return doc

    def _attempt(self, tipo: str, day: dt.date) -> Doc:
        now = self.clock.now()
        return {
            "dataLiquidacao": day.isoformat(),
            "tipo": tipo,
            "status": "SOLICITADA",
            "endToEndId": identifiers.new_e2eid(SANDBOX_ISPB, now),
            "atualizacao": [{"status": "SOLICITADA", "data": iso(now)}],
        }

    @staticmethod
    def _set_attempt_status(attempt: Doc, status: str, now: str) -> None:
        attempt["status"] = status
        attempt["atualizacao"].append({"status": status, "data": now})

    def _set_cobr_status(self, cobr: Doc, status: str) -> None:
        cobr["status"] = status
        cobr["atualizacao"].append({"status": status, "data": self._now()})

    def _close_cobr_cancelled(self, cobr: Doc, codigo: str, descricao: str) -> None:
        now = self._now()
        for attempt in cobr["tentativas"]:
            if attempt["status"] in ATTEMPT_PENDING:
                self._set_attempt_status(attempt, "CANCELADA", now)
        self._set_cobr_status(cobr, "CANCELADA")
        cobr["encerramento"] = {
            "cancelamento": {
                "solicitante": "USUARIO_RECEBEDOR",
                "codigo": codigo,
                "descricao": descricao,
            }
        }

    def create_cobr(self, body: Doc, txid: str | None) -> Doc:
        check = Checker("cobr", "CobROperacaoInvalida")
        if txid is not None and not identifiers.is_valid_txid(txid):
            raise check.error("txid", "O txid deve ter de 26 a 35 letras ou dígitos.", txid)
        id_rec = body.get("idRec")
        if not isinstance(id_rec, str) or not _IDREC_RE.fullmatch(id_rec):
            check.fail("idRec", "O campo cobr.idRec deve ter 29 letras ou dígitos.", id_rec)
            id_rec = None
        info = check.text(body, "infoAdicional", "infoAdicional", max_len=140, required=False)
        calendario = check.obj(body, "calendario", "calendario", required=True)
        due = None
        if calendario is not None:
            due = check.date(
                calendario, "dataDeVencimento", "calendario.dataDeVencimento", required=True
            )
        valor = check.obj(body, "valor", "valor", required=True)
        original = None
        if valor is not None:
            original = check.money(valor, "original", "valor.original", required=True)
        ajuste = body.get("ajusteDiaUtil", True)
        if not isinstance(ajuste, bool):
            check.fail("ajusteDiaUtil", "O campo cobr.ajusteDiaUtil deve ser true ou false.")
        devedor_in = check.obj(body, "devedor", "devedor", required=False)
        devedor: Doc = {}
        if devedor_in is not None:
            limits = {"cep": 9, "cidade": 200, "email": 140, "logradouro": 200, "uf": 2}
            for key in devedor_in:
                if key not in limits:
                    check.fail(f"devedor.{key}", f"O campo cobr.devedor.{key} não existe.")
            for key, limit in limits.items():
                value = check.text(devedor_in, key, f"devedor.{key}", max_len=limit, required=False)
                if value is not None:
                    devedor[key] = value
        recebedor_in = check.obj(body, "recebedor", "recebedor", required=True)
        recebedor: Doc = {}
        if recebedor_in is not None:
            agencia = check.text(
                recebedor_in, "agencia", "recebedor.agencia", max_len=4, required=False
            )
            conta = check.text(recebedor_in, "conta", "recebedor.conta", max_len=20, required=True)
            tipo = check.choice(
                recebedor_in, "tipoConta", "recebedor.tipoConta", ACCOUNT_TYPES, required=True
            )
            if agencia:
                recebedor["agencia"] = agencia
            if conta and tipo:
                recebedor.update({"conta": conta, "tipoConta": tipo})
        check.check()
        assert id_rec is not None and due is not None and original is not None
        assert calendario is not None

        if txid is not None and self.store.get("cobr", txid) is not None:
            raise check.error("txid", "O campo cobr.txid encontra-se em uso.", txid)
        rec = self.store.get("rec", id_rec)
        if rec is None:
            raise check.error("idRec", "A recorrência informada em cobr.idRec inexiste.", id_rec)
        if rec["status"] != "APROVADA":
            raise check.error(
                "idRec",
                f"A recorrência está {rec['status']}: só uma recorrência APROVADA pode ser "
                "cobrada.",
                id_rec,
            )
        today = self._today()
        due_text = calendario["dataDeVencimento"]
        if due < today:
            raise check.error(
                "calendario.dataDeVencimento",
                "O campo cobr.calendario.dataDeVencimento é anterior à data de criação da "
                "cobrança.",
                due_text,
            )
        if not business_days.is_valid_cobr_lead_time(today, due):
            earliest = business_days.earliest_cobr_due_date(today)
            raise check.error(
                "calendario.dataDeVencimento",
                "A cobrança recorrente deve ser criada com ao menos 2 dias úteis de "
                f"antecedência do vencimento (vencimento mais cedo hoje: {earliest}).",
                due_text,
            )
        rec_cal = rec["calendario"]
        if due < dt.date.fromisoformat(rec_cal["dataInicial"]) or (
            rec_cal.get("dataFinal") and due > dt.date.fromisoformat(rec_cal["dataFinal"])
        ):
            raise check.error(
                "calendario.dataDeVencimento",
                "O vencimento está fora da vigência da recorrência "
                f"({rec_cal['dataInicial']} a {rec_cal.get('dataFinal') or 'indeterminado'}).",
                due_text,
            )
        rec_valor = rec.get("valor") or {}
        if "valorRec" in rec_valor and original != Decimal(rec_valor["valorRec"]):
            raise check.error(
                "valor.original",
                f"O valor deve ser igual ao valor fixo da recorrência ({rec_valor['valorRec']}).",
                valor and valor.get("original"),
            )
        if "valorMinimoRecebedor" in rec_valor and original < Decimal(
            rec_valor["valorMinimoRecebedor"]
        ):
            raise check.error(
                "valor.original",
                "O valor é menor que o valor mínimo da recorrência "
                f"({rec_valor['valorMinimoRecebedor']}).",
                valor and valor.get("original"),
            )
        cycle = cycle_of(rec_cal["periodicidade"], due)
        for other in self.store.all("cobr"):
            if (
                other["idRec"] == id_rec
                and other["status"] not in ("REJEITADA", "CANCELADA")
                and other.get("_cycle") == cycle
            ):
                raise check.error(
                    "calendario.dataDeVencimento",
                    "Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao "
                    "mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo "
                    f"({other['txid']}).",
                    due_text,
                )
        if txid is None:
            txid = identifiers.new_txid()
            while self.store.get("cobr", txid) is not None:
                txid = identifiers.new_txid()
        settle = business_days.next_business_day(due) if ajuste else due
        now = self._now()
        cobr: Doc = {"idRec": id_rec, "txid": txid}
        if info:
            cobr["infoAdicional"] = info
        cobr["calendario"] = {"criacao": today.isoformat(), "dataDeVencimento": due_text}
        cobr["status"] = "CRIADA"
        cobr["valor"] = {"original": to_api_string(original)}
        cobr["politicaRetentativa"] = rec["politicaRetentativa"]
        cobr["ajusteDiaUtil"] = ajuste
        if devedor:
            cobr["devedor"] = devedor
        cobr["recebedor"] = {**recebedor, "cnpj": COMPANY["document"], "nome": COMPANY["name"]}
        cobr["atualizacao"] = [{"status": "CRIADA", "data": now}]
        cobr["tentativas"] = [self._attempt("AGND", settle)]
        cobr["_created"] = now
        cobr["_cycle"] = cycle
        with self.store.transaction():
            self._put_cobr(cobr)
            self._notify_cobr(cobr)
        return cobr

    def cancel_cobr(self, txid: str, body: Doc) -> Doc:
        check = Checker("cobr", "CobROperacaoInvalida")
        cobr = self.cobr(txid)
        if body.get("status") != "CANCELADA" or set(body) != {"status"}:
            raise check.error(
                "status", 'O corpo deve ser {"status": "CANCELADA"}.', body.get("status")
            )
        if cobr["status"] not in COBR_OPEN:
            raise check.error(
                "status",
                f"A cobrança está {cobr['status']} e não pode mais ser cancelada.",
                cobr["status"],
            )
        first = dt.date.fromisoformat(cobr["tentativas"][0]["dataLiquidacao"])
        if self._today() >= first:
            raise check.error(
                "status",
                "Não é possível cancelar uma cobrança em uma data igual ou maior que a data "
                f"prevista da primeira tentativa de liquidação ({first}).",
            )
        with self.store.transaction():
            self._close_cobr_cancelled(
                cobr, "SLCR", "Cancelamento solicitado pelo usuário recebedor."
            )
            self._put_cobr(cobr)
            self._notify_cobr(cobr)
        return cobr

    def retry_cobr(self, txid: str, data: str) -> Doc:
        check = Checker("cobr", "CobROperacaoInvalida")
        cobr = self.cobr(txid)
        day = parse_date(data)
        if day is None:
            raise check.error("data", "O parâmetro data deve ser uma data AAAA-MM-DD.", data)
        if cobr["politicaRetentativa"] != "PERMITE_3R_7D":
            raise check.error("politicaRetentativa", RETRY_NOT_ALLOWED)
        if cobr["status"] not in COBR_OPEN:
            raise check.error(
                "status",
                f"A cobrança está {cobr['status']}: não cabe retentativa.",
                cobr["status"],
            )
        attempts = cobr["tentativas"]
        if any(t["status"] in ATTEMPT_PENDING for t in attempts):
            raise check.error(
                "tentativas", "Existe uma tentativa com status SOLICITADA ou AGENDADA."
            )
        if attempts[-1]["status"] not in ("REJEITADA", "EXPIRADA"):
            raise check.error(
                "tentativas", "Só cabe retentativa depois de uma tentativa rejeitada."
            )
        if sum(1 for t in attempts if t["tipo"] == "NTAG") >= MAX_RETRIES:
            raise check.error(
                "tentativas", f"A cobrança já teve as {MAX_RETRIES} retentativas permitidas."
            )
        if day <= self._today():
            raise check.error("data", "O parâmetro data não corresponde a uma data futura.", data)
        limit = dt.date.fromisoformat(cobr["calendario"]["dataDeVencimento"]) + dt.timedelta(
            days=RETRY_WINDOW_DAYS
        )
        if day > limit:
            raise check.error(
                "data",
                f"A retentativa deve ocorrer em até {RETRY_WINDOW_DAYS} dias após o vencimento "
                f"(até {limit}).",
                data,
            )
        if any(t["dataLiquidacao"] == data for t in attempts):
            raise check.error("data", "Existe uma tentativa vigente para a data informada.", data)
        with self.store.transaction():
            attempts.append(self._attempt("NTAG", day))
            self._put_cobr(cobr)
            self._notify_cobr(cobr)
        return cobr

    def list_cobrs(self, filters: dict[str, str | None]) -> list[Doc]:
        items = []
        recs: dict[str, Doc | None] = {}
        for cobr in self.store.all("cobr"):
            if filters.get("idRec") and cobr["idRec"] != filters["idRec"]:
                continue
            if filters.get("status") and cobr["status"] != filters["status"]:
                continue
            if filters.get("cpf") or filters.get("cnpj") or filters.get("convenio"):
                if cobr["idRec"] not in recs:
                    recs[cobr["idRec"]] = self.store.get("rec", cobr["idRec"])
                rec = recs[cobr["idRec"]]
                if rec is None:
                    continue
                devedor = rec["vinculo"]["devedor"]
                if filters.get("cpf") and devedor.get("cpf") != filters["cpf"]:
                    continue
                if filters.get("cnpj") and devedor.get("cnpj") != filters["cnpj"]:
                    continue
                if (
                    filters.get("convenio")
                    and rec["recebedor"].get("convenio") != filters["convenio"]
                ):
                    continue
            items.append({**public(cobr), "criacao": cobr["_created"]})
        return items

    # webhooks ---------------------------------------------------------------------------
    def put_webhook(self, kind: str, url: str) -> Doc:
        existing = self.store.get(f"webhook{kind}", "global")
        doc = {"webhookUrl": url, "criacao": existing["criacao"] if existing else self._now()}
        self.store.put(f"webhook{kind}", "global", doc, doc["criacao"])
        return doc

    def webhook(self, kind: str) -> Doc:
        doc = self.store.get(f"webhook{kind}", "global")
        if doc is None:
            raise Problem(
                404,
                f"Nenhum webhook de {'recorrências' if kind == 'rec' else 'cobranças recorrentes'}"
                " cadastrado.",
                type_name="WebhookNaoEncontrado",
            )
        return doc

    def delete_webhook(self, kind: str) -> None:
        self.webhook(kind)
        self.store.delete(f"webhook{kind}", "global")

    # control surface (the payer's side) -------------------------------------------------
    def _approve(self, rec: Doc, jornada: str, pagador: Doc | None = None) -> None:
        """CRIADA -> APROVADA; the active confirmation request (if any) becomes ACEITA."""
        self._set_rec_status(rec, "APROVADA")
        ativacao = rec.setdefault("ativacao", {})
        ativacao["tipoJornada"] = jornada
        if jornada != "JORNADA_3":
            ativacao.pop("dadosJornada", None)
        devedor = rec["vinculo"]["devedor"]
        payer: Doc = {k: devedor[k] for k in ("cpf", "cnpj") if k in devedor}
        payer["ispbParticipante"] = DEFAULT_PAYER_ISPB
        for sol in self.store.all("solicrec"):
            if sol["idRec"] == rec["idRec"] and sol["status"] in SOLICREC_PENDING:
                self._set_solicrec_status(sol, "ACEITA")
                self._put_solicrec(sol)
                dest = sol["destinatario"]
                payer = {k: dest[k] for k in ("cpf", "cnpj") if k in dest}
                payer["ispbParticipante"] = dest["ispbParticipante"]
        rec["pagador"] = {**payer, **(pagador or {})}
        self._put_rec(rec)
        self._notify_rec(rec)

    def _end_pending_requests(self, rec: Doc, status: str) -> None:
        for sol in self.store.all("solicrec"):
            if sol["idRec"] == rec["idRec"] and sol["status"] in SOLICREC_PENDING:
                self._set_solicrec_status(sol, status)
                self._put_solicrec(sol)

    def control_rec(self, id_rec: str, action: str, body: Doc) -> Doc:
        rec = self.rec(id_rec)
        if rec["status"] != "CRIADA":
            raise invalid(
                f"A recorrência está {rec['status']}; o pagador só decide uma recorrência CRIADA.",
                Violation("status", "rec.status", rec["status"]),
                type_name="RecOperacaoInvalida",
            )
        with self.store.transaction():
            if action == "approve":
                pending = any(
                    s["idRec"] == id_rec and s["status"] in SOLICREC_PENDING
                    for s in self.store.all("solicrec")
                )
                default = "JORNADA_1" if pending else "JORNADA_2"
                jornada = body.get("jornada") or default
                if jornada not in ("JORNADA_1", "JORNADA_2", "JORNADA_3", "JORNADA_4"):
                    raise invalid(
                        "jornada deve ser JORNADA_1 a JORNADA_4.",
                        Violation("valor inválido", "jornada", str(jornada)),
                    )
                pagador = body.get("pagador") if isinstance(body.get("pagador"), dict) else None
                self._approve(rec, str(jornada), pagador)
            elif action == "reject":
                codigo = body.get("codigo") or "AP13"
                if codigo not in ("AP13", "AP14"):
                    raise invalid(
                        "codigo deve ser AP13 ou AP14.",
                        Violation("valor inválido", "codigo", str(codigo)),
                    )
                self._set_rec_status(rec, "REJEITADA")
                rec["encerramento"] = {
                    "rejeicao": {
                        "codigo": codigo,
                        "descricao": str(
                            body.get("descricao") or "Recorrência rejeitada pelo usuário pagador."
                        )[:400],
                    }
                }
                self._end_pending_requests(rec, "REJEITADA")
                self._put_rec(rec)
                self._notify_rec(rec)
            else:
                self._expire_rec(rec)
        return rec

    def _expire_rec(self, rec: Doc) -> None:
        self._set_rec_status(rec, "EXPIRADA")
        self._end_pending_requests(rec, "EXPIRADA")
        self._put_rec(rec)
        self._notify_rec(rec)

    def fail_next(self, txid: str, body: Doc) -> Doc:
        cobr = self.cobr(txid)
        codigo = body.get("codigo") or "AM04"
        if not isinstance(codigo, str) or not _CODE_RE.fullmatch(codigo):
            raise invalid(
                "codigo deve ter 4 letras maiúsculas ou dígitos (ex.: AM04).",
                Violation("valor inválido", "codigo", str(codigo)),
            )
        if cobr["status"] not in COBR_OPEN:
            raise invalid(
                f"A cobrança está {cobr['status']}: não haverá próxima tentativa.",
                Violation("status", "cobr.status", cobr["status"]),
                type_name="CobROperacaoInvalida",
            )
        descricao = body.get("descricao") or REJECTION_TEXTS.get(
            codigo, "Tentativa de liquidação rejeitada pelo PSP pagador."
        )
        cobr["_failNext"] = {"codigo": codigo, "descricao": str(descricao)[:400]}
        self._put_cobr(cobr)
        return cobr

    # the clock --------------------------------------------------------------------------
    def tick(self) -> None:
        now = self.clock.now()
        self._tick_solicrecs(now)
        self._tick_recs()
        self._tick_cobrs(now)

    def _tick_solicrecs(self, now: dt.datetime) -> None:
        for sol in self.store.all("solicrec"):
            if sol["status"] not in SOLICREC_PENDING:
                continue
            expires = parse_instant(sol.get("_expires"))
            if expires is not None and now >= expires:
                self._set_solicrec_status(sol, "EXPIRADA")
                self._put_solicrec(sol)
                continue
            changed = parse_instant(sol.get("_changed")) or now
            if (now - changed).total_seconds() < SOLICREC_STEP_SECONDS:
                continue
            step = {"CRIADA": "ENVIADA", "ENVIADA": "RECEBIDA"}.get(sol["status"])
            if step:
                self._set_solicrec_status(sol, step)
                self._put_solicrec(sol)

    def _tick_recs(self) -> None:
        today = self._today()
        has_charges = self._cashin("get_charge") is not None
        for rec in self.store.all("rec"):
            if rec["status"] != "CRIADA":
                continue
            final = rec["calendario"].get("dataFinal")
            if final and today > dt.date.fromisoformat(final):
                with self.store.transaction():
                    self._expire_rec(rec)
                continue
            if not has_charges:
                continue
            linked = ((rec.get("ativacao") or {}).get("dadosJornada") or {}).get("txid")
            candidates = [t for t in [linked, *rec.get("_qrTxids", [])] if t]
            for txid in dict.fromkeys(candidates):
                charge = self._charge(txid)
                if charge is not None and self._charge_paid(charge):
                    kind = self._charge_kind(charge)
                    with self.store.transaction():
                        self._approve(rec, "JORNADA_4" if kind == "cobv" else "JORNADA_3")
                    break

    def _tick_cobrs(self, now: dt.datetime) -> None:
        for cobr in self.store.all("cobr"):
            if cobr["status"] not in COBR_OPEN:
                continue
            with self.store.transaction():
                if self._advance_cobr(cobr, now):
                    self._put_cobr(cobr)
                    self._notify_cobr(cobr)

    def _advance_cobr(self, cobr: Doc, now: dt.datetime) -> bool:
        stamp = iso(now)
        changed = False
        if cobr["status"] == "CRIADA":
            self._set_cobr_status(cobr, "ATIVA")
            changed = True
        for attempt in cobr["tentativas"]:
            if attempt["status"] == "SOLICITADA":
                self._set_attempt_status(attempt, "AGENDADA", stamp)
                changed = True
        local = now.astimezone(BRASILIA)
        for attempt in cobr["tentativas"]:
            if attempt["status"] != "AGENDADA":
                continue
            settle_at = dt.datetime.combine(
                dt.date.fromisoformat(attempt["dataLiquidacao"]), SETTLEMENT_TIME, BRASILIA
            )
            if local < settle_at:
                continue
            changed = True
            failure = cobr.pop("_failNext", None)
            if failure:
                self._set_attempt_status(attempt, "REJEITADA", stamp)
                attempt["rejeicao"] = failure
                if not self._retry_possible(cobr):
                    self._reject_cobr(cobr, failure)
            else:
                self._settle(cobr, attempt, now)
            break
        if cobr["status"] == "ATIVA" and not self._retry_possible(cobr):
            last = cobr["tentativas"][-1]
            if last["status"] == "REJEITADA" and not any(
                t["status"] in ATTEMPT_PENDING for t in cobr["tentativas"]
            ):
                self._reject_cobr(cobr, last.get("rejeicao") or {})
                changed = True
        return changed

    def _retry_possible(self, cobr: Doc) -> bool:
        """Whether the receiver may still schedule a retry (PERMITE_3R_7D, fewer than 3
        retries so far, and a future date left within 7 days after the due date)."""
        if cobr["politicaRetentativa"] != "PERMITE_3R_7D":
            return False
        if sum(1 for t in cobr["tentativas"] if t["tipo"] == "NTAG") >= MAX_RETRIES:
            return False
        limit = dt.date.fromisoformat(cobr["calendario"]["dataDeVencimento"]) + dt.timedelta(
            days=RETRY_WINDOW_DAYS
        )
        return self._today() < limit

    def _reject_cobr(self, cobr: Doc, rejeicao: Doc) -> None:
        self._set_cobr_status(cobr, "REJEITADA")
        cobr["encerramento"] = {
            "rejeicao": {
                "codigo": rejeicao.get("codigo", "MSUC"),
                "descricao": rejeicao.get("descricao", REJECTION_TEXTS["MSUC"]),
            }
        }

    def _settle(self, cobr: Doc, attempt: Doc, now: dt.datetime) -> None:
        rec = self.store.get("rec", cobr["idRec"]) or {}
        devedor = (rec.get("vinculo") or {}).get("devedor") or {}
        pagador = rec.get("pagador") or {}
        amount = Decimal(cobr["valor"]["original"])
        payer = {
            "name": devedor.get("nome") or "Pagador Pix Automático",
            "document": devedor.get("cpf") or devedor.get("cnpj") or "",
            "ispb": pagador.get("ispbParticipante") or DEFAULT_PAYER_ISPB,
        }
        description = f"Pix Automático {cobr['idRec']}"
        self.ctx.bank.credit_incoming_pix(
            amount, payer, description, cobr["txid"], end_to_end_id=attempt["endToEndId"]
        )
        stamp = iso(now)
        self._set_attempt_status(attempt, "PAGA", stamp)
        cobr.setdefault("pix", []).append(
            {
                "endToEndId": attempt["endToEndId"],
                "txid": cobr["txid"],
                "valor": cobr["valor"]["original"],
                "horario": stamp,
            }
        )
        self._set_cobr_status(cobr, "CONCLUIDA")
