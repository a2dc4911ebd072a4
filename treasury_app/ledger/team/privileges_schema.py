"""What people's roles may do with schemas 1 and 2 (read, the granted functions, the
few columns they insert); each later schema adds its own (``PRIVILEGES_SQL`` of its module).
"""

from __future__ import annotations

from treasury_app.ledger.team.roles_schema import APPROVER, MAKER, VIEWER

PRIVILEGES_SQL = f"""
REVOKE ALL ON SCHEMA treasury FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA treasury FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA treasury FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA treasury FROM PUBLIC;
GRANT USAGE ON SCHEMA treasury TO {MAKER}, {APPROVER}, {VIEWER};
GRANT SELECT ON ALL TABLES IN SCHEMA treasury TO {MAKER}, {APPROVER}, {VIEWER};
GRANT EXECUTE ON FUNCTION treasury.is_admin(), treasury.lp(text), treasury.stamp(),
    treasury.audit_link(text, treasury.audit) TO {MAKER}, {APPROVER}, {VIEWER};
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON treasury.journal, treasury.journal_history,
    treasury.approvals, treasury.policies, treasury.person_limits
    FROM {MAKER}, {APPROVER}, {VIEWER};
GRANT EXECUTE ON FUNCTION treasury.has_role(text), treasury.brl(numeric),
    treasury.stamp_of(timestamptz), treasury.brasilia_day_start(),
    treasury.content_hash(text, text, text, text, numeric, text, text, text),
    treasury.needed(treasury.policies, numeric, boolean), treasury.current_policy(),
    treasury.valid_approvals(treasury.journal), treasury.approved_today(text),
    treasury.eligible_approvers(bigint), treasury.paid_before(text, text, text)
    TO {MAKER}, {APPROVER}, {VIEWER};
GRANT EXECUTE ON FUNCTION
    treasury.prepare(text, text, text, text, numeric, text, text, text, text, text, text),
    treasury.edit(bigint, numeric, text, text), treasury.withdraw(bigint, text),
    treasury.approve(bigint, text), treasury.reject(bigint, text),
    treasury.approve_batch(text, text, bigint[], text[])
    TO {MAKER}, {APPROVER};  -- each checks the caller's role itself, and says so
GRANT EXECUTE ON FUNCTION
    treasury.record(bigint, text, text, boolean, text, text, text, text, text),
    treasury.release(bigint, text), treasury.expire_approvals(bigint)
    TO {MAKER}, {APPROVER};
GRANT UPDATE (entry_id) ON treasury.entry_claims TO {MAKER}, {APPROVER};
GRANT INSERT (at, profile, action, outcome, reference, amount, details) ON treasury.audit
    TO {MAKER}, {APPROVER}, {VIEWER};
GRANT INSERT ON treasury.receipt_files TO {MAKER}, {APPROVER};
GRANT INSERT (sha256, kind, bank_id, entry_id, payee_name, amount, paid_on, saved_at, size),
    UPDATE (sha256, size, entry_id) ON treasury.receipts TO {MAKER}, {APPROVER};
GRANT INSERT (id, created_at, profile, label, file_sha256, signature, rows, total)
    ON treasury.batches TO {MAKER}, {APPROVER};
GRANT USAGE ON ALL SEQUENCES IN SCHEMA treasury TO {MAKER}, {APPROVER};
"""
"""Schemas 1 and 2's share of :data:`.schema.PRIVILEGES_SQL` (idempotent, applied after
every migration)."""
