"""Rules speak in codes (issue 33): every broken rule the application raises is a
:class:`~treasury_app.domain.errors.RuleError` built from a literal code that
``ui/rule_words.RULES`` puts in words, never from an English sentence.

The sources are read with :mod:`ast`, so a rule that only breaks on a rare input is checked
as surely as a common one. The check is generic: any class deriving (directly or not) from
``RuleError`` anywhere in ``treasury_app`` is covered, the services' errors included once they
derive from it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from treasury_app.domain.errors import CODE_PATTERN
from treasury_app.ui.rule_words import RULES

SOURCES = Path(__file__).resolve().parents[2] / "treasury_app"
DOMAIN = SOURCES / "domain"


@dataclass(frozen=True)
class Site:
    path: Path
    line: int
    error: str
    code: str | None  # None: the first argument is not a string literal

    def __str__(self) -> str:
        return f"{self.path.relative_to(SOURCES.parent)}:{self.line}: {self.error}({self.code!r})"


@dataclass(frozen=True)
class Sources:
    """What the scan needs of the sources, read in one walk: each class's bases, each call."""

    bases: dict[str, set[str]]
    calls: list[tuple[Path, ast.Call]]


def read(trees: list[tuple[Path, ast.Module]]) -> Sources:
    bases: dict[str, set[str]] = {}
    calls: list[tuple[Path, ast.Call]] = []
    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = {_name(base) for base in node.bases}
                bases.setdefault(node.name, set()).update(n for n in names if n)
            elif isinstance(node, ast.Call) and node.args:
                calls.append((path, node))
    return Sources(bases, calls)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def rule_error_classes(sources: Sources) -> set[str]:
    """The names of ``RuleError`` and of every class that derives from it, by name."""
    found = {"RuleError"}
    while True:
        more = {name for name, parents in sources.bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def rule_sites(sources: Sources) -> list[Site]:
    """Every call that builds a rule error (``raise X(...)``, ``return X(...)``...)."""
    classes = rule_error_classes(sources)
    sites: list[Site] = []
    for path, node in sources.calls:
        error = _name(node.func)
        if error not in classes:
            continue
        first = node.args[0]
        code = (
            first.value
            if isinstance(first, ast.Constant) and isinstance(first.value, str)
            else None
        )
        sites.append(Site(path, node.lineno, error, code))
    return sites


@pytest.fixture(scope="module")
def sources() -> Sources:
    return read(
        [
            (path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
            for path in sorted(SOURCES.rglob("*.py"))
        ]
    )


@pytest.fixture(scope="module")
def sites(sources: Sources) -> list[Site]:
    return rule_sites(sources)


def test_the_domain_errors_are_rule_errors(sources: Sources) -> None:
    classes = rule_error_classes(sources)
    expected = {"DomainError", "MoneyError", "DocumentError", "PixKeyError", "IdentifierError"}
    assert expected | {"BrCodeError", "BoletoError"} <= classes


def test_the_scan_finds_the_domains_rules(sites: list[Site]) -> None:
    in_domain = [site for site in sites if site.path.is_relative_to(DOMAIN)]
    assert len(in_domain) > 100  # about one per rule: the scan really reads the sources


def test_every_rule_is_raised_with_a_literal_code(sites: list[Site]) -> None:
    bad = [str(site) for site in sites if site.code is None or not CODE_PATTERN.match(site.code)]
    assert bad == [], "a rule raised with a sentence or a computed code, not a literal code"


def test_every_code_raised_has_words(sites: list[Site]) -> None:
    missing = sorted({str(site) for site in sites if site.code and site.code not in RULES})
    assert missing == [], "add these codes to ui/rule_words.RULES (and their pt_BR words)"


def test_every_domain_code_in_the_catalogue_is_raised(sites: list[Site]) -> None:
    raised = {site.code for site in sites if site.path.is_relative_to(DOMAIN)}
    families = {code.split(".")[0] for code in raised if code}
    listed = {code for code in RULES if code.split(".")[0] in families}
    assert listed - raised == set(), "words for a domain rule nobody raises any more"


def test_the_catalogues_codes_are_codes() -> None:
    assert [code for code in RULES if not CODE_PATTERN.match(code)] == []


def test_the_scan_refuses_a_sentence(tmp_path: Path) -> None:
    source = (
        "from treasury_app.domain.errors import RuleError\n"
        "class PayoutRefused(RuleError): ...\n"
        "class LateRefusal(PayoutRefused): ...\n"
        "def check() -> None:\n"
        "    raise LateRefusal('The payout is late.')\n"
    )
    scanned = read([(tmp_path / "x.py", ast.parse(source))])
    assert {"PayoutRefused", "LateRefusal"} <= rule_error_classes(scanned)
    [site] = rule_sites(scanned)
    assert site.code == "The payout is late." and not CODE_PATTERN.match(site.code)
