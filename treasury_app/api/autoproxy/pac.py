"""Automatic proxy scripts (PAC): fetched with a size limit, evaluated in a process of their
own (:mod:`~treasury_app.api.autoproxy.worker`) with a time limit, their answers
(``PROXY a:8080; PROXY b:8080; DIRECT``) read into an ordered list of routes.

Why not ``pypac``: it evaluates with dukpy too, but in the app's own process, where the
script sees the environment (``process.env``: secrets given in variables) and a ``require``,
and a script that loops holds the interpreter lock, so the window with it, forever; it also
brings ``requests``. The process boundary gives the time limit (the process is killed) and
keeps the app's memory and environment out of the script's reach.

Everything that goes wrong is a :class:`PacError` with a rule's code (``proxy.pac_*``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import httpx

from treasury_app.domain.errors import Reason

# The first argument that makes the app's own binary (frozen: no ``python -m``) run the PAC
# evaluator; ``treasury_app.app.entry`` dispatches it before anything else is imported.
PAC_WORKER_FLAG = "--pac-worker"
_WORKER_MODULE = "treasury_app.api.autoproxy.worker"
# What the evaluator's process keeps of the environment: enough to start and to resolve
# names, nothing that may hold a secret (TREASURY_*_CLIENT_SECRET and the like).
_KEPT_ENVIRONMENT = (
    "SYSTEMROOT",
    "WINDIR",
    "PATH",
    "TEMP",
    "TMP",
    "PYTHONPATH",
    "PYTHONHOME",
    "LANG",
    "LC_ALL",
)
_REPLY_LIMIT = 64 * 1024


class PacError(Exception):
    """A PAC file that cannot be used. ``reason``: ``proxy.pac_fetch`` (not reached, or not
    2xx), ``proxy.pac_too_large``, ``proxy.pac_syntax`` (no ``FindProxyForURL``, a script
    error), ``proxy.pac_timeout`` (evaluation past its time limit), ``proxy.pac_runtime`` (an
    error while it ran), ``proxy.pac_answer`` (an answer that is no proxy list) or
    ``proxy.pac_engine`` (the evaluator could not start); ``script`` is the PAC's address."""

    def __init__(self, code: str, *, script: str, **params: Any) -> None:
        self.reason = Reason(code, {"script": script, **params})
        self.code = code
        self.script = script
        super().__init__(str(self.reason))


@dataclass(frozen=True)
class PacLimits:
    """How much a PAC file may cost: its size, the time to fetch it, to load it and to answer
    one URL. Real PAC files are a few KB to a few hundred KB and answer in milliseconds."""

    max_bytes: int = 1024 * 1024
    fetch_timeout: float = 10.0
    load_timeout: float = 5.0
    find_timeout: float = 3.0


# --------------------------------------------------------------------------------------------
# Fetching

Fetcher = Callable[[str, PacLimits], Awaitable[str]]


