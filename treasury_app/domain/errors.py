"""Broken rules, as data.

A rule of the domain or of a service that a person (or a bank) breaks is raised as a
:class:`RuleError`: a stable **code** (``document.cpf_length``), the **field** it concerns
when there is one, and its **parameters** (``digits=10``) — never an English sentence. The
UI turns the code into words in the person's language (:mod:`treasury_app.ui.rule_words`,
carried by Qt Linguist); ``str()`` of the error is for logs and developers only. A rule that
is a verdict rather than a refusal (a bad row of a batch file, a safety warning) is a
:class:`Reason`, the same three things as a value.

Every parser in ``treasury_app.domain`` raises a subclass of :class:`DomainError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

CODE_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
"""What a rule's code looks like: dotted lower-case words (``boleto.check_digit``)."""


@dataclass(frozen=True)
class Reason:
    """A broken rule as a value: its ``code``, its ``params`` and the ``field`` it names."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)
    field: str | None = None

    def __str__(self) -> str:  # for logs: the code and its parameters, never a sentence
        if not self.params:
            return self.code
        shown = ", ".join(f"{name}={value!r}" for name, value in sorted(self.params.items()))
        return f"{self.code} ({shown})"


class RuleError(ValueError):
    """A rule was broken: :attr:`reason` says which (code, parameters, field)."""

    def __init__(self, code: str, /, *, field: str | None = None, **params: Any) -> None:
        self.reason = Reason(code, dict(params), field)
        super().__init__(str(self.reason))

    @classmethod
    def of(cls, reason: Reason) -> RuleError:
        """The error that carries ``reason``."""
        return cls(reason.code, field=reason.field, **reason.params)

    @property
    def code(self) -> str:
        return self.reason.code

    @property
    def params(self) -> Mapping[str, Any]:
        return self.reason.params

    @property
    def field(self) -> str | None:
        return self.reason.field


class DomainError(RuleError):
    """A value given by a person or a bank does not satisfy a domain rule."""


class MoneyError(DomainError):
    """An amount of money could not be read or is not allowed."""


class DocumentError(DomainError):
    """A CPF or CNPJ is malformed or has wrong check digits."""


class PixKeyError(DomainError):
    """A Pix key is not valid for its type."""


class IdentifierError(DomainError):
    """A txid, idRec, endToEndId or idempotency key is malformed."""


class BrCodeError(DomainError):
    """A Pix "copia e cola" payload (EMV BR Code) is malformed."""


class BoletoError(DomainError):
    """A boleto digitable line or barcode is malformed or has wrong check digits."""
