"""QR Codes API webhooks end to end: the sandbox delivers the spec's `pix`, `recs` and
`cobsr` payloads over mutual TLS to a receiver in this process, at `<url>/pix|rec|cobr`."""

from pathlib import Path

from tests.sandbox.test_automatico import cobr_body, rec_body
from tests.sandbox.test_cashin import cob_body
from tests.sandbox.test_notifier import Receiver
from tests.sandbox_harness import running_sandbox
from tests.waiting import await_until
from treasury_app.domain.identifiers import new_txid
from treasury_app.domain.money import loads_json
from treasury_app.sandbox.pki import ensure_pki
from treasury_app.sandbox.seed import COMPANY


async def test_pix_rec_and_cobr_payloads_reach_the_receiver(tmp_path):
    with running_sandbox(tmp_path, "--clock-start", "2026-11-18T13:00:00Z") as sandbox:
        receiver = Receiver(ensure_pki(Path(sandbox.ready["ca_file"]).parent))
        url = await receiver.start()
        with sandbox.client("qrcodes") as qr:
            auth = {"Authorization": f"Bearer {sandbox.token(qr, 'qrcodes')}"}
            chave = cob_body()["chave"]
            assert chave in COMPANY["keys"]
            assert (
                qr.put(
                    f"/webhook/{chave}", headers=auth, json={"webhookUrl": f"{url}/hooks"}
                ).status_code
                == 200
            )
            for kind in ("webhookrec", "webhookcobr"):
                assert (
                    qr.put(f"/{kind}", headers=auth, json={"webhookUrl": f"{url}/auto"}).status_code
                    == 200
                )

            txid = new_txid()
            assert qr.put(f"/cob/{txid}", headers=auth, json=cob_body()).status_code == 201
            paid = sandbox.control(
                "POST",
                "/sandbox/cashin/pay",
                json={"txid": txid, "payer": {"name": "Maria", "cpf": "40364478829"}},
            )
            assert paid.status_code == 201, paid.text

            rec = qr.post("/rec", headers=auth, json=rec_body())
            assert rec.status_code == 201, rec.text
            id_rec = rec.json()["idRec"]
            approved = sandbox.control("POST", f"/sandbox/automatico/rec/{id_rec}/approve")
            assert approved.status_code == 200
            cobr = qr.post("/cobr", headers=auth, json=cobr_body(id_rec))
            assert cobr.status_code == 201, cobr.text

        def received(path):
            return [
                loads_json(body)
                for line, _h, body, _cn in receiver.requests
                if line.split()[1] == path
            ]

        await await_until(
            lambda: received("/hooks/pix") and received("/auto/rec") and received("/auto/cobr"),
            "the pix, rec and cobr notifications",
        )
    pix = received("/hooks/pix")[0]["pix"][0]
    assert pix["txid"] == txid and pix["chave"] == chave
    assert pix["valor"] == "123.45"
    assert {"endToEndId", "horario"} <= set(pix)
    statuses = [r["recs"][0]["status"] for r in received("/auto/rec")]
    assert statuses[-1] == "APROVADA"
    assert received("/auto/rec")[0]["recs"][0]["idRec"] == id_rec
    cobsr = received("/auto/cobr")[0]["cobsr"][0]
    assert cobsr["idRec"] == id_rec and cobsr["txid"] == cobr.json()["txid"]
    assert all(cn == "Sandbox Bank Notifier" for *_rest, cn in receiver.requests)
