"""The typed failures a banner shows, in pt_BR (issue 33): a profile file that cannot be used,
a team database's settings, a proxy's address, a secret the unlock still needs, a sandbox
simulation that did not happen, a certificate, a file in use, the same payment waiting for
approval. Each is provoked for real (the function that raises it, called as the app calls it)
and shown by the error banner: the person reads Portuguese from the error's code, never its
English ``str()`` (kept for logs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QLineEdit

from tests.services.session_fixtures import MemoryKeyring
from tests.ui.test_approvals_ui import desks  # noqa: F401  (the team desks fixture)
from tests.ui.test_failure_words_pt_br import assert_portuguese
from treasury_app.api.connect import ProfileFileError, profile_configs
from treasury_app.api.proxies import ProxyUrlError, check_pac_url, check_proxy_url
from treasury_app.api.tls import CertificateError, load_pfx
from treasury_app.ledger.team.settings import TeamDatabase as TeamDatabaseSettings
from treasury_app.ledger.team.settings import TeamSettingsError
from treasury_app.services.files import FileInUseError
from treasury_app.services.profiles import LedgerLocation, TeamDatabaseProfile
from treasury_app.services.sandbox_console import NotASandbox, SandboxConsole, SandboxRefused
from treasury_app.services.secret_store import SecretStore
from treasury_app.services.session import (
    MissingSecret,
    Session,
    TeamPasswordNeeded,
    open_profile_ledger,
)
from treasury_app.ui.widgets.error_banner import ErrorBanner


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


@pytest.fixture
def empty_keyring() -> Any:
    import keyring

    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    yield
    keyring.set_keyring(previous)


def shown(qtbot: Any, error: BaseException, **fields: Any) -> tuple[str, str]:
    """The title and detail of ``error`` in an error banner, as a tab shows it."""
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    banner.show_error(error, fields or None)
    assert not banner.isHidden()
    return banner.title.text(), banner.detail.text()


def test_a_profile_file_that_cannot_be_used(qtbot, tmp_path: Path, portuguese) -> None:
    missing = tmp_path / "perfil.json"
    with pytest.raises(ProfileFileError) as absent:
        profile_configs(missing)
    assert absent.value.code == "profile_file.missing"
    title, detail = shown(qtbot, absent.value)
    assert title == "O arquivo de perfil não pode ser usado"
    assert detail == f"O arquivo {missing} não existe."
    assert "does not exist" in str(absent.value)  # the command line's English, for logs

    entry = {"base_url": "http://banco.exemplo", "client_id": "id", "pfx": "q.pfx"}
    missing.write_text(json.dumps({"qrcodes": entry, "accounts": entry}), "utf-8")
    with pytest.raises(ProfileFileError) as plain_http:
        profile_configs(missing)
    text = shown(qtbot, plain_http.value)[1]
    assert_portuguese(text, plain_http.value, "API de QR Codes", "https://")

    del entry["client_id"]
    missing.write_text(json.dumps({"qrcodes": entry}), "utf-8")
    with pytest.raises(ProfileFileError) as incomplete:
        profile_configs(missing)
    text = shown(qtbot, incomplete.value)[1]
    assert_portuguese(text, incomplete.value, "“client_id”", "da API de QR Codes")


def test_a_team_database_setting_that_cannot_be_used(qtbot, portuguese) -> None:
    with pytest.raises(TeamSettingsError) as scheme:
        TeamDatabaseSettings.from_url("mysql://ana@db.empresa.com.br/tesouraria")
    title, detail = shown(qtbot, scheme.value)
    assert title == "Verifique as configurações do banco de dados da equipe"
    assert_portuguese(detail, scheme.value, "começa com postgresql://")

    port = QLineEdit()
    qtbot.addWidget(port)
    with pytest.raises(TeamSettingsError) as bad_port:
        TeamDatabaseSettings(host="db.empresa.com.br", dbname="tesouraria", user="ana", port=70000)
    title, detail = shown(qtbot, bad_port.value, port=port)
    assert detail == ("A porta 70000 do banco de dados da equipe não é uma porta (de 1 a 65535).")
    assert port.property("invalid") is True  # the field it concerns, marked

    with pytest.raises(TeamSettingsError) as incomplete:
        TeamDatabaseSettings.from_json({"host": "db.empresa.com.br", "user": "ana"})
    assert_portuguese(shown(qtbot, incomplete.value)[1], incomplete.value, "“dbname”")


def test_a_proxy_address_that_cannot_be_used(qtbot, portuguese) -> None:
    with pytest.raises(ProxyUrlError) as scheme:
        check_proxy_url("ftp://proxy.empresa.com.br:3128")
    title, detail = shown(qtbot, scheme.value)
    assert title == "Verifique o formulário"
    assert detail == "O endereço de um proxy começa com http:// ou https://."

    with pytest.raises(ProxyUrlError) as no_port:
        check_proxy_url("http://ana:s3cret@proxy.empresa.com.br")
    text = shown(qtbot, no_port.value)[1]
    assert text == "O endereço do proxy precisa da porta (http://host:porta)."
    assert "s3cret" not in text

    with pytest.raises(ProxyUrlError) as user:
        check_pac_url("http://ana@pac.empresa.com.br/proxy.pac")
    text = shown(qtbot, user.value)[1]
    assert_portuguese(text, user.value, "script automático de proxy", "nome de usuário")


def test_a_secret_the_unlock_still_needs(
    qtbot, run, sandbox_profile_and_secrets, tmp_path, empty_keyring, portuguese
) -> None:
    from treasury_app.config import AppPaths

    profile, secrets = sandbox_profile_and_secrets
    paths = AppPaths.default(tmp_path)
    with pytest.raises(MissingSecret) as no_client_secret:
        run(
            Session.open(
                profile,
                pfx_passwords=secrets.pfx_passwords,
                secret_store=SecretStore(),  # nothing kept in the keyring
                paths=paths,
            )
        )
    title, detail = shown(qtbot, no_client_secret.value)
    assert title == "É preciso uma senha"
    assert detail == (
        "Informe o client secret da API de QR Codes (nenhum está guardado no chaveiro do "
        "sistema para este perfil)."
    )

    with pytest.raises(MissingSecret) as no_password:
        run(
            Session.open(
                profile,
                pfx_passwords={"qrcodes": "x"},
                client_secrets=secrets.client_secrets,
                paths=paths,
            )
        )
    text = shown(qtbot, no_password.value)[1]
    assert text == "Informe a senha do certificado da API de Contas."

    team = TeamDatabaseProfile(
        host="db.empresa.com.br", dbname="tesouraria", user="ana", password="ask"
    )
    on_team = profile.model_copy(update={"ledger": LedgerLocation(location="team", team=team)})
    with pytest.raises(TeamPasswordNeeded) as team_password:
        run(open_profile_ledger(on_team, paths))  # asked before any connection
    title, detail = shown(qtbot, team_password.value)
    assert title == "É preciso uma senha"
    assert detail == (
        "Informe a senha do banco de dados da equipe (ana@db.empresa.com.br:5432/tesouraria)."
    )


def test_a_simulation_that_did_not_happen(qtbot, run, open_workspace, portuguese) -> None:
    workspace = open_workspace()
    real_bank = SandboxConsole(
        workspace.session.accounts.transport, workspace.recurrences, sandbox=False
    )
    with pytest.raises(NotASandbox) as not_a_sandbox:
        run(real_bank.decide_pix("E" + "0" * 31, approve=True))
    title, detail = shown(qtbot, not_a_sandbox.value)
    assert title == "A simulação não foi feita"
    assert_portuguese(detail, not_a_sandbox.value, "sandbox")

    with pytest.raises(SandboxRefused) as refused:  # the sandbox knows no such payment
        run(workspace.sandbox.decide_pix("E" + "0" * 31, approve=True))
    assert refused.value.code == "payment.not_found"
    text = shown(qtbot, refused.value)[1]
    assert_portuguese(text, refused.value)
    assert refused.value.detail not in text and "/sandbox/" not in text and "404" not in text


def test_a_certificate_that_cannot_be_opened(qtbot, sandbox_profile_and_secrets, portuguese):
    profile, _secrets = sandbox_profile_and_secrets
    with pytest.raises(CertificateError) as wrong:
        load_pfx(profile.api("qrcodes").pfx_path, "senha-errada")
    title, detail = shown(qtbot, wrong.value)
    assert title == "O certificado não pode ser usado"
    assert_portuguese(detail, wrong.value, "Senha errada")


def test_a_file_in_use_raised_by_a_service(qtbot, tmp_path: Path, portuguese) -> None:
    error = FileInUseError(tmp_path / "extrato.csv")  # as services.files.replace_file raises it
    title, detail = shown(qtbot, error)
    assert_portuguese(title, None)
    assert_portuguese(detail, error, "extrato.csv", "outro programa")


def test_a_bug_is_a_general_sentence_never_its_english(qtbot, portuguese) -> None:
    with pytest.raises(ValueError) as bug:
        int("R$ 10,00")
    title, detail = shown(qtbot, bug.value)
    assert title == "Não foi possível concluir"
    assert_portuguese(detail, bug.value, "log")


def test_the_same_payment_waiting_for_approval(qtbot, run, desks, portuguese) -> None:
    from treasury_app.ledger.team.schema import MAKER
    from treasury_app.ui.tabs.payouts_tab import PayoutsTab

    ana = desks.open("ana", MAKER)
    tab = PayoutsTab(ana)
    qtbot.addWidget(tab)
    key = f"repetido.{desks.tag}@empresa.com.br"
    first = run(tab.send(run(ana.payouts.prepare_key(key, "12,34"))))
    assert first is not None and first.approval == "WAITING", tab.banner.detail.text()
    again = run(tab.send(run(ana.payouts.prepare_key(key, "12,34"))))
    assert again is None
    assert tab.banner.title.text() == "O mesmo pagamento aguarda aprovação"
    text = tab.banner.detail.text()
    assert_portuguese(text, None, desks.login("ana"), f"nº {first.id}")
    assert "waits for approval already" not in text
    tab.shutdown()


def test_a_lost_answer_in_the_recurrence_wizard(qtbot, run, portuguese, open_workspace) -> None:
    from tests.ui.test_recurrence_wizard import REVIEW_PAGE, choose, click, fill_terms
    from tests.waiting import qt_wait_until
    from treasury_app.ui.dialogs.recurrence_wizard import RecurrenceWizard

    workspace = open_workspace()
    wizard = RecurrenceWizard(workspace)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitExposed(wizard)
    choose(qtbot, wizard, 2)
    contract = fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE
    http = workspace.session.accounts.transport.http
    rule = {"api": "qrcodes", "method": "POST", "path": "*/rec", "drop_after_commit": 1}
    assert run(http.post("/sandbox/faults", json={**rule, "times": 1})).status_code in (200, 201)
    try:
        click(qtbot, wizard.create_button)
        qt_wait_until(qtbot, wizard.create_task.done, "wizard.create_task done")
    finally:
        run(http.delete("/sandbox/faults"))
    assert wizard.create_task.result() is None
    detail = wizard.banner.detail.text()
    assert_portuguese(detail, None, contract)
    assert "[POST" not in detail and "/rec" not in detail  # never the client's English
