"""A route the app refuses (a proxy asking for a login, an automatic proxy script that cannot
be used) is shown in words, in pt_BR too, with the bank's hosts that IT must let through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from treasury_app.api.errors import ProxyFailure
from treasury_app.domain.errors import Reason
from treasury_app.ui import rule_words
from treasury_app.ui.widgets.error_banner import friendly_message

QM = Path(__file__).resolve().parents[2] / "resources/translations/treasury_pt_BR.qm"
HOSTS = "pix.bank.example, accounts.bank.example:8443"


def refusal(code: str, **params: Any) -> ProxyFailure:
    return ProxyFailure(
        code,
        proxy="proxy.corp:8080",
        method="GET",
        path="/x",
        request_sent=False,
        status=407,
        reason=Reason(code, params),
    )


def test_every_proxy_code_has_words() -> None:
    codes = {code for code in rule_words.RULES if code.startswith("proxy.")}
    assert codes == {
        "proxy.integrated_login",
        "proxy.login_required",
        "proxy.pac_fetch",
        "proxy.pac_too_large",
        "proxy.pac_syntax",
        "proxy.pac_timeout",
        "proxy.pac_runtime",
        "proxy.pac_answer",
        "proxy.pac_engine",
        # a proxy's or a script's address that cannot be used (ProxyUrlError)
        "proxy.address_empty",
        "proxy.address_invalid",
        "proxy.address_scheme",
        "proxy.address_port",
        "proxy.address_path",
        "proxy.script_empty",
        "proxy.script_invalid",
        "proxy.script_scheme",
        "proxy.script_user",
    }


def test_an_integrated_login_names_the_hosts(qapp: Any) -> None:
    title, detail = friendly_message(
        refusal("proxy.integrated_login", proxy="proxy.corp:8080", hosts=HOSTS, schemes="NTLM")
    )
    assert title == "The proxy asks for a login"
    assert "integrated Windows login (Negotiate/NTLM)" in detail
    assert detail.endswith(f": {HOSTS}.")


@pytest.fixture
def portuguese(qapp: Any) -> Any:
    translator = QTranslator()
    assert translator.load(str(QM))
    QCoreApplication.installTranslator(translator)
    yield
    QCoreApplication.removeTranslator(translator)


def test_in_portuguese(portuguese: Any) -> None:
    _, detail = friendly_message(
        refusal("proxy.integrated_login", proxy="proxy.corp:8080", hosts=HOSTS, schemes="NTLM")
    )
    assert detail.startswith("O proxy proxy.corp:8080 pede o login integrado do Windows")
    assert detail.endswith(f": {HOSTS}.")
    title, detail = friendly_message(
        refusal("proxy.pac_timeout", script="http://pac.corp/proxy.pac")
    )
    assert title == "The automatic proxy script cannot be used"  # translated by show_error
    assert detail.startswith("O script automático de proxy http://pac.corp/proxy.pac demorou")
