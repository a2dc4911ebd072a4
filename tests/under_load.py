"""Run a command while every core is kept busy by other work, and say how long it took.

``python tests/under_load.py [--hogs N] -- COMMAND...`` starts ``N`` processes (default: one
per core) that spin the CPU, as a treasury desktop's browser, ERP and antivirus scan do, runs
``COMMAND``, stops them, prints the command's wall time and exits with the command's code.
``make test-under-load`` runs the whole suite so: the suite waits for conditions, never for the
clock, so it must pass like this. Plain Python processes, no tool to install: the same on
Windows.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

HOG = "while True:\n    pass\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command to run")
    hogs = [
        subprocess.Popen([sys.executable, "-c", HOG], stdin=subprocess.DEVNULL)
        for _ in range(args.hogs)
    ]
    print(f"under load: {len(hogs)} busy processes on {os.cpu_count()} cores", flush=True)
    started = time.monotonic()
    try:
        code = subprocess.call(command)
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.wait()
    elapsed = time.monotonic() - started
    minutes, seconds = divmod(round(elapsed), 60)
    verdict = "passed" if code == 0 else f"FAILED (exit {code})"
    print(
        f"under load: {' '.join(command)} {verdict} in {minutes} min {seconds:02d} s "
        f"with {len(hogs)} busy processes",
        flush=True,
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
