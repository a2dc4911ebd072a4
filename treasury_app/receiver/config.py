"""The receiver's configuration: one TOML file.

    [listen]
    host = "0.0.0.0"
    port = 8443
    base_path = "/webhooks"            # the registered webhookUrl's path
    certificate = "/etc/treasury-receiver/server.crt"   # this server's chain (PEM)
    key = "/etc/treasury-receiver/server.key"
    max_body = 1048576                 # bytes; larger bodies answer 413
    header_timeout = 10                # seconds for a request's headers to arrive (408)
    body_timeout = 30                  # seconds for its body, once the headers are in (408)

    [bank]                             # who may call: the bank's client certificate
    ca = "/etc/treasury-receiver/bank-ca.pem"
    pin_sha256 = ["9f86d0…"]           # optional: the leaf's SHA-256 fingerprint(s)
    pin_subject = "CN=Sandbox Bank Notifier"   # optional: a subject the leaf must carry
    # Behind a reverse proxy that terminates mutual TLS (instead of the above):
    # proxy_addresses = ["10.0.0.5"]   # the proxy's own addresses (the raw peer)
    # proxy_verify_header = "X-SSL-Client-Verify"      # "SUCCESS" from the proxy
    # proxy_cert_header = "X-SSL-Client-Cert"          # url-encoded PEM (pins hash it)

    [accounts]
    secret_header = "X-Treasury-Secret"
    secret_env = "TREASURY_RECEIVER_SECRET"   # or: secret_file = "/etc/…/secret"

    [database]
    conninfo = "host=db.example dbname=treasury user=receiver1 sslmode=verify-full"
    password_env = "TREASURY_RECEIVER_DB_PASSWORD"   # optional (or .pgpass, or a cert)
    pool_size = 20

    [receiver]
    name = "receiver-1"                # several instances: one name each
    public_url = "https://hooks.example.com/webhooks"  # what desktops register
    reconcile_minutes = 5

    [monitor]                          # optional: /metrics and /healthz in plain HTTP, for
    host = "127.0.0.1"                 # the host's scraper (the webhook port asks every
    port = 9464                        # caller for the bank's certificate)

    [bank_api]                         # optional: the reconciler asks the bank what was missed
    qrcodes_url = "https://pix.bank.example/api/v2"   # the QR Codes API ({base_url})
    accounts_url = "https://api.bank.example"         # the Accounts API ({payments_url})
    qrcodes_pfx = "/etc/treasury-receiver/qrcodes.pfx"   # each API's client certificate
    qrcodes_pfx_password_env = "TREASURY_QRCODES_PFX_PASSWORD"   # or: …_pfx_password_file
    accounts_pfx = "/etc/treasury-receiver/accounts.pfx"
    accounts_pfx_password_file = "/etc/treasury-receiver/accounts-pfx-password"
    # pfx = "/etc/…/bank.pfx"          # one certificate for both APIs (pfx_password_env/_file)
    qrcodes_client_id = "…"
    qrcodes_secret_env = "TREASURY_QRCODES_CLIENT_SECRET"     # or: qrcodes_secret_file
    accounts_client_id = "…"
    accounts_secret_file = "/etc/treasury-receiver/accounts-secret"  # or: accounts_secret_env
    ca = "/etc/treasury-receiver/bank-server-ca.pem"   # optional: the bank's server CA
                                                        # (default: the system's trust store)

Without ``[bank_api]`` nothing is reconciled (the receiver logs it once). One of the two APIs
may be left out (its ``…_url`` absent): what only it can tell is then not reconciled.

Secrets are read from the environment or a file named here, never written in the TOML (the
file is typically world-readable configuration) and never logged.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_MAX_BODY = 1024 * 1024
DEFAULT_HEADER_TIMEOUT = 10.0
DEFAULT_BODY_TIMEOUT = 30.0
MAX_TIMEOUT = 600.0


class ConfigError(ValueError):
    """The configuration cannot be used (the message names the setting)."""


BANK_APIS = ("qrcodes", "accounts")


@dataclass(frozen=True)
class BankApiSettings:
    """How the reconciler reaches one of the bank's APIs (``[bank_api]``)."""

    api: str
    base_url: str
    client_id: str
    pfx: Path
    pfx_password: str = field(repr=False)
    client_secret: str = field(repr=False)
    ca: Path | None = None


@dataclass(frozen=True)
class BankApiConfig:
    """``[bank_api]``: the APIs the reconciler asks (``None``: that API is not asked)."""

    qrcodes: BankApiSettings | None = None
    accounts: BankApiSettings | None = None


