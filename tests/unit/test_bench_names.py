"""A bench runs as ``python tests/bench/NAME.py``: its folder comes first on ``sys.path``, so a
bench named like a standard-library module (``calendar.py``) stands in for that module in every
bench of the folder (``email``, and so ``httpx``, import ``calendar``): all of them then fail."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def test_no_bench_is_named_like_a_standard_library_module() -> None:
    names = {path.stem for path in BENCH.glob("*.py")}
    assert len(names) > 5  # the folder was found
    assert sorted(names & set(sys.stdlib_module_names)) == []
