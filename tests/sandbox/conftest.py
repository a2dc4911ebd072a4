"""Fixtures and helpers of the sandbox bank tests: real sandboxes in subprocesses, reached over
real mutual TLS on 127.0.0.1 with plain httpx.

Most tests share one session sandbox whose clock starts on a Wednesday at 10:00 Brasília time
(2026-11-18T13:00:00Z) and only ever moves a few minutes forward, so boleto due dates and the
20:00 cut-off stay deterministic. Tests that change global state (faults given at start, the
clock past the cut-off, token limits and expiry) get short-lived sandboxes of their own, which
reuse the shared sandbox's certificates to start fast.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.sandbox_harness import RunningSandbox, start_sandbox
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.domain.money import dumps_json_bytes, loads_json

CLOCK_START = "2026-11-18T13:00:00Z"  # Wednesday 10:00 in Brasília, a business day
TODAY = "2026-11-18"
PROBLEM_JSON = "application/problem+json"
ACCOUNTS_SCOPES = {
    "pix.read",
    "pix.write",
    "billets.read",
    "billets.write",
    "webhook.read",
    "webhook.write",
}
_UNSET: Any = object()


# --------------------------------------------------------------------------------------------
# Helpers


def body_of(response: httpx.Response) -> Any:
    """A response's JSON with numbers as exact ``Decimal``."""
    return loads_json(response.content)


def assert_problem(
    response: httpx.Response, status: int, *, path: str | None = None
) -> dict[str, Any]:
    """Check an RFC 7807 error of the sandbox and return its body."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].split(";")[0] == PROBLEM_JSON, response.headers
    problem = body_of(response)
    assert isinstance(problem["type"], str) and problem["type"]
    assert isinstance(problem["title"], str) and problem["title"]
    assert problem["status"] == status
    assert isinstance(problem["detail"], str) and problem["detail"]
    assert problem["instance"] == (path or response.request.url.path)
    if status == 400:
        assert isinstance(problem["violacoes"], list)
    return problem


def violated(problem: dict[str, Any]) -> set[str]:
    """The ``propriedade`` of every violation of a 400 problem."""
    return {v["propriedade"] for v in problem.get("violacoes", [])}


def money_body(amount: Decimal | Any) -> dict[str, Any]:
    return {"currency": "BRL", "amount": amount}


class Api:
    """One API of a running sandbox through one mTLS client with one cached token.

    The token is fetched once (after resetting the sandbox's token rate limit) and fetched
    again only when the sandbox answers 401 because another test moved the clock past its
    expiry. Tests that check 401 themselves use ``http`` directly.
    """

    def __init__(self, sandbox: RunningSandbox, api: str, scope: str | None = None) -> None:
        self.sandbox = sandbox
        self.api = api
        self.scope = scope
        self.http = sandbox.client(api)
        self._token: str | None = None

    def close(self) -> None:
        self.http.close()

    @property
    def token(self) -> str:
        if self._token is None:
            self.reset_token_limits()
            self._token = self.sandbox.token(self.http, self.api, self.scope)
        return self._token

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = _UNSET,
        idem: str | None = None,
        headers: dict[str, str] | None = None,
        params: dict[str, Any] | None = None,
    ) -> httpx.Response:
        content = None if json is _UNSET else dumps_json_bytes(json)
        for attempt in range(2):
            all_headers = {"authorization": f"Bearer {self.token}"}
            if content is not None:
                all_headers["content-type"] = "application/json"
            if idem is not None:
                all_headers["x-idempotency-key"] = idem
            all_headers.update(headers or {})
            response = self.http.request(
                method, path, content=content, headers=all_headers, params=params
            )
            if response.status_code != 401 or attempt:
                return response
            self._token = None  # expired by another test's clock move: renew once
        raise AssertionError("unreachable")

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("PUT", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", path, **kwargs)

    # control surface (no token) --------------------------------------------------------
    def control(self, method: str, path: str, json: Any = _UNSET) -> Any:
        """Call the /sandbox control surface and return its JSON (2xx required)."""
        kwargs: dict[str, Any] = {}
        if json is not _UNSET:
            kwargs = {
                "content": dumps_json_bytes(json),
                "headers": {"content-type": "application/json"},
            }
        response = self.http.request(method, path, **kwargs)
        assert response.is_success, (method, path, response.status_code, response.text)
        return body_of(response)

    def reset_token_limits(self) -> None:
        self.control("POST", "/sandbox/tokens/reset-limits")

    def advance(self, seconds: float) -> str:
        """Move the sandbox clock forward (the control surface ticks every state machine)."""
        return str(
            self.control("POST", "/sandbox/clock", {"advance": Decimal(str(seconds))})["now"]
        )

    def now(self) -> str:
        return str(self.control("GET", "/sandbox/status")["now"])

    @contextlib.contextmanager
    def faults(self, *rules: dict[str, Any]) -> Iterator[None]:
        """Add fault rules for the duration of a ``with`` block; always removes them."""
        try:
            for rule in rules:
                self.control("POST", "/sandbox/faults", rule)
            yield
        finally:
            self.control("DELETE", "/sandbox/faults")

    # Accounts API shortcuts -------------------------------------------------------------
    def balance(self) -> Decimal:
        response = self.get("/api/v2/accounts/balances")
        assert response.status_code == 200, response.text
        available = body_of(response)["data"][0]["balanceAmount"]["available"]
        assert isinstance(available, Decimal)
        return available

    def pay_dict(
        self,
        amount: Decimal,
        *,
        pix_key: str = "fornecedor@empresa.com.br",
        key_type: str = "EMAIL",
        idem: str | None = None,
        **extra: Any,
    ) -> httpx.Response:
        body = {
            "pixKey": pix_key,
            "pixKeyType": key_type,
            "payment": money_body(amount),
            "description": "Teste do sandbox",
            **extra,
        }
        return self.post("/api/v2/pix/payments/dict", json=body, idem=idem or new_idempotency_key())

    def paid(self, amount: Decimal, **kwargs: Any) -> dict[str, Any]:
        """Pay by key and return the accepted payment (202)."""
        response = self.pay_dict(amount, **kwargs)
        assert response.status_code == 202, response.text
        payment: dict[str, Any] = body_of(response)["data"]
        return payment

    def pix(self, e2e: str) -> dict[str, Any]:
        response = self.get(f"/api/v2/pix/payments/{e2e}")
        assert response.status_code == 200, response.text
        payment: dict[str, Any] = body_of(response)["data"]
        return payment

    def settle(self, e2e: str) -> dict[str, Any]:
        """Advance the clock until a queued Pix is SETTLED (3 s on the sandbox clock)."""
        self.advance(3.5)
        payment = self.pix(e2e)
        assert payment["status"] == "SETTLED", payment
        return payment

    def slips(self) -> dict[str, dict[str, Any]]:
        """The seeded payable slips by label."""
        return {s["label"]: s for s in self.control("GET", "/sandbox/slips")["data"]}


# --------------------------------------------------------------------------------------------
# Sandboxes


def _drain_output(running: RunningSandbox) -> list[str]:
    """Read the sandbox's output as it comes: a full pipe would block its logging (and then
    the whole sandbox), and the output tells whether a handler crashed."""
    lines: list[str] = []
    stream = running.process.stdout

    def pump() -> None:
        if stream is not None:
            for line in stream:
                lines.append(line)

    threading.Thread(target=pump, name="sandbox-output", daemon=True).start()
    return lines


def _stop_cleanly(running: RunningSandbox, output: list[str]) -> None:
    code = running.stop()
    text = "".join(output)
    assert code == 0, text
    # Every failure of the sandbox must be an answer (problem+json), never a crash.
    assert "Traceback" not in text, text


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    """The shared sandbox: fixed business-day morning, no faults."""
    running = start_sandbox(tmp_path_factory.mktemp("shared"), "--clock-start", CLOCK_START)
    output = _drain_output(running)
    try:
        yield running
    finally:
        _stop_cleanly(running, output)


class Sandboxes:
    """Extra sandboxes for tests that change global state; ``stop_all`` checks each exits
    cleanly. They reuse the shared sandbox's PKI so that no keys are generated
    (``fresh_pki=True`` makes one create its own, as on a first start)."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory, shared: RunningSandbox) -> None:
        self._tmp = tmp_path_factory
        self._pki = shared.data_dir / "bank" / "pki"
        self._started: list[tuple[RunningSandbox, list[str]]] = []

    def start(self, *args: str, fresh_pki: bool = False) -> RunningSandbox:
        data_dir = self._tmp.mktemp("sandbox")
        if not fresh_pki:
            shutil.copytree(self._pki, data_dir / "bank" / "pki")
        running = start_sandbox(data_dir, *args)
        self._started.append((running, _drain_output(running)))
        return running

    def stop_all(self) -> None:
        while self._started:
            _stop_cleanly(*self._started.pop())


