"""Starts a real sandbox bank in a subprocess and builds mutual-TLS httpx clients for it.

Used by the sandbox, API and service tests: everything goes over real TLS on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import pkcs12

from tests.waiting import LONG_WAIT_SECONDS, WAIT_SECONDS, WaitTimeout, wait_until

# How a test stops its sandbox cleanly (servers drained, ready file removed, exit status 0):
# SIGTERM on POSIX; on Windows, where send_signal(SIGTERM) is TerminateProcess (no handler
# runs), the app's own way: --exit-with-parent and its standard input closed.
STOP_BY_CLOSING_INPUT = sys.platform == "win32"


@dataclass
class RunningSandbox:
    process: subprocess.Popen[str]
    data_dir: Path
    ready: dict[str, Any]
    credentials: dict[str, dict[str, str]]
    startup_seconds: float

    @property
    def urls(self) -> dict[str, str]:
        return {"qrcodes": self.ready["qrcodes_url"], "accounts": self.ready["accounts_url"]}

    def ssl_context(
        self, api: str | None, *, pfx: Path | None = None, password: str | None = None
    ) -> ssl.SSLContext:
        """A client context trusting the sandbox CA, presenting ``api``'s certificate (or none)."""
        context = ssl.create_default_context(cafile=self.ready["ca_file"])
        if api is not None or pfx is not None:
            cred = self.credentials[api] if api else {}
            load_pfx_into(context, Path(pfx or cred["pfx"]), password or cred["pfx_password"])
        return context

    def client(self, api: str, *, cert_api: str | None = "same", **kwargs: Any) -> httpx.Client:
        """A synchronous httpx client for ``api``; ``cert_api`` picks whose certificate to show."""
        use = api if cert_api == "same" else cert_api
        return httpx.Client(
            base_url=self.urls[api], verify=self.ssl_context(use), timeout=WAIT_SECONDS, **kwargs
        )

    def token(self, client: httpx.Client, api: str, scope: str | None = None) -> str:
        cred = self.credentials[api]
        if api == "qrcodes":
            data = {
                "client_id": cred["client_id"],
                "client_secret": cred["client_secret"],
                "grant_type": "client_credentials",
            }
            if scope:
                data["scope"] = scope
            response = client.post("/oauth/token", data=data)
        else:
            body = {
                "clientId": cred["client_id"],
                "clientSecret": cred["client_secret"],
                "grantType": "client_credentials",
            }
            if scope:
                body["scope"] = scope
            response = client.post("/api/v2/oauth/token", json=body)
        response.raise_for_status()
        return str(response.json()["access_token"])

    def control(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        with self.client("accounts") as client:
            return client.request(method, path, **kwargs)

    def stop(self) -> int:
        if self.process.poll() is None:
            if STOP_BY_CLOSING_INPUT and self.process.stdin is not None:
                self.process.stdin.close()
            else:
                self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def load_pfx_into(context: ssl.SSLContext, pfx: Path, password: str) -> None:
    """Load a .pfx into an SSLContext without writing the plain private key to disk."""
    key, cert, chain = pkcs12.load_key_and_certificates(pfx.read_bytes(), password.encode())
    assert key is not None and cert is not None
    passphrase = secrets.token_hex(16)
    pem_key = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(passphrase.encode()),
    )
    pem_cert = cert.public_bytes(serialization.Encoding.PEM) + b"".join(
        c.public_bytes(serialization.Encoding.PEM) for c in chain or []
    )
    fd, name = tempfile.mkstemp(suffix=".pem")
    try:
        os.write(fd, pem_cert + pem_key)
        os.close(fd)
        context.load_cert_chain(name, password=passphrase)
    finally:
        os.unlink(name)


def start_sandbox(data_dir: Path, *extra: str, timeout: float | None = None) -> RunningSandbox:
    """Start ``python -m treasury_app.sandbox`` and wait for its ready file."""
    ready_file = data_dir / "ready.json"
    with contextlib.suppress(FileNotFoundError):
        ready_file.unlink()
    started = time.perf_counter()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "treasury_app.sandbox",
            "--data-dir",
            str(data_dir / "bank"),
            "--ready-file",
            str(ready_file),
            *(["--exit-with-parent"] if STOP_BY_CLOSING_INPUT else []),
            *extra,
        ],
        stdin=subprocess.PIPE if STOP_BY_CLOSING_INPUT else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )

    def ready_or_exited() -> bool:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            raise RuntimeError(f"sandbox exited with {process.returncode}:\n{output}")
        return ready_file.exists()

    try:
        wait_until(
            ready_or_exited, "the sandbox's ready file", timeout=timeout or LONG_WAIT_SECONDS
        )
    except WaitTimeout:
        process.kill()
        raise
    elapsed = time.perf_counter() - started
    ready = json.loads(ready_file.read_text("utf-8"))
    credentials = json.loads(Path(ready["credentials_file"]).read_text("utf-8"))
    return RunningSandbox(process, data_dir, ready, credentials, elapsed)


@contextlib.contextmanager
def running_sandbox(data_dir: Path, *extra: str) -> Iterator[RunningSandbox]:
    sandbox = start_sandbox(data_dir, *extra)
    try:
        yield sandbox
    finally:
        sandbox.stop()
