"""Failures outside the app's rules, in pt_BR (issue 33): a file that cannot be saved, a picture
that is not a QR Code, the team database offline, a ledger that cannot be opened, the bank that
cannot be reached. Each is provoked for real and shown where the app shows it; the person reads
Portuguese, never Python's, the operating system's, httpx's or psycopg's English."""

from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from tests.waiting import qt_wait_until
from treasury_app.api.errors import TransportFailure, transport_failure
from treasury_app.ledger.db import LedgerVersionError
from treasury_app.ledger.db import connect as connect_ledger
from treasury_app.ledger.errors import LedgerUnavailable
from treasury_app.ledger.receipts import Receipt
from treasury_app.ledger.team import TeamDatabaseOffline, open_team_ledger
from treasury_app.ledger.team.settings import TeamDatabase as TeamDatabaseSettings
from treasury_app.resources import translations_dir
from treasury_app.ui.failure_words import failure_words

# What Python, the operating system, httpx and psycopg say in English (never shown).
ENGLISH = (
    "errno",
    "permission denied",
    "is a directory",
    "access is denied",
    "no such file",
    "connection refused",
    "connection to server",
    "all connection attempts failed",
    "failed",
    "could not",
    "cannot be",
    "traceback",
    "the team database",
    "the bank",
)


def _english_sources() -> set[str]:
    """The catalogue's English sentences that have a different pt_BR translation."""
    root = ET.parse(translations_dir() / "treasury_pt_BR.ts").getroot()
    found = set()
    for message in root.iter("message"):
        source = message.findtext("source") or ""
        translation = message.findtext("translation") or ""
        if source and translation and source != translation and len(source) > 12:
            found.add(source)
    return found


def assert_portuguese(text: str, error: BaseException | None, *expected: str) -> None:
    """``text`` is the Portuguese of ``error``: what ``expected`` says, none of the error's own
    English, none of the catalogue's English sources."""
    assert text.strip(), "nothing said"
    lowered = text.lower()
    if error is not None:
        assert str(error).lower() not in lowered
    assert [word for word in ENGLISH if word in lowered] == [], text
    assert [source for source in _english_sources() if source in text] == [], text
    for words in expected:
        assert words in text, (words, text)


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