@dataclass(frozen=True)
class ReceiverConfig:
    host: str = "127.0.0.1"
    port: int = 8443
    base_path: str = ""
    certificate: Path | None = None
    key: Path | None = None
    max_body: int = DEFAULT_MAX_BODY
    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    """Seconds a request's headers may take to arrive (from the connection's start, or the
    next request's first byte on a kept-alive connection): a slower sender is cut off."""
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    """Seconds its body may take to arrive once the headers are in."""
    bank_ca: Path | None = None
    pin_sha256: tuple[str, ...] = ()
    pin_subject: str | None = None
    proxy_addresses: tuple[str, ...] = ()
    proxy_verify_header: str = "x-ssl-client-verify"
    proxy_cert_header: str = "x-ssl-client-cert"
    secret_header: str = "x-treasury-secret"
    secret: str = field(default="", repr=False)
    conninfo: str = field(default="", repr=False)
    pool_size: int = 20
    name: str = "receiver"
    public_url: str = ""
    reconcile_minutes: float = 5.0
    bank_api: BankApiConfig | None = None
    monitor_host: str = "127.0.0.1"
    monitor_port: int | None = None
    """``[monitor]``: a second listener, plain HTTP, serving only /metrics and /healthz."""

    @property
    def behind_proxy(self) -> bool:
        return bool(self.proxy_addresses)

    def path(self, source: str) -> str:
        return f"{self.base_path}/{source}"


def _section(document: dict[str, Any], name: str) -> dict[str, Any]:
    value = document.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table")
    return value


def _secret(section: dict[str, Any], prefix: str, base: Path, *, what: str) -> str:
    env = section.get(f"{prefix}_env")
    file = section.get(f"{prefix}_file")
    if env:
        value = os.environ.get(str(env), "")
        if not value:
            raise ConfigError(f"{what}: the environment variable {env} is not set")
        return value
    if file:
        path = (base / str(file)).expanduser()
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError as error:
            raise ConfigError(f"{what}: cannot read {path} ({error.strerror})") from None
    return ""


def _path(value: Any, base: Path, name: str) -> Path | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{name} must be a path")
    path = (base / value).expanduser()
    if not path.is_file():
        raise ConfigError(f"{name}: {path} is not a file")
    return path


