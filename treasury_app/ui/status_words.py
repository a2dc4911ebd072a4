"""Statuses, journal notes and audit actions as words in the UI language.

The bank's statuses (``SETTLED``), the journal's states and notes (``journaled``, ``no
answer``) and the audit's actions (``payout.send``) are identifiers: kept as they are in the
ledger, exports for machines and logs, but shown to people as words, translated through Qt
Linguist like every other text. An identifier this module does not know is shown as "Other
(unknown code)" and logged (:func:`treasury_app.ui.code_words.unknown_word`), never raw.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.domain.schedule import SERIES_CHANGED
from treasury_app.ledger.team import codes_schema
from treasury_app.ui.code_words import Family, code_word, known_codes, unknown_word

if TYPE_CHECKING:
    from treasury_app.ledger.journal import Entry

CONTEXT = "StatusWords"

_STATUSES: dict[str, str] = {
    # the bank's payment statuses
    "ON_QUEUE": QT_TRANSLATE_NOOP("StatusWords", "Queued"),
    "PROCESSING": QT_TRANSLATE_NOOP("StatusWords", "Processing"),
    "SETTLED": QT_TRANSLATE_NOOP("StatusWords", "Settled"),
    "LIQUIDATED": QT_TRANSLATE_NOOP("StatusWords", "Paid"),
    "CANCELED": QT_TRANSLATE_NOOP("StatusWords", "Cancelled"),
    "REJECTED": QT_TRANSLATE_NOOP("StatusWords", "Rejected"),
    "WAITING_APPROVAL": QT_TRANSLATE_NOOP("StatusWords", "Waiting for approval"),
    "WAITING_CONFIRMATION": QT_TRANSLATE_NOOP("StatusWords", "Waiting for confirmation"),
    "REFUNDED": QT_TRANSLATE_NOOP("StatusWords", "Refunded"),
    "PARTIALLY_REFUNDED": QT_TRANSLATE_NOOP("StatusWords", "Partly refunded"),
    # the journal's own states
    "PREPARED": QT_TRANSLATE_NOOP("StatusWords", "Prepared"),
    "SENT": QT_TRANSLATE_NOOP("StatusWords", "Sending"),
    "UNKNOWN": QT_TRANSLATE_NOOP("StatusWords", "Not confirmed"),
    "ACCEPTED": QT_TRANSLATE_NOOP("StatusWords", "Accepted"),
    # payment flows
    "INSTANT": QT_TRANSLATE_NOOP("StatusWords", "Instant"),
    "APPROVAL_REQUIRED": QT_TRANSLATE_NOOP("StatusWords", "Held for approval"),
}

_NOTES: dict[str, str] = {
    "journaled": QT_TRANSLATE_NOOP("StatusWords", "Recorded before sending"),
    "overruled": QT_TRANSLATE_NOOP(
        "StatusWords", "The bank's own word overruled the outcome a desktop recorded"
    ),
    "bank_stands": QT_TRANSLATE_NOOP(
        "StatusWords", "A desktop recorded another outcome; the bank's own word stands"
    ),
    "sending": QT_TRANSLATE_NOOP("StatusWords", "Sending"),
    "accepted": QT_TRANSLATE_NOOP("StatusWords", "Accepted by the bank"),
    "no answer": QT_TRANSLATE_NOOP("StatusWords", "No answer from the bank"),
    "lookup failed": QT_TRANSLATE_NOOP("StatusWords", "The bank could not be asked"),
    "checking with the bank": QT_TRANSLATE_NOOP("StatusWords", "Checking with the bank"),
    "found by idempotency key": QT_TRANSLATE_NOOP("StatusWords", "Found at the bank"),
    "resending (not found)": QT_TRANSLATE_NOOP(
        "StatusWords", "Sent again (the bank had not got it)"
    ),
    "resending (confirmed by a person)": QT_TRANSLATE_NOOP(
        "StatusWords", "Sent again (confirmed by a person)"
    ),
    "accepted on resend": QT_TRANSLATE_NOOP("StatusWords", "Accepted on the second sending"),
    "still unknown after asking": QT_TRANSLATE_NOOP("StatusWords", "Still not confirmed"),
    "refused by the bank": QT_TRANSLATE_NOOP("StatusWords", "Refused by the bank"),
    "resend held for a person": QT_TRANSLATE_NOOP("StatusWords", "Waiting for a person"),
    "cancelled by a person": QT_TRANSLATE_NOOP("StatusWords", "Cancelled by a person"),
    "status": QT_TRANSLATE_NOOP("StatusWords", "Status from the bank"),
    "webhook": QT_TRANSLATE_NOOP("StatusWords", "Notified by the bank"),
    "asked the bank again": QT_TRANSLATE_NOOP("StatusWords", "Checked again with the bank"),
    "asked the bank again: not found": QT_TRANSLATE_NOOP(
        "StatusWords", "Checked again: the bank does not have it"
    ),
    "refused before sending": QT_TRANSLATE_NOOP("StatusWords", "Refused before sending"),
    "approvals expired": QT_TRANSLATE_NOOP("StatusWords", "Approvals expired"),
}

_ACTIONS: dict[str, str] = {
    "payout.send": QT_TRANSLATE_NOOP("StatusWords", "Pix payout"),
    "payout.batch": QT_TRANSLATE_NOOP("StatusWords", "Pix batch"),
    "billet.pay": QT_TRANSLATE_NOOP("StatusWords", "Slip payment"),
    "payment.resolve": QT_TRANSLATE_NOOP("StatusWords", "Payment checked with the bank"),
    "payment.resolve_pending": QT_TRANSLATE_NOOP("StatusWords", "Pending payments checked"),
    "payment.resend_held": QT_TRANSLATE_NOOP("StatusWords", "Resend held for a person"),
    "payment.resend_confirmed": QT_TRANSLATE_NOOP("StatusWords", "Resend confirmed"),
    "payment.cancel": QT_TRANSLATE_NOOP("StatusWords", "Payment cancelled"),
    "payment.refused": QT_TRANSLATE_NOOP("StatusWords", "Payment refused"),
    "payment.overruled": QT_TRANSLATE_NOOP("StatusWords", "Outcome overruled by the bank"),
    "receipt.save": QT_TRANSLATE_NOOP("StatusWords", "Receipt archived"),
    "session.open": QT_TRANSLATE_NOOP("StatusWords", "Profile unlocked"),
    "session.unlock": QT_TRANSLATE_NOOP("StatusWords", "Unlock attempt"),
    "certificate.load": QT_TRANSLATE_NOOP("StatusWords", "Certificate loaded"),
    "profile.save": QT_TRANSLATE_NOOP("StatusWords", "Profile saved"),
    "profile.endpoints.confirm": QT_TRANSLATE_NOOP("StatusWords", "Bank servers confirmed"),
    "infraction.defense": QT_TRANSLATE_NOOP("StatusWords", "Infraction defense"),
    "approval.prepare": QT_TRANSLATE_NOOP("StatusWords", "Submitted for approval"),
    "approval.approve": QT_TRANSLATE_NOOP("StatusWords", "Approval"),
    "approval.reject": QT_TRANSLATE_NOOP("StatusWords", "Rejected by an approver"),
    "approval.withdraw": QT_TRANSLATE_NOOP("StatusWords", "Withdrawn by its maker"),
    "approval.edit": QT_TRANSLATE_NOOP("StatusWords", "Changed while waiting for approval"),
    "approval.release": QT_TRANSLATE_NOOP("StatusWords", "Released after approval"),
    "approval.batch": QT_TRANSLATE_NOOP("StatusWords", "Batch approval"),
    "approval.expire": QT_TRANSLATE_NOOP("StatusWords", "Approvals expired"),
    "admin.policy": QT_TRANSLATE_NOOP("StatusWords", "Approval policy changed"),
    "admin.stale_after": QT_TRANSLATE_NOOP(
        "StatusWords", "Time before an open session is stale changed"
    ),
    "session.ended": QT_TRANSLATE_NOOP("StatusWords", "Stale session ended by a colleague"),
    "receipt.confirmed": QT_TRANSLATE_NOOP(
        "StatusWords", "Receipt confirmed by a second fetch from the bank"
    ),
    "receipt.disputed": QT_TRANSLATE_NOOP(
        "StatusWords", "Receipt disputed: the bank's copy differs"
    ),
    "admin.limits": QT_TRANSLATE_NOOP("StatusWords", "Approval limits changed"),
    "admin.policy_forced": QT_TRANSLATE_NOOP("StatusWords", "Approval policy changed by force"),
    "admin.registry_policy": QT_TRANSLATE_NOOP("StatusWords", "Payee registry policy changed"),
    "admin.session_limits": QT_TRANSLATE_NOOP("StatusWords", "Session limits changed"),
    "admin.add_user": QT_TRANSLATE_NOOP("StatusWords", "Login added"),
    "admin.remove_user": QT_TRANSLATE_NOOP("StatusWords", "Login removed"),
    "admin.disable_user": QT_TRANSLATE_NOOP("StatusWords", "Login disabled"),
    "admin.enable_user": QT_TRANSLATE_NOOP("StatusWords", "Login enabled again"),
    "admin.reset_password": QT_TRANSLATE_NOOP("StatusWords", "Login password reset"),
    "admin.import_ledger": QT_TRANSLATE_NOOP("StatusWords", "Ledger imported"),
    "admin.migrate": QT_TRANSLATE_NOOP("StatusWords", "Team database upgraded"),
    "approval.void": QT_TRANSLATE_NOOP("StatusWords", "Approval voided"),
    "audit.anchor_mismatch": QT_TRANSLATE_NOOP("StatusWords", "Audit trail does not match"),
    "ledger.backup": QT_TRANSLATE_NOOP("StatusWords", "Ledger backed up"),
    "session.close": QT_TRANSLATE_NOOP("StatusWords", "Profile locked"),
    "profile.delete": QT_TRANSLATE_NOOP("StatusWords", "Profile deleted"),
    "profile.secret.set": QT_TRANSLATE_NOOP("StatusWords", "Client secret kept in the keyring"),
    "profile.secret.delete": QT_TRANSLATE_NOOP(
        "StatusWords", "Client secret removed from the keyring"
    ),
    "webhook.register": QT_TRANSLATE_NOOP("StatusWords", "Webhook registered"),
    "webhook.remove": QT_TRANSLATE_NOOP("StatusWords", "Webhook removed"),
    "charge.create": QT_TRANSLATE_NOOP("StatusWords", "Charge created"),
    "charge.revise": QT_TRANSLATE_NOOP("StatusWords", "Charge revised"),
    "charge.cancel": QT_TRANSLATE_NOOP("StatusWords", "Charge cancelled"),
    "batch.create": QT_TRANSLATE_NOOP("StatusWords", "Charge batch sent"),
    "batch.revise": QT_TRANSLATE_NOOP("StatusWords", "Charge batch revised"),
    "refund.request": QT_TRANSLATE_NOOP("StatusWords", "Refund requested"),
    "location.create": QT_TRANSLATE_NOOP("StatusWords", "QR Code location created"),
    "location.unlink": QT_TRANSLATE_NOOP("StatusWords", "QR Code location unlinked"),
    "rec.create": QT_TRANSLATE_NOOP("StatusWords", "Recurrence created"),
    "rec.revise": QT_TRANSLATE_NOOP("StatusWords", "Recurrence revised"),
    "rec.cancel": QT_TRANSLATE_NOOP("StatusWords", "Recurrence cancelled"),
    "solicrec.create": QT_TRANSLATE_NOOP("StatusWords", "Confirmation request sent"),
    "solicrec.cancel": QT_TRANSLATE_NOOP("StatusWords", "Confirmation request cancelled"),
    "locrec.create": QT_TRANSLATE_NOOP("StatusWords", "Recurrence location created"),
    "locrec.link": QT_TRANSLATE_NOOP("StatusWords", "Recurrence location linked"),
    "locrec.unlink": QT_TRANSLATE_NOOP("StatusWords", "Recurrence location unlinked"),
    "cobr.create": QT_TRANSLATE_NOOP("StatusWords", "Recurring charge created"),
    "cobr.cancel": QT_TRANSLATE_NOOP("StatusWords", "Recurring charge cancelled"),
    "cobr.retry": QT_TRANSLATE_NOOP("StatusWords", "Recurring charge retry scheduled"),
}

# The bank's status a write answered is its audit outcome (``charge.create`` -> ATIVA): read in
# the family of codes of what was written.
_OUTCOME_FAMILIES: dict[str, Family] = {
    "charge": Family.COB_STATUS,
    "refund": Family.REFUND_STATUS,
    "location": Family.COB_STATUS,
    "rec": Family.REC_STATUS,
    "locrec": Family.REC_STATUS,
    "solicrec": Family.SOLICREC_STATUS,
    "cobr": Family.COBR_STATUS,
}

_OUTCOMES: dict[str, str] = {
    "accepted": QT_TRANSLATE_NOOP("StatusWords", "accepted"),
    "rejected": QT_TRANSLATE_NOOP("StatusWords", "rejected"),
    "unknown": QT_TRANSLATE_NOOP("StatusWords", "no answer"),
    "ok": QT_TRANSLATE_NOOP("StatusWords", "done"),
    "failed": QT_TRANSLATE_NOOP("StatusWords", "failed"),
    "found": QT_TRANSLATE_NOOP("StatusWords", "found"),
    "resent": QT_TRANSLATE_NOOP("StatusWords", "sent again"),
    "held": QT_TRANSLATE_NOOP("StatusWords", "held"),
    "started": QT_TRANSLATE_NOOP("StatusWords", "started"),
    "sent": QT_TRANSLATE_NOOP("StatusWords", "sent"),
    "stopped": QT_TRANSLATE_NOOP("StatusWords", "stopped"),
    "confirmed": QT_TRANSLATE_NOOP("StatusWords", "confirmed"),
    "declined": QT_TRANSLATE_NOOP("StatusWords", "declined"),
    "waiting": QT_TRANSLATE_NOOP("StatusWords", "waiting"),
    "approved": QT_TRANSLATE_NOOP("StatusWords", "approved"),
    "partial": QT_TRANSLATE_NOOP("StatusWords", "approved in part"),
    "withdrawn": QT_TRANSLATE_NOOP("StatusWords", "withdrawn"),
    "changed": QT_TRANSLATE_NOOP("StatusWords", "changed"),
    "released": QT_TRANSLATE_NOOP("StatusWords", "released"),
    "decided": QT_TRANSLATE_NOOP("StatusWords", "decided"),
    "expired": QT_TRANSLATE_NOOP("StatusWords", "expired"),
    "refused": QT_TRANSLATE_NOOP("StatusWords", "refused"),
    "not_sent": QT_TRANSLATE_NOOP("StatusWords", "not sent"),
    "not_money": QT_TRANSLATE_NOOP("StatusWords", "not an amount of money"),
    "bank_wins": QT_TRANSLATE_NOOP("StatusWords", "the bank's word applied"),
    "bank_stands": QT_TRANSLATE_NOOP("StatusWords", "the bank's word stands"),
    "partially_refused": QT_TRANSLATE_NOOP("StatusWords", "refused in part"),
    "void": QT_TRANSLATE_NOOP("StatusWords", "voided"),
    "stale": QT_TRANSLATE_NOOP("StatusWords", "ended: left open too long"),
    "same": QT_TRANSLATE_NOOP("StatusWords", "the same as the bank's"),
    "differs": QT_TRANSLATE_NOOP("StatusWords", "not the same as the bank's"),
}

_OVERRULED = str(QT_TRANSLATE_NOOP("StatusWords", "The bank says otherwise than %1 recorded (%2)"))


def _word(table: dict[str, str], key: str | None, family: str | None) -> str:
    """``key`` in words; one the table lacks is "Other (unknown code)" (logged), or, where
    ``family`` is None, shown as it is."""
    if not key:
        return ""
    source = table.get(key)
    if source:
        return QCoreApplication.translate(CONTEXT, source)
    return unknown_word(family, key) if family is not None else key


def status_word(status: str | None) -> str:
    """A bank status, journal state or payment flow as a word (``SETTLED`` -> Settled)."""
    return _word(_STATUSES, status, "status")


_APPROVED_BY = QT_TRANSLATE_NOOP("StatusWords", "Approved by %1 (%2 of %3)")
_WITHDRAWN_BY = QT_TRANSLATE_NOOP("StatusWords", "Withdrawn by %1")
_REJECTED_BY = QT_TRANSLATE_NOOP("StatusWords", "Rejected by %1")
_CHANGED = QT_TRANSLATE_NOOP("StatusWords", "Amount or description changed: %1 approval(s) void")
_REMOVED_WITHDRAWN = QT_TRANSLATE_NOOP("StatusWords", "Withdrawn: %1 was removed from the team")
_REMOVED_VOID = QT_TRANSLATE_NOOP(
    "StatusWords", "Approval by %1 void: removed from the team (%2 of %3)"
)
_NOT_MONEY = QT_TRANSLATE_NOOP("StatusWords", "Not sent: the amount is not money")
_REJECTED_BECAUSE = QT_TRANSLATE_NOOP("StatusWords", "Rejected by %1: %2")
_WITHDRAWN_BECAUSE = QT_TRANSLATE_NOOP("StatusWords", "Withdrawn by %1: %2")

_TEAM_NOTES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"^approved by (?P<who>\S+) \((?P<given>\d+) of (?P<needed>\d+)\)$"),
        _APPROVED_BY,
    ),
    (re.compile(r"^withdrawn by (?P<who>\S+)$"), _WITHDRAWN_BY),
    (re.compile(r"^rejected by (?P<who>\S+)$"), _REJECTED_BY),
    (re.compile(r"^changed: (?P<void>\d+) approval\(s\) void$"), _CHANGED),
    (re.compile(r"^withdrawn: (?P<login>\S+) removed$"), _REMOVED_WITHDRAWN),
    (
        re.compile(
            r"^approval by (?P<who>\S+) void: \S+ removed \((?P<given>\d+) of (?P<needed>\d+)\)$"
        ),
        _REMOVED_VOID,
    ),
    (re.compile(r"^ended by schema 4: the amount is not money$"), _NOT_MONEY),
    (re.compile(r"^webhook(: .*)?$"), QT_TRANSLATE_NOOP("StatusWords", "Notified by the bank")),
    (
        re.compile(r"^(?P<who>\S+) recorded .*; the bank's word \(\w+\) overruled it: .*$"),
        _NOTES["overruled"],
    ),
    (re.compile(r"^(?P<who>\S+) recorded .*: the bank's word stands$"), _NOTES["bank_stands"]),
)
"""The English sentences the team database wrote with who acted before schema 7 made them
coded notes (``approved by bruno (1 of 2)``; ``treasury-admin remove-user``'s; the sentences
schema 4 wrote before schema 6 made them codes): the pattern and its words, the groups filling
%1, %2... in order. Rows written then keep them."""

_TEAM_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^Rejected by (?P<who>\S+): (?P<reason>.*)$", re.DOTALL), _REJECTED_BECAUSE),
    (re.compile(r"^Withdrawn by (?P<who>\S+): (?P<reason>.*)$", re.DOTALL), _WITHDRAWN_BECAUSE),
    (re.compile(r"^Rejected by (?P<who>\S+)$"), _REJECTED_BY),  # schema 2: no reason given
    (re.compile(r"^Withdrawn by (?P<who>\S+)$"), _WITHDRAWN_BY),
    (re.compile(r"^Not sent: the amount is not money$"), _NOT_MONEY),
)
"""The English errors the team database gave an intent a person ended before schema 7
(``Rejected by bruno: wrong key``): the pattern and its words, as :data:`_TEAM_NOTES`."""

_CODED_NOTES: dict[str, tuple[str, tuple[str, ...]]] = {
    codes_schema.APPROVED: (_APPROVED_BY, ("by", "given", "needed")),
    codes_schema.WITHDRAWN: (_WITHDRAWN_BY, ("by",)),
    codes_schema.REJECTED: (_REJECTED_BY, ("by",)),
    codes_schema.CHANGED: (_CHANGED, ("void",)),
    codes_schema.REMOVED_WITHDRAWN: (_REMOVED_WITHDRAWN, ("login",)),
    codes_schema.REMOVED_VOID: (_REMOVED_VOID, ("approver", "given", "needed")),
}
"""The team database's coded notes (schema 7, :mod:`~treasury_app.ledger.team.codes_schema`):
the words of each code and the parameters filling %1, %2... in order."""

_CODED_ERRORS: dict[str, tuple[str, tuple[str, ...]]] = {
    codes_schema.REJECTED: (_REJECTED_BECAUSE, ("by", "reason")),
    codes_schema.WITHDRAWN: (_WITHDRAWN_BECAUSE, ("by", "reason")),
    codes_schema.REMOVED_WITHDRAWN: (_REMOVED_WITHDRAWN, ("login",)),
}
"""The coded errors of an intent a person ended (schema 7): the words and their parameters."""

_PLACEHOLDER = re.compile(r"%(\d)")


def _filled(source: str, values: list[str | None]) -> str:
    """``source`` translated, %1, %2... replaced by ``values`` in one pass (a value that
    holds "%2" itself stays as it is)."""

    def value_of(found: re.Match[str]) -> str:
        number = int(found.group(1))
        value = values[number - 1] if 0 < number <= len(values) else None
        return found.group(0) if value is None else value

    return _PLACEHOLDER.sub(value_of, QCoreApplication.translate(CONTEXT, source))


def _coded_word(text: str, table: dict[str, tuple[str, tuple[str, ...]]]) -> str | None:
    """A coded note of the team database in words (a code ``table`` lacks: "Other (unknown
    code)", logged); ``None`` when ``text`` is no coded note."""
    found = codes_schema.read_coded(text)
    if found is None:
        return None
    code, params = found
    if code not in table:
        return unknown_word("team note", code)
    source, names = table[code]
    return _filled(source, [str(params.get(name, "")) for name in names])


