"""File names for receipts, safe on every file system (no Qt: the tabs import it at start)."""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from decimal import Decimal

MAX_NAME_LENGTH = 80

_KIND_WORDS = {"PIX": "pix", "BILLET": "boleto"}


def _slug(text: str) -> str:
    """Lower-case ASCII words joined by hyphens: accents folded, everything else dropped."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")


def suggested_receipt_name(kind: str, paid_on: str | date, payee: str, amount: Decimal) -> str:
    """A file name for a receipt, safe on every file system and at most ~80 characters:
    ``comprovante-pix-2026-11-18-fornecedor-ltda-R$1234,56.pdf``."""
    kind_word = _KIND_WORDS.get(kind.upper()) or _slug(kind) or "pagamento"
    day = paid_on.strftime("%Y-%m-%d") if isinstance(paid_on, date) else _slug(paid_on[:10])
    value = abs(amount).quantize(Decimal("0.01"))
    prefix = "-".join(part for part in ("comprovante", kind_word, day) if part)
    suffix = f"R${str(value).replace('.', ',')}.pdf"
    room = MAX_NAME_LENGTH - len(prefix) - len(suffix) - 2
    payee_part = _slug(payee)[: max(room, 0)].strip("-")
    return "-".join(part for part in (prefix, payee_part, suffix) if part)
