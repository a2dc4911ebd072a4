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


CARRIED = "<carried>"
"""A code taken from another rule error (``X(error.code, **error.params)``): checked where
that error was raised."""


@dataclass(frozen=True)
class Site:
    path: Path
    line: int
    error: str
    code: str | None  # None: not a literal code (nor codes chosen among literals)

    def __str__(self) -> str:
        return f"{self.path.relative_to(SOURCES.parent)}:{self.line}: {self.error}({self.code!r})"


@dataclass(frozen=True)
class Call:
    path: Path
    node: ast.Call
    names: dict[str, ast.expr]  # the enclosing function's simple assignments
    init_of: str | None  # the class whose __init__ makes this call, if any


@dataclass(frozen=True)
class Sources:
    """What the scan needs of the sources, read in one walk: each class's bases, the classes
    with an ``__init__`` of their own whose arguments are not a code, and each call."""

    bases: dict[str, set[str]]
    own_init: set[str]
    calls: list[Call]


class _Reader(ast.NodeVisitor):
    def __init__(self, path: Path, sources: Sources) -> None:
        self.path = path
        self.sources = sources
        self.names: list[dict[str, ast.expr]] = [{}]
        self.classes: list[str | None] = [None]
        self.init_of: list[str | None] = [None]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        names = {_name(base) for base in node.bases}
        self.sources.bases.setdefault(node.name, set()).update(n for n in names if n)
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                params = [*item.args.posonlyargs, *item.args.args][1:]
                if not params or params[0].arg != "code":  # its arguments are not a code
                    self.sources.own_init.add(node.name)
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        assigned = {
            target.id: item.value
            for item in ast.walk(node)
            if isinstance(item, ast.Assign)
            for target in item.targets
            if isinstance(target, ast.Name)
        }
        self.names.append(assigned)
        self.init_of.append(self.classes[-1] if node.name == "__init__" else None)
        self.generic_visit(node)
        self.names.pop()
        self.init_of.pop()

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self.visit_FunctionDef(node)

    def visit_Call(self, node: ast.Call) -> None:
        if node.args:
            self.sources.calls.append(Call(self.path, node, self.names[-1], self.init_of[-1]))
        self.generic_visit(node)


def read(trees: list[tuple[Path, ast.Module]]) -> Sources:
    sources = Sources({}, set(), [])
    for path, tree in trees:
        _Reader(path, sources).visit(tree)
    return sources


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _codes(node: ast.expr, names: dict[str, ast.expr], depth: int = 0) -> list[str] | None:
    """The literal codes ``node`` can be (``None``: it is not chosen among literals)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Attribute) and node.attr == "code":
        return [CARRIED]
    if isinstance(node, ast.IfExp):
        body, orelse = _codes(node.body, names, depth), _codes(node.orelse, names, depth)
        return None if body is None or orelse is None else body + orelse
    if isinstance(node, ast.Name) and node.id in names and depth < 3:
        return _codes(names[node.id], names, depth + 1)
    return None


def _is_super_init(node: ast.Call) -> bool:
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "__init__"
        and isinstance(func.value, ast.Call)
        and _name(func.value.func) == "super"
    )


def rule_error_classes(sources: Sources) -> set[str]:
    """The names of ``RuleError`` and of every class that derives from it, by name."""
    found = {"RuleError"}
    while True:
        more = {name for name, parents in sources.bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def rule_sites(sources: Sources) -> list[Site]:
    """Every call that builds a rule error (``raise X(...)``, ``return X(...)``...) with its
    code; for an error class with an ``__init__`` of its own (its arguments are not a code),
    the code it hands to ``super().__init__``."""
    classes = rule_error_classes(sources)
    own_init = (sources.own_init & classes) - {"RuleError"}
    sites: list[Site] = []
    for call in sources.calls:
        if _is_super_init(call.node):
            if call.init_of not in own_init:
                continue
            error = f"{call.init_of}.__init__"
        else:
            error = _name(call.node.func) or ""
            if error not in classes or error in own_init:
                continue
        codes = _codes(call.node.args[0], call.names)
        for code in codes if codes is not None else [None]:
            if code != CARRIED:
                sites.append(Site(call.path, call.node.lineno, error, code))
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


def test_the_scan_refuses_a_sentence_and_follows_codes(tmp_path: Path) -> None:
    source = (
        "from treasury_app.domain.errors import RuleError\n"
        "class PayoutRefused(RuleError): ...\n"
        "class LateRefusal(PayoutRefused): ...\n"
        "class SentBefore(PayoutRefused):\n"
        "    def __init__(self, rows: int) -> None:\n"
        "        code = 'payout.sent_before' if rows else 'payout.sent_empty'\n"
        "        super().__init__(code, rows=rows)\n"
        "def check(error: RuleError, late: bool) -> None:\n"
        "    if late:\n"
        "        raise LateRefusal('The payout is late.')\n"
        "    raise PayoutRefused(error.code, field='amount', **error.params)\n"
        "class BatchRefused(PayoutRefused):\n"
        "    def __init__(self, code: str, /, *, rows: int = 0) -> None:\n"
        "        super().__init__(code, rows=rows)\n"
        "def again() -> None:\n"
        "    raise SentBefore(3)\n"
        "def batch() -> None:\n"
        "    raise BatchRefused('batch.empty')\n"
    )
    scanned = read([(tmp_path / "x.py", ast.parse(source))])
    assert {"PayoutRefused", "LateRefusal", "SentBefore"} <= rule_error_classes(scanned)
    assert sorted((site.error, site.code) for site in rule_sites(scanned)) == [
        ("BatchRefused", "batch.empty"),
        ("LateRefusal", "The payout is late."),
        ("SentBefore.__init__", "payout.sent_before"),
        ("SentBefore.__init__", "payout.sent_empty"),
    ]
