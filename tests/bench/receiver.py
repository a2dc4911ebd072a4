"""The webhook receiver under the bank's load: notifications stored, applied and answered per
second, the answer's latency, and bank event → desktop latency.

A throwaway PostgreSQL (``tests/pg_server.py``) holds one team database (``treasury-admin
init``'s schema) with a receiver's login (``treasury_receiver``) and the company's Pix key and
txids in ``our_refs``, so every notification is *ours* and applied (a received Pix and a
charge state written, besides the notification row). The server runs with ``fsync``,
``synchronous_commit`` and ``full_page_writes`` **on** (the throwaway default is off): "stored
before the 2xx" means on disk here (``--no-fsync`` for the throwaway settings). The receiver is
the real one in a subprocess — ``python -m treasury_app.receiver --config receiver.toml``: one
uvicorn worker, real mutual TLS (a bank CA, a client certificate pinned by its SHA-256, a
server certificate from another CA), log level INFO (one line per POST, to a file) — so the
load generator does not share its CPU or GIL. It shares the machine's cores: each phase says
how much CPU the receiver, PostgreSQL, the load generator and the rest of the machine took.

The bank is ``--connections`` (50) keep-alive TLS connections with the bank's client
certificate, opened before any clock starts, each posting ``{"pix": [one item]}`` to
``/webhooks/pix``. By default each is a minimal HTTP/1.1 client on asyncio streams (about
0.1 ms of CPU a request: the generator takes little from the receiver on a 2-core machine);
``--client httpx`` gives each connection its own ``httpx.AsyncClient`` (about 0.7 ms a
request), ``--client httpx-pool`` shares one with a pool of ``--connections`` (measured: about
5 ms of the generator's CPU a request, so then the generator is what is measured).

1. **burst**: ``--notifications`` (5,000) distinct notifications as fast as the connections
   go (closed loop: each connection posts its next one as soon as it has the answer);
   notifications/s (goal ≥ 1,000/s on 2 cores) and answer latency p50/p99/max (goal p99 <
   50 ms). With every connection always busy, mean latency = connections ÷ throughput
   (Little's law: 50 connections at 1,000/s is 50 ms): the burst's latency is queueing;
2. **redelivery**: 500 of them posted again at once: each answered 200 as a duplicate, the
   count unchanged;
3. **paced**: for each ``--rate`` (1,000/s and 250/s), 5 seconds of new notifications offered
   at that rate over the same connections (open loop: each is due at its time and its
   latency counts from then, so a late answer is not hidden by the next one waiting) — the
   answer latency at the goal's rate and at a lighter one;
4. **desktop**: a desktop's listener (psycopg async, ``LISTEN treasury_bank_events``, as the
   desktops' live feed) and ``--sequential`` (200) notifications one after another; from the
   POST's send to the ``NOTIFY``'s arrival at the listener, and to the row read back (what a
   desktop's list does next), p50/p99 (goal p99 < 1 s: this is to the desktop's listener; the
   screen's repaint adds a frame, ~16 ms).

Then the database is counted: every notification of each phase stored once, applied, with its
received Pix and charge state. The receiver's log is kept in a temporary folder; its warning
and error lines are printed. Not a test: it prints figures. ``.venv/bin/python
tests/bench/receiver.py [--notifications 5000] [--connections 50] [--rate 1000 --rate 250]
[--sequential 200] [--client raw|httpx|httpx-pool] [--no-fsync]`` (Linux: CPU figures from
``/proc``). ``--smoke`` (``make bench-smoke``): 200 notifications over 5 connections, one
paced phase at 100/s, 10 one after another; exits 1 unless every post was answered 200 and
every notification of every phase was stored and applied exactly once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import functools
import hashlib
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
import psycopg  # noqa: E402
from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import rsa  # noqa: E402

from tests.pg_server import PgServer, start_server  # noqa: E402
from treasury_app.ledger.team import migrations  # noqa: E402
from treasury_app.ledger.team.receiver_schema import EVENTS_CHANNEL, RECEIVER  # noqa: E402
from treasury_app.sandbox.pki import (  # noqa: E402
    issue_server_certificate,
    new_ca,
    new_csr,
    sign_client_csr,
)

NOTIFICATIONS = 5_000
CONNECTIONS = 50
RATES = (1_000.0, 250.0)
SEQUENTIAL = 200
REDELIVERED = 500
WARM = 500
GOAL_PER_SECOND = 1_000.0
GOAL_P99_MS = 50.0
GOAL_DESKTOP_P99_MS = 1_000.0
SMOKE = {"notifications": 200, "connections": 5, "rate": [100.0], "sequential": 10}
DATABASE = "treasury"
LOGIN = "receiver1"
OUR_KEY = "caixa@empresa.com.br"
BASE_PATH = "/webhooks"
SECRET_ENV = "TREASURY_RECEIVER_SECRET"
PHASES = {"warm": "11111111", "burst": "22222222", "desktop": "44444444"}
"""Each phase's notifications carry their own "ISPB" in the endToEndId (and txid prefix); the
paced phases are ``paced1``, ``paced2``… (:func:`paced_phases`)."""
PACED_SECONDS = 5.0
"""Each paced phase offers this many seconds of load (at most ``--notifications``)."""


def paced_phases(rates: Sequence[float], count: int) -> dict[str, tuple[float, int]]:
    """Each paced phase's name, rate and number of notifications; their "ISPB"s added to
    :data:`PHASES`."""
    phases = {}
    for number, rate in enumerate(rates, start=1):
        name = f"paced{number}"
        PHASES[name] = f"3333{number:04d}"
        phases[name] = (rate, max(1, min(count, round(rate * PACED_SECONDS))))
    return phases


# -- what the bank posts -----------------------------------------------------------------------


def end_to_end_id(phase: str, number: int) -> str:
    return f"E{PHASES[phase]}202611261000{number:011d}"


def txid(phase: str, number: int) -> str:
    return f"BENCH{PHASES[phase]}{number:020d}"


def pix_body(phase: str, number: int) -> bytes:
    item = {
        "endToEndId": end_to_end_id(phase, number),
        "txid": txid(phase, number),
        "chave": OUR_KEY,
        "valor": f"{1 + number % 5000}.{number % 100:02d}",
        "horario": "2026-11-26T10:00:00.000Z",
        "infoPagador": f"Fatura {number}",
    }
    return json.dumps({"pix": [item]}).encode()


# -- set-up --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def key_pem(key: rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def cert_pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


@dataclass(frozen=True)
class Certificates:
    server_ca: Path  # what the bank trusts (a public CA, in production)
    bank_ca: Path  # what the receiver trusts
    client_cert: Path
    client_key: Path
    server_cert: Path
    server_key: Path
    client_sha256: str


def make_certificates(folder: Path) -> Certificates:
    server_ca, bank_ca = new_ca("Bench Server CA"), new_ca("Bench Bank CA")
    server_key, server_cert = issue_server_certificate(server_ca, ["127.0.0.1"])
    client_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    client_cert = sign_client_csr(bank_ca, new_csr(client_key, "qrcodes", "bank-notifier"))
    files = {
        "server-ca.pem": cert_pem(server_ca.cert),
        "bank-ca.pem": cert_pem(bank_ca.cert),
        "client.crt": cert_pem(client_cert),
        "client.key": key_pem(client_key),
        "server.crt": cert_pem(server_cert),
        "server.key": key_pem(server_key),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
        if name.endswith(".key"):
            (folder / name).chmod(0o600)
    der = client_cert.public_bytes(serialization.Encoding.DER)
    return Certificates(
        folder / "server-ca.pem",
        folder / "bank-ca.pem",
        folder / "client.crt",
        folder / "client.key",
        folder / "server.crt",
        folder / "server.key",
        hashlib.sha256(der).hexdigest(),
    )


def prepare_database(server: PgServer, sizes: dict[str, int], *, durable: bool) -> None:
    """The team database, its receiver login, our key, and ``sizes[phase]`` txids of ours for
    each phase."""
    server.create_database(DATABASE)
    with psycopg.connect(server.url(DATABASE), autocommit=True) as conn:
        migrations.init(conn)
        migrations.harden_database(conn)
        migrations.add_user(conn, LOGIN, (RECEIVER,))
        if durable:
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                conn.execute(f"ALTER SYSTEM SET {setting} = on")
            conn.execute("SELECT pg_reload_conf()")
        conn.execute("INSERT INTO treasury.our_refs (kind, ref) VALUES ('key', %s)", (OUR_KEY,))
        with conn.cursor() as cursor, conn.transaction():
            for phase, size in sizes.items():
                cursor.executemany(
                    "INSERT INTO treasury.our_refs (kind, ref) VALUES ('txid', %s)",
                    [(txid(phase, n),) for n in range(size)],
                )


def database_settings(server: PgServer) -> str:
    with psycopg.connect(server.url(DATABASE), autocommit=True) as conn:
        values = [
            f"{name}={conn.execute(f'SHOW {name}').fetchone()[0]}"  # type: ignore[index]
            for name in ("fsync", "synchronous_commit", "full_page_writes")
        ]
    return ", ".join(values)


def write_config(folder: Path, certs: Certificates, server: PgServer, port: int) -> Path:
    conninfo = server.url(DATABASE, user=LOGIN)
    config = folder / "receiver.toml"
    config.write_text(
        f"""[listen]
