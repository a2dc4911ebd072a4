"""Batches of charges with a due date (``lotecobv``): plan a batch from the rows of a batch
file, send it, revise its members and follow each member's status.

A :class:`BatchPlan` chooses the batch id and every member's txid before anything is sent, so
that sending it again after a lost answer can never create other charges. Sending and revising
are audited as ``batch.create`` and ``batch.revise``. The file itself is read by
:mod:`.batch_file`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from treasury_app.api.qrcodes.cashin_models import (
    CalendarioCobV,
    CobVRevisadaLote,
    CobVSolicitadaLote,
    CobVValor,
    CobVValorRevisado,
    LoteCobVConsultado,
    LoteCobVRevisado,
    LoteCobVSolicitado,
    Problema,
)
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.domain.identifiers import new_txid
from treasury_app.services.charges.audit import audited_call
from treasury_app.services.charges.batch_file import (
    MAX_BATCH_MEMBERS,
    BatchParseResult,
    BatchRow,
    BatchRowError,
    check_batch_txids,
)
from treasury_app.services.charges.checks import (
    MAX_DESCRIPTION,
    ChargeInputError,
    Debtor,
    check_amount,
    check_days_after_due,
    check_key,
    check_page_size,
    check_text,
    check_txid,
    time_range,
)
from treasury_app.services.charges.context import ChargesContext
from treasury_app.services.our_refs import name_ours
from treasury_app.services.same_parameters import same_parameters_as

__all__ = [
    "BatchInputError",
    "BatchMemberPlan",
    "BatchMemberStatus",
    "BatchPlan",
    "BatchRevision",
    "BatchStatus",
    "ChargeBatches",
    "check_batch_id",
    "new_batch_id",
    "problem_text",
]

_BATCH_ID_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")


class BatchInputError(ChargeInputError):
    """A batch cannot be sent: its file has errors (``errors``) or its parameters are wrong."""

    def __init__(
        self,
        code: str,
        /,
        *,
        field: str | None = None,
        errors: Sequence[BatchRowError] = (),
        **params: Any,
    ) -> None:
        super().__init__(code, field=field, **params)
        self.errors = tuple(errors)


@dataclass(frozen=True)
class BatchMemberPlan:
    """One member of a batch about to be sent: its row and the txid chosen for it."""

    row: BatchRow
    txid: str


@dataclass(frozen=True)
class BatchPlan:
    """A batch ready to send, with every identifier already chosen: sending it again (after a
    lost answer) can never create other charges."""

    batch_id: str
    key: str
    members: tuple[BatchMemberPlan, ...]
    description: str | None = None
    days_valid_after_due: int | None = None

    @property
    def total(self) -> Decimal:
        """The sum of the members' amounts."""
        return sum((m.row.amount for m in self.members), Decimal("0.00"))

    def body(self) -> LoteCobVSolicitado:
        """The body of ``PUT /lotecobv/{id}``."""
        cobsv = []
        for member in self.members:
            row = member.row
            kind = {"cpf": row.document} if len(row.document) == 11 else {"cnpj": row.document}
            cobsv.append(
                CobVSolicitadaLote(
                    txid=member.txid,
                    calendario=CalendarioCobV(
                        data_de_vencimento=row.due_date,
                        validade_apos_vencimento=self.days_valid_after_due,
                    ),
                    devedor=Devedor(nome=row.name, **kind),
                    valor=CobVValor(original=row.amount),
                    chave=self.key,
                    solicitacao_pagador=row.description,
                )
            )
        return LoteCobVSolicitado(descricao=self.description, cobsv=cobsv)


@dataclass(frozen=True)
class BatchRevision:
    """A change to one member of a batch (no member can be added or removed)."""

    txid: str
    amount: Decimal | str | None = None
    due_date: date | None = None
    debtor: Debtor | None = None
    description: str | None = None


@dataclass(frozen=True)
class BatchMemberStatus:
    """One member of a batch as the bank reports it; ``line`` is its line in the file, when
    the batch was sent in this session."""

    txid: str
    status: str
    problema: str | None = None
    amount: Decimal | None = None
    debtor_name: str | None = None
    line: int | None = None

    @property
    def refused(self) -> bool:
        """Whether the bank refused this member (``NEGADA``)."""
        return self.status == "NEGADA"


