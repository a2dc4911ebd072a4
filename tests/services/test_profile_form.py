"""The profiles service checks a profile form in one place (issue 33): every broken rule is a
reason with its code and field, all at once; a good form becomes the profile, keeping what the
form does not show of the profile it edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from treasury_app.domain.errors import Reason
from treasury_app.services.profile_form import (
    FORM_FIELDS,
    ApiForm,
    ProfileForm,
    ProfileFormError,
    TeamForm,
    check_profile_form,
)


@pytest.fixture
def pfx(tmp_path: Path) -> Path:
    path = tmp_path / "client.pfx"
    path.write_bytes(b"not read here")
    return path


def form(pfx: Path, **changes: object) -> ProfileForm:
    values: dict[str, object] = {
        "name": "Main bank",
        "environment": "production",
        "apis": {
            "qrcodes": ApiForm("https://q.bank.example/v2/", " q-id ", str(pfx)),
            "accounts": ApiForm("https://a.bank.example", "a-id", str(pfx)),
        },
        **changes,
    }
    return ProfileForm(**values)  # type: ignore[arg-type]


def reasons(checked: ProfileForm, **context: object) -> dict[str, Reason]:
    with pytest.raises(ProfileFormError) as refused:
        check_profile_form(checked, **context)  # type: ignore[arg-type]
    assert refused.value.code == "profile.form_invalid"
    assert refused.value.params == {"count": len(refused.value.reasons)}
    found = {reason.field or "": reason for reason in refused.value.reasons}
    assert set(found) <= set(FORM_FIELDS)
    return found


def test_a_good_form_is_the_profile(pfx: Path) -> None:
    profile = check_profile_form(form(pfx, pix_keys=" a@b.com , a@b.com,"))
    assert profile.qrcodes.base_url == "https://q.bank.example/v2"
    assert profile.qrcodes.client_id == "q-id"
    assert profile.qrcodes.pfx_path == pfx and profile.pix_keys == ("a@b.com",)
    assert not profile.ledger.is_team and profile.proxy.mode == "system"


def test_every_broken_rule_is_a_reason_on_its_field(pfx: Path, tmp_path: Path) -> None:
    missing = tmp_path / "gone.pem"
    found = reasons(
        form(
            pfx,
            name="main BANK",
            apis={
                "qrcodes": ApiForm("ftp://q.bank.example", "", "", ca_file=""),
                "accounts": ApiForm("https://a.bank.example#x", "a", str(pfx), str(missing)),
            },
            pix_keys="x" * 78,
            proxy_mode="url",
            proxy_url="http://user:secret@proxy.example:8080",
            team=TeamForm(host="", port=5432, dbname="tre asury", user="ana", cert_file="c"),
        ),
        existing_names=["Main bank"],
        keyring_available=False,
    )
    codes = {field: reason.code for field, reason in found.items()}
    assert codes == {
        "name": "profile.name_taken",
        "pix_keys": "profile.pix_key_too_long",
        "proxy": "profile.proxy_credentials",
        "qrcodes.base_url": "profile.url_not_https",
        "qrcodes.client_id": "profile.client_id_missing",
        "qrcodes.pfx_path": "profile.pfx_missing",
        "qrcodes.ca_file": "profile.ca_missing",
        "accounts.base_url": "profile.url_query",
        "accounts.ca_file": "profile.file_not_found",
        "ledger.host": "profile.team_host_missing",
        "ledger.dbname": "profile.team_spaces",
        "ledger.key_file": "profile.team_cert_without_key",
        "ledger.cert_file": "profile.file_not_found",
        "ledger.password_mode": "profile.team_keyring_unavailable",
    }
    assert found["accounts.ca_file"].params == {"path": str(missing)}
    assert "secret" not in str(found["proxy"])  # a proxy's password is never repeated


def test_an_edited_profile_keeps_its_name_and_what_the_form_does_not_show(pfx: Path) -> None:
    original = check_profile_form(form(pfx)).model_copy(update={"read_timeout": 42.0})
    edited = check_profile_form(form(pfx), existing_names=["Main bank"], original=original)
    assert edited.read_timeout == 42.0 and edited.created_at == original.created_at


def test_a_team_password_kept_in_the_keyring_is_typed_once(pfx: Path) -> None:
    team = TeamForm(host="db.example", port=5432, dbname="treasury", user="ana")
    assert reasons(form(pfx, team=team))["ledger.password"].code == (
        "profile.team_password_missing"
    )
    assert check_profile_form(form(pfx, team=team), team_password_stored=True).ledger.is_team
    typed = TeamForm(
        host="db.example", port=5432, dbname="treasury", user="ana", password_typed=True
    )
    assert check_profile_form(form(pfx, team=typed)).ledger.team.user == "ana"  # type: ignore[union-attr]
