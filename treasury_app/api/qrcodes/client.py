"""``QrCodesClient``: one typed method per endpoint of the QR Codes API.

The Cash In endpoints (cob, cobv, lotecobv, loc, payloads, pix, devolucao, webhook) live in
:class:`~treasury_app.api.qrcodes.cashin.CashInMethods`, the Pix Automático ones (rec,
solicrec, cobr, retentativa, locrec, webhookrec, webhookcobr) in
:class:`~treasury_app.api.qrcodes.automatico.AutomaticoMethods`; both build on
:class:`~treasury_app.api.qrcodes.resources.Resources` (a resource at a path with a model, a
list read page by page). Retries, tokens and error mapping belong to the
:class:`~treasury_app.api.transport.ApiTransport` underneath.
"""

from __future__ import annotations

from treasury_app.api.qrcodes.automatico import AutomaticoMethods
from treasury_app.api.qrcodes.cashin import CashInMethods
from treasury_app.api.transport import ApiTransport


class QrCodesClient(CashInMethods, AutomaticoMethods):
    """The QR Codes API ({base_url}) for one session."""

    def __init__(self, transport: ApiTransport) -> None:
        if transport.api != "qrcodes":
            raise ValueError("QrCodesClient needs the QR Codes API's transport.")
        self._transport = transport

    @property
    def transport(self) -> ApiTransport:
        return self._transport
