"""What the team database refuses a person reaches them as a rule's code, in their language,
never as the database's English MESSAGE (issue 33); and the reasons an approval is void, or
an intent was withdrawn by ``treasury-admin``, are words too.

Each person acts with their own login through the database's functions, as a desktop does;
the error is mapped by the store's own :func:`database_refusal` and put into words by the
UI's :func:`ledger_refusal_words`, with the pt_BR translation installed.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.ledger.test_approvals_db import as_person, give_exactly, prepare_raw, superuser
from tests.ledger_backends import TeamDatabases, opened_ledger
from treasury_app.domain.errors import Reason
from treasury_app.ledger.errors import LedgerRefused
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.ledger.team import codes_schema
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team.schema import APPROVER, MAKER, PERSON_ROLES, VIEWER
from treasury_app.ledger.team.store import (
    RULE_ERRORS,
    ApprovalRefused,
    ReceiptRefused,
    TeamDatabaseRefused,
    TeamReceipts,
    database_refusal,
)

pytestmark = pytest.mark.usefixtures("team_databases")

PEOPLE: dict[str, tuple[str, ...]] = {
    "ana": (MAKER,),
    "bruno": (APPROVER,),
    "carla": (APPROVER,),
    "eva": (MAKER, APPROVER),
    "vera": (VIEWER,),
}
ONE_APPROVAL: dict[str, Any] = {"new_payee_extra": 0}
"""One approval up to R$ 10.000,00 (two above), nothing more for a new payee."""
NO_APPROVAL: dict[str, Any] = {"approvals": 0, "approvals_above": 0, "new_payee_extra": 0}

ENGLISH = re.compile(r"\b(entry|journal|approvals?|reviewed|limit|only|prepared|is|the)\b")
"""Words of the database's English messages that no pt_BR refusal may hold."""


@pytest.fixture(scope="module")
def team_people(team_databases: TeamDatabases) -> dict[str, tuple[str, ...]]:
    return give_exactly(team_databases, PEOPLE, (*PERSON_ROLES, VIEWER))


@pytest.fixture
def pt_br(qapp: Any) -> Iterator[None]:
    from PySide6.QtCore import QTranslator

    from treasury_app.resources import translations_dir

    translator = QTranslator()
    assert translator.load("treasury_pt_BR", str(translations_dir()))
    assert qapp.installTranslator(translator)
    try:
        yield
    finally:
        qapp.removeTranslator(translator)


def words(error: LedgerRefused) -> str:
    from treasury_app.ui.refusals import ledger_refusal_words

    return ledger_refusal_words(error)


def refusal(call: Callable[[], object]) -> LedgerRefused:
    """What the store raises for the database's refusal of ``call``."""
    try:
        call()
    except RULE_ERRORS as error:
        return database_refusal(error)
    raise AssertionError("the team database did not refuse it")


def entry_hash(conn: psycopg.Connection[Any], entry: int) -> str:
    row = conn.execute("SELECT content_hash FROM treasury.journal WHERE id = %s", (entry,))
    found = row.fetchone()
    assert found is not None
    return str(found["content_hash"])


@contextlib.contextmanager
def logins(team: TeamDatabases, database: str) -> Iterator[dict[str, psycopg.Connection[Any]]]:
    with contextlib.ExitStack() as stack:
        yield {name: stack.enter_context(as_person(team, database, name)) for name in PEOPLE}