async def fetch_pac(url: str, limits: PacLimits) -> str:
    """The script at ``url`` (``http(s)://`` fetched direct, never through a proxy, as
    browsers do; ``file://`` read from disk), refused past ``limits.max_bytes``."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "file":
        return await asyncio.to_thread(_read_file, url, limits.max_bytes)
    if scheme not in ("http", "https"):
        raise PacError("proxy.pac_fetch", script=url, status=0)
    try:
        async with (
            httpx.AsyncClient(
                trust_env=False, timeout=limits.fetch_timeout, follow_redirects=True
            ) as client,
            client.stream("GET", url, headers={"accept-encoding": "identity"}) as response,
        ):
            if response.status_code != 200:
                raise PacError("proxy.pac_fetch", script=url, status=response.status_code)
            body = bytearray()
            async for chunk in response.aiter_raw():
                body += chunk
                if len(body) > limits.max_bytes:
                    raise PacError("proxy.pac_too_large", script=url, limit=limits.max_bytes)
    except httpx.HTTPError:
        raise PacError("proxy.pac_fetch", script=url, status=0) from None
    return _text(bytes(body))


def _read_file(url: str, max_bytes: int) -> str:
    parts = urlsplit(url)
    path = Path(url2pathname(parts.path if not parts.netloc else f"//{parts.netloc}{parts.path}"))
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError:
        raise PacError("proxy.pac_fetch", script=url, status=0) from None
    if len(data) > max_bytes:
        raise PacError("proxy.pac_too_large", script=url, limit=max_bytes)
    return _text(data)


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").lstrip("\ufeff")


# --------------------------------------------------------------------------------------------
# The answer


def parse_pac_answer(answer: str, *, script: str) -> tuple[str | None, ...]:
    """``PROXY a:8080; HTTPS b:443; DIRECT`` -> ``("http://a:8080", "https://b:443", None)``
    (``None``: direct). SOCKS entries are skipped (the app uses HTTP proxies only); an answer
    with nothing usable in it is :class:`PacError` ``proxy.pac_answer``."""
    routes: list[str | None] = []
    for element in answer.split(";"):
        words = element.split()
        if not words:
            continue
        keyword = words[0].upper()
        if keyword == "DIRECT" and len(words) == 1:
            routes.append(None)
        elif keyword in ("PROXY", "HTTP", "HTTPS") and len(words) == 2:
            address = _address(words[1])
            if address is not None:
                routes.append(("https://" if keyword == "HTTPS" else "http://") + address)
    if not routes:
        raise PacError("proxy.pac_answer", script=script)
    unique: list[str | None] = []
    for route in routes:
        if route not in unique:
            unique.append(route)
    return tuple(unique)


def _address(text: str) -> str | None:
    """``host:port`` with a plausible host and port, else ``None``."""
    try:
        parts = urlsplit("//" + text)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or port is None or parts.path or parts.username or parts.password:
        return None
    return text.lower()


# --------------------------------------------------------------------------------------------
# Evaluating


def worker_command() -> list[str]:
    """The command that runs the evaluator with this interpreter, or this frozen binary."""
    if getattr(sys, "frozen", False):
        return [sys.executable, PAC_WORKER_FLAG]
    return [sys.executable, "-m", _WORKER_MODULE]


class PacScript:
    """One PAC file loaded in its own evaluator process. :meth:`find` asks it for one URL
    within ``limits.find_timeout``; past it the process is killed and the script is unusable
    from then on (``proxy.pac_timeout``). Close with :meth:`close`."""

    def __init__(self, url: str, limits: PacLimits, command: Sequence[str] | None = None) -> None:
        self.url = url
        self.limits = limits
        self._command = list(command or worker_command())
        self._process: subprocess.Popen[bytes] | None = None
        self._entry = "plain"
        self._lock = asyncio.Lock()  # one question at a time on the pipe
        self._broken: PacError | None = None

    async def load(self, script: str) -> None:
        """Start the evaluator and load ``script`` in it."""
        self._process = await asyncio.to_thread(self._start)
        ready = await self._exchange(None, self.limits.load_timeout)
        if not ready.get("ready"):
            raise self._fail(PacError("proxy.pac_engine", script=self.url))
        loaded = await self._exchange({"op": "load", "script": script}, self.limits.load_timeout)
        if not loaded.get("ok"):
            raise self._fail(PacError("proxy.pac_syntax", script=self.url))
        self._entry = str(loaded.get("entry") or "plain")

    async def find(self, url: str, host: str) -> tuple[str | None, ...]:
        """The routes the script gives for ``url`` (whose host is ``host``), in its order."""
        if self._broken is not None:
            raise self._broken
        request = {"op": "find", "url": url, "host": host, "entry": self._entry}
        reply = await self._exchange(request, self.limits.find_timeout)
        answer = reply.get("answer")
        if not isinstance(answer, str):
            raise PacError(
                "proxy.pac_runtime" if reply.get("error") == "runtime" else "proxy.pac_answer",
                script=self.url,
            )
        return parse_pac_answer(answer, script=self.url)

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            _stop(process)

    # -- the pipe ----------------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[bytes]:
        environment = {name: os.environ[name] for name in _KEPT_ENVIRONMENT if name in os.environ}
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # no console window on Windows
        try:
            return subprocess.Popen(
                self._command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=environment,
                creationflags=flags,
            )
        except OSError:
            raise PacError("proxy.pac_engine", script=self.url) from None

    async def _exchange(self, request: dict[str, Any] | None, timeout: float) -> dict[str, Any]:
        """Send ``request`` (``None``: only read) and read one reply line within ``timeout``;
        past it, the process is killed (``proxy.pac_timeout``)."""
        if self._broken is not None:
            raise self._broken
        process = self._process
        if process is None or process.stdin is None or process.stdout is None:
            raise self._fail(PacError("proxy.pac_engine", script=self.url))
        line = b"" if request is None else (json.dumps(request) + "\n").encode()
        stdin, stdout = process.stdin, process.stdout

        def exchange() -> bytes:
            if line:
                stdin.write(line)
                stdin.flush()
            return stdout.readline(_REPLY_LIMIT)

        async with self._lock:
            # The pipe is read in a thread of its own; killing the process on a time-out ends
            # the read (end of file), so no thread is left behind.
            reading = asyncio.ensure_future(_in_thread(exchange))
            try:
                async with asyncio.timeout(timeout):
                    reply = await asyncio.shield(reading)
            except TimeoutError:
                process.kill()
                await asyncio.gather(reading, return_exceptions=True)
                raise self._fail(PacError("proxy.pac_timeout", script=self.url)) from None
            except OSError:
                raise self._fail(PacError("proxy.pac_engine", script=self.url)) from None
        try:
            decoded = json.loads(reply)
        except ValueError:
            raise self._fail(PacError("proxy.pac_engine", script=self.url)) from None
        if not isinstance(decoded, dict):
            raise self._fail(PacError("proxy.pac_engine", script=self.url))
        if decoded.get("error") == "engine":
            raise self._fail(PacError("proxy.pac_engine", script=self.url))
        return decoded

    def _fail(self, error: PacError) -> PacError:
        self._broken = error
        self.close()
        return error


async def _in_thread(call: Callable[[], bytes]) -> bytes:
    """``call`` in a daemon thread (not the loop's executor: a thread blocked on a pipe must
    never hold up the executor's shutdown)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[bytes] = loop.create_future()

    def run() -> None:
        try:
            result = call()
        except BaseException as error:
            loop.call_soon_threadsafe(_settle, done, None, error)
        else:
            loop.call_soon_threadsafe(_settle, done, result, None)

    threading.Thread(target=run, name="pac-pipe", daemon=True).start()
    return await done


def _settle(
    future: asyncio.Future[bytes], result: bytes | None, error: BaseException | None
) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result or b"")


def _stop(process: subprocess.Popen[bytes]) -> None:
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    if process.poll() is None:
        process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)