host = "127.0.0.1"
port = {port}
base_path = "{BASE_PATH}"
certificate = "{certs.server_cert.name}"
key = "{certs.server_key.name}"

[bank]
ca = "{certs.bank_ca.name}"
pin_sha256 = ["{certs.client_sha256}"]

[accounts]
secret_env = "{SECRET_ENV}"

[database]
conninfo = "{conninfo}"
pool_size = 20

[receiver]
name = "bench-receiver"
public_url = "https://127.0.0.1:{port}{BASE_PATH}"
""",
        encoding="utf-8",
    )
    return config


def start_receiver(config: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, SECRET_ENV: "bench-secret-" + os.urandom(8).hex()}
    with log.open("wb") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "treasury_app.receiver", "--config", str(config)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=stderr,
            stderr=stderr,
        )


def stop_receiver(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


# -- CPU (Linux /proc) -----------------------------------------------------------------------


def _ticks(pid: int, *, children: bool = False) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if children:
        ticks += int(fields[13]) + int(fields[14])  # of children waited for
    return ticks


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == parent:
                found.append(int(entry.name))
    return found


@dataclass
class CpuMeter:
    """CPU seconds of the receiver, the PostgreSQL cluster, this process (the bank and the
    desktop) and everything else on the machine between ``start`` and ``stop`` (zero where
    /proc cannot tell): the machine may be shared, and its other load shows here."""

    receiver_pid: int
    postmaster_pid: int
    started: dict[str, float] = field(default_factory=dict)

    def sample(self) -> dict[str, float]:
        hertz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        postgres = _ticks(self.postmaster_pid, children=True) + sum(
            _ticks(pid) for pid in _children(self.postmaster_pid)
        )
        ours = {
            "receiver": _ticks(self.receiver_pid) / hertz,
            "PostgreSQL": postgres / hertz,
            "load generator": time.process_time(),
        }
        return {**ours, "rest of the machine": _machine_busy() / hertz - sum(ours.values())}

    def start(self) -> None:
        self.started = self.sample()

    def stop(self, seconds: float) -> str:
        now = self.sample()
        # (the rest is a difference of readings taken a moment apart: never below zero)
        used = {name: max(0.0, now[name] - self.started[name]) for name in now}
        parts = [f"{name} {value:.1f} s ({value / seconds:.0%})" for name, value in used.items()]
        return "CPU over the phase (share of one core): " + ", ".join(parts)


def _machine_busy() -> int:
    """Ticks every CPU spent busy since boot (``/proc/stat``: all but idle and iowait)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return 0
    ticks = [int(value) for value in fields[:8]]  # user nice system idle iowait irq softirq steal
    return sum(ticks) - ticks[3] - ticks[4]


