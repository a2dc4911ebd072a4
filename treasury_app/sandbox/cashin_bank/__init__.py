"""Cash In of the sandbox bank without HTTP (the routes are in :mod:`..cashin`), one module a
concern: ``validate`` (request bodies to normalized fields and typed requests), ``amounts``
(a cobv's amount due on a day), ``charges``, ``loc``, ``lotecobv``, ``pix``, ``devolucao`` and
``qrc_payments`` (the state transitions, one resource each), ``render`` (the JSON answers),
``records`` (how documents are kept) and ``errors`` (the BCB problems). The QR payloads are
signed by :mod:`..qr_signing`. This module is the surface the routes use."""

from treasury_app.sandbox.cashin_bank.amounts import (
    cobv_adjusted_due_date,
    cobv_amount_due,
    cobv_last_payment_date,
)
from treasury_app.sandbox.cashin_bank.charges import CHARGE_STATUSES, create_charge, revise_charge
from treasury_app.sandbox.cashin_bank.devolucao import get_refund, request_refund, settle_refunds
from treasury_app.sandbox.cashin_bank.errors import not_found
from treasury_app.sandbox.cashin_bank.loc import create_loc, unlink_loc
from treasury_app.sandbox.cashin_bank.lotecobv import activate_batches, patch_batch, put_batch
from treasury_app.sandbox.cashin_bank.pix import receive_pix_without_txid, simulate_payment
from treasury_app.sandbox.cashin_bank.qrc_payments import resolve_location, settle_qrc_payments
from treasury_app.sandbox.cashin_bank.records import charge_kind, get_loc
from treasury_app.sandbox.cashin_bank.render import (
    location_url,
    qr_payload,
    render_batch,
    render_charge,
    render_loc,
    render_pix,
)
from treasury_app.sandbox.qr_signing import jwks, sign_jws

__all__ = [
    "CHARGE_STATUSES",
    "activate_batches",
    "charge_kind",
    "cobv_adjusted_due_date",
    "cobv_amount_due",
    "cobv_last_payment_date",
    "create_charge",
    "create_loc",
    "get_loc",
    "get_refund",
    "jwks",
    "location_url",
    "not_found",
    "patch_batch",
    "put_batch",
    "qr_payload",
    "receive_pix_without_txid",
    "render_batch",
    "render_charge",
    "render_loc",
    "render_pix",
    "request_refund",
    "resolve_location",
    "revise_charge",
    "settle_qrc_payments",
    "settle_refunds",
    "sign_jws",
    "simulate_payment",
    "unlink_loc",
]