@pytest.fixture
def closed_port() -> int:
    """A local port nothing listens on (taken from the system, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _offline(run: Any, port: int, tmp_path: Path) -> TeamDatabaseOffline:
    """The team database at an unreachable port, as the unlock meets it."""
    settings = TeamDatabaseSettings(
        host="127.0.0.1", dbname="treasury", user="ana", port=port, sslmode="disable"
    )
    with pytest.raises(TeamDatabaseOffline) as caught:
        run(open_team_ledger(settings, profile="t", password="x", receipts_dir=tmp_path))
    return caught.value


# -- files ------------------------------------------------------------------------------------


def test_a_receipt_that_cannot_be_saved_says_why_in_portuguese(
    qtbot, open_workspace, monkeypatch, portuguese
) -> None:
    from treasury_app.ui.receipt_names import suggested_receipt_name
    from treasury_app.ui.tabs import billets_tab
    from treasury_app.ui.tabs.billets_tab import BilletsTab

    workspace = open_workspace()
    tab = BilletsTab(workspace)
    qtbot.addWidget(tab)
    monkeypatch.setattr(billets_tab, "receipt_viewer_class", lambda: None)  # saved as a file
    receipts = workspace.ledger.receipts.directory
    receipt = Receipt(
        id=1,
        sha256="0" * 64,
        kind="BILLET",
        bank_id="b-1",
        entry_id=None,
        payee_name="Pasta no Caminho Ltda",
        amount=Decimal("12.34"),
        paid_on="2026-11-18",
        saved_at="2026-11-18T13:00:00Z",
        size=8,
        path=receipts / "r.pdf",
    )
    # A folder already has the receipt's name: it cannot be written there (on any system).
    name = suggested_receipt_name("BILLET", "2026-11-18", "Pasta no Caminho Ltda", Decimal("12.34"))
    in_the_way = receipts / name
    in_the_way.mkdir(parents=True)
    try:
        tab.present_receipt(b"%PDF-1.4", receipt, SimpleNamespace())  # type: ignore[arg-type]
        assert tab.banner.isVisibleTo(tab)
        assert tab.banner.title.text() == "Não foi possível salvar o comprovante"
        assert_portuguese(tab.banner.detail.text(), None, name)
        assert in_the_way.is_dir() and not list(receipts.glob(".*.part"))
    finally:
        in_the_way.rmdir()


def test_a_qr_code_that_cannot_be_saved_says_why_in_portuguese(
    qtbot, run, open_workspace, tmp_path, portuguese
) -> None:
    from treasury_app.ui.dialogs.charge_qr_dialog import ChargeQrDialog

    workspace = open_workspace()
    cob = run(workspace.charges.create_cob(amount=Decimal("9.90"), key=workspace.pix_keys[0]))
    dialog = ChargeQrDialog(cob)
    qtbot.addWidget(dialog)
    folder = tmp_path / "cobranca.png"
    folder.mkdir()  # a folder where the file would go
    with pytest.raises(OSError) as raw:
        dialog.save_qr(folder)
    assert dialog.save_selected(str(folder)) is None
    assert dialog.banner.isVisibleTo(dialog)
    assert dialog.banner.title.text() == "Não foi possível salvar o QR Code"
    assert_portuguese(dialog.banner.detail.text(), raw.value, "“cobranca.png”")


@pytest.mark.parametrize("kind", ["is_a_directory", "denied", "missing", "disk_full", "unknown"])
def test_each_kind_of_file_error_has_portuguese_words(kind: str, portuguese) -> None:
    import errno

    error = {
        "is_a_directory": IsADirectoryError(errno.EISDIR, "Is a directory", "/x/recibo.pdf"),
        "denied": PermissionError(errno.EACCES, "Permission denied", "/x/recibo.pdf"),
        "missing": FileNotFoundError(errno.ENOENT, "No such file or directory", "/x/recibo.pdf"),
        "disk_full": OSError(errno.ENOSPC, "No space left on device", "/x/recibo.pdf"),
        "unknown": OSError(errno.EIO, "Input/output error", "/x/recibo.pdf"),
    }[kind]
    assert_portuguese(failure_words(error), error, "“recibo.pdf”")


# -- a picture that is not a QR Code ----------------------------------------------------------


def test_a_picture_that_is_not_a_qr_code_says_why_in_portuguese(
    qtbot, open_workspace, tmp_path, portuguese
) -> None:
    from treasury_app.ui.tabs.payouts_tab import PayoutsTab

    tab = PayoutsTab(open_workspace())
    qtbot.addWidget(tab)
    not_an_image = tmp_path / "foto.png"
    not_an_image.write_text("not a picture", "utf-8")
    try:
        assert not tab.load_qr_image(not_an_image)
        assert tab.banner.title.text() == "Não foi possível ler o QR Code"
        assert_portuguese(tab.banner.detail.text(), None, "“foto.png”", "PNG ou JPEG")
    finally:
        tab.shutdown()


# -- the team database ------------------------------------------------------------------------


class OfflineDesk:
    """An approvals desk whose team database is at a port nothing listens on."""

    me = "ana"
    can_approve = True
    can_prepare = True
    password_required = False

    def __init__(self, run: Any, port: int, tmp_path: Path) -> None:
        self.port = port
        self.tmp_path = tmp_path
        self.raised: list[BaseException] = []

    def subscribe(self, listener: Any) -> Any:
        return lambda: None

    async def lists(self) -> Any:
        settings = TeamDatabaseSettings(
            host="127.0.0.1", dbname="treasury", user="ana", port=self.port, sslmode="disable"
        )
        try:
            await open_team_ledger(settings, profile="t", password="x", receipts_dir=self.tmp_path)
        except LedgerUnavailable as error:
            self.raised.append(error)
            raise
        raise AssertionError("a team database answered at a closed port")


def test_the_team_database_offline_in_the_approvals_tab_in_portuguese(
    qtbot, run, closed_port, tmp_path, portuguese
) -> None:
    from treasury_app.ui.tabs.approvals_tab import ApprovalsTab

    desk = OfflineDesk(run, closed_port, tmp_path)
    workspace = SimpleNamespace(
        session=SimpleNamespace(approvals=desk, team=object()),
        ledger=SimpleNamespace(clock=lambda: None),
    )
    tab = ApprovalsTab(workspace)  # type: ignore[arg-type]
    qtbot.addWidget(tab)
    qt_wait_until(qtbot, lambda: tab.load_task is not None and tab.load_task.done(), "load")
    assert tab.load_task is not None and tab.load_task.result() is False
    [error] = desk.raised
    assert isinstance(error, TeamDatabaseOffline) and error.kind == "refused"
    assert tab.banner.isVisibleTo(tab)
    assert tab.banner.title.text() == "Não é possível acessar o banco de dados da equipe"
    assert_portuguese(
        tab.banner.detail.text(),
        error,
        f"127.0.0.1:{closed_port} recusou a conexão",
        "O aplicativo continua tentando reconectar.",
    )
    tab.close()


def test_the_team_database_offline_in_the_unlock_dialog_and_the_approval_dialog(
    qtbot, run, closed_port, tmp_path, portuguese
) -> None:
    from treasury_app.ui.dialogs.approval_dialog import refusal_text
    from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog
    from treasury_app.ui.widgets.error_banner import ErrorBanner

    error = _offline(run, closed_port, tmp_path)
    assert error.reason.code == "team.offline_refused"
    assert dict(error.reason.params) == {"host": "127.0.0.1", "port": str(closed_port)}
    assert "connection" in str(error).lower()  # the English is for the log

    dialog = UnlockDialog(_a_profile(tmp_path))
    qtbot.addWidget(dialog)
    dialog.show_team_error(error, ask_password=False)
    assert_portuguese(dialog.message.text(), error, "recusou a conexão")
    assert_portuguese(refusal_text(error), error, "recusou a conexão")
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    banner.show_error(error)
    assert banner.title.text() == "Não é possível acessar o banco de dados da equipe"
    assert_portuguese(banner.detail.text(), error, "recusou a conexão")


def test_a_ledger_of_a_newer_version_in_the_unlock_dialog(qtbot, tmp_path, portuguese) -> None:
    import sqlite3

    from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog

    path = tmp_path / "ledger.sqlite3"
    with sqlite3.connect(path) as conn:  # a ledger written by a future version of the app
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO schema_version VALUES (999)")
    with pytest.raises(LedgerVersionError) as caught:
        connect_ledger(path)
    error = caught.value
    assert error.reason.code == "ledger.newer_schema"
    dialog = UnlockDialog(_a_profile(tmp_path))
    qtbot.addWidget(dialog)
    dialog.show_team_error(error, ask_password=False)
    assert_portuguese(
        dialog.message.text(), error, "“ledger.sqlite3”", "versão mais nova", "esquema 999"
    )


def _a_profile(tmp_path: Path) -> Any:
    from treasury_app.services.profiles import ApiProfile, Profile

    api = ApiProfile(base_url="https://127.0.0.1:1", client_id="id", pfx_path=tmp_path / "cert.pfx")
    return Profile(name="empresa", environment="production", qrcodes=api, accounts=api)


# -- the bank ---------------------------------------------------------------------------------


def test_the_bank_out_of_reach_in_the_banner_in_portuguese(
    qtbot, run, closed_port, portuguese
) -> None:
    from treasury_app.ui.widgets.error_banner import ErrorBanner

    async def send() -> None:  # as the transport does with httpx's failure
        async with httpx.AsyncClient(base_url=f"https://127.0.0.1:{closed_port}") as client:
            try:
                await client.get("/api/v2/accounts/balance")
            except httpx.TransportError as error:
                raise transport_failure(error, method="GET", path="/balance") from None

    with pytest.raises(TransportFailure) as caught:
        run(send())
    error = caught.value
    assert not error.request_sent
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    banner.show_error(error)
    assert banner.title.text() == "Não foi possível falar com o banco"
    assert_portuguese(banner.detail.text(), error, f"(127.0.0.1:{closed_port})", "verifique a rede")


def test_an_expired_certificate_in_portuguese(portuguese) -> None:
    import datetime as dt

    from treasury_app.api.tls import CertificateExpired

    error = CertificateExpired(
        "The certificate CN=empresa expired on 2026-11-01.",
        subject="CN=empresa",
        not_after=dt.datetime(2026, 11, 1, 15, 0, tzinfo=dt.UTC),
    )
    assert_portuguese(failure_words(error), error, "CN=empresa", "venceu em 01/11/2026")