def postmaster_pid(server: PgServer) -> int:
    return int((server.datadir / "postmaster.pid").read_text().splitlines()[0])


# -- figures -----------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[index]


def spread(label: str, seconds: Sequence[float], goal_ms: float | None = None) -> str:
    p50, p99, worst = (percentile(seconds, f) * 1000 for f in (0.5, 0.99, 1.0))
    line = f"  {label:<38} p50 {p50:7.1f} ms  p99 {p99:7.1f} ms  max {worst:7.1f} ms"
    if goal_ms is not None:
        line += f"   goal p99 < {goal_ms:.0f} ms: {'met' if p99 < goal_ms else 'MISSED'}"
    return line


# -- the bank ----------------------------------------------------------------------------------

Answer = tuple[int, bytes]


def client_context(certs: Certificates) -> ssl.SSLContext:
    context = ssl.create_default_context(cafile=str(certs.server_ca))
    context.load_cert_chain(str(certs.client_cert), str(certs.client_key))
    return context


class RawConnection:
    """One keep-alive HTTP/1.1 connection over TLS with the bank's client certificate, as
    lean as a client gets (asyncio streams, Content-Length only): the load generator shares
    the machine's cores with the receiver and PostgreSQL, so it should take little of them."""

    def __init__(self, context: ssl.SSLContext, port: int) -> None:
        self.context, self.port = context, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.port, ssl=self.context
        )

    async def request(self, method: str, path: str, body: bytes = b"") -> Answer:
        if self.writer is None or self.reader is None:
            await self.open()
        assert self.reader is not None and self.writer is not None
        head = (
            f"{method} {path} HTTP/1.1\r\nhost: 127.0.0.1:{self.port}\r\n"
            f"user-agent: bench-bank-notifier\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode("ascii") + body)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
        content = await self.reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":
            self.writer.close()
            self.reader = self.writer = None
        return status, content

    async def post(self, path: str, body: bytes) -> Answer:
        return await self.request("POST", path, body)

    async def get(self, path: str) -> Answer:
        return await self.request("GET", path)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError, ssl.SSLError):
                await self.writer.wait_closed()