@pytest.mark.usefixtures("team_people", "pt_br")
def test_every_refusal_a_person_meets_is_a_code_in_portuguese(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with superuser(team_databases, database) as admin:
        team_migrations.set_limits(
            admin, "carla", payment_limit=Decimal("500.00"), daily_limit=None
        )
    seen: dict[str, tuple[LedgerRefused, str]] = {}

    def check(call: Callable[[], object], code: str, text: str) -> None:
        error = refusal(call)
        assert error.reason.code == code, (error.reason, str(error))
        said = words(error)
        if code == "team.over_limit":  # every approver login of the cluster is named
            others = str(error.reason.params["others"])
            named = others.split(", ")  # logins of other tests on the cluster may hold "carla"
            assert "bruno" in named and "carla" not in named
            text = text.replace("{others}", others)
        assert said == text
        assert not ENGLISH.search(said), said
        seen[code] = (error, said)

    with logins(team_databases, database) as who:
        ana, bruno, carla, eva, vera = (who[name] for name in PEOPLE)
        waiting = prepare_raw(ana, "100.00")
        big = prepare_raw(ana, "800.00")
        own = prepare_raw(eva, "70.00")
        pid = waiting["id"]

        def run(conn: psycopg.Connection[Any], query: str, *args: Any) -> Callable[[], object]:
            return lambda: conn.execute(query, args).fetchall()

        prepare = "SELECT * FROM treasury.prepare('PIX_KEY', 'F', '', %s, %s, '', 'INSTANT', %s,"
        prepare += " '{}', 'p', NULL)"
        check(
            run(bruno, prepare, "x@example.com", Decimal("10.00"), str(uuid.uuid4())),
            "team.not_a_maker",
            "Seu login (bruno) não prepara pagamentos na equipe: só quem prepara pagamentos os "
            "prepara, altera ou retira.",
        )
        check(
            run(ana, "SELECT * FROM treasury.approve(%s, %s)", pid, waiting["content_hash"]),
            "team.not_an_approver",
            "Seu login (ana) não aprova pagamentos na equipe: só os aprovadores os aprovam ou "
            "rejeitam.",
        )
        check(
            run(eva, "SELECT * FROM treasury.withdraw(%s, 'mine now')", pid),
            "team.maker_only",
            "Só ana, que preparou este pagamento, pode alterá-lo ou retirá-lo.",
        )
        check(
            run(eva, "SELECT * FROM treasury.approve(%s, %s)", own["id"], own["content_hash"]),
            "team.own_approve",
            "Você preparou este pagamento: outra pessoa precisa aprová-lo.",
        )
        check(
            run(eva, "SELECT * FROM treasury.reject(%s, 'no')", own["id"]),
            "team.own_reject",
            "Você preparou este pagamento: retire-o em vez de rejeitá-lo.",
        )
        check(
            run(ana, prepare, "y@example.com", Decimal("0"), str(uuid.uuid4())),
            "team.not_money",
            "O valor deve ser maior que zero, em reais e centavos, no máximo "
            "R$ 9.999.999.999.999,99.",
        )
        check(
            run(bruno, "SELECT * FROM treasury.approve(%s, 'x')", 987654321),
            "team.no_entry",
            "Este pagamento não está no registro de operações da equipe.",
        )
        check(
            run(bruno, "SELECT * FROM treasury.approve(%s, 'not what was reviewed')", pid),
            "team.changed_since_review",
            "Este pagamento mudou desde que você o revisou (o valor ou a descrição): revise-o "
            "de novo.",
        )
        check(
            run(carla, "SELECT * FROM treasury.approve(%s, %s)", big["id"], big["content_hash"]),
            "team.over_limit",
            "R$ 800,00 está acima do seu limite de aprovação (R$ 500,00 por pagamento, sem "
            "limite por dia, R$ 0,00 aprovados hoje): é preciso a aprovação de {others}.",
        )
        check(
            run(bruno, "SELECT * FROM treasury.reject(%s, '  ')", pid),
            "team.reject_reason_missing",
            "Diga por que ele é rejeitado.",
        )
        check(
            run(ana, "SELECT * FROM treasury.withdraw(%s, '')", pid),
            "team.withdraw_reason_missing",
            "Diga por que ele é retirado.",
        )
        check(
            run(ana, "SELECT treasury.claim(%s)", pid),
            "team.too_few_approvals",
            "Este pagamento tem 0 das 1 aprovações de que precisa: não é enviado.",
        )
        check(
            run(bruno, "SELECT * FROM treasury.approve_batch('no-such-batch', 'x', '{}', '{}')"),
            "team.batch_not_waiting",
            "Nenhum pagamento deste lote está mais aguardando aprovação.",
        )
        batch = f"batch-{uuid.uuid4().hex[:8]}"
        prepare_raw(ana, "30.00", batch=batch)
        check(
            run(bruno, "SELECT * FROM treasury.approve_batch(%s, 'stale', '{}', '{}')", batch),
            "team.batch_changed",
            "Este lote mudou desde que você o revisou: revise-o de novo.",
        )
        check(
            run(vera, "SELECT * FROM treasury.approve(%s, %s)", pid, waiting["content_hash"]),
            "team.permission_denied",
            "Seu login não pode fazer esta alteração no banco de dados da equipe; peça ao "
            "administrador dele o papel certo.",
        )
        check(
            run(
                ana,
                "SELECT * FROM treasury.store_receipt(%s, 'PIX', 'E1', '%%PDF-1.4', 'F', NULL)",
                pid,
            ),
            "team.receipt_not_completed",
            "O banco não concluiu este pagamento: não há comprovante a guardar.",
        )
        check(
            run(
                ana,
                "SELECT * FROM treasury.record(%s, NULL, 'SENT', NULL, NULL, NULL, NULL, 'x',"
                " NULL, 'answer')",
                pid,
            ),
            "team.entry_claim",
            "Outro computador está enviando ou conferindo este pagamento, ou ele ainda não pode "
            "ser enviado: nada foi registrado aqui.",
        )
        ana.execute("SELECT * FROM treasury.withdraw(%s, 'not needed')", (pid,))
        check(
            run(bruno, "SELECT * FROM treasury.approve(%s, %s)", pid, waiting["content_hash"]),
            "team.not_waiting",
            "Este pagamento não está mais aguardando aprovação (retirado).",
        )
        check(
            run(ana, "SELECT * FROM treasury.edit(%s, 90, 'NF', '{}')", pid),
            "team.not_waiting",
            "Este pagamento não está mais aguardando aprovação (retirado).",
        )

    with superuser(team_databases, database) as admin:
        team_migrations.set_policy(admin, **NO_APPROVAL)
    with logins(team_databases, database) as who:
        free = prepare_raw(who["ana"], "20.00")
        check(
            run(who["eva"], "SELECT treasury.claim(%s)", free["id"]),
            "team.maker_sends",
            "Só ana, que preparou este pagamento, o envia.",
        )
    # each refusal a person's call meets carries its coded note: the database's MESSAGE is
    # only for psql and the logs
    for code, (error, _said) in seen.items():
        assert isinstance(error, ApprovalRefused) or code == "team.permission_denied"
        assert isinstance(error, TeamDatabaseRefused)
    coded = {code.removeprefix("team.") for code in seen} & codes_schema.REFUSALS
    assert coded == codes_schema.REFUSALS - {codes_schema.READ_ONLY}  # no login reaches it


async def test_the_store_raises_the_code_a_desk_shows_in_portuguese(
    team_databases: TeamDatabases,
    team_people: dict[str, tuple[str, ...]],
    tmp_path: Path,
    pt_br: None,
) -> None:
    """Through a desktop's own ledger (the pool, the store's error mapping) and the error
    banner's words."""
    from PySide6.QtCore import QCoreApplication

    from treasury_app.ui.widgets.error_banner import friendly_message

    database = team_databases.new_database(policy=ONE_APPROVAL)
    with as_person(team_databases, database, "ana") as ana:
        waiting = prepare_raw(ana, "100.00")
    async with opened_ledger("team", tmp_path / "ana", user="ana", database=database) as ledger:
        assert ledger.approvals is not None
        with pytest.raises(ApprovalRefused) as refused:
            await ledger.approvals.approve(waiting["id"], waiting["content_hash"])
    assert refused.value.reason == Reason("team.not_an_approver", {"login": "ana"})
    title, detail = friendly_message(refused.value)  # the banner translates the title
    assert QCoreApplication.translate("ErrorBanner", title) == (
        "Recusado pelo banco de dados da equipe"
    )
    assert detail.startswith("Seu login (ana) não aprova pagamentos na equipe")


async def test_a_receipt_without_its_payment_is_a_code_in_portuguese(
    tmp_path: Path, pt_br: None
) -> None:
    receipts = TeamReceipts(None, tmp_path)  # type: ignore[arg-type]  # refused before any call
    with pytest.raises(ReceiptRefused) as refused:
        await receipts.save(b"%PDF-1.4 receipt", kind="PIX", bank_id="E1")
    assert refused.value.reason.code == "team.receipt_without_entry"
    assert words(refused.value) == (
        "Um comprovante é guardado com o pagamento a que pertence, e este não pertence a nenhum "
        "pagamento do registro de operações da equipe."
    )


@pytest.mark.usefixtures("team_people", "pt_br")
def test_void_reasons_and_an_administrators_withdrawal_are_words_in_portuguese(
    team_databases: TeamDatabases,
) -> None:
    from treasury_app.ui.status_words import decision_reason_word, void_reason_word

    database = team_databases.new_database(policy=ONE_APPROVAL)
    with logins(team_databases, database) as who:
        changed = prepare_raw(who["ana"], "100.00")
        expired = prepare_raw(who["ana"], "60.00")
        for entry in (changed, expired):
            who["bruno"].execute(
                "SELECT treasury.approve(%s, %s)", (entry["id"], entry["content_hash"])
            )
        who["ana"].execute("SELECT treasury.edit(%s, 90, 'NF 12', '{}')", (changed["id"],))
    with superuser(team_databases, database) as admin:
        admin.execute(
            "UPDATE treasury.journal SET approvals_expire_at = '2000-01-01T00:00:00.000Z'"
            " WHERE id = %s",
            (expired["id"],),
        )
        admin.execute("SELECT treasury.expire_approvals(%s)", (expired["id"],))
        stored = {
            row["entry_id"]: row["void_reason"]
            for row in admin.execute(
                "SELECT entry_id, void_reason FROM treasury.approvals WHERE void_reason IS NOT NULL"
            ).fetchall()
        }
    # the database keeps its fixed keys; each is a code the UI words
    assert stored == {
        changed["id"]: codes_schema.VOID_CONTENT_CHANGED,
        expired["id"]: codes_schema.VOID_EXPIRED,
    }
    assert team_migrations.REMOVED_REASON == codes_schema.VOID_PERSON_REMOVED
    assert set(stored.values()) < codes_schema.VOID_REASONS
    assert [void_reason_word(reason) for reason in sorted(codes_schema.VOID_REASONS)] == [
        "o valor ou a descrição mudou",  # content changed
        "a aprovação expirou",  # expired
        "o aprovador foi removido da equipe",  # person removed
    ]
    assert void_reason_word("archived") == "Outro (código desconhecido)"

    def ended(reason: str, error: str) -> Entry:
        return Entry(
            id=1,
            kind=EntryKind.PIX_KEY,
            payee_name="F",
            payee_document="",
            payee_detail="x",
            amount=Decimal("1.00"),
            description="",
            payment_flow="INSTANT",
            idempotency_key="k",
            request_json="{}",
            state=EntryState.REJECTED,
            bank_status=None,
            final=True,
            end_to_end_id=None,
            bank_id=None,
            error=error,
            created_at="",
            updated_at="",
            created_by="ana",
            profile="p",
            batch=None,
            decision_reason=reason,
        )

    removed = codes_schema.coded(codes_schema.REMOVED_WITHDRAWN, login="ana", by="postgres")
    assert decision_reason_word(ended("person removed", removed)) == (
        "quem o preparou foi removido da equipe"
    )
    legacy = "Withdrawn by postgres: ana removed"  # the error written before schema 7
    assert decision_reason_word(ended("person removed", legacy)) == (
        "quem o preparou foi removido da equipe"
    )
    typed = codes_schema.coded(codes_schema.WITHDRAWN, by="ana", reason="person removed")
    assert decision_reason_word(ended("person removed", typed)) == "person removed"  # as typed


def test_no_desktop_code_reads_the_receivers_notes_for_administrators() -> None:
    """``notifications.detail`` (the webhook receiver's note on a notification) is for the
    administrators' logs (``treasury-admin notifications``): no module a desktop runs reads
    ``treasury.notifications``, so it is never shown to a person."""
    root = Path(__file__).resolve().parents[2] / "treasury_app"
    admins = {root / "ledger" / "team" / "admin.py"}
    readers = sorted(
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if "treasury.notifications" in path.read_text("utf-8")
        and path not in admins
        and not path.name.endswith("_schema.py")
        and "receiver" not in path.relative_to(root).parts
    )
    assert readers == []
    assert "treasury.notifications" in (root / "ledger" / "team" / "admin.py").read_text("utf-8")
