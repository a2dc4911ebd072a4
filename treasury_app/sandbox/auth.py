"""OAuth 2.0 client credentials of both sandbox APIs: token requests, tokens, scopes, limits.

The QR Codes API takes a form-encoded request (BCB style), the Accounts API a JSON one with
camelCase names; tokens, client ids and certificates of one API are never valid on the other.
"""

from __future__ import annotations

import math
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from treasury_app.domain.money import loads_json
from treasury_app.sandbox.clock import SandboxClock
from treasury_app.sandbox.problems import Problem, Violation, invalid

QRCODES_SCOPES = frozenset(
    """cob.read cob.write cobv.read cobv.write lotecobv.read lotecobv.write pix.read pix.write
    webhook.read webhook.write payloadlocation.read payloadlocation.write rec.read rec.write
    solicrec.read solicrec.write cobr.read cobr.write payloadlocationrec.read
    payloadlocationrec.write webhookrec.read webhookrec.write webhookcobr.read webhookcobr.write
    transactions.read account.read""".split()
)
ACCOUNTS_SCOPES = frozenset(
    """pix.read pix.write billets.read billets.write webhook.read webhook.write
    account.read transactions.read""".split()
)
SCOPES = {"qrcodes": QRCODES_SCOPES, "accounts": ACCOUNTS_SCOPES}
TOKEN_LIFETIME = {"qrcodes": 300, "accounts": 3600}
TOKEN_REQUESTS_PER_MINUTE = 10


@dataclass(frozen=True)
class Token:
    value: str
    api: str
    client_id: str
    scopes: frozenset[str]
    expires_at: float  # sandbox clock, POSIX seconds


@dataclass
class Client:
    api: str
    client_id: str
    client_secret: str
    recent_requests: deque[float] = field(default_factory=deque)


def peer_client_id(request: Request) -> str | None:
    """The common name of the client certificate of this connection (the client id)."""
    tls = request.scope.get("extensions", {}).get("tls", {})
    peercert = tls.get("peercert")
    if not peercert:
        return None
    for rdn in peercert.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                return str(value)
    return None


def peer_unit(request: Request) -> str | None:
    tls = request.scope.get("extensions", {}).get("tls", {})
    for rdn in (tls.get("peercert") or {}).get("subject", ()):
        for key, value in rdn:
            if key == "organizationalUnitName":
                return str(value)
    return None


