"""Where a profile's team database is and how to log in to it (never the password itself)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal
from urllib.parse import quote, unquote, urlsplit

from psycopg.conninfo import make_conninfo

from treasury_app.domain.errors import Reason

SslMode = Literal["disable", "prefer", "require", "verify-ca", "verify-full"]
SSL_MODES: tuple[str, ...] = ("disable", "prefer", "require", "verify-ca", "verify-full")


class TeamSettingsError(ValueError):
    """A team database setting is not usable. ``str()`` says which and why in English, for
    the administration command and logs; :attr:`reason` is what a person reads, as a rule's
    code, the setting it concerns and its parameters (``team_settings.port`` with the
    ``port``), which the UI puts into words."""

    def __init__(
        self, message: str, code: str, *, field: str | None = None, **params: object
    ) -> None:
        super().__init__(message)
        self.reason = Reason(code, params, field)

    @property
    def code(self) -> str:
        return self.reason.code

    @property
    def field(self) -> str | None:
        return self.reason.field


@dataclass(frozen=True)
class TeamDatabase:
    """A team database: host, port, database and the person's own login role.

    ``sslmode=verify-full`` with ``ca_file`` checks the server's certificate and name;
    ``cert_file``/``key_file`` log in with a client certificate instead of a password. The
    password is kept in the OS keyring (or asked at unlock), never here.
    """

    host: str
    dbname: str
    user: str
    port: int = 5432
    sslmode: SslMode = "verify-full"
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    connect_timeout: int = 5

    def __post_init__(self) -> None:
        if not self.host.strip():
            raise TeamSettingsError(
                "The team database needs a host name or address.",
                "team_settings.host_missing",
                field="host",
            )
        if not self.dbname.strip():
            raise TeamSettingsError(
                "The team database needs a database name.",
                "team_settings.dbname_missing",
                field="dbname",
            )
        if not self.user.strip():
            raise TeamSettingsError(
                "The team database needs your login (a PostgreSQL role).",
                "team_settings.user_missing",
                field="user",
            )
        if not 0 < self.port < 65536:
            raise TeamSettingsError(
                f"The team database's port {self.port} is not a port.",
                "team_settings.port",
                field="port",
                port=self.port,
            )
        if self.sslmode not in SSL_MODES:
            raise TeamSettingsError(
                f"Unknown sslmode {self.sslmode!r}.",
                "team_settings.sslmode",
                field="sslmode",
                sslmode=str(self.sslmode),
            )
        if (self.cert_file is None) != (self.key_file is None):
            raise TeamSettingsError(
                "A client certificate needs both its file and its key file.",
                "team_settings.certificate_pair",
                field="cert_file" if self.cert_file is None else "key_file",
            )

    def conninfo(self, password: str | None = None, **extra: str | int) -> str:
        """A libpq connection string (the password only in memory, for the driver)."""
        params: dict[str, str | int] = {
            "host": self.host,
            "port": self.port,
            "dbname": self.dbname,
            "user": self.user,
            "sslmode": self.sslmode,
            "connect_timeout": self.connect_timeout,
            "application_name": "treasury-app",
            "keepalives": 1,
            "keepalives_idle": 30,
            "keepalives_interval": 10,
            "keepalives_count": 3,
            # Waits are bounded (a writer stuck on the journal's head row says "offline"
            # after 10 s instead of hanging); the server notices a desktop that vanished
            # (power, network) within about a minute and ends its claims with it; a claim
            # is an open transaction for as long as its payment is sent, so an idle-in-
            # transaction limit set on the server must not end it.
            "options": " ".join(
                f"-c {name}={value}"
                for name, value in (
                    ("lock_timeout", "10s"),
                    ("statement_timeout", "60s"),
                    ("idle_in_transaction_session_timeout", "0"),
                    ("tcp_keepalives_idle", "30"),
                    ("tcp_keepalives_interval", "10"),
                    ("tcp_keepalives_count", "3"),
                    ("client_connection_check_interval", "10s"),
                )
            ),
        }
        if self.ca_file is not None:
            params["sslrootcert"] = str(self.ca_file)
        if self.cert_file is not None and self.key_file is not None:
            params["sslcert"] = str(self.cert_file)
            params["sslkey"] = str(self.key_file)
        if password:
            params["password"] = password
        params.update(extra)
        return make_conninfo("", **params)

    def describe(self) -> str:
        """``user@host:port/dbname`` for people (no secret)."""
        return f"{self.user}@{self.host}:{self.port}/{self.dbname}"

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "host": self.host,
            "port": self.port,
            "dbname": self.dbname,
            "user": self.user,
            "sslmode": self.sslmode,
        }
        for name in ("ca_file", "cert_file", "key_file"):
            value = getattr(self, name)
            if value is not None:
                data[name] = str(value)
        return data

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TeamDatabase:
        def path(name: str) -> Path | None:
            value = data.get(name)
            return Path(str(value)) if value else None

        try:
            return cls(
                host=str(data["host"]),
                dbname=str(data["dbname"]),
                user=str(data["user"]),
                port=int(str(data.get("port", 5432))),
                sslmode=str(data.get("sslmode", "verify-full")),  # type: ignore[arg-type]
                ca_file=path("ca_file"),
                cert_file=path("cert_file"),
                key_file=path("key_file"),
            )
        except TeamSettingsError:
            raise
        except KeyError as error:
            raise TeamSettingsError(
                f"The team database settings are incomplete: {error}",
                "team_settings.incomplete",
                field=str(error.args[0]),
                setting=str(error.args[0]),
            ) from None
        except ValueError as error:  # a port that is not a number
            raise TeamSettingsError(
                f"The team database settings are incomplete: {error}",
                "team_settings.port",
                field="port",
                port=str(data.get("port", "")),
            ) from None

    @classmethod
    def from_url(cls, url: str) -> tuple[TeamDatabase, str | None]:
        """Settings from a libpq URL (``postgresql://user[:password]@host:port/db?sslmode=...``)
        and the password it carried, if any."""
        parts = urlsplit(url)
        if parts.scheme not in ("postgresql", "postgres"):
            raise TeamSettingsError(
                "A team database URL starts with postgresql:// (for example "
                "postgresql://alice@db.example.com:5432/treasury?sslmode=verify-full).",
                "team_settings.url_scheme",
            )
        query = dict(item.split("=", 1) for item in parts.query.split("&") if "=" in item)
        try:
            port = parts.port or 5432
        except ValueError:
            raise TeamSettingsError(
                "The URL's port is not a number.", "team_settings.url_port", field="port"
            ) from None
        settings = cls(
            host=unquote(parts.hostname or ""),
            port=port,
            dbname=unquote(parts.path.lstrip("/")),
            user=unquote(parts.username or ""),
            sslmode=query.get("sslmode", "verify-full"),  # type: ignore[arg-type]
            ca_file=Path(unquote(query["sslrootcert"])) if "sslrootcert" in query else None,
            cert_file=Path(unquote(query["sslcert"])) if "sslcert" in query else None,
            key_file=Path(unquote(query["sslkey"])) if "sslkey" in query else None,
        )
        password = unquote(parts.password) if parts.password else None
        return settings, password

    def with_user(self, user: str) -> TeamDatabase:
        return replace(self, user=user)

    def url(self) -> str:
        """The settings as a URL without password (for the admin's messages)."""
        return (
            f"postgresql://{quote(self.user)}@{self.host}:{self.port}/{quote(self.dbname)}"
            f"?sslmode={self.sslmode}"
        )
