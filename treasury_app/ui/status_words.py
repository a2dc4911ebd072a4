"""Statuses, journal notes and audit actions as words in the UI language.

The bank's statuses (``SETTLED``), the journal's states and notes (``journaled``, ``no
answer``) and the audit's actions (``payout.send``) are identifiers: kept as they are in the
ledger, exports for machines and logs, but shown to people as words, translated through Qt
Linguist like every other text. An identifier this module does not know is shown as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

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
    "admin.limits": QT_TRANSLATE_NOOP("StatusWords", "Approval limits changed"),
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
}

_OVERRULED = str(QT_TRANSLATE_NOOP("StatusWords", "The bank says otherwise than %1 recorded (%2)"))


def _word(table: dict[str, str], key: str | None) -> str:
    if not key:
        return ""
    source = table.get(key)
    return QCoreApplication.translate(CONTEXT, source) if source else key


def status_word(status: str | None) -> str:
    """A bank status, journal state or payment flow as a word (``SETTLED`` -> Settled)."""
    return _word(_STATUSES, status)


def note_word(note: str | None) -> str:
    """A journal history note as words (``no answer`` -> No answer from the bank)."""
    return _word(_NOTES, note)


def action_word(action: str | None) -> str:
    """An audit action as words (``payout.send`` -> Pix payout)."""
    return _word(_ACTIONS, action)


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


def outcome_word(outcome: str | None) -> str:
    """An audit outcome as a word; a bank status goes through :func:`status_word`."""
    if outcome in _STATUSES:
        return status_word(outcome)
    return _word(_OUTCOMES, outcome)