class HttpxConnection:
    """The same through an ``httpx.AsyncClient`` (its own, or one shared by every worker with
    a connection limit)."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def open(self) -> None:
        (await self.client.get("/healthz")).raise_for_status()

    async def post(self, path: str, body: bytes) -> Answer:
        response = await self.client.post(
            path, content=body, headers={"content-type": "application/json"}
        )
        return response.status_code, response.content

    async def get(self, path: str) -> Answer:
        response = await self.client.get(path)
        return response.status_code, response.content

    async def close(self) -> None:
        await self.client.aclose()


Connection = RawConnection | HttpxConnection
CLIENTS = ("raw", "httpx", "httpx-pool")


def httpx_client(certs: Certificates, port: int, connections: int) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=f"https://127.0.0.1:{port}",
        verify=client_context(certs),
        limits=httpx.Limits(
            max_connections=connections,
            max_keepalive_connections=connections,
            keepalive_expiry=120,
        ),
        timeout=httpx.Timeout(30.0, pool=60.0),
        headers={"user-agent": "bench-bank-notifier"},
    )


async def open_bank(certs: Certificates, port: int, count: int, kind: str) -> list[Connection]:
    """``count`` connections, TLS handshakes done before any clock starts (``httpx-pool``:
    one client, ``count`` times, its pool filled by ``count`` requests at once)."""
    connections: list[Connection]
    if kind == "raw":
        context = client_context(certs)
        connections = [RawConnection(context, port) for _ in range(count)]
    elif kind == "httpx":
        connections = [HttpxConnection(httpx_client(certs, port, 1)) for _ in range(count)]
    else:
        shared = HttpxConnection(httpx_client(certs, port, count))
        connections = [shared] * count
    await asyncio.gather(*(connection.open() for connection in connections))
    return connections


async def close_bank(connections: Sequence[Connection]) -> None:
    for connection in dict.fromkeys(connections):
        await connection.close()


@dataclass
class Outcome:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    answers: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def note(self, answer: Answer, latency: float) -> None:
        status, content = answer
        self.latencies.append(latency)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status == 200:
            for key, value in json.loads(content).items():
                if key != "items":
                    self.answers[key] = self.answers.get(key, 0) + int(value)

    def all_answered(self) -> bool:
        """Every post answered 200."""
        return set(self.statuses) == {200} and self.statuses[200] == len(self.latencies)

    def describe(self) -> str:
        statuses = ", ".join(f"{n:,} × {code}" for code, n in sorted(self.statuses.items()))
        answers = ", ".join(f"{k} {v:,}" for k, v in sorted(self.answers.items()))
        return f"answers: {statuses}; items {answers or 'none'}"


async def post_all(
    connections: Sequence[Connection],
    bodies: Sequence[bytes],
    due: Callable[[int], float] | None = None,
) -> Outcome:
    """Post ``bodies``, one worker per connection: each as soon as its worker is free, or at
    ``due(i)`` seconds after the start (its latency then counts from that time)."""
    outcome = Outcome()
    queue = iter(range(len(bodies)))
    path = f"{BASE_PATH}/pix"
    started = time.perf_counter()

    async def worker(connection: Connection) -> None:
        for index in queue:
            scheduled = None
            if due is not None:
                scheduled = started + due(index)
                delay = scheduled - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            sent = time.perf_counter()
            answer = await connection.post(path, bodies[index])
            outcome.note(answer, time.perf_counter() - (scheduled or sent))

    await asyncio.gather(*(worker(connection) for connection in connections))
    outcome.seconds = time.perf_counter() - started
    return outcome


def truediv_by(divisor: float, index: int) -> float:
    """``index / divisor``: when the ``index``-th notification is due, at ``divisor`` a second."""
    return index / divisor


async def histogram(connection: Connection) -> dict[str, float]:
    """The receiver's own answer-time histogram for /pix: cumulative count per bucket."""
    buckets = {}
    _, content = await connection.get("/metrics")
    for line in content.decode().splitlines():
        if line.startswith("treasury_receiver_answer_seconds_bucket{"):
            labels = dict(re.findall(r'(\w+)="([^"]*)"', line))
            if labels.get("route") == "pix":
                buckets[labels["le"]] = float(line.rsplit(" ", 1)[1])
    return buckets


