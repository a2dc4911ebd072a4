"""Banks as people know them: a name (and its code) next to an ISPB, from the table shipped
with the app (:mod:`treasury_app.services.bank_list`). An ISPB the table does not know is shown
as the number, saying the list may be old: it is never a reason to refuse a payment."""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.domain.banks import Bank, BankTable
from treasury_app.domain.clock import format_date
from treasury_app.ledger.journal import Entry, EntryKind
from treasury_app.services.bank_list import packaged_table

__all__ = [
    "account_text",
    "bank_detail_text",
    "bank_hint",
    "bank_label",
    "bank_table",
    "bank_text",
    "detail_cell",
    "unknown_bank_text",
]

CONTEXT = "BankNames"
_NAMED = QT_TRANSLATE_NOOP("BankNames", "%1 (code %2, ISPB %3)")
_NAMED_NO_CODE = QT_TRANSLATE_NOOP("BankNames", "%1 (ISPB %2)")
_UNKNOWN = QT_TRANSLATE_NOOP(
    "BankNames", "ISPB %1 (not in the bank list of %2, which may be out of date)"
)
_NO_LIST = QT_TRANSLATE_NOOP("BankNames", "ISPB %1 (no bank list to name it)")
_ACCOUNT = QT_TRANSLATE_NOOP("BankNames", "%1, branch %2, account %3")
_LABEL = QT_TRANSLATE_NOOP("BankNames", "%1 · code %2 · ISPB %3")
_LABEL_NO_CODE = QT_TRANSLATE_NOOP("BankNames", "%1 · ISPB %2")


def _tr(text: str | bytes | None) -> str:
    return QCoreApplication.translate(CONTEXT, str(text))


def bank_table() -> BankTable:
    """The table the UI names banks from."""
    return packaged_table()


def unknown_bank_text(ispb: str, table: BankTable | None = None) -> str:
    """An ISPB the table does not know, saying how old the table is."""
    table = table or bank_table()
    if not table.banks:
        return _tr(_NO_LIST).replace("%1", ispb)
    return _tr(_UNKNOWN).replace("%1", ispb).replace("%2", format_date(table.as_of))


def bank_text(ispb: str, table: BankTable | None = None) -> str:
    """``Itaú Unibanco S.A. (code 341, ISPB 60701190)``; the bare number with a note when the
    table does not know it; ``""`` for no ISPB."""
    ispb = (ispb or "").strip()
    if not ispb:
        return ""
    table = table or bank_table()
    bank = table.by_ispb(ispb)
    if bank is None:
        return unknown_bank_text(ispb, table)
    if bank.compe is None:
        return _tr(_NAMED_NO_CODE).replace("%1", bank.name).replace("%2", bank.ispb)
    return _tr(_NAMED).replace("%1", bank.name).replace("%2", bank.compe).replace("%3", bank.ispb)


def bank_label(bank: Bank) -> str:
    """A bank in a list to pick from: ``Itaú Unibanco S.A. · code 341 · ISPB 60701190``."""
    if bank.compe is None:
        return _tr(_LABEL_NO_CODE).replace("%1", bank.name).replace("%2", bank.ispb)
    return _tr(_LABEL).replace("%1", bank.name).replace("%2", bank.compe).replace("%3", bank.ispb)


def account_text(ispb: str, branch: str, account: str) -> str:
    """An account by bank data: ``Banco do Brasil S.A. (code 001, ISPB 00000000), branch
    0001, account 12345-6``."""
    return _tr(_ACCOUNT).replace("%1", bank_text(ispb)).replace("%2", branch).replace("%3", account)


_ISPB = re.compile(r"[0-9A-Z]{8}")
_PICK = QT_TRANSLATE_NOOP("BankNames", "Pick the bank from the list for its ISPB (%1 found)")
_NO_MATCH = QT_TRANSLATE_NOOP(
    "BankNames", "No bank of the list of %1 matches: type the bank's 8-digit ISPB"
)


def bank_hint(typed: str, table: BankTable | None = None) -> str:
    """What the bank field says under what was typed: the bank of a whole ISPB (or that the
    list does not know it), else how many banks match a name or code to pick from."""
    typed = typed.strip()
    if not typed:
        return ""
    table = table or bank_table()
    is_ispb = _ISPB.fullmatch(typed) is not None
    if is_ispb and (typed.isdigit() or table.by_ispb(typed)):
        return bank_text(typed, table)
    found = len(table.search(typed))  # "BRADESCO" has an ISPB's shape, and is a name
    if found:
        return _tr(_PICK).replace("%1", str(found))
    if is_ispb:
        return bank_text(typed, table)
    return _tr(_NO_MATCH).replace("%1", format_date(table.as_of))


def bank_detail_text(payee_detail: str) -> str:
    """A payout by bank data's journal detail (``ispb/branch/account``) as
    :func:`account_text`; any other detail as it is."""
    ispb, _, rest = payee_detail.partition("/")
    branch, _, account = rest.partition("/")
    return account_text(ispb, branch, account) if account else payee_detail


def detail_cell(entry: Entry) -> str:
    """An entry's destination in a list's cell: for a payout by bank data the bank's name (its
    ISPB when the table does not know it) with branch and account, ``Banco do Brasil S.A.,
    0001/123456``; any other entry's detail as it is."""
    if entry.kind != EntryKind.PIX_MANU:
        return entry.payee_detail
    ispb, _, rest = entry.payee_detail.partition("/")
    branch, _, account = rest.partition("/")
    if not account:
        return entry.payee_detail
    bank = bank_table().by_ispb(ispb)
    return f"{bank.name if bank else f'ISPB {ispb}'}, {branch}/{account}"
