"""Cash In use cases: issue and follow Pix charges (``cob``, ``cobv``, batches of ``cobv``),
the Pix they receive, refunds, payload locations and the QR Code a payer scans.

One module per use case:

* :mod:`.cob` — immediate and due-date charges one by one, and their QR Code;
* :mod:`.batch_file` — the batch file (CSV) of due-date charges: its format and its reader;
* :mod:`.batches` — batches of due-date charges (``lotecobv``): plan, send, revise, follow;
* :mod:`.locations` — payload locations (``loc``);
* :mod:`.received` — the Pix received and their refunds;
* :mod:`.checks` (input checks), :mod:`.audit` (the audit of every write) and
  :mod:`.context` (client, ledger, clock) are shared by them;
* :mod:`.service` — :class:`ChargesService`, all the use cases on one object.

Every creation goes out as ``PUT`` with an identifier generated here (a ``txid`` per charge, an
id per refund and per batch), so that repeating a request can never make a second charge.
Inputs are checked with the domain layer before anything is sent: a :class:`ChargeInputError`
(a ``ValueError`` naming the field at fault) means nothing reached the bank. What the bank
refuses comes back as the API layer's typed errors (:class:`~treasury_app.api.errors.ApiError`
and its subclasses, with the bank's ``violacoes``). Whether the Pix key is one of the account's
keys is not checked here (only its format): the bank knows its keys.

Every creation, revision, cancellation, refund and batch is written to the audit
(``charge.create``, ``charge.revise``, ``charge.cancel``, ``refund.request``,
``location.create``, ``location.unlink``, ``batch.create``, ``batch.revise``) with what the bank
answered (see :mod:`.audit`). An input refused here is not audited: nothing was sent.

This package re-exports the names callers have always imported from
``treasury_app.services.charges``; new code may import from the module of its use case.
"""

from treasury_app.services.charges.audit import audited_call
from treasury_app.services.charges.batch_file import (
    BATCH_COLUMNS,
    MAX_BATCH_MEMBERS,
    BatchParseResult,
    BatchRow,
    BatchRowError,
    check_batch_txids,
    parse_batch_csv,
)
from treasury_app.services.charges.batches import (
    BatchInputError,
    BatchMemberPlan,
    BatchMemberStatus,
    BatchPlan,
    BatchRevision,
    BatchStatus,
    new_batch_id,
    problem_text,
)
from treasury_app.services.charges.checks import (
    MAX_DAYS_AFTER_DUE,
    ChargeInputError,
    Debtor,
    check_address,
    check_amount,
    check_document,
    check_key,
    check_location_id,
    check_text,
    check_txid,
    masked_debtor,
    time_range,
)
from treasury_app.services.charges.cob import (
    DEFAULT_EXPIRATION,
    ChargeQr,
    ChargeQrError,
    charge_qr,
)
from treasury_app.services.charges.service import ChargesService

__all__ = [
    "BATCH_COLUMNS",
    "DEFAULT_EXPIRATION",
    "MAX_BATCH_MEMBERS",
    "MAX_DAYS_AFTER_DUE",
    "BatchInputError",
    "BatchMemberPlan",
    "BatchMemberStatus",
    "BatchParseResult",
    "BatchPlan",
    "BatchRevision",
    "BatchRow",
    "BatchRowError",
    "BatchStatus",
    "ChargeInputError",
    "ChargeQr",
    "ChargeQrError",
    "ChargesService",
    "Debtor",
    "audited_call",
    "charge_qr",
    "check_address",
    "check_amount",
    "check_batch_txids",
    "check_document",
    "check_key",
    "check_location_id",
    "check_text",
    "check_txid",
    "masked_debtor",
    "new_batch_id",
    "parse_batch_csv",
    "problem_text",
    "time_range",
]
