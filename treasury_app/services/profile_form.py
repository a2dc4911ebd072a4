"""What a person types into a profile, checked in one place: :func:`check_profile_form` turns a
:class:`ProfileForm` (the texts as typed) into a :class:`~treasury_app.services.profiles.Profile`
or raises :class:`ProfileFormError` listing every broken rule, each a
:class:`~treasury_app.domain.errors.Reason` naming its field (``name``, ``proxy``,
``qrcodes.base_url``, ``ledger.host``...). The profile dialog only shows these reasons.

Beyond the profile's own rules (:mod:`treasury_app.services.profiles`), a form is checked
against this computer: the certificate and CA files must exist, a new profile cannot take the
name of a saved one, and a password kept in the system keyring needs a keyring.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from treasury_app.api.proxies import ProxySetting
from treasury_app.api.tokens import ApiName
from treasury_app.domain.errors import Reason
from treasury_app.services.profiles import (
    APIS,
    ApiProfile,
    LedgerLocation,
    Profile,
    ProfileError,
    TeamDatabaseProfile,
    check_base_url,
    check_client_id,
    check_pix_keys,
    check_proxy_address,
    check_team_word,
    validate_profile_name,
)

__all__ = [
    "FORM_FIELDS",
    "ApiForm",
    "ProfileForm",
    "ProfileFormError",
    "TeamForm",
    "check_profile_form",
]

PasswordMode = Literal["keyring", "ask", "none"]

FORM_FIELDS: tuple[str, ...] = (
    "name",
    "environment",
    "pix_keys",
    "proxy",
    *(f"{api}.{name}" for api in APIS for name in ("base_url", "client_id", "pfx_path", "ca_file")),
    *(
        f"ledger.{name}"
        for name in (
            "host",
            "port",
            "dbname",
            "user",
            "sslmode",
            "ca_file",
            "cert_file",
            "key_file",
            "password_mode",
            "password",
        )
    ),
)
"""The fields of a profile form, in order: the fields its reasons name."""


@dataclass(frozen=True)
class ApiForm:
    """One API's fields as typed; ``ca_file`` is ``None`` when the system's trust is chosen."""

    base_url: str
    client_id: str
    pfx_path: str
    ca_file: str | None = None


@dataclass(frozen=True)
class TeamForm:
    """A team database's fields as typed. ``password_typed``: a password was typed (it is
    not given here: it goes to the keyring, never to the profile)."""

    host: str
    port: int
    dbname: str
    user: str
    sslmode: str = "verify-full"
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    password: PasswordMode = "keyring"
    password_typed: bool = False


@dataclass(frozen=True)
class ProfileForm:
    """A profile as typed in the profile dialog. ``pix_keys``: the keys, comma between;
    ``team``: ``None`` for a ledger on this computer."""

    name: str
    environment: str
    apis: Mapping[ApiName, ApiForm]
    pix_keys: str = ""
    proxy_mode: str = "system"
    proxy_url: str = ""
    team: TeamForm | None = None


class ProfileFormError(ProfileError):
    """The form breaks rules: :attr:`reasons` lists each (code, parameters, field), in the
    order of the form; the error's own code is ``profile.form_invalid``."""

    def __init__(self, code: str, /, *, reasons: Sequence[Reason] = (), **params: Any) -> None:
        super().__init__(code, **params)
        self.reasons = tuple(reasons)


def _path(text: str) -> Path:
    return Path(text.strip()).expanduser().absolute()


class _Checks:
    """Runs each check, keeping the first broken rule of each field."""

    def __init__(self) -> None:
        self.reasons: dict[str, Reason] = {}

    def run(self, field: str, check: Callable[..., object], *args: Any) -> None:
        """``check(*args)``; a broken rule is kept on its field (``field`` if it names none)."""
        try:
            check(*args)
        except ProfileError as error:
            self.fail(error.field or field, error.reason.code, **error.params)

    def fail(self, field: str, code: str, **params: Any) -> None:
        self.reasons.setdefault(field, Reason(code, dict(params), field))


def _existing(text: str, field: str) -> Path:
    """The file ``text`` names, which must exist."""
    path = Path(text.strip()).expanduser()
    if not path.is_file():
        raise ProfileError("profile.file_not_found", field=field, path=str(path))
    return path


def _check_pfx(text: str, field: str) -> Path:
    if not text.strip():
        raise ProfileError("profile.pfx_missing", field=field)
    return _existing(text, field)


def _check_ca(text: str, field: str) -> Path:
    if not text.strip():
        raise ProfileError("profile.ca_missing", field=field)
    return _existing(text, field)


def _check_name(name: str, existing: set[str]) -> str:
    validate_profile_name(name)
    if name.casefold() in existing:
        raise ProfileError("profile.name_taken", field="name", name=name)
    return name


def _keys(text: str) -> tuple[str, ...]:
    return tuple(key.strip() for key in text.split(",") if key.strip())