@pytest.fixture
def make_sandbox(
    tmp_path_factory: pytest.TempPathFactory, sandbox: RunningSandbox
) -> Iterator[Callable[..., RunningSandbox]]:
    """Start short-lived sandboxes, stopped when the test ends."""
    sandboxes = Sandboxes(tmp_path_factory, sandbox)
    try:
        yield sandboxes.start
    finally:
        sandboxes.stop_all()


@pytest.fixture(scope="module")
def make_module_sandbox(
    tmp_path_factory: pytest.TempPathFactory, sandbox: RunningSandbox
) -> Iterator[Callable[..., RunningSandbox]]:
    """Start sandboxes shared by one module's tests, stopped when the module ends."""
    sandboxes = Sandboxes(tmp_path_factory, sandbox)
    try:
        yield sandboxes.start
    finally:
        sandboxes.stop_all()


@pytest.fixture(scope="module")
def accounts(sandbox: RunningSandbox) -> Iterator[Api]:
    """The shared sandbox's Accounts API, one token for the whole module."""
    api = Api(sandbox, "accounts")
    yield api
    api.close()


@pytest.fixture(scope="module")
def qrcodes(sandbox: RunningSandbox) -> Iterator[Api]:
    """The shared sandbox's QR Codes API, one token for the whole module."""
    api = Api(sandbox, "qrcodes")
    yield api
    api.close()


# --------------------------------------------------------------------------------------------
# PDF


@pytest.fixture
def read_pdf(qapp: Any, qtbot: Any) -> Iterator[Callable[[bytes], str]]:
    """Open a PDF with Qt's PDF engine and return the text of all its pages."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtPdf import QPdfDocument

    documents: list[Any] = []

    def read(data: bytes) -> str:
        document = QPdfDocument(None)
        documents.append(document)
        buffer = QBuffer(document)  # parented: an orphan buffer crashes on page access
        buffer.setData(QByteArray(data))
        assert buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        document.load(buffer)
        qtbot.waitUntil(
            lambda: document.status() in (QPdfDocument.Status.Ready, QPdfDocument.Status.Error),
            timeout=5000,
        )
        assert document.status() == QPdfDocument.Status.Ready, document.error()
        assert document.pageCount() >= 1
        return "\n".join(document.getAllText(page).text() for page in range(document.pageCount()))

    yield read
    for document in documents:
        document.close()
