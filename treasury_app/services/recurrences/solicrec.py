"""Confirmation requests (``/solicrec``): asking the payer's PSP to have the payer confirm a
recurrence outside Pix (journey 1), reading and cancelling such a request."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from treasury_app.api.qrcodes.automatico_models import (
    CalendarioSolicRec,
    DestinatarioSolicRec,
    SolicRecCompleta,
    SolicRecSolicitada,
)
from treasury_app.domain.identifiers import is_valid_idsolicrec
from treasury_app.services.charges import audited_call, check_document, check_text
from treasury_app.services.our_refs import name_ours
from treasury_app.services.recurrences.base import RecurrenceUseCases, status_of
from treasury_app.services.recurrences.checks import (
    RecurrenceInputError,
    check_branch,
    check_idrec,
    recurrence_input,
)

__all__ = ["PayerAccount", "SolicRecUseCases"]

_ISPB_RE = re.compile(r"[0-9A-Z]{8}")


@dataclass(frozen=True)
class PayerAccount:
    """The payer's account a confirmation request (journey 1) is sent to."""

    document: str
    account: str
    ispb: str
    branch: str | None = None


def _id_solic_rec(value: str) -> str:
    if not isinstance(value, str) or not is_valid_idsolicrec(value):
        raise RecurrenceInputError("solicrec.id_format", field="idSolicRec")
    return value


def _destinatario(payer: PayerAccount) -> DestinatarioSolicRec:
    if not isinstance(payer, PayerAccount):
        raise RecurrenceInputError("solicrec.payer_required", field="destinatario")
    with recurrence_input():
        bare = check_document(payer.document, "destinatario.cpf_cnpj")
        conta = check_text(payer.account, "destinatario.conta", max_len=20, required=True)
    agencia = check_branch(payer.branch, "destinatario.agencia")
    if not isinstance(payer.ispb, str) or not _ISPB_RE.fullmatch(payer.ispb.strip()):
        raise RecurrenceInputError("solicrec.ispb_format", field="destinatario.ispbParticipante")
    assert conta is not None
    kind = {"cpf": bare} if len(bare) == 11 else {"cnpj": bare}
    return DestinatarioSolicRec(
        conta=conta, agencia=agencia, ispb_participante=payer.ispb.strip(), **kind
    )


class SolicRecUseCases(RecurrenceUseCases):
    """``POST``, ``GET`` and cancel of ``/solicrec``. Writes are audited as
    ``solicrec.create`` and ``solicrec.cancel``."""

    def _check_solicitation(self, payer: PayerAccount, expires_at: datetime) -> None:
        _destinatario(payer)
        if not isinstance(expires_at, datetime) or expires_at.tzinfo is None:
            raise RecurrenceInputError(
                "charge.time_without_zone", field="calendario.dataExpiracaoSolicitacao"
            )
        if expires_at <= self.now():
            raise RecurrenceInputError(
                "solicrec.expires_in_past", field="calendario.dataExpiracaoSolicitacao"
            )

    async def request_confirmation(
        self, id_rec: str, *, payer: PayerAccount, expires_at: datetime
    ) -> SolicRecCompleta:
        """``POST /solicrec``: ask the payer's PSP to confirm a ``CRIADA`` recurrence (one
        active request per recurrence). Audited as ``solicrec.create``."""
        id_rec = check_idrec(id_rec)
        self._check_solicitation(payer, expires_at)
        body = SolicRecSolicitada(
            id_rec=id_rec,
            calendario=CalendarioSolicRec(data_expiracao_solicitacao=expires_at),
            destinatario=_destinatario(payer),
        )
        await name_ours(self._ledger, "idrec", [id_rec])  # made elsewhere, confirmed here
        return await audited_call(
            self._ledger,
            "solicrec.create",
            self._qr.post_solicrec(body),
            reference=id_rec,
            details={
                "idRec": id_rec,
                "ispbParticipante": body.destinatario.ispb_participante,
                "dataExpiracaoSolicitacao": expires_at,
            },
            outcome=status_of,
            reference_of=lambda sol: sol.id_solic_rec,
        )

    async def get_solicrec(self, id_solic_rec: str) -> SolicRecCompleta:
        """``GET /solicrec/{idSolicRec}``."""
        return await self._qr.get_solicrec(_id_solic_rec(id_solic_rec))

    async def cancel_solicrec(self, id_solic_rec: str) -> SolicRecCompleta:
        """``PATCH /solicrec/{idSolicRec}`` with status ``CANCELADA`` (from ``CRIADA``,
        ``ENVIADA`` or ``RECEBIDA``). Audited as ``solicrec.cancel``."""
        id_solic_rec = _id_solic_rec(id_solic_rec)
        return await audited_call(
            self._ledger,
            "solicrec.cancel",
            self._qr.cancel_solicrec(id_solic_rec),
            reference=id_solic_rec,
            outcome=status_of,
        )
