"""Reading an answer's body without trusting it: streamed, inflated a bounded step at a time,
and refused (:class:`~treasury_app.api.errors.AnswerTooLargeError`) as soon as it announces or
reaches more than a limit — a gzip bomb never inflates in memory. Used by the transport for
every API call and by the token sessions for the token endpoints."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from typing import Any

import httpx

from treasury_app.api.errors import AnswerTooLargeError, ResponseFormatError

__all__ = ["DECODE_STEP", "Inflater", "read_capped", "send_capped"]

DECODE_STEP = 256 * 1024  # the most decoded bytes one step of inflating yields


async def send_capped(
    http: httpx.AsyncClient, request: httpx.Request, limit: int, kind: str
) -> httpx.Response:
    """Send ``request`` and read its answer whole (:func:`read_capped`), the connection closed
    either way; the response's ``content`` and ``text`` then work as after ``aread()``."""
    response = await http.send(request, stream=True)
    try:
        body = await read_capped(response, limit, kind)
    finally:
        await response.aclose()  # unread, a large answer's connection is dropped
    response._content = body  # what ``aread()`` would have stored
    return response


async def read_capped(response: httpx.Response, limit: int, kind: str) -> bytes:
    """The decoded body of a streamed ``response``; :class:`AnswerTooLargeError` as soon as it
    announces (``Content-Length``) or reaches more than ``limit`` bytes. At most ``limit``
    plus one step of inflating (:data:`DECODE_STEP`) is ever held."""
    method, path = response.request.method, response.request.url.path
    announced = None if method == "HEAD" else _content_length(response)
    if announced is not None and announced > limit:
        raise AnswerTooLargeError(
            method=method, path=path, limit=limit, kind=kind, announced=announced
        )
    if response.is_stream_consumed:  # already read in full (an in-process mock's answer)
        if len(response.content) > limit:
            raise AnswerTooLargeError(method=method, path=path, limit=limit, kind=kind)
        return response.content
    try:
        inflater = Inflater(response.headers.get("content-encoding", ""))
    except ValueError as error:
        raise ResponseFormatError(f"The bank's answer to {method} {path}: {error}.") from None
    pieces: list[bytes] = []
    held = 0

    def keep(decoded: Iterator[bytes]) -> None:
        nonlocal held
        for piece in decoded:
            held += len(piece)
            if held > limit:
                pieces.clear()
                raise AnswerTooLargeError(method=method, path=path, limit=limit, kind=kind)
            pieces.append(piece)

    try:
        async for raw in response.aiter_raw():
            keep(inflater.decode(raw))
        keep(inflater.flush())
    except zlib.error:
        raise ResponseFormatError(
            f"The bank's answer to {method} {path} is not valid {inflater.coding}."
        ) from None
    return b"".join(pieces)


class Inflater:
    """Undoes a Content-Encoding (gzip, deflate or none) at most :data:`DECODE_STEP` bytes at
    a time. httpx's own decoders inflate a whole network read in one piece, and 64 KiB of a
    gzip bomb is 64 MB: held before any limit could be checked."""

    def __init__(self, content_encoding: str) -> None:
        self.coding = content_encoding.strip().lower() or "identity"
        self._zlib: Any = None  # zlib's decompress object (its type is not public)
        self._raw_deflate_fallback = False
        if self.coding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif self.coding == "deflate":
            # RFC 9110 "deflate" is zlib-wrapped; some servers send it raw (as httpx, try both).
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS)
            self._raw_deflate_fallback = True
        elif self.coding != "identity":
            raise ValueError(f"its content coding {self.coding!r} was not asked for")

    def decode(self, data: bytes) -> Iterator[bytes]:
        """The decoded pieces of ``data``, none longer than :data:`DECODE_STEP`."""
        if self._zlib is None:
            if data:
                yield data
            return
        while True:
            try:
                piece = self._zlib.decompress(data, DECODE_STEP)
            except zlib.error:
                if not self._raw_deflate_fallback:
                    raise
                self._raw_deflate_fallback = False
                self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                continue
            self._raw_deflate_fallback = False
            if piece:
                yield piece
            data = self._zlib.unconsumed_tail
            # A full step may leave output inside zlib even when all the input is consumed.
            if not data and len(piece) < DECODE_STEP:
                return

    def flush(self) -> Iterator[bytes]:
        if self._zlib is not None:
            yield from self.decode(b"")


def _content_length(response: httpx.Response) -> int | None:
    try:
        length = int(response.headers.get("content-length", ""))
    except ValueError:
        return None
    return length if length >= 0 else None
