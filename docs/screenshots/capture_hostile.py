"""Screens of files and settings from outside, read as hostile, at 1366×768, English and
pt_BR (run by hand, under Xvfb):

    xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python docs/screenshots/capture_hostile.py [pt_BR]

A 10,000-row payout batch being read behind its progress bar (Cancel at hand); a Windows-1252
file with a NUL, an ESC and a quote left open, its bad lines listed beside the good rows; a
production profile's CA file warned about; a changed bank address and CA confirmed with the
new host and the CA's SHA-256 fingerprint. Captured with Qt's own screen grab (the whole X
screen), with the helpers of ``capture_desk.py``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from capture_desk import (  # also puts the repository on sys.path
    pause,
    run_capture,
    shot,
    unlocked_sandbox,
)

if TYPE_CHECKING:
    from treasury_app.services.profiles import Profile

ROWS = 10_000
# A pt-BR Excel's "CSV (separado por vírgulas)": Windows-1252, CRLF. Line 3 has a NUL in a
# cell, line 5 an ESC (a terminal colour code), line 7 a quote never closed (the last line:
# a quote left open swallows the lines after it).
HOSTILE = (
    "chave;valor;descricao\r\n"
    "grafica@empresa.com.br;1.234,56;Impressão de catálogos\r\n"
    "limpeza@empresa.com.br;980,00;Serviço de limpeza\x00 — novembro\r\n"
    "frete@empresa.com.br;1.045,84;Frete para São José\r\n"
    "aluguel@empresa.com.br;600,00;\x1b[31mAluguel\x1b[0m do depósito\r\n"
    "energia@empresa.com.br;400,00;Conta de energia elétrica\r\n"
    'agua@empresa.com.br;"250,00;Conta de água\r\n'
)


def big_batch(folder: Path) -> Path:
    """ROWS payouts by key with long descriptions (some 1.4 MB: well under the 20 MB cap)."""
    path = folder / "fornecedores-novembro.csv"
    lines = [
        f"fornecedor{i:05d}@empresa.com.br;{i % 900 + 10},{i % 100:02d};"
        f"NF {40000 + i} - serviços prestados em novembro, centro de custo {i % 37:02d}, "
        f"contrato {i % 211:03d}/2026"
        for i in range(ROWS)
    ]
    path.write_text("chave;valor;descricao\r\n" + "\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def production_profile(folder: Path) -> Profile:
    """A production profile: its Accounts API behind a CA file, and the files it names."""
    from cryptography.hazmat.primitives import serialization

    from treasury_app.sandbox import pki
    from treasury_app.services.profiles import ApiProfile, Profile

    for name in ("qrcodes.pfx", "accounts.pfx"):
        (folder / name).write_bytes(b"not read by the dialog")
    for name, common_name in (
        ("raiz.pem", "Banco Exemplo Root CA"),
        ("raiz2027.pem", "Banco Exemplo Root CA 2027"),
    ):
        certificate = pki.new_ca(common_name).cert
        (folder / name).write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return Profile(
        name="Banco Exemplo",
        environment="production",
        qrcodes=ApiProfile(
            base_url="https://pix.bancoexemplo.com.br/v2",
            client_id="tesouraria-qr",
            pfx_path=folder / "qrcodes.pfx",
        ),
        accounts=ApiProfile(
            base_url="https://contas.bancoexemplo.com.br",
            client_id="tesouraria-contas",
            pfx_path=folder / "accounts.pfx",
            ca_file=folder / "raiz.pem",
        ),
    )


async def main(lang: str | None) -> None:
    from PySide6.QtWidgets import QLineEdit

    from treasury_app.config import AppPaths
    from treasury_app.services.endpoints import EndpointConfirmations
    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog

    suffix = f"-{lang}" if lang else ""
    desk = await unlocked_sandbox("treasury-hostile-")
    window, run = desk.window, desk.run
    await pause(2.0)
    window.tabs.setCurrentIndex(1)
    tab = window.current_tab()
    # A short fixed folder: its path is shown in the profile dialog and the confirmation.
    folder = Path(tempfile.gettempdir()) / "bancoexemplo"
    folder.mkdir(parents=True, exist_ok=True)

    # A 10,000-row file being read: the bar part-way, Cancel at hand.
    big = big_batch(folder)
    tab.open_batch()
    batch = tab.batch_dialog
    await pause(0.5)
    task = batch.load_file(big)
    assert task is not None
    grabbed = 0  # the share shown in the last grab: any part-way, then nearer the middle
    while not task.done():
        value = batch.reader.bar.value()
        if (
            batch.reader.isVisible()
            and 0 < value < 100
            and value != grabbed
            and not 35 <= grabbed <= 65
        ):
            shot(f"hostile-csv-reading{suffix}")
            grabbed = value
        await pause(0.02)
    print("reading bar grabbed at", grabbed, "%")
    if not grabbed:
        print("the file was read before the bar moved: use a larger file")
    batch.reject()
    await pause(0.3)

    # A Windows-1252 file with a NUL, an ESC and a quote left open, and good rows.
    hostile = folder / "pagamentos-excel.csv"
    hostile.write_bytes(HOSTILE.encode("cp1252"))
    tab.open_batch()
    batch = tab.batch_dialog
    task = batch.load_file(hostile)
    assert task is not None
    while not task.done():
        await pause(0.05)
    await pause(0.8)
    shot(f"hostile-csv-errors{suffix}")
    batch.reject()
    await pause(0.3)

    # A production profile whose Accounts API trusts a CA file: the warning under it.
    profile = production_profile(folder)
    endpoints = EndpointConfirmations(
        AppPaths.default(Path(tempfile.mkdtemp(prefix="treasury-endpoints-")))
    )
    await endpoints.confirm(profile.name, endpoints.pending(profile), confirmed_in="profile dialog")
    dialog = ProfileDialog(profile=profile, endpoints=endpoints, parent=window)
    dialog.open()
    await pause(1.0)
    shot(f"hostile-ca-warning{suffix}")

    # Its bank address and CA changed: confirmed with the new host and fingerprint.
    dialog.findChild(QLineEdit, "accounts-base-url").setText(
        "https://api.novobancoexemplo.com.br:8443/contas/v3"
    )
    dialog.findChild(QLineEdit, "accounts-ca-file").setText(str(folder / "raiz2027.pem"))
    dialog.save_button.click()
    while dialog.endpoint_box is None or not dialog.endpoint_box.isVisible():
        await pause(0.1)
    await pause(0.8)
    shot(f"hostile-endpoint-confirm{suffix}")
    dialog.endpoint_box.reject()
    await pause(0.3)
    dialog.reject()
    await pause(0.3)

    window.quit_requested.emit()
    await run


if __name__ == "__main__":
    run_capture(main)