class AuthService:
    """Issues and checks tokens for one sandbox (both APIs)."""

    def __init__(self, clock: SandboxClock, credentials: dict[str, dict[str, str]]) -> None:
        self._clock = clock
        self._clients = {
            (api, cred["client_id"]): Client(api, cred["client_id"], cred["client_secret"])
            for api, cred in credentials.items()
        }
        self._tokens: dict[str, Token] = {}
        self.token_requests = 0

    def _now(self) -> float:
        return self._clock.now().timestamp()

    def reset_limits(self) -> None:
        for client in self._clients.values():
            client.recent_requests.clear()

    def _rate_limit(self, api: str, cert_client: str | None) -> None:
        key = (api, cert_client or "")
        client = self._clients.get(key)
        if client is None:
            return
        now = self._now()
        window = client.recent_requests
        while window and window[0] <= now - 60:
            window.popleft()
        if len(window) >= TOKEN_REQUESTS_PER_MINUTE:
            retry_after = max(1, math.ceil(window[0] + 60 - now))
            raise Problem(
                429,
                f"O endpoint de token aceita {TOKEN_REQUESTS_PER_MINUTE} requisições por minuto.",
                headers={"Retry-After": str(retry_after)},
            )
        window.append(now)

    async def token_request(self, request: Request, api: str) -> dict[str, Any]:
        """Handle ``POST /oauth/token`` (QR Codes) or ``POST /api/v2/oauth/token`` (Accounts)."""
        self.token_requests += 1
        cert_client = peer_client_id(request)
        self._rate_limit(api, cert_client)
        params = await self._read_params(request, api)
        names = (
            ("client_id", "client_secret", "grant_type")
            if api == "qrcodes"
            else ("clientId", "clientSecret", "grantType")
        )
        client_id, secret, grant = (params.get(n) for n in names)
        missing = [n for n, v in zip(names, (client_id, secret, grant), strict=True) if not v]
        if missing:
            raise invalid(
                "Parâmetros obrigatórios ausentes no pedido de token.",
                *(Violation("campo obrigatório", n) for n in missing),
            )
        if grant != "client_credentials":
            raise invalid(
                "grant_type não suportado: use client_credentials.",
                Violation("valor não suportado", names[2], str(grant)),
            )
        client = self._clients.get((api, str(client_id)))
        if client is None:
            raise invalid(
                "client_id desconhecido para esta API.",
                Violation("cliente desconhecido", names[0], str(client_id)),
            )
        if not secrets.compare_digest(client.client_secret, str(secret)):
            raise Problem(401, "Credenciais inválidas.")
        if cert_client != client.client_id:
            raise Problem(403, "O certificado do cliente não pertence a este client_id.")
        scopes = self._requested_scopes(api, params.get("scope"))
        lifetime = TOKEN_LIFETIME[api]
        token = Token(
            value=secrets.token_urlsafe(32),
            api=api,
            client_id=client.client_id,
            scopes=scopes,
            expires_at=self._now() + lifetime,
        )
        self._forget_expired()
        self._tokens[token.value] = token
        return {
            "access_token": token.value,
            "token_type": "Bearer",
            "expires_in": lifetime,
            "scope": " ".join(sorted(scopes)),
        }

    async def _read_params(self, request: Request, api: str) -> dict[str, Any]:
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        body = await request.body()
        if api == "qrcodes":
            if content_type != "application/x-www-form-urlencoded":
                raise invalid(
                    "O pedido de token deve ser application/x-www-form-urlencoded.",
                    Violation("codificação inválida", "Content-Type", content_type),
                )
            try:
                return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True))
            except UnicodeDecodeError as exc:
                raise invalid("Corpo do pedido de token ilegível.") from exc
        if content_type != "application/json":
            raise invalid(
                "O pedido de token deve ser JSON (clientId, clientSecret, grantType).",
                Violation("codificação inválida", "Content-Type", content_type),
            )
        try:
            data = loads_json(body)  # numbers as Decimal; nesting too deep is a ValueError
        except (UnicodeDecodeError, ValueError) as exc:
            raise invalid("Corpo do pedido de token não é JSON válido.") from exc
        if not isinstance(data, dict):
            raise invalid("O pedido de token deve ser um objeto JSON.")
        return data

    def _requested_scopes(self, api: str, scope: object) -> frozenset[str]:
        available = SCOPES[api]
        if scope is None or (isinstance(scope, str) and not scope.strip()):
            return available  # none requested: every permission of the credentials
        if not isinstance(scope, str):
            raise invalid("scope deve ser uma lista separada por espaços.")
        requested = frozenset(scope.split())
        unknown = sorted(requested - available)
        if unknown:
            raise invalid(
                "Escopo inválido para esta API.",
                *(Violation("escopo desconhecido", "scope", s) for s in unknown),
            )
        return requested

    def _forget_expired(self) -> None:
        now = self._now()
        for value in [v for v, t in self._tokens.items() if t.expires_at <= now]:
            del self._tokens[value]

    def authorize(self, request: Request, api: str, *any_of_scopes: str) -> Token:
        """Check the bearer token of a request for ``api``; the token needs one of the scopes."""
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        challenge = {"WWW-Authenticate": 'Bearer realm="sandbox"'}
        if scheme.lower() != "bearer" or not value.strip():
            raise Problem(401, "Token de acesso ausente.", headers=challenge)
        token = self._tokens.get(value.strip())
        if token is None or token.api != api:
            raise Problem(401, "Token de acesso inválido.", headers=challenge)
        if token.expires_at <= self._now():
            raise Problem(401, "Token de acesso expirado.", headers=challenge)
        if token.client_id != peer_client_id(request):
            raise Problem(401, "Token emitido para outro certificado.", headers=challenge)
        if any_of_scopes and not token.scopes.intersection(any_of_scopes):
            raise Problem(
                403, f"O token não tem o escopo necessário ({' ou '.join(any_of_scopes)})."
            )
        return token
