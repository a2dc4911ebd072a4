"""Open both API clients for one session, from a sandbox's ready file or a profile file.

A *profile file* is JSON naming, per API, the address, client id, ``.pfx`` file and trust::

    {"qrcodes":  {"base_url": "https://...", "client_id": "...", "pfx": "/path/q.pfx",
                  "ca_file": null},
     "accounts": {"base_url": "https://...", "client_id": "...", "pfx": "/path/a.pfx",
                  "ca_file": "/path/bank-chain.pem"}}

``ca_file: null`` means the operating system's trust store. The client secret and the pfx
password are never in the file: they come from the caller (a prompt, the keyring, or the
environment variables ``TREASURY_<API>_CLIENT_SECRET`` / ``TREASURY_<API>_PFX_PASSWORD``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.tls import Trust, load_pfx
from treasury_app.api.tokens import ApiName, Secret
from treasury_app.api.transport import ApiConfig, ApiTransport, host_label
from treasury_app.domain.errors import Reason

APIS: tuple[ApiName, ...] = ("qrcodes", "accounts")

SecretSource = Callable[[ApiName, str], str]
"""``(api, "client_secret" | "pfx_password") -> value``."""


class ProfileFileError(ValueError):
    """A profile or ready file is missing, unreadable or incomplete. ``str()`` says so in
    English, for the command line and logs; :attr:`reason` is what a person reads, as a
    rule's code and parameters (``profile_file.missing`` with the ``file``) the UI puts into
    words."""

    def __init__(self, message: str, code: str, **params: str) -> None:
        super().__init__(message)
        self.reason = Reason(code, params)

    @property
    def code(self) -> str:
        return self.reason.code


def _read_json(path: Path) -> dict[str, Any]:
    file = str(path)
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ProfileFileError(
            f"{path} does not exist.", "profile_file.missing", file=file
        ) from None
    except (OSError, ValueError) as error:
        raise ProfileFileError(
            f"{path} cannot be read as JSON: {error}", "profile_file.unreadable", file=file
        ) from None
    if not isinstance(data, dict):
        raise ProfileFileError(
            f"{path} must hold a JSON object.", "profile_file.not_an_object", file=file
        )
    return data


def sandbox_configs(ready_file: Path) -> dict[ApiName, ApiConfig]:
    """Configurations for a running sandbox bank, from the ready file it wrote
    (``--ready-file``): addresses, its CA, and the credentials file it issued."""
    ready = _read_json(ready_file)
    try:
        credentials = _read_json(Path(ready["credentials_file"]))
        urls = {"qrcodes": ready["qrcodes_url"], "accounts": ready["accounts_url"]}
        trust = Trust.bundle(ready["ca_file"])
        configs: dict[ApiName, ApiConfig] = {}
        for api in APIS:
            cred = credentials[api]
            configs[api] = ApiConfig(
                api=api,
                base_url=urls[api],
                client_id=cred["client_id"],
                client_secret=Secret(cred["client_secret"]),
                identity=load_pfx(Path(cred["pfx"]), cred["pfx_password"]),
                trust=trust,
            )
    except KeyError as missing:
        raise ProfileFileError(
            f"{ready_file} lacks {missing}.",
            "profile_file.ready_incomplete",
            file=str(ready_file),
            setting=str(missing.args[0]),
        ) from None
    return configs


def environment_secrets(api: ApiName, name: str) -> str:
    """Secrets from ``TREASURY_QRCODES_CLIENT_SECRET``, ``TREASURY_ACCOUNTS_PFX_PASSWORD``..."""
    variable = f"TREASURY_{api.upper()}_{name.upper()}"
    value = os.environ.get(variable)
    if not value:
        raise ProfileFileError(
            f"Set {variable} (it is never read from the profile file).",
            "profile_file.secret_unset",
            variable=variable,
        )
    return value


def profile_configs(
    profile_file: Path, secrets: SecretSource = environment_secrets
) -> dict[ApiName, ApiConfig]:
    """Configurations from a profile file (see the module's docstring)."""
    profile = _read_json(profile_file)
    configs: dict[ApiName, ApiConfig] = {}
    for api in APIS:
        entry = profile.get(api)
        if not isinstance(entry, dict):
            raise ProfileFileError(
                f"{profile_file} has no {api!r} section.",
                "profile_file.no_section",
                file=str(profile_file),
                api=api,
            )
        try:
            base_url, client_id, pfx = entry["base_url"], entry["client_id"], entry["pfx"]
        except KeyError as missing:
            raise ProfileFileError(
                f"{profile_file}: {api}.{missing.args[0]} is missing.",
                "profile_file.setting_missing",
                file=str(profile_file),
                api=api,
                setting=str(missing.args[0]),
            ) from None
        if not str(base_url).startswith("https://"):
            raise ProfileFileError(
                f"{profile_file}: {api}.base_url must be an https:// address.",
                "profile_file.not_https",
                file=str(profile_file),
                api=api,
            )
        ca_file = entry.get("ca_file")
        configs[api] = ApiConfig(
            api=api,
            base_url=str(base_url).rstrip("/"),
            client_id=str(client_id),
            client_secret=Secret(secrets(api, "client_secret")),
            identity=load_pfx(Path(pfx).expanduser(), secrets(api, "pfx_password")),
            trust=Trust.bundle(Path(ca_file).expanduser()) if ca_file else Trust.system(),
            scopes=tuple(entry.get("scopes") or ()),
        )
    return configs


@dataclass
class ApiClients:
    """Both clients of one session, each on its own transport (connection, token)."""

    qrcodes: QrCodesClient
    accounts: AccountsClient

    @property
    def transports(self) -> tuple[ApiTransport, ApiTransport]:
        return self.qrcodes.transport, self.accounts.transport  # type: ignore[attr-defined]


@contextlib.asynccontextmanager
async def open_clients(configs: dict[ApiName, ApiConfig]) -> AsyncIterator[ApiClients]:
    """Open a transport per API; both are closed on the way out. A proxy that asks for a
    login is answered with both APIs' hosts named."""
    hosts = tuple(dict.fromkeys(host_label(configs[api].base_url) for api in APIS))
    configs = {
        api: config if config.bank_hosts else dataclasses.replace(config, bank_hosts=hosts)
        for api, config in configs.items()
    }
    async with (
        ApiTransport(configs["qrcodes"]) as qrcodes,
        ApiTransport(configs["accounts"]) as accounts,
    ):
        yield ApiClients(QrCodesClient(qrcodes), AccountsClient(accounts))