def _sentence_word(text: str, patterns: tuple[tuple[re.Pattern[str], str], ...]) -> str | None:
    for pattern, source in patterns:
        found = pattern.match(text)
        if found:
            return _filled(source, list(found.groups()))
    return None


def note_word(note: str | None) -> str:
    """A journal history note as words (``no answer`` -> No answer from the bank; the team
    database's coded note ``{"by": "bruno", "code": "approved", "given": 1, "needed": 2}``,
    or its English sentence of before schema 7 ``approved by bruno (1 of 2)`` -> Approved by
    bruno (1 of 2), in the UI's language). A note nobody knows is shown as it is (a desktop's
    free text)."""
    if note and note not in _NOTES:
        words = _coded_word(note, _CODED_NOTES) or _sentence_word(note, _TEAM_NOTES)
        if words is not None:
            return words
    return _word(_NOTES, note, None)


def team_error_word(error: str | None) -> str:
    """The error the team database gave an intent a person ended (rejected, withdrawn, or
    withdrawn when its maker was removed) in words: "Rejected by bruno: wrong key"; "" when
    ``error`` is none of those (the bank's message, an answer not received)."""
    if not error:
        return ""
    found = codes_schema.read_coded(error)
    reasonless = found is not None and not found[1].get("reason")
    words = _coded_word(error, _CODED_NOTES if reasonless else _CODED_ERRORS)
    if words is None:
        words = _sentence_word(error, _TEAM_ERRORS)
    return words or ""


