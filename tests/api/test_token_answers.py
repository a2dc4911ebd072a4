"""Odd answers of a token endpoint are typed authentication errors with a clear message, never
an OverflowError, a UnicodeEncodeError at the next request or a misleading transport error.
The endpoint is played by an httpx mock transport (the parsing of its answer is what is
tested; the real exchanges are tested against the sandbox in test_tokens.py)."""

from __future__ import annotations

import json
import zlib
from collections.abc import AsyncIterator

import httpx
import pytest

from treasury_app.api.errors import TokenAnswerError
from treasury_app.api.tokens import Secret, TokenSession


async def _no_sleep(seconds: float) -> None:
    return None


async def token_from(body: bytes) -> str:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
    session = TokenSession("accounts", "client", Secret("secret"), sleep=_no_sleep)
    async with httpx.AsyncClient(transport=transport, base_url="https://bank.test") as http:
        return await session.token(http)


def answer(**fields: object) -> bytes:
    return json.dumps(fields).encode()


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (answer(access_token="abc", expires_in=10**30), "lifetime"),
        (b'{"access_token": "abc", "expires_in": 1e400}', "lifetime"),
        (answer(access_token="abc", expires_in=0), "lifetime"),
        (answer(access_token="abc", expires_in=-5), "lifetime"),
        (answer(access_token="abc", expires_in="soon"), "lifetime"),
        (answer(access_token="abc", expires_in=1.5), "lifetime"),
        (answer(access_token="abc", expires_in=True), "lifetime"),
        (answer(access_token="tökén", expires_in=3600), "plain bearer token"),
        (answer(access_token="abc\r\nX-Evil: 1", expires_in=3600), "plain bearer token"),
        (answer(access_token="", expires_in=3600), "plain bearer token"),
        (answer(access_token=123, expires_in=3600), "plain bearer token"),
        (answer(expires_in=3600), "no access_token"),
        (b"[1, 2]", "no access_token"),
        (b"<html>proxy login</html>", "not JSON"),
    ],
)
async def test_odd_token_answers_are_typed_errors(body: bytes, says: str) -> None:
    with pytest.raises(TokenAnswerError, match=says) as error:
        await token_from(body)
    assert "accounts" in str(error.value)


async def test_a_sensible_answer_gives_the_token() -> None:
    assert await token_from(answer(access_token="eyJ0eXAi.abc-_~+/=", expires_in=3600)) == (
        "eyJ0eXAi.abc-_~+/="
    )
    assert await token_from(answer(access_token="abc", expires_in="300")) == "abc"


class Bomb(httpx.AsyncByteStream):
    """300 MB of zeros gzipped to some 300 KB, sent as a network would: unread until asked."""

    def __init__(self) -> None:
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)
        chunk = bytes(1024 * 1024)
        self.body = b"".join(packer.compress(chunk) for _ in range(300)) + packer.flush()
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.body), 16_384):
            self.sent += 16_384
            yield self.body[start : start + 16_384]


async def test_a_gzip_bomb_for_a_token_is_refused_before_it_inflates() -> None:
    bomb = Bomb()
    assert len(bomb.body) < 400_000
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, stream=bomb, headers={"content-encoding": "gzip"})
    )
    session = TokenSession("qrcodes", "client", Secret("secret"), sleep=_no_sleep)
    async with httpx.AsyncClient(transport=transport, base_url="https://bank.test") as http:
        with pytest.raises(TokenAnswerError, match="larger than 64 KiB") as error:
            await session.token(http)
    assert "qrcodes" in str(error.value)
    assert bomb.sent < len(bomb.body)  # refused long before the end: never inflated whole
