"""Injected faults for resilience tests: latency, 429 with Retry-After, 5xx, a response
dropped after the request was committed (the payment exists but the client sees a reset), an
answer held back after the commit (``answer_delay_ms``: the payment exists at once, the
client waits for its answer; an app killed meanwhile never reads it), an answer dripped one
byte at a time (``drip_ms``), and a gzip bomb (``gzip_bomb_mb``: the handler runs, a payment
commits, and the answer is replaced by 200 with about 1 KB of gzip per MB it inflates to)."""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import functools
import json
import random
import zlib
from dataclasses import asdict, dataclass, fields
from decimal import Decimal
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from treasury_app.sandbox.problems import Problem, problem_body

RATES = ("rate_429", "rate_500", "rate_503", "rate_504", "drop_after_commit")
WHOLE_NUMBERS = ("latency_ms", "retry_after", "answer_delay_ms", "drip_ms", "gzip_bomb_mb", "times")
MAX_GZIP_BOMB_MB = 1000
BOMB_CHUNK = 64 * 1024


@dataclass
class FaultRule:
    """Which requests a fault applies to, and what it does to them."""

    path: str = "*"  # fnmatch pattern on the request path
    method: str | None = None
    api: str | None = None  # "qrcodes", "accounts" or None for both
    latency_ms: int = 0
    rate_429: float = 0.0
    retry_after: int = 1
    rate_500: float = 0.0
    rate_503: float = 0.0
    rate_504: float = 0.0
    drop_after_commit: float = 0.0
    answer_delay_ms: int = 0  # after the handler committed, before the answer starts
    drip_ms: int = 0  # the answer's body sent one byte at a time, this long between bytes
    gzip_bomb_mb: int = 0  # the answer replaced by 200, gzip, inflating to this many MB of JSON
    times: int | None = None  # apply to the next N matching requests only

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FaultRule:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown fault fields: {', '.join(unknown)}")
        data = dict(data)
        for name in RATES:
            if isinstance(data.get(name), Decimal):  # JSON bodies are read with exact decimals
                data[name] = float(data[name])
        rule = cls(**data)
        for name in RATES:
            value = getattr(rule, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise ValueError(f"{name} must be a probability between 0 and 1")
        for name in WHOLE_NUMBERS:
            value = getattr(rule, name)
            optional = name == "times"  # the others compare below: null is no number
            if isinstance(value, bool) or not isinstance(value, int | None if optional else int):
                raise ValueError(f"{name} must be a whole number")
        if not isinstance(rule.path, str):
            raise ValueError("path must be a glob pattern")
        if rule.drip_ms < 0 or rule.drip_ms > 10_000:
            raise ValueError("drip_ms is between 0 and 10000")
        if rule.gzip_bomb_mb < 0 or rule.gzip_bomb_mb > MAX_GZIP_BOMB_MB:
            raise ValueError(f"gzip_bomb_mb is between 0 and {MAX_GZIP_BOMB_MB}")
        if rule.latency_ms < 0 or rule.retry_after < 0 or rule.answer_delay_ms < 0:
            raise ValueError("latency_ms, retry_after and answer_delay_ms cannot be negative")
        if rule.latency_ms > 600_000 or rule.answer_delay_ms > 600_000:
            raise ValueError("latency_ms and answer_delay_ms are at most 600000 (10 minutes)")
        if rule.times is not None and rule.times < 1:
            raise ValueError("times must be at least 1")
        return rule

    def matches(self, api: str, method: str, path: str) -> bool:
        return (
            (self.api is None or self.api == api)
            and (self.method is None or self.method.upper() == method)
            and fnmatch.fnmatchcase(path, self.path)
        )


@dataclass
class Decision:
    latency: float = 0.0
    status: int | None = None
    retry_after: int = 1
    drop: bool = False
    answer_delay: float = 0.0
    drip: float = 0.0
    gzip_bomb_mb: int = 0


class FaultInjector:
    """The set of active fault rules, changed at start and through the control surface."""

    def __init__(self, rules: list[FaultRule] | None = None, seed: int | None = None) -> None:
        self.rules: list[FaultRule] = list(rules or [])
        self._rng = random.Random(seed)
        self.injected = 0

    def snapshot(self) -> list[dict[str, Any]]:
        # Rates as Decimal: the sandbox's JSON writer refuses floats.
        return [
            {k: Decimal(str(v)) if isinstance(v, float) else v for k, v in asdict(rule).items()}
            for rule in self.rules
        ]

    def replace(self, rules: list[FaultRule]) -> None:
        self.rules = list(rules)

    def add(self, rule: FaultRule) -> None:
        self.rules.append(rule)

    def clear(self) -> None:
        self.rules.clear()

    def decide(self, api: str, method: str, path: str) -> Decision:
        decision = Decision()
        for rule in list(self.rules):
            if not rule.matches(api, method, path):
                continue
            decision.latency += rule.latency_ms / 1000
            decision.answer_delay += rule.answer_delay_ms / 1000
            decision.drip = max(decision.drip, rule.drip_ms / 1000)
            decision.gzip_bomb_mb = max(decision.gzip_bomb_mb, rule.gzip_bomb_mb)
            draw = self._rng.random()
            for status, rate in (
                (429, rule.rate_429),
                (500, rule.rate_500),
                (503, rule.rate_503),
                (504, rule.rate_504),
            ):
                if draw < rate and decision.status is None:
                    decision.status = status
                    decision.retry_after = rule.retry_after
                    break
                draw -= rate
            if rule.drop_after_commit and self._rng.random() < rule.drop_after_commit:
                decision.drop = True
            if rule.times is not None:
                rule.times -= 1
                if rule.times <= 0:
                    self.rules.remove(rule)
        if decision.status or decision.drop or decision.gzip_bomb_mb:
            self.injected += 1
        return decision


FAULT_MESSAGES = {
    429: "Limite de requisições excedido (falha injetada).",
    500: "Falha técnica (injetada).",
    503: "Serviço indisponível (falha injetada).",
    504: "Tempo esgotado (falha injetada).",
}


class FaultMiddleware:
    """ASGI middleware applying the injector's decisions; the control surface is exempt."""

    def __init__(self, app: ASGIApp, injector: FaultInjector, api: str) -> None:
        self.app = app
        self.injector = injector
        self.api = api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/sandbox"):
            await self.app(scope, receive, send)
            return
        decision = self.injector.decide(self.api, scope["method"], scope["path"])
        if decision.latency:
            await asyncio.sleep(decision.latency)
        if decision.status is not None:
            await self._send_problem(scope, send, decision)
            return
        if not decision.drop and decision.gzip_bomb_mb:
            await self._gzip_bomb(scope, receive, send, decision.gzip_bomb_mb)
            return
        if not decision.drop and decision.drip:
            await self._drip(scope, receive, send, decision.drip)
            return
        if not decision.drop:
            if not decision.answer_delay:
                await self.app(scope, receive, send)
                return

            async def late_send(message: Message) -> None:
                # The handler has committed: hold the answer back before its first byte.
                if message["type"] == "http.response.start":
                    await asyncio.sleep(decision.answer_delay)
                await send(message)

            await self.app(scope, receive, late_send)
            return

        transport = scope.get("extensions", {}).get("sandbox.transport")
        dropped = False

        async def drop_send(message: Message) -> None:
            nonlocal dropped
            # The handler has committed; instead of answering, reset the connection.
            if message["type"] == "http.response.start" and transport is not None:
                dropped = True
                transport.abort()
                return
            if not dropped:
                await send(message)

        await self.app(scope, receive, drop_send)

    async def _drip(self, scope: Scope, receive: Receive, send: Send, pause: float) -> None:
        """A server that never stops answering: one byte, a pause, one byte... until the
        client hangs up (then the rest is dropped: nobody is listening)."""
        body_read = False
        gone = asyncio.Event()

        async def watching_receive() -> Message:
            nonlocal body_read
            message = await receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                body_read = True
            return message

        async def watch() -> None:
            while not gone.is_set():
                message = await receive()
                if message["type"] == "http.disconnect":
                    gone.set()

        watcher: asyncio.Task[None] | None = None

        async def drip_send(message: Message) -> None:
            nonlocal watcher
            if message["type"] != "http.response.body":
                await send(message)
                return
            if watcher is None:  # the request is read by now (or was empty): hang-ups only
                watcher = asyncio.create_task(watch())
            body: bytes = message.get("body", b"")
            more = message.get("more_body", False)
            for index in range(len(body)):
                if gone.is_set():
                    return
                await send(
                    {
                        "type": "http.response.body",
                        "body": body[index : index + 1],
                        "more_body": more or index < len(body) - 1,
                    }
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(gone.wait(), timeout=pause)
            if not body:
                await send(message)

        try:
            await self.app(scope, watching_receive, drip_send)
        finally:
            if watcher is not None:
                watcher.cancel()

    async def _gzip_bomb(self, scope: Scope, receive: Receive, send: Send, megabytes: int) -> None:
        """The handler runs (a payment commits) and its answer is thrown away; the client gets
        200 and a small gzip body that inflates to ``megabytes`` MB, sent in chunks. A client
        that hangs up early is no failure: the rest is not sent."""

        async def discard(message: Message) -> None:
            pass

        await self.app(scope, receive, discard)
        body = await asyncio.to_thread(gzip_bomb, megabytes)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-encoding", b"gzip"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        for start in range(0, len(body), BOMB_CHUNK):
            more = start + BOMB_CHUNK < len(body)
            chunk = body[start : start + BOMB_CHUNK]
            await send({"type": "http.response.body", "body": chunk, "more_body": more})

    async def _send_problem(self, scope: Scope, send: Send, decision: Decision) -> None:
        status = decision.status or 500
        body = problem_body(Problem(status, FAULT_MESSAGES[status]), scope["path"], self.api)
        headers = [(b"content-type", b"application/problem+json")]
        if status in (429, 503):
            headers.append((b"retry-after", str(decision.retry_after).encode()))
        payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers.append((b"content-length", str(len(payload)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})


@functools.lru_cache(maxsize=4)
def gzip_bomb(megabytes: int) -> bytes:
    """Gzip of ``{"a":"000…"}``, ``megabytes`` × 1,000,000 bytes once inflated: about 1 KB per
    MB (300 MB -> 292 KB). Compressed once per size, from one block: never held inflated."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    head, tail = b'{"a":"', b'"}'
    zeros = megabytes * 1_000_000 - len(head) - len(tail)
    block = b"0" * 1_000_000
    parts = [compressor.compress(head)]
    while zeros > 0:
        parts.append(compressor.compress(block[:zeros]))
        zeros -= len(block)
    parts += [compressor.compress(tail), compressor.flush()]
    return b"".join(parts)