_VOID_REASONS: dict[str, str] = {
    codes_schema.VOID_EXPIRED: QT_TRANSLATE_NOOP("StatusWords", "the approval expired"),
    codes_schema.VOID_CONTENT_CHANGED: QT_TRANSLATE_NOOP(
        "StatusWords", "the amount or description changed"
    ),
    codes_schema.VOID_PERSON_REMOVED: QT_TRANSLATE_NOOP(
        "StatusWords", "the approver was removed from the team"
    ),
}
_MAKER_REMOVED = QT_TRANSLATE_NOOP("StatusWords", "its maker was removed from the team")
_SERIES_CHANGED = QT_TRANSLATE_NOOP(
    "StatusWords", "its recurring payment was changed to other dates"
)
_LEGACY_REMOVED = re.compile(r"^Withdrawn by \S+: \S+ removed$")


def void_reason_word(reason: str | None) -> str:
    """Why an approval is void (``approvals.void_reason``: ``expired``, ``content
    changed``, ``person removed``) in words; one not known is "Other (unknown code)"."""
    return _word(_VOID_REASONS, reason, "approval void reason")


def decision_reason_word(entry: Entry) -> str:
    """Why a person ended ``entry`` (its ``decision_reason``): as they typed it, but for an
    intent ``treasury-admin remove-user`` withdrew (its reason the fixed key ``person
    removed``), which is said in words."""
    reason = entry.decision_reason or ""
    found = codes_schema.read_coded(entry.error)
    removed = found is not None and found[0] == codes_schema.REMOVED_WITHDRAWN
    if removed or (
        reason == codes_schema.VOID_PERSON_REMOVED and _LEGACY_REMOVED.match(entry.error or "")
    ):
        return QCoreApplication.translate(CONTEXT, _MAKER_REMOVED)
    if reason == SERIES_CHANGED:  # cancelled by an edit of its series, not typed
        return QCoreApplication.translate(CONTEXT, _SERIES_CHANGED)
    return reason


