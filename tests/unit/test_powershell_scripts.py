"""The PowerShell we ship and run in CI, checked where there is no PowerShell: no variable
reference followed by a colon (``"$wixVersion: ..."``), which PowerShell reads as a
drive-qualified variable (``$drive:name``): a parser error when no name follows the colon
("Variable reference is not valid"), another variable when one does. ``${name}:`` is the way
to write it. Scope and provider prefixes (``$env:``, ``$script:``, ``$global:``, ``$using:``...)
are what the colon is for.

On Windows the workflow's first step parses every ``.ps1`` with PowerShell's own parser
(``.github/workflows/windows.yml``); this test keeps the one known trap out on every machine,
in the ``.ps1`` files and in the workflow's inline ``pwsh``/``powershell`` steps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
SKIPPED_DIRS = {".git", ".venv", "build", "dist", "node_modules"}

# What may stand before the colon: scopes, and the variable-like providers.
PREFIXES = frozenset(
    {"env", "global", "local", "script", "private", "using", "variable", "function", "alias"}
)
NAME = re.compile(r"[A-Za-z0-9_]+")
POWERSHELL_SHELLS = ("pwsh", "powershell")


@dataclass(frozen=True)
class Finding:
    where: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: ${self.text}: write ${{{self.text}}}:"


def drive_qualified_references(source: str, where: str = "<text>") -> list[Finding]:
    """Every ``$name:`` (``name`` not a scope or provider) in code or in an expandable
    (double-quoted) string of ``source``; single-quoted strings, comments and backtick-escaped
    dollars are literal text and skipped."""
    findings: list[Finding] = []
    i, line, n = 0, 1, len(source)
    state = "code"  # code | dq | sq | here_dq | here_sq | comment | block
    while i < n:
        ch = source[i]
        if ch == "\n":
            line += 1
            if state == "comment":
                state = "code"
            i += 1
            continue
        if state == "code":
            if source.startswith("<#", i):
                state, i = "block", i + 2
            elif ch == "#":
                state, i = "comment", i + 1
            elif source.startswith('@"', i) and _line_ends_after(source, i + 2):
                state, i = "here_dq", i + 2
            elif source.startswith("@'", i) and _line_ends_after(source, i + 2):
                state, i = "here_sq", i + 2
            elif ch in '"“”':
                state, i = "dq", i + 1
            elif ch in "'‘’":
                state, i = "sq", i + 1
            elif ch == "`":
                i += 2  # an escaped character, whatever it is
            elif ch == "$":
                i = _variable(source, i, line, where, findings)
            else:
                i += 1
        elif state in ("dq", "here_dq"):
            if state == "dq" and source.startswith('""', i):
                i += 2  # a doubled quote is a quote
            elif state == "dq" and ch in '"“”':
                state, i = "code", i + 1
            elif state == "here_dq" and source.startswith('"@', i) and _line_starts_at(source, i):
                state, i = "code", i + 2
            elif ch == "`":
                i += 2
            elif ch == "$":
                i = _variable(source, i, line, where, findings)
            else:
                i += 1
        elif state == "sq":
            if source.startswith("''", i):
                i += 2
            elif ch in "'‘’":
                state, i = "code", i + 1
            else:
                i += 1
        elif state == "here_sq":
            if source.startswith("'@", i) and _line_starts_at(source, i):
                state, i = "code", i + 2
            else:
                i += 1
        elif state == "block":
            if source.startswith("#>", i):
                state, i = "code", i + 2
            else:
                i += 1
        else:  # comment
            i += 1
    return findings


def _line_ends_after(source: str, i: int) -> bool:
    end = source.find("\n", i)
    return not source[i : end if end >= 0 else len(source)].strip()


def _line_starts_at(source: str, i: int) -> bool:
    start = source.rfind("\n", 0, i) + 1
    return not source[start:i].strip()


def _variable(source: str, i: int, line: int, where: str, findings: list[Finding]) -> int:
    """Reads the variable reference at ``source[i] == "$"``; returns the index after it."""
    match = NAME.match(source, i + 1)
    if match is None:
        return i + 1  # ${...}, $(...), $$, $?, a lone dollar
    end = match.end()
    if source.startswith("::", end):
        return end  # $type::Member is not a thing, but never a drive either
    if end < len(source) and source[end] == ":" and match.group().lower() not in PREFIXES:
        findings.append(Finding(where, line, match.group()))
    return end


def powershell_files() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("*.ps1")
        if not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts)
    )


def inline_powershell(workflow: dict[str, Any]) -> list[tuple[str, str]]:
    """``(job/step name, script)`` of each ``run:`` step a workflow runs with PowerShell
    (the step's ``shell``, else its job's default, else the workflow's)."""
    default = (workflow.get("defaults") or {}).get("run", {}).get("shell", "")
    scripts = []
    for job_id, job in (workflow.get("jobs") or {}).items():
        job_default = (job.get("defaults") or {}).get("run", {}).get("shell", default)
        for index, step in enumerate(job.get("steps") or []):
            shell = str(step.get("shell", job_default))
            if "run" in step and shell.split()[0] in POWERSHELL_SHELLS:
                name = step.get("name", f"step {index + 1}")
                scripts.append((f"{job_id}/{name}", str(step["run"])))
    return scripts


def workflow_files() -> list[Path]:
    return sorted([*WORKFLOWS.glob("*.yml"), *WORKFLOWS.glob("*.yaml")])


# --- the checker itself ----------------------------------------------------------------------


def test_the_checker_finds_a_drive_qualified_variable_in_a_string() -> None:
    # The line that broke build-msi.ps1 before anything ran.
    found = drive_qualified_references(
        'Write-Host "== wix $wixVersion: $distPath -> $Output (version $Version)"', "x.ps1"
    )
    assert [(f.line, f.text) for f in found] == [(1, "wixVersion")]
    assert str(found[0]) == "x.ps1:1: $wixVersion: write ${wixVersion}:"
    # Also with a name after the colon (another variable, silently), in code and here-strings.
    text = '$a = 1\n$x = $drive:name\n@"\nline $b: here\n"@\n'
    assert [(f.line, f.text) for f in drive_qualified_references(text)] == [(2, "drive"), (4, "b")]


@pytest.mark.parametrize(
    "fine",
    [
        'Write-Host "== wix ${wixVersion}: $distPath"',  # the fix
        '"$env:USERPROFILE\\.dotnet\\tools"',
        '"$script:Count $global:Name $using:Path $Env:TEMP $variable:x"',
        "'$literal: single quotes do not expand'",
        "# a comment: $wixVersion: is only text\n",
        "<# block\n $a: still a comment #>",
        '"escaped `$name: literal"',
        '"$($item.Name): a subexpression"',
        '[math]::Round($size, 1); "{0}: {1}" -f $a, $b',
        '"said ""$a"" then $b"',
        "@'\n$a: a literal here-string\n'@",
        '"${{ github.ref }}: an expression GitHub replaces"',
    ],
)
def test_the_checker_leaves_what_powershell_accepts(fine: str) -> None:
    assert drive_qualified_references(fine) == []


def test_the_checker_reads_the_workflow_shells() -> None:
    workflow = {
        "defaults": {"run": {"shell": "pwsh"}},
        "jobs": {
            "a": {"steps": [{"name": "one", "run": '"$x: y"'}, {"uses": "actions/checkout@v5"}]},
            "b": {
                "defaults": {"run": {"shell": "bash"}},
                "steps": [
                    {"name": "bash", "run": 'echo "$x: fine in bash"'},
                    {"name": "ps", "shell": "powershell -command \". '{0}'\"", "run": '"$y:"'},
                ],
            },
        },
    }
    assert inline_powershell(workflow) == [("a/one", '"$x: y"'), ("b/ps", '"$y:"')]


# --- what we ship --------------------------------------------------------------------------


def test_the_powershell_scripts_have_no_drive_qualified_variable() -> None:
    scripts = powershell_files()
    assert ROOT / "packaging" / "windows" / "build-msi.ps1" in scripts
    found = [
        finding
        for path in scripts
        for finding in drive_qualified_references(
            path.read_text("utf-8-sig"), str(path.relative_to(ROOT))
        )
    ]
    assert not found, "\n".join(map(str, found))


def test_the_workflows_inline_powershell_has_no_drive_qualified_variable() -> None:
    checked = 0
    found: list[Finding] = []
    for path in workflow_files():
        workflow = yaml.safe_load(path.read_text("utf-8"))
        for where, script in inline_powershell(workflow):
            checked += 1
            found += drive_qualified_references(script, f"{path.name}:{where}")
    assert checked >= 5  # the Windows workflow's steps are there to check
    assert not found, "\n".join(map(str, found))
