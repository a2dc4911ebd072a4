"""No POSIX-only process signal in the app or its tests unless guarded: Windows is the main
target and its test job runs the same suite. ``signal.SIGKILL`` (and SIGHUP, SIGUSR1...)
does not exist there, ``os.kill`` with anything but a console event *terminates* the process
(even ``os.kill(pid, 0)``), and ``Popen.send_signal`` takes only SIGTERM and the CTRL events.

A use is allowed inside an ``if``/conditional expression that tests the platform
(``sys.platform``, ``os.name``, ``hasattr(signal, ...)``, ``hasattr(os, ...)``), or in a test
skipped on Windows (a ``skipif`` naming ``win32`` on the function, its class or the module's
``pytestmark``). Kill a child the hard way with ``tests.processes.kill_hard``
(``Popen.kill()``: SIGKILL or TerminateProcess).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("treasury_app", "tests", "packaging")

# Names of the signal module that Windows' Python does not have.
POSIX_ONLY_SIGNALS = frozenset(
    {
        "SIGKILL",
        "SIGHUP",
        "SIGQUIT",
        "SIGUSR1",
        "SIGUSR2",
        "SIGALRM",
        "SIGSTOP",
        "SIGCONT",
        "SIGCHLD",
        "SIGPIPE",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGWINCH",
        "SIGXCPU",
        "pthread_kill",
        "setitimer",
        "alarm",
        "pause",
    }
)
POSIX_ONLY_OS = frozenset({"kill", "killpg", "fork", "forkpty", "setsid", "setpgrp", "getpgid"})
SEND_SIGNAL_ON_WINDOWS = frozenset({"SIGTERM", "CTRL_C_EVENT", "CTRL_BREAK_EVENT"})
GUARD_WORDS = ("sys.platform", "os.name", "hasattr(signal", "hasattr(os", "IS_WINDOWS", "win32")


@dataclass(frozen=True)
class Use:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _skipped_on_windows(decorators: list[ast.expr]) -> bool:
    return any("skipif" in ast.unparse(d) and "win32" in ast.unparse(d) for d in decorators)


def _module_skipped_on_windows(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            text = ast.unparse(node.value)
            if "skipif" in text and "win32" in text:
                return True
    return False


def _guarded(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    current = node
    while current in parents:
        parent = parents[current]
        if isinstance(parent, ast.If | ast.IfExp | ast.While) and any(
            word in ast.unparse(parent.test) for word in GUARD_WORDS
        ):
            return True
        if isinstance(
            parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        ) and _skipped_on_windows(parent.decorator_list):
            return True
        if _after_an_early_exit(current, parent):
            return True
        current = parent
    return False


def _is_guard(statement: ast.stmt) -> bool:
    """``if <platform test>: return / raise / pytest.skip(...)``: what follows it in the same
    block runs only where the test was false."""
    if not isinstance(statement, ast.If) or statement.orelse:
        return False
    if not any(word in ast.unparse(statement.test) for word in GUARD_WORDS):
        return False
    last = statement.body[-1]
    return isinstance(last, ast.Return | ast.Raise | ast.Continue) or (
        isinstance(last, ast.Expr) and ast.unparse(last.value).startswith("pytest.skip(")
    )


def _after_an_early_exit(statement: ast.AST, block_owner: ast.AST) -> bool:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(block_owner, field, None)
        if isinstance(block, list) and statement in block:
            return any(_is_guard(s) for s in block[: block.index(statement)])
    return False


def posix_only_uses(source: str, path: str = "<source>") -> list[Use]:
    """Unguarded uses of POSIX-only signals and process calls in Python ``source``."""
    tree = ast.parse(source, path)
    if _module_skipped_on_windows(tree):
        return []
    parents = _parents(tree)
    found: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module, name = node.value.id, node.attr
            if module == "signal" and name in POSIX_ONLY_SIGNALS:
                found.append((node, f"signal.{name}"))
            elif module == "os" and name in POSIX_ONLY_OS:
                found.append((node, f"os.{name}"))
        elif isinstance(node, ast.ImportFrom) and node.module in ("signal", "os"):
            banned = POSIX_ONLY_SIGNALS if node.module == "signal" else POSIX_ONLY_OS
            for alias in node.names:
                if alias.name in banned:
                    found.append((node, f"from {node.module} import {alias.name}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "send_signal"
            and node.args
        ):
            sent = ast.unparse(node.args[0]).rsplit(".", 1)[-1]
            if sent not in SEND_SIGNAL_ON_WINDOWS:
                found.append((node, f"send_signal({ast.unparse(node.args[0])})"))
    return sorted(
        {
            Use(path, getattr(node, "lineno", 0), what)
            for node, what in found
            if not _guarded(node, parents)
        },
        key=lambda use: (use.line, use.what),
    )


def python_files() -> list[Path]:
    return sorted(path for folder in SCANNED for path in (ROOT / folder).rglob("*.py"))


def test_the_app_and_its_tests_use_no_posix_only_signal_unguarded() -> None:
    files = python_files()
    assert ROOT / "tests" / "services" / "test_payments_exactly_once.py" in files
    found = [
        use
        for path in files
        for use in posix_only_uses(path.read_text("utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not found, "POSIX-only, unguarded (see this test's docstring):\n" + "\n".join(
        map(str, found)
    )


@pytest.mark.parametrize(
    ("source", "what"),
    [
        ("import signal\nchild.send_signal(signal.SIGKILL)\n", "signal.SIGKILL"),
        ("import os, signal\nos.kill(pid, signal.SIGKILL)\n", "os.kill"),
        ("from signal import SIGKILL\n", "from signal import SIGKILL"),
        ("assert child.returncode == -signal.SIGKILL\n", "signal.SIGKILL"),
        ("import signal\nprocess.send_signal(signal.SIGINT)\n", "send_signal(signal.SIGINT)"),
        ("import os\nos.kill(pid, 0)\n", "os.kill"),
    ],
)
def test_the_scan_finds_a_posix_only_use(source: str, what: str) -> None:
    assert what in [use.what for use in posix_only_uses(source)]


@pytest.mark.parametrize(
    "source",
    [
        "child.kill()\n",  # SIGKILL or TerminateProcess
        "import signal\nchild.send_signal(signal.SIGTERM)\n",
        'if hasattr(signal, "SIGKILL"):\n    os.kill(pid, signal.SIGKILL)\n',
        'if sys.platform == "win32":\n    x = 1\nelse:\n    os.kill(pid, 0)\n',
        'def alive(pid):\n    if sys.platform == "win32":\n        return False\n'
        "    os.kill(pid, 0)\n",
        'if sys.platform == "win32":\n    pytest.skip("posix")\nos.kill(pid, 0)\n',
        "CODE = 1 if sys.platform == 'win32' else -signal.SIGKILL\n",
        "@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\n"
        "def test_x():\n    os.kill(pid, signal.SIGHUP)\n",
        "pytestmark = pytest.mark.skipif(sys.platform == 'win32', reason='posix')\n"
        "os.kill(1, signal.SIGKILL)\n",
    ],
)
def test_the_scan_accepts_what_windows_has_or_what_is_guarded(source: str) -> None:
    assert posix_only_uses(source) == []