_POLICY_REFERENCE = re.compile(r"^policy (?P<version>\d+)$")
_POLICY_ACTIONS = frozenset({"admin.policy", "admin.policy_forced"})
_POLICY = QT_TRANSLATE_NOOP("StatusWords", "Policy %1")


def reference_word(action: str | None, reference: str | None) -> str:
    """An audit row's reference as a person reads it: the approval policy ``treasury-admin``
    set (``policy 3``, kept so in the audit) is "Policy 3" in words; any other reference (a
    txid, a login, an entry's number) is shown as it is."""
    text = reference or ""
    found = _POLICY_REFERENCE.match(text) if action in _POLICY_ACTIONS else None
    if found is None:
        return text
    return QCoreApplication.translate(CONTEXT, _POLICY).replace("%1", found["version"])


def action_word(action: str | None) -> str:
    """An audit action as words (``payout.send`` -> Pix payout)."""
    return _word(_ACTIONS, action, "audit action")


_APPROVALS: dict[str, str] = {
    "WAITING": QT_TRANSLATE_NOOP("StatusWords", "Waiting for approval %1/%2"),
    "APPROVED": QT_TRANSLATE_NOOP("StatusWords", "Approved"),
    "RELEASED": QT_TRANSLATE_NOOP("StatusWords", "Approved and released"),
    "REJECTED": QT_TRANSLATE_NOOP("StatusWords", "Rejected by %1"),
    "WITHDRAWN": QT_TRANSLATE_NOOP("StatusWords", "Withdrawn"),
}


