"""Screens of the payee registry (issue 36) at 1366×768 with a 30 px title bar and a 40 px
taskbar taken off the screen, English and pt_BR (run by hand, under Xvfb):

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python \\
        docs/screenshots/capture_payees.py [pt_BR]

* ``payees-registry``: the Payees tab of the app on its sandbox (a single desktop): payees,
  one payee's destinations with their states, its history;
* ``payees-batch-review``: a payout batch matched to the registry, each row's status;
* ``payees-change-waiting``: in a team, bruno's Payees tab with the Pix key ana added waiting
  for his approval (a throwaway PostgreSQL, ``tests/pg_server``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # capture_desk's helpers
sys.path.insert(0, str(HERE.parents[1]))  # tests.pg_server

from capture_desk import OUT, pause, run_capture, unlocked_sandbox  # noqa: E402
from capture_words import TASKBAR, TITLE_BAR, tab_index, wait_for  # noqa: E402

PAYEES = (
    ("Papelaria Central Ltda", "11.222.333/0001-81", "fornecedor", "pix@papelaria.com.br"),
    ("Gráfica Expressa", "12.ABC.345/01DE-35", "fornecedor, gráfica", "contas@grafica.com.br"),
    ("Transportes Rápido Sul", "45.723.174/0001-10", "frete", "+5511987654321"),
    ("Maria da Silva", "529.982.247-25", "funcionária", "maria.silva@example.com"),
)


async def shot(name: str) -> None:
    from PySide6.QtWidgets import QApplication

    await pause(0.6)
    QApplication.primaryScreen().grabWindow(0).save(str(OUT / f"{name}.png"))
    print("captured", name)


def placed(widget: Any) -> None:
    widget.move(0, TITLE_BAR)
    widget.resize(1366, 768 - TITLE_BAR - TASKBAR)


async def registry_screens(suffix: str) -> None:
    desk = await unlocked_sandbox("treasury-payees-")
    window, run = desk.window, desk.run
    placed(window)
    await pause(2.0)
    index = tab_index(window, "payees-tab")
    if index < 0:
        index = [str(window.tabs.tabText(i)) for i in range(window.tabs.count())].index(
            window.tr("Payees")
        )
    window.tabs.setCurrentIndex(1)
    workspace = window.current_tab().workspace
    service = workspace.payees
    ids = {}
    for name, document, tags, key in PAYEES:
        payee = await service.save_payee(name, document, tags)
        await service.add(payee.id, service.key(key))
        ids[name] = payee.id
    papelaria = ids["Papelaria Central Ltda"]
    account = service.account("60746948", "1234", "98765-4", "CACC")
    await service.add(papelaria, account)
    old = await service.add(papelaria, service.key("financeiro@papelaria.com.br"))
    # the bank confirmed one key; another was changed after an e-mail, then blocked
    await workspace.ledger.payees.settled(
        "pix@papelaria.com.br", 1, "PAPELARIA CENTRAL LTDA", "11222333000181"
    )
    await service.change(
        papelaria, old.destination_id, service.key("novo-financeiro@papelaria.com.br")
    )
    await service.block(old.destination_id, "Pedido por e-mail não confirmado por telefone")

    window.tabs.setCurrentIndex(index)
    tab = window.current_tab()
    await tab.reload()
    tab.search.setText("papel")
    await wait_for(lambda: tab.detail is not None)
    tab.destination_list.selectRow(0)
    await shot(f"payees-registry{suffix}")

    # A payout batch matched to the registry.
    window.tabs.setCurrentIndex(1)
    payouts = window.current_tab()
    csv = (
        "chave;valor;descricao\n"
        "pix@papelaria.com.br;1.234,56;NF 1021\n"
        "contas@grafica.com.br;980,00;NF 88\n"
        "+5511987654321;1.045,84;Frete novembro\n"
        "desconhecido@fornecedor.com.br;600,00;NF 3\n"
    )
    path = Path(tempfile.mkdtemp()) / "pagamentos.csv"
    path.write_text(csv, encoding="utf-8")
    payouts.open_batch()
    batch = payouts.batch_dialog
    await batch.load_file(path)
    await pause(1.0)
    await shot(f"payees-batch-review{suffix}")
    batch.reject()
    await pause(0.3)
    window.quit_requested.emit()
    await run


async def team_screen(suffix: str) -> None:
    import psycopg

    from tests.pg_server import start_server
    from treasury_app.ledger.team import TeamDatabaseSettings, migrations, open_team_ledger
    from treasury_app.services.payees import PayeeService
    from treasury_app.ui.tabs.payees_tab import PayeesTab

    root = Path(tempfile.mkdtemp(prefix="treasury-payees-team-"))
    server = start_server(root / "pg")
    server.create_database("treasury")
    with psycopg.connect(server.url("treasury"), autocommit=True) as conn:
        migrations.init(conn)
        for person in ("ana", "bruno"):
            migrations.add_user(conn, person, ("treasury_maker", "treasury_approver"))

    def settings(user: str) -> TeamDatabaseSettings:
        return TeamDatabaseSettings(
            host=server.host, port=server.port, dbname="treasury", user=user, sslmode="disable"
        )

    ana = await open_team_ledger(
        settings("ana"), profile="Sandbox", password=None, receipts_dir=root / "ana"
    )
    bruno = await open_team_ledger(
        settings("bruno"), profile="Sandbox", password=None, receipts_dir=root / "bruno"
    )
    try:
        made = PayeeService(ana)
        for name, document, tags, key in PAYEES[:3]:
            payee = await made.save_payee(name, document, tags)
            await made.add(payee.id, made.key(key))
        grafica = (await made.search("Gráfica"))[0].payee
        await made.add(grafica.id, made.account("00360305", "0001", "123456-7", "CACC"))
        from types import SimpleNamespace

        workspace = SimpleNamespace(ledger=bruno, payees=PayeeService(bruno))
        tab = PayeesTab(workspace)  # type: ignore[arg-type]
        placed(tab)
        tab.show()
        await tab.reload()
        tab.search.setText("Gráfica")
        await wait_for(lambda: tab.detail is not None)
        tab.pending_list.selectRow(3)
        await shot(f"payees-change-waiting{suffix}")
        tab.close()
    finally:
        await ana.close()
        await bruno.close()
        server.stop()


async def main(lang: str | None) -> None:
    suffix = f"-{lang}" if lang else ""
    await registry_screens(suffix)
    await team_screen(suffix)


if __name__ == "__main__":
    run_capture(main)