@dataclass(frozen=True)
class BatchStatus:
    """A batch and the status of each of its members."""

    batch_id: str
    description: str | None
    created_at: datetime | None
    members: tuple[BatchMemberStatus, ...]
    answer: LoteCobVConsultado = field(repr=False, compare=False)

    @property
    def refused(self) -> tuple[BatchMemberStatus, ...]:
        """The members the bank refused."""
        return tuple(m for m in self.members if m.refused)

    def counts(self) -> dict[str, int]:
        """How many members are in each status."""
        result: dict[str, int] = {}
        for member in self.members:
            result[member.status] = result.get(member.status, 0) + 1
        return result


def problem_text(problema: Problema | None) -> str | None:
    """A batch member's problem as one line (title, detail and each violation)."""
    if problema is None:
        return None
    parts = [p for p in (problema.title, problema.detail) if p]
    head = ": ".join(dict.fromkeys(parts)) or "Refused by the bank"
    reasons = [
        f"{v.propriedade}: {v.razao}" if v.propriedade else (v.razao or "")
        for v in problema.violacoes
    ]
    reasons = [r for r in reasons if r]
    return f"{head} ({'; '.join(reasons)})" if reasons else head


def _batch_status(
    batch_id: str, answer: LoteCobVConsultado, lines: Mapping[str, int] | None = None
) -> BatchStatus:
    members = tuple(
        BatchMemberStatus(
            txid=m.txid,
            status=str(getattr(m.status, "value", m.status)),
            problema=problem_text(m.problema),
            amount=m.valor.original if m.valor else None,
            debtor_name=m.devedor.nome if m.devedor else None,
            line=(lines or {}).get(m.txid),
        )
        for m in answer.cobsv
    )
    return BatchStatus(
        batch_id=answer.id or batch_id,
        description=answer.descricao,
        created_at=answer.criacao,
        members=members,
        answer=answer,
    )


def new_batch_id() -> str:
    """A new batch id: 15 digits, so that it suits both the service's string ids and BCB's
    integer ones."""
    return str(10**14 + secrets.randbelow(9 * 10**14))


def check_batch_id(value: str) -> str:
    """A batch id, checked (1 to 64 letters, digits, ``-`` or ``_``)."""
    if not isinstance(value, str) or not _BATCH_ID_RE.fullmatch(value):
        raise BatchInputError("charge_batch.id_format", field="id")
    return value


