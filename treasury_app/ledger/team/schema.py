"""The team database's schema: versioned migrations, roles and privileges.

Everything lives in schema ``treasury``, owned by the ``NOLOGIN`` role ``treasury_owner``
(used only through the audited ``treasury-admin`` commands). People log in with roles of
their own, members of the group roles:

* ``treasury_maker`` and ``treasury_approver`` — read everything; append to the audit, store
  receipts and batches; change the journal **only through the database's functions**
  (``SECURITY DEFINER``, owned by ``treasury_owner``, ``search_path`` pinned), which check the
  approval policy against ``session_user``: makers ``prepare``, ``edit`` and ``withdraw``;
  approvers ``approve``, ``reject`` and ``approve_batch``; both ``release`` an approved
  intent (``PREPARED → SENT``) and ``record`` the bank's answers;
* ``treasury_viewer`` — read only (and append audit rows of its own: a session opened).

The database, not the client, writes who did what: every journal, history, audit, receipt and
batch row takes ``session_user`` from a trigger (a client cannot name someone else). The audit
is append-only by privilege (INSERT and SELECT only) and by trigger (UPDATE, DELETE and
TRUNCATE raise, whoever runs them), and hash-chained: ``hash = sha256(prev_hash || canonical
row)`` in ``seq`` order (:mod:`treasury_app.ledger.team.chain` recomputes it the same way).
Since schema 5 (:mod:`~treasury_app.ledger.team.feed_schema`) a row is chained (*sealed*) by
whoever holds the one-row ``audit_head``, taken with ``SKIP LOCKED``: nobody waits for it.

Maker-checker (migration 2): a versioned policy (``policies``; an intent keeps the version it
was prepared under) says how many approvals an intent needs — by amount, plus one for a payee
never paid before — and per-person limits (``person_limits``) cap what one approver approves
per payment and per Brasília day. An approval (``approvals``) is bound to the intent's content
hash (:func:`treasury.content_hash`); changing the content voids it, and approvals expire.
The journal's trigger refuses ``PREPARED → SENT`` (or any move but to ``REJECTED``) without
the valid approvals its policy asks for, whoever runs the update.

Every change of a journal entry is also a row of ``changes`` (up to schema 4 numbered from the
one-row ``change_head`` locked until commit; since schema 5 read by snapshot, with no lock),
followed by one ``NOTIFY treasury_changes`` per transaction (an empty payload: identical
notifications of one transaction collapse).
"""

from __future__ import annotations

from treasury_app.ledger.team import (
    codes_schema,
    dual_control_schema,
    feed_schema,
    integrity_schema,
    journal_schema,
    privileges_schema,
    receiver_schema,
    registry_schema,
    schedule_schema,
    trust_schema,
)
from treasury_app.ledger.team.dual_control_schema import DEFAULT_POLICY_SQL, SUCCESS_SQL
from treasury_app.ledger.team.journal_schema import GENESIS
from treasury_app.ledger.team.receiver_schema import RECEIVER
from treasury_app.ledger.team.roles_schema import (
    APPROVER,
    CHANNEL,
    MAKER,
    OWNER,
    PERSON_ROLES,
    ROLES_SQL,
    SCHEMA,
    VIEWER,
)

__all__ = [
    "APPROVER",
    "CHANNEL",
    "DEFAULT_POLICY_SQL",
    "GENESIS",
    "MAKER",
    "MIGRATIONS",
    "OWNER",
    "PERSON_ROLES",
    "PRIVILEGES_SQL",
    "RECEIVER",
    "ROLES_SQL",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SUCCESS_SQL",
    "VIEWER",
]

MIGRATIONS: tuple[str, ...] = (
    journal_schema.MIGRATION_SQL,  # 1: journal, history, audit chain, receipts, batches, changes
    # 2: maker-checker approvals (policy, limits, approvals; every write through functions)
    dual_control_schema.MIGRATION_SQL,
    # 3: what the bank notified (the webhook receiver, treasury_app/receiver)
    receiver_schema.MIGRATION_SQL,
    integrity_schema.MIGRATION_SQL,  # 4: claims, the engine's moves, the bank's word, money
    feed_schema.MIGRATION_SQL,  # 5: no head locked to commit (audit sealed, feed by snapshot)
    trust_schema.MIGRATION_SQL,  # 6: stale sessions ended, reasons, receipts checked, codes
    codes_schema.MIGRATION_SQL,  # 7: notes and errors naming who acted are codes, not English
    schedule_schema.MIGRATION_SQL,  # 8: scheduled payments: not sent before their pay date
    registry_schema.MIGRATION_SQL,  # 9: the payee registry: four eyes on where money goes
)

SCHEMA_VERSION = len(MIGRATIONS)

PRIVILEGES_SQL = privileges_schema.PRIVILEGES_SQL
"""Applied after every migration (idempotent): nobody but the owner holds more than this."""
PRIVILEGES_SQL += receiver_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += integrity_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += feed_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += trust_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += schedule_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += registry_schema.PRIVILEGES_SQL
