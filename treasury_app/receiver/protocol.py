"""The receiver's HTTP protocol: uvicorn's (httptools), with the bank's pin checked as the
connection starts and deadlines on reading each request.

uvicorn has no deadline for a request to arrive: its keep-alive timer runs only between
requests and every byte received cancels it. A client that sends its headers or its body a
byte at a time (slowloris) would hold its connection, and the task serving it, as long as it
pleased. So each connection here has one timer at a time:

* **headers** (``listen.header_timeout``): from the connection's start (after the TLS
  handshake) or, on a kept-alive connection, from the next request's first byte, to the end
  of that request's headers. Missed: ``408`` and the connection closed if part of a request
  came, closed without an answer if nothing did;
* **body** (``listen.body_timeout``): from the end of the headers to the end of the body,
  whether or not the application has answered already. Missed: ``408`` if the application
  has not answered yet (it is told the client went away: it stored nothing, for it reads the
  whole body before it takes a database connection), and the connection closed.

Each cut is logged and counted (``treasury_receiver_rejected_total{reason="header_timeout"}``
or ``"body_timeout"``). After a ``408`` what the client still sends is read and dropped until
it is quiet for :data:`LINGER_QUIET_SECONDS` (at most :data:`LINGER_SECONDS` in all), then the
connection is closed: closed at once, a client still sending would get a reset instead of the
answer.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from treasury_app.receiver.config import ReceiverConfig
from treasury_app.receiver.tls import log as tls_log
from treasury_app.receiver.tls import refused_leaf

log = logging.getLogger("treasury_app.receiver")

LINGER_SECONDS = 2.0
"""After a 408: how long the rest of what the client sends is read and dropped, at most."""
LINGER_QUIET_SECONDS = 0.5
"""… closing sooner once the client has sent nothing for this long."""

RejectHook = Callable[[str], None]


def timeout_answer(detail: str) -> bytes:
    """A whole ``408`` response (``application/problem+json``, ``connection: close``)."""
    body = json.dumps({"title": "Request Timeout", "status": 408, "detail": detail}).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        "content-type: application/problem+json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


def receiver_protocol(config: ReceiverConfig, on_reject: RejectHook) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools) for the webhook listener: a connection whose client
    certificate does not match ``config``'s pins is closed at once; a request whose headers
    or body come slower than ``config``'s deadlines is cut off. ``on_reject(reason)`` counts
    each refusal (``pin``, ``header_timeout``, ``body_timeout``)."""
    header_timeout, body_timeout = config.header_timeout, config.body_timeout

    class ReceiverProtocol(HttpToolsProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None
            self._begun = False  # a request's first byte came, its end not yet
            self._linger_until: float | None = None  # after a 408: when to close at the latest

        # -- the connection ------------------------------------------------------------------

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            refused = refused_leaf(config, transport)
            if refused is not None:
                peer = transport.get_extra_info("peername")
                tls_log.warning("refused a client certificate from %s: %s", peer, refused)
                on_reject("pin")
                transport.abort()
                return
            super().connection_made(transport)
            self._arm(self._headers_late, header_timeout)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.transport is None:  # refused by the pin: uvicorn never took it on
                return
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._linger_until is not None:  # the rest of a request answered 408: dropped
                left = self._linger_until - self.loop.time()
                self._arm(self.transport.close, max(0.0, min(LINGER_QUIET_SECONDS, left)))
                return
            super().data_received(data)

        # -- the parser's steps --------------------------------------------------------------

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._begun = True
            if self._deadline is None:  # a kept-alive connection: from this first byte on
                self._arm(self._headers_late, header_timeout)

        def on_headers_complete(self) -> None:
            self._arm(self._body_late, body_timeout)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._disarm()
            self._begun = False
            super().on_message_complete()

        # -- the deadlines -------------------------------------------------------------------

        def _arm(self, late: Callable[[], None], seconds: float) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, late)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _peer(self) -> str:
            return self.client[0] if self.client else "?"

        def _headers_late(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self._begun:
                said = "its request's headers did not come within %g s"
            else:
                said = "no request came within %g s of the connection's start"
            log.warning("cut off %s: " + said, self._peer(), header_timeout)
            on_reject("header_timeout")
            previous = self.cycle
            if self._begun and (previous is None or previous.response_complete):
                self._answer_and_close(
                    f"The request's headers did not arrive within {header_timeout:g} s."
                )
            else:  # nothing of a request came (or the one before is still being answered)
                self.transport.close()

        def _body_late(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            log.warning(
                "cut off %s: its request's body did not come within %g s",
                self._peer(),
                body_timeout,
            )
            on_reject("body_timeout")
            cycle = self.cycle
            if cycle is not None and not cycle.response_started and not self.pipeline:
                # The application waits for the body: it hears the client went away (and
                # what it might still answer is dropped); the client hears 408.
                cycle.disconnected = True
                cycle.message_event.set()
                self._answer_and_close(
                    f"The request's body did not arrive within {body_timeout:g} s."
                )
            else:
                self.transport.close()

        def _answer_and_close(self, detail: str) -> None:
            self.transport.write(timeout_answer(detail))
            self._linger_until = self.loop.time() + LINGER_SECONDS
            self.flow.resume_reading()
            self._arm(self.transport.close, LINGER_QUIET_SECONDS)

    return ReceiverProtocol
