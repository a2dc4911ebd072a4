"""The rules people can break, in the person's language: one catalogue for every
:class:`~treasury_app.domain.errors.RuleError` and :class:`~treasury_app.domain.errors.Reason`
code of the domain and the services (bank codes are :mod:`treasury_app.ui.code_words`').

A rule's words are a Qt Linguist source string (context ``RuleWords``) with ``{name}``
placeholders for its parameters. Parameters are put in words here, once: an amount as
``R$ 1.234,56``, a day as ``28/11/2026``, an instant in Brasília time. A code the catalogue
does not know is a generic sentence (logged), never the code; an English sentence still
raised as a "code" by a rule not converted yet is shown as it is — the walk test
(``tests/ui/test_rule_words.py``) fails on those.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.domain.clock import format_date, format_instant
from treasury_app.domain.errors import CODE_PATTERN, Reason, RuleError
from treasury_app.domain.money import format_brl

__all__ = ["RULES", "is_code", "rule_text"]

log = logging.getLogger(__name__)

CONTEXT = "RuleWords"

RULES: dict[str, str] = {
    "rule.unknown": QT_TRANSLATE_NOOP("RuleWords", "This is not accepted. Please check it."),
    # -- services --
    # CSV files (services/csv_input.py)
    "csv.too_large": QT_TRANSLATE_NOOP(
        "RuleWords", "The file is larger than {megabytes} MB: split it into smaller files."
    ),
    "csv.workbook": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is a spreadsheet workbook, not a CSV file. In the spreadsheet, save it again as "
        '"CSV UTF-8".',
    ),
    "csv.pdf": QT_TRANSLATE_NOOP("RuleWords", "This is a PDF document, not a CSV file."),
    "csv.not_text": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Line {line} has bytes that are neither UTF-8 nor Windows-1252 text ({byte}). In the "
        'spreadsheet, save it again as "CSV UTF-8".',
    ),
    "csv.not_its_encoding": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file says it is {encoding} text, but line {line} is not valid {encoding}. In the "
        'spreadsheet, save it again as "CSV UTF-8".',
    ),
    "csv.too_many_errors": QT_TRANSLATE_NOOP(
        "RuleWords", "More than {max} lines have errors: fix the file (the first {max} are listed)."
    ),
    "csv.cell_too_long": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A cell is longer than {limit} characters: this line is not a payment or a charge (is a "
        "quote left open above it?).",
    ),
    "csv.nul_character": QT_TRANSLATE_NOOP(
        "RuleWords", "The line contains a NUL character (0x00): remove it."
    ),
    "csv.unreadable_line": QT_TRANSLATE_NOOP("RuleWords", "This line cannot be read as CSV."),
    "csv.cell_over_lines": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Column {column}: a quoted cell runs from this line to line {last_line}; a cell cannot "
        "run over several lines (is a quote left open?).",
    ),
    "csv.cell_to_end_of_file": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Column {column}: a quoted cell runs from this line to the end of the file; a cell "
        "cannot run over several lines (is a quote left open?).",
    ),
    "csv.control_character": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Column {column}: the cell contains a control character ({character}); remove it.",
    ),
    # Pix payouts (services/payouts.py)
    "payout.amount_not_decimal": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be a decimal number."
    ),
    "payout.amount_decimals": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount can have at most 2 decimal places."
    ),
    "payout.amount_not_positive": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be greater than zero."
    ),
    "payout.amount_over_limit": QT_TRANSLATE_NOOP("RuleWords", "A Pix cannot exceed {limit}."),
    "payout.description_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The description can have at most {max} characters."
    ),
    "payout.recurrence_code": QT_TRANSLATE_NOOP(
        "RuleWords", "This code authorises a recurrence (Pix Automático); it is not a payment."
    ),
    "payout.code_amount_differs": QT_TRANSLATE_NOOP(
        "RuleWords", "The code is for {amount}; a different amount cannot be paid."
    ),
    "payout.code_without_amount": QT_TRANSLATE_NOOP(
        "RuleWords", "The code has no amount: type the amount to pay."
    ),
    "payout.scientific_notation": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This number is in scientific notation ({value}): a spreadsheet turned it into a number "
        "and lost its last digits. Format the column as text in Excel and type it again.",
    ),
    "payout.ispb_format": QT_TRANSLATE_NOOP("RuleWords", "The ISPB is the bank's 8-digit code."),
    "payout.branch_format": QT_TRANSLATE_NOOP(
        "RuleWords", "The branch is 1 to 4 digits, without check digit."
    ),
    "payout.account_format": QT_TRANSLATE_NOOP(
        "RuleWords", "The account is digits (check digit included)."
    ),
    "payout.account_type": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The account type is CACC (checking), SVGS (savings), SLRY (salary) or TRAN (payment).",
    ),
    "payout.holder_name_missing": QT_TRANSLATE_NOOP("RuleWords", "Type the account holder's name."),
    "payout.key_empty": QT_TRANSLATE_NOOP("RuleWords", "The Pix key is empty."),
    "payout.batch_has_errors": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{count} row(s) of the batch have errors; fix them or leave them out before sending.",
    ),
    "payout.batch_sent_same_file": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This batch was already sent on {sent_at} (Brasília) ({rows} payment(s), {total}, the "
        "same file). Nothing was sent: choose “Send again” to pay it again.",
    ),
    "payout.batch_sent_same_payees": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This batch was already sent on {sent_at} (Brasília) ({rows} payment(s), {total}, the "
        "same payees and amounts). Nothing was sent: choose “Send again” to pay it again.",
    ),
    "payout.dynamic_code": QT_TRANSLATE_NOOP(
        "RuleWords", "Dynamic code: the bank confirms payee and amount when paying."
    ),
    "payout.waits_for_approval": QT_TRANSLATE_NOOP(
        "RuleWords", "The payment will wait for approval in the bank's console."
    ),
    "payout.recent_duplicates": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{count} payment(s) of {amount} to this payee in the last 24 hours. Check that this is "
        "not a duplicate.",
    ),
    "payout.repeats_line": QT_TRANSLATE_NOOP(
        "RuleWords", "Line {line} of this file pays the same payee the same amount."
    ),
    "payout.ispb_padded": QT_TRANSLATE_NOOP(
        "RuleWords",
        "ISPB {typed} read as {padded} (a spreadsheet drops leading zeros): check that this is "
        "the payee's bank's ISPB, not its 3-digit bank code.",
    ),
    "payout.branch_padded": QT_TRANSLATE_NOOP("RuleWords", "Branch {typed} read as {padded}."),
    "payout.file_empty": QT_TRANSLATE_NOOP("RuleWords", "The file is empty."),
    "payout.unknown_columns": QT_TRANSLATE_NOOP("RuleWords", "Unknown column(s)."),
    "payout.amount_column_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount column (valor) is missing."
    ),
    "payout.payee_columns_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Give a chave column, or ispb, agencia, conta, tipo_conta, documento and nome.",
    ),
    "payout.too_many_rows": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file has more than {max} payments: split it into files of at most {max} (line "
        "{line} is payment {payment}).",
    ),
    "payout.column_count": QT_TRANSLATE_NOOP(
        "RuleWords", "Expected {expected} columns, found {found}."
    ),
    "payout.no_payments": QT_TRANSLATE_NOOP("RuleWords", "The file has a header but no payments."),
    # Slips (services/billets.py)
    "billet.already_paid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This slip was already paid on {at}: {amount}. A slip is paid once; its receipt is in "
        "the list of paid slips.",
    ),
    "billet.already_sent": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This slip was already sent for payment on {at}: {amount}, still being followed. A slip "
        "is paid once: wait for that payment's outcome.",
    ),
    "billet.description_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The description can have at most {max} characters."
    ),
    "billet.payer_sets_amount": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This slip lets the payer choose the amount; such slips cannot be paid through the "
        "bank's API.",
    ),
    "billet.nothing_to_pay": QT_TRANSLATE_NOOP("RuleWords", "This slip has nothing left to pay."),
    "billet.past_payment_limit": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The slip could be paid only until {until}; the bank will probably refuse it.",
    ),
    "billet.overdue": QT_TRANSLATE_NOOP(
        "RuleWords", "Overdue since {since}: {total} includes {charges} of fine and interest."
    ),
    "billet.overdue_no_charges": QT_TRANSLATE_NOOP(
        "RuleWords", "Overdue since {since}: {total} (no fine or interest charged)."
    ),
    "billet.not_a_slip_payment": QT_TRANSLATE_NOOP(
        "RuleWords", "This entry is not an accepted slip payment."
    ),
    # Charges (services/charges/)
    "charge.amount_type": QT_TRANSLATE_NOOP("RuleWords", "An amount must be a number."),
    "charge.amount_not_positive": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be greater than zero."
    ),
    "charge.document_missing": QT_TRANSLATE_NOOP("RuleWords", "Please enter a CPF or CNPJ."),
    "charge.required": QT_TRANSLATE_NOOP("RuleWords", "This field is required."),
    "charge.not_text": QT_TRANSLATE_NOOP("RuleWords", "This field must be text."),
    "charge.too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "At most {max} characters (this has {length})."
    ),
    "charge.key_missing": QT_TRANSLATE_NOOP("RuleWords", "Please enter a Pix key."),
    "charge.txid_format": QT_TRANSLATE_NOOP("RuleWords", "A txid has 26 to 35 letters or digits."),
    "charge.whole_number": QT_TRANSLATE_NOOP(
        "RuleWords", "Must be a whole number from {min} to {max}."
    ),
    "charge.time_without_zone": QT_TRANSLATE_NOOP("RuleWords", "A time needs its time zone."),
    "charge.range_reversed": QT_TRANSLATE_NOOP(
        "RuleWords", "The end of the range is before its start."
    ),
    "charge.address_not_allowed": QT_TRANSLATE_NOOP(
        "RuleWords", "An immediate charge has no debtor address."
    ),
    "charge.email_format": QT_TRANSLATE_NOOP("RuleWords", "This is not an e-mail address."),
    "charge.state_format": QT_TRANSLATE_NOOP("RuleWords", "A state (UF) is 2 letters, such as SP."),
    "charge.cep_format": QT_TRANSLATE_NOOP("RuleWords", "A CEP has 8 digits."),
    "charge.unknown_status": QT_TRANSLATE_NOOP("RuleWords", "Unknown status; one of {known}."),
    "charge.too_many_infos": QT_TRANSLATE_NOOP("RuleWords", "At most {max} items."),
    "charge.debtor_required": QT_TRANSLATE_NOOP(
        "RuleWords", "A charge with a due date needs its debtor."
    ),
    "charge.nothing_to_change": QT_TRANSLATE_NOOP(
        "RuleWords", "Nothing to change: give a new amount, text or debtor."
    ),
    "charge.due_date_type": QT_TRANSLATE_NOOP("RuleWords", "A due date is a calendar date."),
    "charge.due_date_passed": QT_TRANSLATE_NOOP("RuleWords", "The due date {due} has passed."),
    "charge.location_kind": QT_TRANSLATE_NOOP(
        "RuleWords", "A location is for a charge (immediate or with a due date)."
    ),
    "charge.e2eid_format": QT_TRANSLATE_NOOP(
        "RuleWords", "This is not an end-to-end id (E + 31 characters)."
    ),
    "charge.refund_id_format": QT_TRANSLATE_NOOP(
        "RuleWords", "A refund id has 1 to 35 letters or digits."
    ),
    "charge.no_qr_payload": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge has no QR Code payload (Pix Copia e Cola)."
    ),
    "charge.bad_qr_payload": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge's QR Code payload is not valid: {why}"
    ),
    # Charge batches (services/charges/batch_file.py, batches.py)
    "charge_batch.due_date_format": QT_TRANSLATE_NOOP(
        "RuleWords", "Write the due date as DD/MM/YYYY or YYYY-MM-DD."
    ),
    "charge_batch.not_a_date": QT_TRANSLATE_NOOP("RuleWords", "{text} is not a real date."),
    "charge_batch.name_missing": QT_TRANSLATE_NOOP("RuleWords", "The debtor's name is missing."),
    "charge_batch.name_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The name has more than {max} characters."
    ),
    "charge_batch.amount_not_positive": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be greater than zero."
    ),
    "charge_batch.due_date_missing": QT_TRANSLATE_NOOP("RuleWords", "The due date is missing."),
    "charge_batch.due_date_passed": QT_TRANSLATE_NOOP(
        "RuleWords", "The due date {due} has passed."
    ),
    "charge_batch.description_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The description has more than {max} characters."
    ),
    "charge_batch.unknown_column": QT_TRANSLATE_NOOP(
        "RuleWords", "Unknown column “{column}”; the columns are {columns}"
    ),
    "charge_batch.column_twice": QT_TRANSLATE_NOOP("RuleWords", "This column appears twice."),
    "charge_batch.column_missing": QT_TRANSLATE_NOOP("RuleWords", "The header lacks this column."),
    "charge_batch.no_charges": QT_TRANSLATE_NOOP("RuleWords", "The file has no charges."),
    "charge_batch.too_many_charges": QT_TRANSLATE_NOOP(
        "RuleWords", "A batch has at most {max} charges."
    ),
    "charge_batch.cell_missing": QT_TRANSLATE_NOOP("RuleWords", "This column is missing."),
    "charge_batch.too_many_cells": QT_TRANSLATE_NOOP(
        "RuleWords", "The row has {found} columns, at most {max} are expected."
    ),
    "charge_batch.too_many_cells_comma": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The row has {found} columns, at most {max} are expected (with ',' as separator, quote "
        'amounts written with a comma: "1.234,56").',
    ),
    "charge_batch.amount_cut_in_two": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The amount seems cut in two by the ',' separator: quote it (\"1.234,56\") or write it "
        "with a decimal point (1234.56).",
    ),
    "charge_batch.id_format": QT_TRANSLATE_NOOP(
        "RuleWords", "A batch id has 1 to 64 letters, digits, '-' or '_'."
    ),
    "charge_batch.file_has_errors": QT_TRANSLATE_NOOP(
        "RuleWords", "{count} line(s) of the file have errors; the first, on line {line}: {first}"
    ),
    "charge_batch.empty": QT_TRANSLATE_NOOP("RuleWords", "A batch needs at least one charge."),
    "charge_batch.line_due_date_passed": QT_TRANSLATE_NOOP(
        "RuleWords", "Line {line}: the due date {due} has passed."
    ),
    "charge_batch.no_revision": QT_TRANSLATE_NOOP(
        "RuleWords", "Give at least one member to change."
    ),
    "charge_batch.member_unchanged": QT_TRANSLATE_NOOP(
        "RuleWords", "Nothing to change for this member."
    ),
    "charge_batch.txid_repeated": QT_TRANSLATE_NOOP(
        "RuleWords", "This txid is already on line {line}."
    ),
    "charge_batch.lines_have_errors": QT_TRANSLATE_NOOP(
        "RuleWords", "{count} line(s) of the file have errors."
    ),
    # Pix Automático (services/recurrences/)
    "recurrence.not_one_of": QT_TRANSLATE_NOOP("RuleWords", "One of {known}."),
    "recurrence.idrec_format": QT_TRANSLATE_NOOP(
        "RuleWords", "This is not a recurrence id (idRec)."
    ),
    "recurrence.calendar_date": QT_TRANSLATE_NOOP("RuleWords", "A calendar date is expected."),
    "recurrence.location_id": QT_TRANSLATE_NOOP(
        "RuleWords", "A location id is a positive whole number."
    ),
    "recurrence.branch_format": QT_TRANSLATE_NOOP("RuleWords", "A branch has up to 4 digits."),
    "recurrence.unknown_periodicity": QT_TRANSLATE_NOOP(
        "RuleWords", "Unknown periodicity {value}."
    ),
    "recurrence.yes_or_no": QT_TRANSLATE_NOOP("RuleWords", "Yes or no is expected."),
    "cobr.receiver_required": QT_TRANSLATE_NOOP("RuleWords", "The account credited is required."),
    "cobr.address_expected": QT_TRANSLATE_NOOP("RuleWords", "A debtor address is expected."),
    "cobr.lead_time": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The due date {due} is too close: a recurring charge is created at least 2 business days "
        "before its due date, so the earliest is {earliest}.",
    ),
    "cobr.rec_not_approved": QT_TRANSLATE_NOOP(
        "RuleWords", "Only an authorised recurrence can be charged."
    ),
    "cobr.due_outside_validity": QT_TRANSLATE_NOOP(
        "RuleWords", "The due date is outside the recurrence's validity ({start} to {end})."
    ),
    "cobr.due_before_validity": QT_TRANSLATE_NOOP(
        "RuleWords", "The due date is before the recurrence's first date ({start})."
    ),
    "cobr.amount_missing": QT_TRANSLATE_NOOP("RuleWords", "Type the amount of the charge."),
    "cobr.amount_not_fixed": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount is the recurrence's fixed {fixed}."
    ),
    "cobr.amount_below_minimum": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount is below the recurrence's minimum {minimum}."
    ),
    "cobr.cycle_taken": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The recurrence already has an active charge in this cycle ({cycle}): {txid}, due {due}. "
        "Cancel it first or choose another cycle.",
    ),
    "cobr.cannot_cancel": QT_TRANSLATE_NOOP("RuleWords", "The charge can no longer be cancelled."),
    "cobr.cancel_after_first_attempt": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A recurring charge cannot be cancelled from the date of its first settlement attempt "
        "({first}) on.",
    ),
    "cobr.retries_not_allowed": QT_TRANSLATE_NOOP(
        "RuleWords", "The recurrence's retry policy does not allow retries."
    ),
    "cobr.closed_no_retry": QT_TRANSLATE_NOOP("RuleWords", "The charge is closed: no retry."),
    "cobr.attempt_pending": QT_TRANSLATE_NOOP(
        "RuleWords", "An attempt is still scheduled: wait for its result."
    ),
    "cobr.retry_without_failure": QT_TRANSLATE_NOOP(
        "RuleWords", "A retry only follows a failed attempt."
    ),
    "cobr.retries_used": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge already had the {max} retries allowed."
    ),
    "cobr.retry_not_future": QT_TRANSLATE_NOOP(
        "RuleWords", "A retry is scheduled on a future date."
    ),
    "cobr.retry_too_late": QT_TRANSLATE_NOOP(
        "RuleWords", "A retry must fall within {days} days after the due date (until {until})."
    ),
    "cobr.retry_same_day": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge already has an attempt on that date."
    ),
    "rec.debtor_required": QT_TRANSLATE_NOOP("RuleWords", "The debtor is required."),
    "rec.fixed_and_minimum": QT_TRANSLATE_NOOP(
        "RuleWords", "Give a fixed amount or a minimum amount, not both."
    ),
    "rec.end_before_start": QT_TRANSLATE_NOOP(
        "RuleWords", "The end date is before the first date."
    ),
    "rec.first_date_passed": QT_TRANSLATE_NOOP("RuleWords", "The first date {first} has passed."),
    "rec.nothing_to_revise": QT_TRANSLATE_NOOP("RuleWords", "Nothing to revise."),
    "solicrec.id_format": QT_TRANSLATE_NOOP(
        "RuleWords", "A request id (idSolicRec) has 29 characters, SC first."
    ),
    "solicrec.payer_required": QT_TRANSLATE_NOOP("RuleWords", "The payer's account is required."),
    "solicrec.ispb_format": QT_TRANSLATE_NOOP(
        "RuleWords", "An ISPB is 8 digits or capital letters."
    ),
    "solicrec.expires_in_past": QT_TRANSLATE_NOOP(
        "RuleWords", "The request would expire in the past."
    ),
    # Approvals (services/approvals.py)
    "approval.amount_differs": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount typed is not the amount of this payment."
    ),
    "approval.reject_reason_missing": QT_TRANSLATE_NOOP("RuleWords", "Say why it is rejected."),
    "approval.withdraw_reason_missing": QT_TRANSLATE_NOOP("RuleWords", "Say why it is withdrawn."),
    "approval.reject_reasons_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Say why each rejected row is rejected."
    ),
    "approval.amount_fixed": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount of this payment cannot be changed here: withdraw it."
    ),
    "approval.not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment is not waiting for approval any more."
    ),
    "approval.own_payment": QT_TRANSLATE_NOOP(
        "RuleWords",
        "You prepared this payment: another person approves it (a maker never approves their "
        "own payment).",
    ),
    "approval.not_an_approver": QT_TRANSLATE_NOOP(
        "RuleWords", "Your role does not approve payments."
    ),
    "approval.content_differs": QT_TRANSLATE_NOOP(
        "RuleWords",
        "What this desktop shows does not match the fingerprint the team database keeps for "
        "this payment: do not approve it; ask its maker to prepare it again.",
    ),
    "approval.approved_already": QT_TRANSLATE_NOOP(
        "RuleWords", "You approved it already; it waits for another approver."
    ),
    "approval.being_released": QT_TRANSLATE_NOOP(
        "RuleWords", "Every approval it needs is given; it is being released."
    ),
    # Held payments (services/payments.py)
    "payment.cancel_unconfirmed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The bank cannot be reached to confirm that it does not have this payment; nothing was "
        "cancelled. Try again when the bank answers.",
    ),
    # Statement (services/statement.py)
    "statement.range_reversed": QT_TRANSLATE_NOOP(
        "RuleWords", "The statement ends ({end}) before it starts ({start})."
    ),
    "statement.entry_id_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Please give the id of a statement entry."
    ),
    # Infractions (services/infractions.py)
    "defense.infraction_closed": QT_TRANSLATE_NOOP(
        "RuleWords", "Infraction {id} is closed: it no longer accepts a defense."
    ),
    "defense.not_open": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Infraction {id}: only an open infraction or one under review accepts a defense.",
    ),
    "defense.deadline_passed": QT_TRANSLATE_NOOP(
        "RuleWords", "The deadline to defend infraction {id} passed on {deadline} (Brasília)."
    ),
    "defense.not_text": QT_TRANSLATE_NOOP("RuleWords", "The defense is text."),
    "defense.empty": QT_TRANSLATE_NOOP(
        "RuleWords", "Please write the defense: it cannot be empty."
    ),
    "defense.too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The defense has {length} characters; the bank accepts at most {max}."
    ),
    "defense.attachments_list": QT_TRANSLATE_NOOP(
        "RuleWords", "Attachments are a list of file names."
    ),
    "defense.attachment_unnamed": QT_TRANSLATE_NOOP(
        "RuleWords", "An attachment needs a file name."
    ),
    "defense.attachment_name_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "An attachment name has at most {max} characters."
    ),
    "defense.infraction_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Please give the id of an infraction."
    ),
    # Webhooks (services/webhooks.py)
    "webhook.url_not_text": QT_TRANSLATE_NOOP("RuleWords", "The webhook URL must be text."),
    "webhook.url_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Please enter the webhook URL (https://...)."
    ),
    "webhook.url_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The webhook URL has {length} characters; at most {max}."
    ),
    "webhook.url_characters": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The webhook URL may not contain spaces or non-ASCII characters (percent-encode them).",
    ),
    "webhook.url_invalid": QT_TRANSLATE_NOOP("RuleWords", "The webhook URL is not a valid URL."),
    "webhook.url_no_scheme": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The bank only notifies HTTPS addresses: the URL must start with https:// (it has no "
        "scheme).",
    ),
    "webhook.url_not_https": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The bank only notifies HTTPS addresses: the URL must start with https:// (it has "
        "{scheme}).",
    ),
    "webhook.url_credentials": QT_TRANSLATE_NOOP(
        "RuleWords", "The webhook URL may not carry a user name or password (user:password@host)."
    ),
    "webhook.url_no_host": QT_TRANSLATE_NOOP("RuleWords", "The webhook URL has no host name."),
    "webhook.key_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "A Pix webhook belongs to one Pix key: choose the key."
    ),
    "webhook.headers_mapping": QT_TRANSLATE_NOOP(
        "RuleWords", "Headers are a mapping of names to values."
    ),
    "webhook.header_name": QT_TRANSLATE_NOOP(
        "RuleWords",
        "“{name}” is not a valid HTTP header name (letters, digits and -_.!#$%&'*+^`|~).",
    ),
    "webhook.header_twice": QT_TRANSLATE_NOOP("RuleWords", "The header {name} is given twice."),
    "webhook.header_value": QT_TRANSLATE_NOOP(
        "RuleWords", "The value of header {name} must be one line of text."
    ),
    "webhook.header_without_name": QT_TRANSLATE_NOOP(
        "RuleWords", "A header value was typed without its name."
    ),
    "webhook.email_format": QT_TRANSLATE_NOOP("RuleWords", "“{email}” is not an e-mail address."),
    "webhook.method": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank notifies with POST or PUT, not “{method}”."
    ),
    "webhook.unknown_kind": QT_TRANSLATE_NOOP(
        "RuleWords", "Unknown webhook kind “{kind}”; expected one of {known}."
    ),
    "webhook.options_not_here": QT_TRANSLATE_NOOP(
        "RuleWords", "{options}: only the Accounts API's webhooks have these options."
    ),
    "webhook.option_yes_no": QT_TRANSLATE_NOOP("RuleWords", "{option} is yes or no."),
    "webhook.receiver_base_url": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The receiver's address is a base URL: no query string nor fragment (the bank appends "
        "/pix, /rec and /cobr to it).",
    ),
    "webhook.receiver_secret_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the receiver's secret (its Accounts webhook secret)."
    ),
    "webhook.receiver_url_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The receiver's address is too long (at most {max} characters)."
    ),
    "webhook.not_per_key": QT_TRANSLATE_NOOP(
        "RuleWords", "This webhook is not per key: leave the key out."
    ),
    # Sample slips of the sandbox (services/sandbox_samples.py)
    "sandbox.samples_only_in_sandbox": QT_TRANSLATE_NOOP(
        "RuleWords", "Sample slips exist only in the sandbox bank."
    ),
    "sandbox.unreachable": QT_TRANSLATE_NOOP("RuleWords", "The sandbox bank could not be reached."),
    "sandbox.answered": QT_TRANSLATE_NOOP("RuleWords", "The sandbox bank answered {status}."),
    "sandbox.unreadable_answer": QT_TRANSLATE_NOOP(
        "RuleWords", "The sandbox bank's answer could not be read."
    ),
    # -- end of services --
}
"""Every rule code the domain and the services raise, and its words (English source)."""


_YES = QT_TRANSLATE_NOOP("RuleWords", "yes")
_NO = QT_TRANSLATE_NOOP("RuleWords", "no")


def is_code(text: str) -> bool:
    """Whether ``text`` is a rule's code (and not a sentence of a rule not converted yet)."""
    return bool(CODE_PATTERN.match(text))


def _param_words(value: Any) -> str:
    if isinstance(value, bool):
        return QCoreApplication.translate(CONTEXT, _YES if value else _NO)
    if isinstance(value, Decimal):
        return format_brl(value)
    if isinstance(value, dt.datetime):
        return format_instant(value)
    if isinstance(value, dt.date):
        return format_date(value)
    if isinstance(value, Reason):
        return rule_text(value)
    return str(value)


def _fill(text: str, params: Mapping[str, Any]) -> str:
    for name, value in params.items():
        text = text.replace("{" + name + "}", _param_words(value))
    return text


def rule_text(reason: Reason | RuleError) -> str:
    """``reason`` in the person's language, its parameters in words."""
    if isinstance(reason, RuleError):
        reason = reason.reason
    source = RULES.get(reason.code)
    if source is not None:
        return _fill(QCoreApplication.translate(CONTEXT, source), reason.params)
    if not is_code(reason.code):
        return reason.code  # a rule still raised as a sentence (see the module's docstring)
    log.warning("a rule without words: %s", reason)
    return QCoreApplication.translate(CONTEXT, RULES["rule.unknown"])