def server_side(before: dict[str, float], after: dict[str, float]) -> str:
    total = after.get("+Inf", 0) - before.get("+Inf", 0)
    if not total:
        return "  the receiver's own histogram: no /pix answers"
    shares = [
        f"≤{float(le) * 1000:g} ms {(after[le] - before.get(le, 0)) / total:.1%}"
        for le in ("0.005", "0.01", "0.02", "0.05", "0.1")
        if le in after
    ]
    return "  the receiver's own answer times (/metrics, /pix): " + ", ".join(shares)


async def desktop_latency(
    connection: Connection, server: PgServer, count: int
) -> tuple[list[float], list[float], list[float]]:
    """``count`` notifications one after another with a desktop listening: seconds from each
    POST's send to its answer, to its NOTIFY at the listener, and to the row read back."""
    listener = await psycopg.AsyncConnection.connect(server.url(DATABASE), autocommit=True)
    reader = await psycopg.AsyncConnection.connect(server.url(DATABASE), autocommit=True)
    waiting: dict[str, asyncio.Future[float]] = {}

    async def listen() -> None:
        async for notify in listener.notifies():
            future = waiting.pop(notify.payload, None)
            if future is not None and not future.done():
                future.set_result(time.perf_counter())

    answers: list[float] = []
    notified: list[float] = []
    read_back: list[float] = []
    task = None
    try:
        await listener.execute(f"LISTEN {EVENTS_CHANNEL}")
        task = asyncio.create_task(listen())
        loop = asyncio.get_running_loop()
        path = f"{BASE_PATH}/pix"
        for number in range(count):
            e2e = end_to_end_id("desktop", number)
            arrived: asyncio.Future[float] = loop.create_future()
            waiting[f"pix:{e2e}"] = arrived
            sent = time.perf_counter()
            status, _ = await connection.post(path, pix_body("desktop", number))
            answered = time.perf_counter()
            if status != 200:
                raise RuntimeError(f"the receiver answered {status}")
            at = await asyncio.wait_for(arrived, 10)
            cursor = await reader.execute(
                "SELECT valor FROM treasury.received_pix WHERE end_to_end_id = %s", (e2e,)
            )
            if await cursor.fetchone() is None:
                raise RuntimeError(f"{e2e} notified but not in received_pix")
            answers.append(answered - sent)
            notified.append(at - sent)
            read_back.append(time.perf_counter() - sent)
            await asyncio.sleep(0.005)  # one bank event at a time
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await listener.close()
        await reader.close()
    return answers, notified, read_back


# -- the run -----------------------------------------------------------------------------------


def count_phase(server: PgServer, phase: str) -> tuple[int, int, int, int]:
    """(notifications stored, applied, received Pix, charge states) of ``phase``."""
    prefix = f"E{PHASES[phase]}%"
    with psycopg.connect(server.url(DATABASE), autocommit=True) as conn:
        row = conn.execute(
            "SELECT (SELECT count(*) FROM treasury.notifications WHERE ref LIKE %s),"
            " (SELECT count(*) FROM treasury.notifications WHERE ref LIKE %s"
            "   AND outcome = 'applied'),"
            " (SELECT count(*) FROM treasury.received_pix WHERE end_to_end_id LIKE %s),"
            " (SELECT count(*) FROM treasury.charge_states WHERE txid LIKE %s)",
            (prefix, prefix, prefix, f"BENCH{PHASES[phase]}%"),
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2]), int(row[3])


