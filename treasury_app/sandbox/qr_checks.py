"""The request checker of both QR Codes API banks of the sandbox (Cash In and Pix Automático):
it collects BCB ``violacoes`` field by field and raises them together as one 400."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from treasury_app.sandbox.problems import Problem, Violation

MONEY_RE = re.compile(r"[0-9]{1,10}\.[0-9]{2}")
CPF_RE = re.compile(r"[0-9]{11}")
CNPJ_RE = re.compile(r"[0-9A-Z]{14}")
ISPB_RE = re.compile(r"[0-9A-Z]{8}")


def json_int(value: object) -> int | None:
    """``value`` when it is a JSON integer (a boolean is not), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass
class Checker:
    """The violations of one request. ``prefix`` names the resource (``cob``, ``rec``...) and
    starts every ``propriedade``; :meth:`check` raises them as one 400 of ``type_name`` and
    ``title``, whose detail is ``detail`` or, without one, the first five reasons."""

    prefix: str
    type_name: str | None = None
    title: str | None = None
    detail: str | None = None
    shown_limit: int = 140  # how much of a refused value a violation repeats
    literal: bool = False  # repeat a value that is not text as a literal: Decimal('1.5')
    violations: list[Violation] = field(default_factory=list)

    def prop(self, name: str) -> str:
        return f"{self.prefix}.{name}" if name else self.prefix

    def shown(self, value: object) -> str | None:
        if value is None:
            return None
        text = repr(value) if self.literal and not isinstance(value, str) else str(value)
        return text[: self.shown_limit]

    def reject(self, name: str, razao: str, value: object = None) -> None:
        """Record a violation of field ``name`` worded as a whole sentence."""
        self.violations.append(Violation(razao, self.prop(name), self.shown(value)))

    def fail(self, name: str, reason: str, value: object = None) -> None:
        """Record "O campo <prefix.name> <reason>."."""
        self.reject(name, f"O campo {self.prop(name)} {reason}.", value)

    def error(self, name: str, razao: str, value: object = None) -> Problem:
        """A 400 for one rule of the request's meaning, raised at once by the caller."""
        violations = [Violation(razao, self.prop(name), self.shown(value))]
        return Problem(400, razao, title=self.title, type_name=self.type_name, violacoes=violations)

    def check(self, detail: str | None = None) -> None:
        """Raise the violations recorded so far, if any, as one 400."""
        if self.violations:
            detail = detail or self.detail or " ".join(v.razao for v in self.violations[:5])
            raise Problem(
                400,
                detail,
                title=self.title,
                type_name=self.type_name,
                violacoes=list(self.violations),
            )

    # readers: None when absent or refused (the violation is recorded) ----------------------
    def missing(self, value: object, name: str, *, required: bool) -> bool:
        """Whether ``value`` is absent; an absent ``required`` field is a violation."""
        if value is None and required:
            self.fail(name, "é obrigatório")
        return value is None

    def obj(
        self, parent: dict[str, Any], key: str, name: str, *, required: bool, show: bool = False
    ) -> dict[str, Any] | None:
        """``parent[key]`` as a JSON object; ``show`` repeats a refused value (Cash In does)."""
        value = parent.get(key)
        if self.missing(value, name, required=required):
            return None
        if not isinstance(value, dict):
            self.fail(name, "deve ser um objeto", value if show else None)
            return None
        return value

    def choice(
        self,
        parent: dict[str, Any],
        key: str,
        name: str,
        options: tuple[str, ...],
        *,
        required: bool,
    ) -> str | None:
        value = parent.get(key)
        if self.missing(value, name, required=required):
            return None
        if value not in options:
            self.fail(name, f"deve ser um de: {', '.join(options)}", value)
            return None
        return str(value)