_SUBMITTED = str(QT_TRANSLATE_NOOP("StatusWords", "Submitted for approval (%1 of %2)"))


def approval_word(entry: Entry, *, released: bool = False) -> str:
    """Where an intent stands with its approvers (team mode with dual control): "Waiting for
    approval 1/2", "Approved", "Rejected by bruno", "Withdrawn". "" when that says nothing the
    journal's state does not: no approvals needed (the file ledger, a team without dual
    control), sent already, refused by the bank rather than by a person, and — unless
    ``released`` — released to the bank (its bank status says more from then on)."""
    approval = entry.approval
    if not approval or approval not in _APPROVALS:
        return ""
    if approval == "RELEASED" and not released:
        return ""
    if approval in ("WAITING", "APPROVED") and (
        entry.approvals_needed == 0 or entry.state != "PREPARED"
    ):
        return ""
    if approval == "REJECTED" and not entry.decided_by:
        return ""
    text = QCoreApplication.translate(CONTEXT, _APPROVALS[approval])
    if approval == "WAITING":
        return text.replace("%1", str(entry.approvals_given)).replace(
            "%2", str(entry.approvals_needed)
        )
    if approval == "REJECTED":
        return text.replace("%1", entry.decided_by or "")
    return text


def overruled_word(entry: Entry) -> str:
    """Where the bank's word overruled what a desktop recorded of ``entry`` (a team database:
    the receiver's notification, another login's lookup): "The bank says otherwise than max
    recorded (Cancelled)". "" when it never did."""
    if not entry.overruled_at:
        return ""
    recorded = entry.overruled_status or entry.overruled_state
    return (
        QCoreApplication.translate(CONTEXT, _OVERRULED)
        .replace("%1", entry.overruled_by or "?")
        .replace("%2", status_word(recorded) or "?")
    )


def submitted_word(entry: Entry) -> str:
    """What a payment form says of an intent it handed to the approvers: "Submitted for
    approval (0 of 2)"."""
    return (
        QCoreApplication.translate(CONTEXT, _SUBMITTED)
        .replace("%1", str(entry.approvals_given))
        .replace("%2", str(entry.approvals_needed))
    )


def outcome_word(outcome: str | None, action: str | None = None) -> str:
    """An audit outcome as a word; a bank status goes through :func:`status_word`, or, for a
    write of ``action`` that answers a charge's or a recurrence's status (``charge.create`` ->
    ``ATIVA``), through that family of :mod:`treasury_app.ui.code_words`."""
    family = _OUTCOME_FAMILIES.get((action or "").split(".")[0])
    if family is not None and outcome in known_codes(family):
        return code_word(family, outcome)
    if outcome in _STATUSES:
        return status_word(outcome)
    return _word(_OUTCOMES, outcome, "audit outcome")


def known_actions() -> frozenset[str]:
    """The audit actions :func:`action_word` has a word for."""
    return frozenset(_ACTIONS)


def known_statuses() -> frozenset[str]:
    """The statuses and states :func:`status_word` has a word for."""
    return frozenset(_STATUSES)