class ChargeBatches(ChargesContext):
    """Batches of charges with a due date (``lotecobv``)."""

    def plan_batch(
        self,
        rows: BatchParseResult | Sequence[BatchRow],
        *,
        key: str,
        description: str | None = None,
        days_valid_after_due: int | None = None,
        batch_id: str | None = None,
        txids: Mapping[int, str] | None = None,
    ) -> BatchPlan:
        """Choose the batch id and one txid per row, after checking everything (a file with
        errors raises :class:`BatchInputError` listing them). ``txids``: the txids the file
        chooses, by line (:func:`check_batch_txids`); the other rows get a new one. Sends
        nothing."""
        if isinstance(rows, BatchParseResult):
            if rows.errors:
                first = rows.errors[0]
                raise BatchInputError(
                    "charge_batch.file_has_errors",
                    field="csv",
                    errors=rows.errors,
                    count=len(rows.bad_lines),
                    line=first.line,
                    first=first.reason,
                )
            rows = rows.rows
        rows = tuple(rows)
        if not rows:
            raise BatchInputError("charge_batch.empty", field="cobsv")
        if len(rows) > MAX_BATCH_MEMBERS:
            raise BatchInputError(
                "charge_batch.too_many_charges", field="cobsv", max=MAX_BATCH_MEMBERS
            )
        today = self.today()
        for row in rows:
            if not isinstance(row, BatchRow):
                raise TypeError("the rows must come from parse_batch_csv")  # a bug, not a rule
            if row.due_date < today:
                raise BatchInputError(
                    "charge_batch.line_due_date_passed",
                    field="vencimento",
                    line=row.line,
                    due=row.due_date,
                )
        chosen = dict(txids or {})
        refused = check_batch_txids(chosen)
        if refused:
            first = refused[0]
            raise BatchInputError(
                "charge_batch.file_has_errors",
                field="csv",
                errors=refused,
                count=len({error.line for error in refused}),
                line=first.line,
                first=first.reason,
            )
        validity = check_days_after_due(days_valid_after_due)
        return BatchPlan(
            batch_id=check_batch_id(batch_id) if batch_id is not None else new_batch_id(),
            key=check_key(key),
            members=tuple(
                BatchMemberPlan(row=row, txid=chosen.get(row.line) or new_txid()) for row in rows
            ),
            description=check_text(description, "descricao", max_len=MAX_DESCRIPTION),
            days_valid_after_due=validity,
        )

    async def submit_batch(self, plan: BatchPlan) -> BatchStatus:
        """``PUT /lotecobv/{id}`` of a plan; the answer says which members the bank refused
        (``NEGADA`` with its ``problema``), each with its line in the file. Sending the same
        plan again only revises the same members. Audited as ``batch.create``."""
        lines = {m.txid: m.row.line for m in plan.members}
        await name_ours(self._ledger, "txid", lines)  # a team ledger's receiver matches them

        def outcome(status: BatchStatus) -> str:
            refused = len(status.refused)
            if not refused:
                return "accepted"
            return "refused" if refused == len(status.members) else "partially_refused"

        async def send() -> BatchStatus:
            answer = await self._qr.put_lotecobv(plan.batch_id, plan.body())
            return _batch_status(plan.batch_id, answer, lines)

        return await audited_call(
            self._ledger,
            "batch.create",
            send(),
            reference=plan.batch_id,
            amount=plan.total,
            details={
                "chave": plan.key,
                "members": len(plan.members),
                "txids": [m.txid for m in plan.members],
            },
            outcome=outcome,
            answered=lambda status: {
                "refused": [
                    {"txid": m.txid, "line": m.line, "problema": m.problema} for m in status.refused
                ]
            },
        )

    @same_parameters_as(plan_batch)
    async def create_batch(self, *args: Any, **kwargs: Any) -> BatchStatus:
        """:meth:`plan_batch` then :meth:`submit_batch`."""
        return await self.submit_batch(self.plan_batch(*args, **kwargs))

    async def revise_batch(
        self,
        batch_id: str,
        revisions: Sequence[BatchRevision],
        *,
        description: str | None = None,
    ) -> BatchStatus:
        """``PATCH /lotecobv/{id}``: change members of a batch (amount, due date, debtor, text
        for the payer). Audited as ``batch.revise``."""
        batch_id = check_batch_id(batch_id)
        if not revisions:
            raise BatchInputError("charge_batch.no_revision", field="cobsv")
        members = [self._member_revision(i, r) for i, r in enumerate(revisions)]
        body = LoteCobVRevisado(
            descricao=check_text(description, "descricao", max_len=MAX_DESCRIPTION),
            cobsv=members,
        )

        async def send() -> BatchStatus:
            return _batch_status(batch_id, await self._qr.patch_lotecobv(batch_id, body))

        return await audited_call(
            self._ledger,
            "batch.revise",
            send(),
            reference=batch_id,
            details={
                "members": [
                    {"txid": m.txid, "fields": sorted(set(m.to_wire()) - {"txid"})} for m in members
                ]
            },
            outcome=lambda status: "partially_refused" if status.refused else "accepted",
        )

    def _member_revision(self, index: int, revision: BatchRevision) -> CobVRevisadaLote:
        where = f"cobsv[{index}]"
        if not isinstance(revision, BatchRevision):
            raise BatchInputError("charge.txid_format", field=f"{where}.txid")
        check_txid(revision.txid, f"{where}.txid")
        member = CobVRevisadaLote(
            txid=revision.txid,
            valor=(
                CobVValorRevisado(original=check_amount(revision.amount, f"{where}.valor.original"))
                if revision.amount is not None
                else None
            ),
            calendario=(
                CalendarioCobV(
                    data_de_vencimento=self._due_date(
                        revision.due_date, f"{where}.calendario.dataDeVencimento"
                    )
                )
                if revision.due_date is not None
                else None
            ),
            devedor=(
                revision.debtor.to_devedor(f"{where}.devedor", address=True)
                if revision.debtor is not None
                else None
            ),
            solicitacao_pagador=check_text(
                revision.description, f"{where}.solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
        )
        if set(member.to_wire()) == {"txid"}:
            raise BatchInputError("charge_batch.member_unchanged", field=where)
        return member

    async def batch_status(self, batch_id: str) -> BatchStatus:
        """``GET /lotecobv/{id}``: each member's txid, status and ``problema`` (the amount and
        debtor of the members that became charges)."""
        batch_id = check_batch_id(batch_id)
        return _batch_status(batch_id, await self._qr.get_lotecobv(batch_id))

    def iter_batches(
        self, *, start: date | datetime, end: date | datetime, page_size: int | None = None
    ) -> AsyncIterator[LoteCobVConsultado]:
        """The batches created in ``[start, end]``, over every page."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_lotecobv(
            inicio=inicio, fim=fim, itens_por_pagina=check_page_size(page_size)
        )