def _strings(value: Any, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{name} must be a list of strings")
    return tuple(value)


def _bank_api(section: dict[str, Any], base: Path) -> BankApiConfig:
    """``[bank_api]``, checked: each API named by its ``…_url`` needs its client id, secret,
    certificate and the certificate's password."""
    ca = _path(section.get("ca"), base, "bank_api.ca")
    settings: dict[str, BankApiSettings] = {}
    for api in BANK_APIS:
        url = section.get(f"{api}_url")
        if url in (None, ""):
            continue
        if not isinstance(url, str) or not url.startswith("https://"):
            raise ConfigError(f"bank_api.{api}_url must be an https:// address")
        client_id = section.get(f"{api}_client_id")
        if not isinstance(client_id, str) or not client_id:
            raise ConfigError(f"bank_api.{api}_client_id is required with bank_api.{api}_url")
        secret = _secret(section, f"{api}_secret", base, what=f"bank_api.{api}_secret")
        if not secret:
            raise ConfigError(
                f"bank_api.{api}_secret_env or bank_api.{api}_secret_file is required with "
                f"bank_api.{api}_url"
            )
        own_pfx = section.get(f"{api}_pfx") not in (None, "")
        pfx_name = f"{api}_pfx" if own_pfx else "pfx"
        pfx = _path(section.get(pfx_name), base, f"bank_api.{pfx_name}")
        if pfx is None:
            raise ConfigError(
                f"bank_api.{api}_pfx (or bank_api.pfx, for both APIs) is required with "
                f"bank_api.{api}_url"
            )
        password = _secret(
            section, f"{pfx_name}_password", base, what=f"bank_api.{pfx_name}_password"
        )
        if not password:
            raise ConfigError(
                f"bank_api.{pfx_name}_password_env or bank_api.{pfx_name}_password_file is "
                f"required (the password of {pfx.name})"
            )
        settings[api] = BankApiSettings(
            api=api,
            base_url=url.rstrip("/"),
            client_id=client_id,
            pfx=pfx,
            pfx_password=password,
            client_secret=secret,
            ca=ca,
        )
    if not settings:
        raise ConfigError(
            "[bank_api] names no API: give bank_api.qrcodes_url, bank_api.accounts_url or both"
        )
    return BankApiConfig(qrcodes=settings.get("qrcodes"), accounts=settings.get("accounts"))


def load_config(path: Path) -> ReceiverConfig:
    """Read and check ``path``; relative paths in it are relative to its folder."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(f"cannot read {path} ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not TOML: {error}") from None
    return config_from(document, path.parent)


def config_from(document: dict[str, Any], base: Path) -> ReceiverConfig:
    listen = _section(document, "listen")
    bank = _section(document, "bank")
    accounts = _section(document, "accounts")
    database = _section(document, "database")
    receiver = _section(document, "receiver")
    monitor = _section(document, "monitor")
    monitor_port: int | None = None
    if "port" in monitor:
        value = monitor["port"]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 65535:
            raise ConfigError("monitor.port is a port number (1-65535)")
        monitor_port = value
    base_path = str(listen.get("base_path", "")).rstrip("/")
    if base_path and not base_path.startswith("/"):
        raise ConfigError("listen.base_path must start with /")
    pins = tuple(p.replace(":", "").lower() for p in _strings(bank.get("pin_sha256"), "pin_sha256"))
    for pin in pins:
        if len(pin) != 64 or any(c not in "0123456789abcdef" for c in pin):
            raise ConfigError("bank.pin_sha256 entries are 64 hex digits (a SHA-256)")
    proxies = _strings(bank.get("proxy_addresses"), "bank.proxy_addresses")
    certificate = _path(listen.get("certificate"), base, "listen.certificate")
    key = _path(listen.get("key"), base, "listen.key")
    ca = _path(bank.get("ca"), base, "bank.ca")
    if not proxies and (certificate is None or key is None or ca is None):
        raise ConfigError(
            "listen.certificate, listen.key and bank.ca are required (the bank is "
            "authenticated by its client certificate), unless bank.proxy_addresses names the "
            "reverse proxy that checks it"
        )
    conninfo = str(database.get("conninfo", ""))
    if not conninfo:
        raise ConfigError("database.conninfo is required")
    password = _secret(database, "password", base, what="database.password")
    if password:
        conninfo = f"{conninfo} password='{_quote(password)}'"
    secret = _secret(accounts, "secret", base, what="accounts.secret")
    bank_api = _bank_api(_section(document, "bank_api"), base) if "bank_api" in document else None
    try:
        max_body = int(listen.get("max_body", DEFAULT_MAX_BODY))
        port = int(listen.get("port", 8443))
        pool_size = int(database.get("pool_size", 20))
        reconcile = float(receiver.get("reconcile_minutes", 5))
    except (TypeError, ValueError):
        raise ConfigError("port, max_body, pool_size and reconcile_minutes are numbers") from None
    if not reconcile > 0:
        raise ConfigError("receiver.reconcile_minutes is a number of minutes above 0")
    if not 1024 <= max_body <= 64 * 1024 * 1024:
        raise ConfigError("listen.max_body is between 1024 bytes and 64 MiB")
    header_timeout = _seconds(listen, "header_timeout", DEFAULT_HEADER_TIMEOUT)
    body_timeout = _seconds(listen, "body_timeout", DEFAULT_BODY_TIMEOUT)
    return ReceiverConfig(
        host=str(listen.get("host", "127.0.0.1")),
        port=port,
        base_path=base_path,
        certificate=certificate,
        key=key,
        max_body=max_body,
        header_timeout=header_timeout,
        body_timeout=body_timeout,
        bank_ca=ca,
        pin_sha256=pins,
        pin_subject=bank.get("pin_subject") or None,
        proxy_addresses=proxies,
        proxy_verify_header=str(bank.get("proxy_verify_header", "x-ssl-client-verify")).lower(),
        proxy_cert_header=str(bank.get("proxy_cert_header", "x-ssl-client-cert")).lower(),
        secret_header=str(accounts.get("secret_header", "x-treasury-secret")).lower(),
        secret=secret,
        conninfo=conninfo,
        pool_size=max(2, pool_size),
        name=str(receiver.get("name", "receiver")),
        public_url=str(receiver.get("public_url", "")),
        reconcile_minutes=reconcile,
        bank_api=bank_api,
        monitor_host=str(monitor.get("host", "127.0.0.1")),
        monitor_port=monitor_port,
    )


def _seconds(section: dict[str, Any], name: str, default: float) -> float:
    """``listen.<name>``: a number of seconds above 0, at most :data:`MAX_TIMEOUT`."""
    value = section.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"listen.{name} is a number of seconds")
    if not 0 < value <= MAX_TIMEOUT:
        raise ConfigError(f"listen.{name} is above 0 and at most {MAX_TIMEOUT:g} seconds")
    return float(value)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")