def _check_team(
    checks: _Checks, team: TeamForm, *, keyring_available: bool, password_stored: bool
) -> None:
    for field, text in (
        ("ledger.host", team.host),
        ("ledger.dbname", team.dbname),
        ("ledger.user", team.user),
    ):
        checks.run(field, check_team_word, text, field)
    if team.ca_file.strip():
        checks.run("ledger.ca_file", _existing, team.ca_file, "ledger.ca_file")
    cert, key = team.cert_file.strip(), team.key_file.strip()
    if cert and not key:
        checks.fail("ledger.key_file", "profile.team_cert_without_key")
    elif key and not cert:
        checks.fail("ledger.cert_file", "profile.team_key_without_cert")
    for field, text in (("ledger.cert_file", cert), ("ledger.key_file", key)):
        if text:
            checks.run(field, _existing, text, field)
    if team.password == "keyring" and not keyring_available:
        checks.fail("ledger.password_mode", "profile.team_keyring_unavailable")
    elif team.password == "keyring" and not team.password_typed and not password_stored:
        checks.fail("ledger.password", "profile.team_password_missing")


def _check_fields(
    form: ProfileForm,
    *,
    existing: set[str],
    keyring_available: bool,
    team_password_stored: bool,
) -> _Checks:
    checks = _Checks()
    checks.run("name", _check_name, form.name, existing)
    checks.run("pix_keys", check_pix_keys, _keys(form.pix_keys))
    if form.proxy_mode == "url":
        checks.run("proxy", check_proxy_address, form.proxy_url)
    for api in APIS:
        fields = form.apis[api]
        base_url, client_id = f"{api}.base_url", f"{api}.client_id"
        pfx_path, ca_file = f"{api}.pfx_path", f"{api}.ca_file"
        checks.run(base_url, check_base_url, fields.base_url, base_url)
        checks.run(client_id, check_client_id, fields.client_id, client_id)
        checks.run(pfx_path, _check_pfx, fields.pfx_path, pfx_path)
        if fields.ca_file is not None:
            checks.run(ca_file, _check_ca, fields.ca_file, ca_file)
    if form.team is not None:
        _check_team(
            checks,
            form.team,
            keyring_available=keyring_available,
            password_stored=team_password_stored,
        )
    return checks


def _build(form: ProfileForm, original: Profile | None) -> Profile:
    apis = {
        api: ApiProfile(
            base_url=fields.base_url,
            client_id=fields.client_id,
            pfx_path=_path(fields.pfx_path),
            ca_file=_path(fields.ca_file) if fields.ca_file is not None else None,
            scopes=original.api(api).scopes if original else (),
        )
        for api, fields in form.apis.items()
    }
    ledger = LedgerLocation()
    team = form.team
    if team is not None:

        def path(text: str) -> Path | None:
            return _path(text) if text.strip() else None

        ledger = LedgerLocation(
            location="team",
            team=TeamDatabaseProfile(
                host=team.host,
                port=team.port,
                dbname=team.dbname,
                user=team.user,
                sslmode=team.sslmode,  # type: ignore[arg-type]
                ca_file=path(team.ca_file),
                cert_file=path(team.cert_file),
                key_file=path(team.key_file),
                password=team.password,
            ),
        )
    mode = form.proxy_mode
    profile = Profile(
        name=form.name,
        environment=form.environment,  # type: ignore[arg-type]
        qrcodes=apis["qrcodes"],
        accounts=apis["accounts"],
        pix_keys=_keys(form.pix_keys),
        proxy=ProxySetting(mode=mode, url=form.proxy_url if mode == "url" else None),  # type: ignore[arg-type]
        ledger=ledger,
    )
    if original is None:
        return profile
    # What the form does not show is kept.
    return profile.model_copy(
        update={
            "connect_timeout": original.connect_timeout,
            "read_timeout": original.read_timeout,
            "created_at": original.created_at,
        }
    )


def _model_reasons(error: ValidationError) -> list[Reason]:
    """A rule the models still refuse, on the field it concerns: the model's own rule error
    when it raised one, else ``profile.field_invalid``."""
    known = FORM_FIELDS
    reasons = []
    for item in error.errors(include_url=False, include_input=False):
        cause = item.get("ctx", {}).get("error")
        if isinstance(cause, ProfileError) and cause.field in known:
            reasons.append(cause.reason)
            continue
        location = ".".join(str(part) for part in item["loc"])
        location = location.replace("ledger.team.", "ledger.")
        field = next((name for name in known if location.startswith(name)), "name")
        code = cause.code if isinstance(cause, ProfileError) else "profile.field_invalid"
        params = dict(cause.params) if isinstance(cause, ProfileError) else {}
        reasons.append(Reason(code, params, field))
    return reasons


def check_profile_form(
    form: ProfileForm,
    *,
    existing_names: Iterable[str] = (),
    original: Profile | None = None,
    keyring_available: bool = True,
    team_password_stored: bool = False,
) -> Profile:
    """The profile ``form`` describes, or :class:`ProfileFormError` with every broken rule.

    ``existing_names``: the profiles already saved (compared case-insensitively, as file names
    are on Windows and macOS); ``original``: the profile being edited (its name may stay, and
    what the form does not show is kept: scopes, timeouts, creation time).
    ``keyring_available`` and ``team_password_stored``: whether this computer has a system
    keyring and whether it already holds the team database's password of this profile.
    """
    existing = {name.casefold() for name in existing_names}
    if original is not None:
        existing.discard(original.name.casefold())
    checks = _check_fields(
        form,
        existing=existing,
        keyring_available=keyring_available,
        team_password_stored=team_password_stored,
    )
    reasons = list(checks.reasons.values())
    if not reasons:
        try:
            return _build(form, original)
        except ValidationError as error:
            reasons = _model_reasons(error)
    raise ProfileFormError("profile.form_invalid", reasons=reasons, count=len(reasons))
