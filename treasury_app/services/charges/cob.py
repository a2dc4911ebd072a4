"""Pix charges one by one: immediate (``cob``) and with a due date (``cobv``) — build, create,
read, list, revise and cancel them — and the QR Code a payer scans (:class:`ChargeQr`).

Every creation goes out as ``PUT`` with a ``txid`` generated here, so that repeating a request
can never make a second charge. Creations, revisions and cancellations are audited as
``charge.create``, ``charge.revise`` and ``charge.cancel``.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from treasury_app.api.qrcodes.cashin_models import (
    CalendarioCob,
    CalendarioCobV,
    CobCompleta,
    CobGerada,
    CobRevisada,
    CobSolicitada,
    CobStatus,
    CobValor,
    CobValorRevisado,
    CobVCompleta,
    CobVGerada,
    CobVRevisada,
    CobVSolicitada,
    CobVValor,
    CobVValorRevisado,
    Desconto,
    InfoAdicional,
    ModalidadeValor,
    PayloadLocationCob,
)
from treasury_app.domain import brcode
from treasury_app.domain.errors import DomainError, RuleError
from treasury_app.services.charges.audit import audited_call, status_of
from treasury_app.services.charges.batches import check_batch_id
from treasury_app.services.charges.checks import (
    MAX_DESCRIPTION,
    ChargeInputError,
    Debtor,
    check_amount,
    check_cobv_values,
    check_days_after_due,
    check_int,
    check_key,
    check_location_id,
    check_page_size,
    check_text,
    check_txid,
    document_filter,
    masked_debtor,
    time_range,
    txid_or_new,
)
from treasury_app.services.charges.context import ChargesContext
from treasury_app.services.our_refs import name_ours
from treasury_app.services.same_parameters import same_parameters_as

__all__ = [
    "DEFAULT_EXPIRATION",
    "ChargeQr",
    "ChargeQrError",
    "CobCharges",
    "charge_qr",
]

T = TypeVar("T")

DEFAULT_EXPIRATION = 86400
"""Lifetime of a cob, in seconds, when none is given (BCB's default: 24 hours)."""

MAX_INFO_NAME = 50
MAX_INFO_VALUE = 200

if TYPE_CHECKING:
    import segno


def _cob_status(status: CobStatus | str | None) -> CobStatus | None:
    if status is None:
        return None
    try:
        return CobStatus(status)
    except ValueError:
        known = ", ".join(s.value for s in CobStatus)
        raise ChargeInputError("charge.unknown_status", field="status", known=known) from None


def _info(additional_info: Mapping[str, str] | None) -> list[InfoAdicional] | None:
    if not additional_info:
        return None
    if len(additional_info) > 50:
        raise ChargeInputError("charge.too_many_infos", field="infoAdicionais", max=50)
    items = []
    for name, value in additional_info.items():
        nome = check_text(name, "infoAdicionais.nome", max_len=MAX_INFO_NAME, required=True)
        valor = check_text(value, "infoAdicionais.valor", max_len=MAX_INFO_VALUE, required=True)
        assert nome is not None and valor is not None
        items.append(InfoAdicional(nome=nome, valor=valor))
    return items


class ChargeQrError(RuleError):
    """A charge has no usable QR Code payload (no ``pixCopiaECola``, or a malformed one)."""


@dataclass(frozen=True)
class ChargeQr:
    """The QR Code of a charge: the Pix Copia e Cola text and its QR symbol."""

    pix_copia_e_cola: str
    code: brcode.BrCode
    symbol: segno.QRCode

    @property
    def matrix(self) -> tuple[tuple[bool, ...], ...]:
        """The modules of the symbol, row by row (``True`` is dark), without the quiet zone."""
        return tuple(tuple(bool(module) for module in row) for row in self.symbol.matrix)

    def png(self, *, scale: int = 8, border: int = 4) -> bytes:
        """The symbol as PNG bytes: ``scale`` pixels per module, ``border`` modules of quiet
        zone (4 is the minimum the QR standard asks for)."""
        buffer = io.BytesIO()
        self.symbol.save(buffer, kind="png", scale=scale, border=border)
        return buffer.getvalue()


def charge_qr(source: str | CobGerada | CobVGerada) -> ChargeQr:
    """The QR Code of a charge (or of a Pix Copia e Cola text), checked as a BR Code first
    (CRC included). Raises :class:`ChargeQrError` when there is no valid payload."""
    text = source if isinstance(source, str) else source.pix_copia_e_cola
    if not text:
        raise ChargeQrError("charge.no_qr_payload")
    try:
        code = brcode.parse(text)
    except DomainError as error:
        raise ChargeQrError("charge.bad_qr_payload", why=error.reason) from None
    import segno  # loaded with the first QR Code drawn, not at start-up

    symbol = segno.make(code.payload, error="m", micro=False)
    return ChargeQr(pix_copia_e_cola=code.payload, code=code, symbol=symbol)


class CobCharges(ChargesContext):
    """Immediate charges (``cob``) and charges with a due date (``cobv``), one by one."""

    # -- building bodies (pure: no request) --------------------------------------------------

    def build_cob(
        self,
        *,
        amount: Decimal | str,
        key: str,
        debtor: Debtor | None = None,
        description: str | None = None,
        expires_in: int = DEFAULT_EXPIRATION,
        additional_info: Mapping[str, str] | None = None,
        location_id: int | str | None = None,
        txid: str | None = None,
    ) -> tuple[str, CobSolicitada]:
        """The txid and checked body of a new immediate charge; raises
        :class:`ChargeInputError` and sends nothing."""
        chosen = txid_or_new(txid)
        body = CobSolicitada(
            calendario=CalendarioCob(
                expiracao=check_int(
                    expires_in, "calendario.expiracao", minimum=1, maximum=2**31 - 1
                )
            ),
            devedor=debtor.to_devedor() if debtor is not None else None,
            loc=self._loc(location_id),
            valor=CobValor(original=check_amount(amount, "valor.original")),
            chave=check_key(key),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            info_adicionais=_info(additional_info),
        )
        return chosen, body

    def build_cobv(
        self,
        *,
        amount: Decimal | str,
        key: str,
        debtor: Debtor,
        due_date: date,
        days_valid_after_due: int | None = None,
        description: str | None = None,
        fine: ModalidadeValor | None = None,
        interest: ModalidadeValor | None = None,
        rebate: ModalidadeValor | None = None,
        discount: Desconto | None = None,
        additional_info: Mapping[str, str] | None = None,
        location_id: int | str | None = None,
        txid: str | None = None,
    ) -> tuple[str, CobVSolicitada]:
        """The txid and checked body of a new charge with a due date (not in the past; its
        fine, interest, rebate and discount within BCB's limits: :func:`check_cobv_values`);
        raises :class:`ChargeInputError` and sends nothing."""
        chosen = txid_or_new(txid)
        if not isinstance(debtor, Debtor):
            raise ChargeInputError("charge.debtor_required", field="devedor")
        due = self._due_date(due_date, "calendario.dataDeVencimento")
        validity = check_days_after_due(days_valid_after_due)
        original = check_amount(amount, "valor.original")
        check_cobv_values(
            original, due, fine=fine, interest=interest, rebate=rebate, discount=discount
        )
        body = CobVSolicitada(
            calendario=CalendarioCobV(data_de_vencimento=due, validade_apos_vencimento=validity),
            devedor=debtor.to_devedor(address=True),
            loc=self._loc(location_id),
            valor=CobVValor(
                original=original,
                multa=fine,
                juros=interest,
                abatimento=rebate,
                desconto=discount,
            ),
            chave=check_key(key),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            info_adicionais=_info(additional_info),
        )
        return chosen, body

    @staticmethod
    def _loc(location_id: int | str | None) -> PayloadLocationCob | None:
        """The existing location to link (typed or a number), or none (``None``)."""
        if location_id is None:
            return None
        return PayloadLocationCob(id=check_location_id(location_id))

    # -- cob and cobv ------------------------------------------------------------------------

    @same_parameters_as(build_cob)
    async def create_cob(self, **kwargs: Any) -> CobGerada:
        """Create an immediate charge: ``PUT /cob/{txid}`` with a local txid (or ``txid``).

        The answer carries ``pixCopiaECola`` (see :func:`charge_qr`). Audited as
        ``charge.create``."""
        return await self.submit_cob(*self.build_cob(**kwargs))

    async def submit_cob(self, txid: str, body: CobSolicitada) -> CobGerada:
        """Send a body made by :meth:`build_cob` (audited as ``charge.create``); on a team
        ledger its txid is named as ours first (the receiver then applies its notifications)."""
        await name_ours(self._ledger, "txid", [txid])
        return await self._submit("cob", txid, body, self._qr.put_cob(txid, body))

    @same_parameters_as(build_cobv)
    async def create_cobv(self, **kwargs: Any) -> CobVGerada:
        """Create a charge with a due date: ``PUT /cobv/{txid}`` with a local txid.

        Fine, interest, rebate and discount are the BCB shapes, passed as they are. Audited as
        ``charge.create``."""
        return await self.submit_cobv(*self.build_cobv(**kwargs))

    async def submit_cobv(self, txid: str, body: CobVSolicitada) -> CobVGerada:
        """Send a body made by :meth:`build_cobv` (audited as ``charge.create``; its txid
        named as ours first, as :meth:`submit_cob`'s)."""
        await name_ours(self._ledger, "txid", [txid])
        due = body.calendario.data_de_vencimento
        put = self._qr.put_cobv(txid, body)
        return await self._submit("cobv", txid, body, put, dataDeVencimento=due)

    async def _submit(
        self,
        kind: Literal["cob", "cobv"],
        txid: str,
        body: CobSolicitada | CobVSolicitada,
        put: Awaitable[T],
        **details: Any,
    ) -> T:
        """The answer to ``put`` (the ``PUT`` of ``body``), audited as ``charge.create`` with
        what both kinds of charge say and the ``details`` of this kind."""
        return await audited_call(
            self._ledger,
            "charge.create",
            put,
            reference=txid,
            amount=body.valor.original,
            details={
                "kind": kind,
                "chave": body.chave,
                "devedor": masked_debtor(body.devedor),
                **details,
            },
            outcome=status_of,
        )

    async def get_cob(self, txid: str) -> CobCompleta:
        """``GET /cob/{txid}``: an immediate charge with the Pix that paid it."""
        return await self._qr.get_cob(txid)

    async def get_cobv(self, txid: str) -> CobVCompleta:
        """``GET /cobv/{txid}``: a charge with a due date with the Pix that paid it."""
        return await self._qr.get_cobv(txid)

    def iter_cobs(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        status: CobStatus | str | None = None,
        document: str | None = None,
        location_present: bool | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[CobCompleta]:
        """The immediate charges created in ``[start, end]`` (dates are whole days in
        Brasília), optionally of one status or one debtor's CPF/CNPJ, over every page.
        Inputs are checked now, before the first page is asked."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_cob(
            inicio=inicio,
            fim=fim,
            status=_cob_status(status),
            location_presente=location_present,
            itens_por_pagina=check_page_size(page_size),
            **document_filter(document),
        )

    def iter_cobvs(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        status: CobStatus | str | None = None,
        document: str | None = None,
        location_present: bool | None = None,
        batch_id: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[CobVCompleta]:
        """The charges with a due date created in ``[start, end]``, filtered like
        :meth:`iter_cobs` and optionally by batch, over every page."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_cobv(
            inicio=inicio,
            fim=fim,
            status=_cob_status(status),
            location_presente=location_present,
            lote_cobv_id=check_batch_id(batch_id) if batch_id is not None else None,
            itens_por_pagina=check_page_size(page_size),
            **document_filter(document),
        )

    async def revise_cob(
        self,
        txid: str,
        *,
        amount: Decimal | str | None = None,
        description: str | None = None,
        debtor: Debtor | None = None,
        expires_in: int | None = None,
    ) -> CobGerada:
        """``PATCH /cob/{txid}``: change the amount, the text for the payer, the debtor and/or
        the expiry (seconds from creation) of an active charge. Audited as ``charge.revise``."""
        body = CobRevisada(
            calendario=(
                CalendarioCob(
                    expiracao=check_int(
                        expires_in, "calendario.expiracao", minimum=1, maximum=2**31 - 1
                    )
                )
                if expires_in is not None
                else None
            ),
            valor=(
                CobValorRevisado(original=check_amount(amount, "valor.original"))
                if amount is not None
                else None
            ),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            devedor=debtor.to_devedor() if debtor is not None else None,
        )
        return await self._revise("cob", txid, body, self._qr.patch_cob)

    async def revise_cobv(
        self,
        txid: str,
        *,
        amount: Decimal | str | None = None,
        due_date: date | None = None,
        description: str | None = None,
        debtor: Debtor | None = None,
    ) -> CobVGerada:
        """``PATCH /cobv/{txid}``: change the amount, the due date, the text for the payer
        and/or the debtor of an active charge. Audited as ``charge.revise``."""
        body = CobVRevisada(
            valor=(
                CobVValorRevisado(original=check_amount(amount, "valor.original"))
                if amount is not None
                else None
            ),
            calendario=(
                CalendarioCobV(
                    data_de_vencimento=self._due_date(due_date, "calendario.dataDeVencimento")
                )
                if due_date is not None
                else None
            ),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            devedor=debtor.to_devedor(address=True) if debtor is not None else None,
        )
        return await self._revise("cobv", txid, body, self._qr.patch_cobv)

    async def _revise(
        self,
        kind: Literal["cob", "cobv"],
        txid: str,
        body: CobRevisada | CobVRevisada,
        patch: Callable[[str, Any], Awaitable[T]],
    ) -> T:
        check_txid(txid)
        changed = sorted(body.to_wire())
        if not changed:
            raise ChargeInputError("charge.nothing_to_change")
        new_amount = body.valor.original if body.valor is not None else None
        return await audited_call(
            self._ledger,
            "charge.revise",
            patch(txid, body),
            reference=txid,
            amount=new_amount,
            details={"kind": kind, "fields": changed, "devedor": masked_debtor(body.devedor)},
            outcome=status_of,
            answered=lambda answer: {"revisao": getattr(answer, "revisao", None)},
        )

    async def cancel_cob(self, txid: str) -> CobGerada:
        """Remove an active immediate charge (``PATCH`` with status
        ``REMOVIDA_PELO_USUARIO_RECEBEDOR``). Audited as ``charge.cancel``."""
        body = CobRevisada(status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR)
        return await self._cancel("cob", check_txid(txid), lambda: self._qr.patch_cob(txid, body))

    async def cancel_cobv(self, txid: str) -> CobVGerada:
        """Remove an active charge with a due date. Audited as ``charge.cancel``."""
        body = CobVRevisada(status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR)
        return await self._cancel("cobv", check_txid(txid), lambda: self._qr.patch_cobv(txid, body))

    async def _cancel(self, kind: str, txid: str, call: Callable[[], Awaitable[T]]) -> T:
        return await audited_call(
            self._ledger,
            "charge.cancel",
            call(),
            reference=txid,
            details={"kind": kind},
            outcome=status_of,
            amount_of=lambda answer: getattr(getattr(answer, "valor", None), "original", None),
        )

    # -- QR Code -----------------------------------------------------------------------------

    def qr_code(self, charge: CobGerada | CobVGerada | str) -> ChargeQr:
        """The QR Code of a charge already at hand (see :func:`charge_qr`)."""
        return charge_qr(charge)

    async def fetch_qr_code(self, txid: str, *, kind: Literal["cob", "cobv"] = "cob") -> ChargeQr:
        """Read the charge from the bank and return its QR Code."""
        charge = await (self.get_cobv(txid) if kind == "cobv" else self.get_cob(txid))
        return charge_qr(charge)