async def timed(awaitable: Awaitable[Outcome], meter: CpuMeter) -> tuple[Outcome, str]:
    meter.start()
    outcome = await awaitable
    return outcome, meter.stop(outcome.seconds)


async def wait_ready(certs: Certificates, port: int, process: subprocess.Popen[bytes]) -> None:
    """The receiver up: its /healthz over mutual TLS answers 200."""
    deadline = time.monotonic() + 30
    probe = RawConnection(client_context(certs), port)
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the receiver exited with {process.returncode}")
        try:
            if (await probe.get("/healthz"))[0] == 200:
                await probe.close()
                return
        except (OSError, ssl.SSLError, asyncio.IncompleteReadError):
            probe = RawConnection(client_context(certs), port)
        if time.monotonic() > deadline:
            raise RuntimeError("the receiver did not answer /healthz within 30 s")
        await asyncio.sleep(0.1)


async def bench(
    server: PgServer,
    certs: Certificates,
    port: int,
    process: subprocess.Popen[bytes],
    args: argparse.Namespace,
    problems: list[str],
) -> list[str]:
    lines: list[str] = []
    n, c = args.notifications, args.connections
    meter = CpuMeter(process.pid, postmaster_pid(server))
    await wait_ready(certs, port, process)
    bank = await open_bank(certs, port, c, args.client)
    try:
        monitor = bank[0]
        await post_all(bank, [pix_body("warm", i) for i in range(WARM)])  # pools and paths warm

        # 1. burst ------------------------------------------------------------------------
        bodies = [pix_body("burst", i) for i in range(n)]
        before = await histogram(monitor)
        burst, cpu = await timed(post_all(bank, bodies), meter)
        after = await histogram(monitor)
        rate = n / burst.seconds
        verdict = "met" if rate >= GOAL_PER_SECOND else "MISSED"
        lines.append(
            f"1. burst: {n:,} notifications over {c} connections as fast as they go (closed loop)"
        )
        lines.append(
            f"  {rate:,.0f} notifications/s stored + applied + answered "
            f"({burst.seconds:.2f} s)   goal ≥ {GOAL_PER_SECOND:,.0f}/s on 2 cores: {verdict}"
        )
        lines.append(spread("answer latency (send → answer)", burst.latencies, GOAL_P99_MS))
        lines.append(
            f"  (every connection always busy: mean latency = {c} ÷ {rate:,.0f}/s = "
            f"{c / rate * 1000:.0f} ms, queueing included, by Little's law)"
        )
        lines.append(server_side(before, after))
        lines.append(f"  {burst.describe()}")
        if not burst.all_answered():
            problems.append(f"burst: {burst.describe()}")
        lines.append(f"  {cpu}")

        # 2. redelivery -------------------------------------------------------------------
        again = bodies[: min(REDELIVERED, n)]
        redelivered = await post_all(bank, again)
        lines.append(f"2. redelivery: {len(again)} of them posted again at once")
        lines.append(f"  {redelivered.describe()}")
        if not redelivered.all_answered():
            problems.append(f"redelivery: {redelivered.describe()}")

        # 3. paced ------------------------------------------------------------------------
        for phase, (per_second, count) in args.paced.items():
            paced_bodies = [pix_body(phase, i) for i in range(count)]
            before = await histogram(monitor)
            due = functools.partial(truediv_by, per_second)
            paced, cpu = await timed(post_all(bank, paced_bodies, due=due), meter)
            after = await histogram(monitor)
            lines.append(
                f"3. {phase}: {count:,} notifications offered at {per_second:,.0f}/s over {c} "
                f"connections (open loop; latency from each one's due time)"
            )
            lines.append(
                f"  achieved {count / paced.seconds:,.0f}/s ({paced.seconds:.2f} s for "
                f"{count / per_second:.2f} s of offered load)"
            )
            lines.append(spread("answer latency (due → answer)", paced.latencies, GOAL_P99_MS))
            lines.append(server_side(before, after))
            lines.append(f"  {paced.describe()}")
            if not paced.all_answered():
                problems.append(f"{phase}: {paced.describe()}")
            lines.append(f"  {cpu}")

        # 4. desktop ----------------------------------------------------------------------
        answers, notified, read_back = await desktop_latency(monitor, server, args.sequential)
        lines.append(
            f"4. bank event → desktop: {args.sequential} notifications one after another, a "
            f"desktop's listener on {EVENTS_CHANNEL}"
        )
        lines.append(spread("POST send → answer", answers))
        lines.append(spread("POST send → NOTIFY at the listener", notified, GOAL_DESKTOP_P99_MS))
        lines.append(spread("... and the row read back", read_back, GOAL_DESKTOP_P99_MS))
        lines.append(
            "  (to the desktop's listener; the screen's repaint adds a frame, ~16 ms at 60 Hz)"
        )
    finally:
        await close_bank(bank)

    # 5. the database ---------------------------------------------------------------------
    lines.append("5. the database:")
    expected = {
        "burst": n,
        **{phase: count for phase, (_, count) in args.paced.items()},
        "desktop": args.sequential,
    }
    for phase, wanted in expected.items():
        stored, applied, received, charges = count_phase(server, phase)
        ok = stored == applied == received == charges == wanted
        lines.append(
            f"  {phase:<8} posted {wanted:,}: notifications {stored:,}, applied {applied:,}, "
            f"received Pix {received:,}, charge states {charges:,}   applied exactly once: "
            f"{'yes' if ok else 'NO'}"
        )
        if not ok:
            problems.append(f"{phase}: not every notification applied exactly once")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notifications", type=int, default=NOTIFICATIONS)
    parser.add_argument("--connections", type=int, default=CONNECTIONS)
    parser.add_argument(
        "--rate",
        type=float,
        action="append",
        help=f"a paced phase's rate (/s), repeatable (default: {RATES[0]:g} and {RATES[1]:g})",
    )
    parser.add_argument("--sequential", type=int, default=SEQUENTIAL, help="desktop phase")
    parser.add_argument(
        "--client",
        choices=CLIENTS,
        default="raw",
        help="the bank: raw HTTP/1.1 connections (default), an httpx.AsyncClient per "
        "connection, or one httpx.AsyncClient with a pool of --connections",
    )
    parser.add_argument(
        "--no-fsync", action="store_true", help="keep the throwaway server's fsync=off"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"{SMOKE['notifications']} notifications over {SMOKE['connections']} connections; "
        "exit 1 unless each was answered and applied once",
    )
    args = parser.parse_args()
    if args.smoke:
        for name, value in SMOKE.items():
            setattr(args, name, value)
    problems: list[str] = []
    args.paced = paced_phases(args.rate or RATES, args.notifications)
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = "?"
    print(
        f"Machine: {os.cpu_count()} cores ({affinity} usable by this process), load average "
        f"{load} before the run; Python {sys.version.split()[0]}; "
        f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC"
    )
    with tempfile.TemporaryDirectory(prefix="treasury-bench-receiver-") as tmp:
        folder = Path(tmp)
        server = start_server(folder / "pg")
        process = None
        log = folder / "receiver.log"
        try:
            sizes = {
                "warm": WARM,
                "burst": args.notifications,
                **{phase: count for phase, (_, count) in args.paced.items()},
                "desktop": args.sequential,
            }
            prepare_database(server, sizes, durable=not args.no_fsync)
            certs = make_certificates(folder)
            port = free_port()
            config = write_config(folder, certs, server, port)
            print(
                f"PostgreSQL {server.version} ({server.flavour}; {database_settings(server)}); "
                f"receiver: python -m treasury_app.receiver (one uvicorn worker, mutual TLS, "
                f"client certificate pinned, pool_size 20, log INFO to a file)"
            )
            process = start_receiver(config, log)
            lines = asyncio.run(bench(server, certs, port, process, args, problems))
            print("\n".join(lines))
        finally:
            if process is not None:
                stop_receiver(process)
            if log.exists():
                text = log.read_text(encoding="utf-8", errors="replace").splitlines()
                warnings = [line for line in text if " WARNING " in line or " ERROR " in line]
                print(
                    f"receiver log: {len(text):,} lines, {len(warnings)} warning/error lines"
                    + (":" if warnings else "")
                )
                for line in warnings[:10]:
                    print(f"  {line}")
            server.close()
    for problem in problems:
        print(f"NOT AS IT SHOULD BE: {problem}")
    return 1 if problems and args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
