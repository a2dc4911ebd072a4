"""Schema 7 of the team database: what it writes for people to read is codes, not English.

The history notes and the journal's ``error`` that name who acted were English sentences
(``approved by bruno (1 of 2)``, ``Withdrawn by ana: not needed``), which the desktops had to
match with patterns to put into words. From schema 7 each is a **coded note**: a JSON object
with a ``code`` and its parameters, the text of ``jsonb`` (keys in ``jsonb``'s order)::

    {"by": "bruno", "code": "approved", "given": 1, "needed": 2}

A desktop reads a note or an error that starts with ``{`` and parses as an object with a
string ``code`` as a coded note (:func:`read_coded`); anything else is what it was before (a
desktop's own note such as ``no answer``, the bank's message). The codes:

* ``approved`` (``by``, ``given``, ``needed``): a history note of :func:`treasury.approve`;
* ``rejected`` and ``withdrawn`` (``by``): a history note of :func:`treasury.decide`; the same
  code with the ``reason`` too is the journal's ``error`` of the intent ended;
* ``changed`` (``void``: the approvals voided): a history note of :func:`treasury.edit`;
* ``removed_withdrawn`` (``login`` removed, ``by`` the administrator): the history note and
  the error of an intent withdrawn by ``treasury-admin remove-user --withdraw-waiting``;
* ``removed_void`` (``approver``, ``given``, ``needed``): the history note of an approval that
  command voids.

**Refusals.** Each exception a person's call can meet carries, as its ``DETAIL``, a coded
note too (``{"code": "over_limit", "amount": "5000.00", ...}``), written by
:func:`treasury.refuse`; its ``MESSAGE`` stays the English sentence it was (for ``psql`` and
the logs), its SQLSTATE and constraint name as they were. The helpers that refuse
(``require_role``, ``require_maker_of``, ``refuse_own_entry``, ``check_amount``,
``locked_entry``, ``waiting_entry``) and ``claim`` and ``approve_batch`` are replaced, with
only their raising changed. The codes are :data:`REFUSALS`; the desktops read them
(:mod:`treasury_app.ledger.team.store`) and put them into words.

Rows written before schema 7 keep their English sentences; the desktops still read those
(:mod:`treasury_app.ui.status_words`). Migrations 1 to 6 are unchanged: this one replaces, in
full, the functions that wrote such sentences (``approve`` of schema 4, ``decide`` of schema
6, ``edit`` of schema 2), each with only its note or error changed.
"""

from __future__ import annotations

import json
from typing import Any

from treasury_app.ledger.team.integrity_schema import AMOUNT_CODE, CLAIM_CODE, MAX_SQL
from treasury_app.ledger.team.roles_schema import APPROVER, MAKER
from treasury_app.ledger.team.trust_schema import END_REASON_CODE

APPROVED = "approved"
REJECTED = "rejected"
WITHDRAWN = "withdrawn"
CHANGED = "changed"
REMOVED_WITHDRAWN = "removed_withdrawn"
REMOVED_VOID = "removed_void"
CODES = frozenset({APPROVED, REJECTED, WITHDRAWN, CHANGED, REMOVED_WITHDRAWN, REMOVED_VOID})
"""Every code a coded note of the team database has (see the table above)."""

# The reasons an approval is void (``approvals.void_reason``), fixed keys since schema 2,
# written as they are: by treasury.expire_approvals, treasury.edit and ``treasury-admin
# remove-user`` (which also gives the last as the ``decision_reason`` of what it withdraws).
VOID_EXPIRED = "expired"
VOID_CONTENT_CHANGED = "content changed"
VOID_PERSON_REMOVED = "person removed"
VOID_REASONS = frozenset({VOID_EXPIRED, VOID_CONTENT_CHANGED, VOID_PERSON_REMOVED})
"""Every reason the team database gives a void approval (a code each: the UI words them)."""

# The refusals: what a function of the team database refuses a person, as the DETAIL of its
# exception (a coded note; the MESSAGE stays English, for psql and the logs).
NOT_A_MAKER = "not_a_maker"
NOT_AN_APPROVER = "not_an_approver"
READ_ONLY = "read_only"
MAKER_ONLY = "maker_only"
OWN_APPROVE = "own_approve"
OWN_REJECT = "own_reject"
NOT_MONEY = "not_money"
NO_ENTRY = "no_entry"
NOT_WAITING = "not_waiting"
CHANGED_SINCE_REVIEW = "changed_since_review"
OVER_LIMIT = "over_limit"
REJECT_REASON_MISSING = "reject_reason_missing"
WITHDRAW_REASON_MISSING = "withdraw_reason_missing"
TOO_FEW_APPROVALS = "too_few_approvals"
MAKER_SENDS = "maker_sends"
BATCH_NOT_WAITING = "batch_not_waiting"
BATCH_CHANGED = "batch_changed"
REFUSALS = frozenset(
    {
        NOT_A_MAKER,
        NOT_AN_APPROVER,
        READ_ONLY,
        MAKER_ONLY,
        OWN_APPROVE,
        OWN_REJECT,
        NOT_MONEY,
        NO_ENTRY,
        NOT_WAITING,
        CHANGED_SINCE_REVIEW,
        OVER_LIMIT,
        REJECT_REASON_MISSING,
        WITHDRAW_REASON_MISSING,
        TOO_FEW_APPROVALS,
        MAKER_SENDS,
        BATCH_NOT_WAITING,
        BATCH_CHANGED,
    }
)
"""Every code of a refusal of the team database (the DETAIL of its exception, see above)."""


def coded(code: str, **params: Any) -> str:
    """A coded note as :func:`treasury.coded` writes it (for ``treasury-admin``'s own)."""
    return json.dumps({"code": code, **params}, ensure_ascii=False, sort_keys=True)


def read_coded(text: str | None) -> tuple[str, dict[str, Any]] | None:
    """The code and parameters of a coded note; ``None`` when ``text`` is not one (a
    desktop's note, the bank's message, an English sentence of a row older than schema 7)."""
    if not text or not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("code"), str):
        return None
    params = {key: item for key, item in value.items() if key != "code"}
    return value["code"], params


MIGRATION_SQL = f"""
    -- A coded note: {{"code": p_code}} and p_params, as text (see codes_schema.py).
    CREATE FUNCTION treasury.coded(p_code text, p_params jsonb) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT (jsonb_build_object('code', p_code) || coalesce(p_params, '{{}}'::jsonb))::text
    $f$;

    -- A refusal: SQLSTATE p_errcode, constraint p_constraint (when not NULL), the English
    -- message p_message for psql and the logs, and as DETAIL the coded note p_code with
    -- p_params, which the desktops put into words (see codes_schema.py).
    CREATE FUNCTION treasury.refuse(p_errcode text, p_constraint text, p_message text,
            p_code text, p_params jsonb) RETURNS void
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF p_constraint IS NULL THEN
            RAISE EXCEPTION USING MESSAGE = p_message, ERRCODE = p_errcode,
                DETAIL = treasury.coded(p_code, p_params);
        END IF;
        RAISE EXCEPTION USING MESSAGE = p_message, ERRCODE = p_errcode,
            CONSTRAINT = p_constraint, DETAIL = treasury.coded(p_code, p_params);
    END $f$;

    -- The checks the journal's functions share, as schema 2 made them, each refusal coded:
    -- not a maker, not an approver, neither (a viewer).
    CREATE OR REPLACE FUNCTION treasury.require_role(p_refusal text, VARIADIC p_roles text[])
        RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM unnest(p_roles) AS r WHERE treasury.has_role(r)) THEN
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                session_user || ' ' || p_refusal,
                CASE WHEN p_roles = ARRAY['{MAKER}'] THEN '{NOT_A_MAKER}'
                     WHEN p_roles = ARRAY['{APPROVER}'] THEN '{NOT_AN_APPROVER}'
                     ELSE '{READ_ONLY}' END,
                jsonb_build_object('login', session_user));
        END IF;
    END $f$;

    CREATE OR REPLACE FUNCTION treasury.require_maker_of(j treasury.journal, p_verb text)
        RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF j.created_by <> session_user OR NOT treasury.has_role('{MAKER}') THEN
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                format('only %s (who prepared entry %s) %s', j.created_by, j.id, p_verb),
                '{MAKER_ONLY}', jsonb_build_object('entry', j.id, 'maker', j.created_by));
        END IF;
    END $f$;

    CREATE OR REPLACE FUNCTION treasury.refuse_own_entry(j treasury.journal, p_instead text)
        RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF j.created_by = session_user THEN
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                format('you prepared entry %s: %s', j.id, p_instead),
                CASE WHEN p_instead = 'withdraw it instead' THEN '{OWN_REJECT}'
                     ELSE '{OWN_APPROVE}' END, jsonb_build_object('entry', j.id));
        END IF;
    END $f$;

    CREATE OR REPLACE FUNCTION treasury.check_amount(p_amount numeric) RETURNS void
        LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF p_amount IS NULL OR NOT treasury.is_money(p_amount) THEN
            PERFORM treasury.refuse('check_violation', '{AMOUNT_CODE}',
                format('the amount must be more than zero, at most %s, in reais and centavos',
                    treasury.brl({MAX_SQL})),
                '{NOT_MONEY}', jsonb_build_object('maximum', '{MAX_SQL}'));
        END IF;
    END $f$;

    CREATE OR REPLACE FUNCTION treasury.locked_entry(p_entry bigint) RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
    BEGIN
        SELECT * INTO j FROM treasury.journal WHERE id = p_entry FOR UPDATE;
        IF NOT FOUND THEN
            PERFORM treasury.refuse('no_data_found', NULL,
                format('there is no journal entry %s', p_entry), '{NO_ENTRY}',
                jsonb_build_object('entry', p_entry));
        END IF;
        RETURN j;
    END $f$;

    CREATE OR REPLACE FUNCTION treasury.waiting_entry(p_entry bigint) RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal := treasury.locked_entry(p_entry);
    BEGIN
        IF j.state <> 'PREPARED' OR j.approval IS NULL
                OR j.approval NOT IN ('WAITING', 'APPROVED') THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('entry %s is no longer waiting for approval (%s)', p_entry,
                    lower(coalesce(j.approval, j.state))),
                '{NOT_WAITING}', jsonb_build_object('entry', p_entry,
                    'state', coalesce(j.approval, j.state)));
        END IF;
        RETURN j;
    END $f$;

    -- Schema 4's claim, its refusals coded: too few approvals; not the maker's to send.
    CREATE OR REPLACE FUNCTION treasury.claim(p_entry bigint) RETURNS text
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        locker xid;
    BEGIN
        PERFORM treasury.require_role('may not send or resolve payments', '{MAKER}',
            '{APPROVER}');
        SELECT * INTO j FROM treasury.journal WHERE id = p_entry;
        IF NOT FOUND THEN
            PERFORM treasury.refuse('no_data_found', NULL,
                format('there is no journal entry %s', p_entry), '{NO_ENTRY}',
                jsonb_build_object('entry', p_entry));
        END IF;
        IF j.state = 'PREPARED' AND NOT treasury.may_release(j) THEN
            IF coalesce(j.approval, 'APPROVED') <> 'APPROVED' THEN
                PERFORM treasury.refuse('insufficient_privilege', '{CLAIM_CODE}',
                    format('journal entry %s has %s of %s approvals: it cannot be sent', j.id,
                        treasury.valid_approvals(j), j.approvals_needed),
                    '{TOO_FEW_APPROVALS}', jsonb_build_object('entry', j.id,
                        'given', treasury.valid_approvals(j), 'needed', j.approvals_needed));
            END IF;
            PERFORM treasury.refuse('insufficient_privilege', '{CLAIM_CODE}',
                format('journal entry %s was prepared by %s: only they send it', j.id,
                    j.created_by),
                '{MAKER_SENDS}', jsonb_build_object('entry', j.id, 'maker', j.created_by));
        END IF;
        PERFORM 1 FROM treasury.entry_claims WHERE entry_id = p_entry FOR UPDATE SKIP LOCKED;
        IF NOT FOUND THEN
            RETURN NULL;
        END IF;
        SELECT xmax INTO locker FROM treasury.entry_claims WHERE entry_id = p_entry;
        RETURN pg_backend_pid()::text || ':' || locker::text;
    END $f$;

    -- Schema 4's approve_batch, its refusals coded: nothing waits; changed since reviewed.
    CREATE OR REPLACE FUNCTION treasury.approve_batch(p_batch text, p_batch_hash text,
            p_reject bigint[], p_reasons text[]) RETURNS SETOF treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        seen text := 'batch-v1';
        position integer;
        approved integer := 0;
        rejected integer := 0;
        profile text;
    BEGIN
        PERFORM treasury.require_role('is not an approver: only approvers approve payments',
            '{APPROVER}');
        PERFORM treasury.lock_approver();
        FOR j IN SELECT * FROM treasury.waiting_batch(p_batch) LOOP
            seen := seen || treasury.lp(j.id::text) || treasury.lp(j.content_hash);
            profile := j.profile;
        END LOOP;
        IF profile IS NULL THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('no payment of batch %s waits for approval', p_batch),
                '{BATCH_NOT_WAITING}', jsonb_build_object('batch', p_batch));
        END IF;
        IF encode(sha256(convert_to(seen, 'UTF8')), 'hex') IS DISTINCT FROM p_batch_hash THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('batch %s changed since it was reviewed: review it again', p_batch),
                '{BATCH_CHANGED}', jsonb_build_object('batch', p_batch));
        END IF;
        FOR j IN SELECT * FROM treasury.waiting_batch(p_batch) LOOP
            position := array_position(p_reject, j.id);
            IF position IS NOT NULL THEN
                RETURN NEXT treasury.decide(j.id, 'REJECTED', p_reasons[position]);
                rejected := rejected + 1;
            ELSE
                RETURN NEXT treasury.approve(j.id, j.content_hash);
                approved := approved + 1;
            END IF;
        END LOOP;
        INSERT INTO treasury.audit (at, profile, action, outcome, reference, details)
        VALUES ('', profile, 'approval.batch', 'decided', p_batch,
            jsonb_build_object('approved', approved, 'rejected', rejected,
                'batch_hash', p_batch_hash)::text);
        RETURN;
    END $f$;

    -- Approving writes the coded note approved (by, given, needed).
    CREATE OR REPLACE FUNCTION treasury.approve(p_entry bigint, p_content_hash text)
        RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        lim treasury.person_limits;
        pol treasury.policies;
        others text;
        given integer;
        expires text;
    BEGIN
        PERFORM treasury.require_role('is not an approver: only approvers approve payments',
            '{APPROVER}');
        PERFORM treasury.lock_approver();
        PERFORM treasury.expire_approvals(p_entry);
        j := treasury.waiting_entry(p_entry);
        PERFORM treasury.refuse_own_entry(j, 'another person must approve it');
        IF p_content_hash IS DISTINCT FROM j.content_hash THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('entry %s changed since it was reviewed: review it again', j.id),
                '{CHANGED_SINCE_REVIEW}', jsonb_build_object('entry', j.id));
        END IF;
        IF EXISTS (SELECT 1 FROM treasury.approvals WHERE entry_id = j.id
                    AND approver = session_user AND void_reason IS NULL) THEN
            RETURN j;  -- the same person approving twice counts once
        END IF;
        SELECT * INTO lim FROM treasury.person_limits WHERE login = session_user;
        IF FOUND AND treasury.over_limit(lim, j.amount) THEN
            SELECT string_agg(name, ', ') INTO others FROM treasury.eligible_approvers(j.id)
                AS name WHERE name <> session_user;
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                format('%s is over %s''s limit (%s per payment, %s per day, %s approved today):'
                    ' it takes the approval of %s', treasury.brl(j.amount), session_user,
                    coalesce(treasury.brl(lim.payment_limit), 'no limit'),
                    coalesce(treasury.brl(lim.daily_limit), 'no limit'),
                    treasury.brl(treasury.approved_today(session_user)),
                    coalesce(others, 'an approver with a higher limit')),
                '{OVER_LIMIT}', jsonb_build_object('entry', j.id, 'amount', j.amount::text,
                    'login', session_user, 'payment_limit', lim.payment_limit::text,
                    'daily_limit', lim.daily_limit::text,
                    'approved_today', treasury.approved_today(session_user)::text,
                    'others', others));
        END IF;
        INSERT INTO treasury.approvals (entry_id, approver, content_hash, at)
        VALUES (j.id, session_user, j.content_hash, treasury.stamp());
        IF j.approvals_expire_at IS NULL THEN
            SELECT * INTO pol FROM treasury.policies WHERE version = j.policy_version;
            IF pol.expiry_hours IS NULL THEN  -- the end of this Brasília day
                expires := treasury.stamp_of((date_trunc('day', clock_timestamp()
                    AT TIME ZONE 'America/Sao_Paulo') + interval '1 day')
                    AT TIME ZONE 'America/Sao_Paulo');
            ELSE
                expires := treasury.stamp_of(clock_timestamp()
                    + pol.expiry_hours * interval '1 hour');
            END IF;
            UPDATE treasury.journal SET approvals_expire_at = expires WHERE id = j.id
            RETURNING * INTO j;
        END IF;
        given := treasury.valid_approvals(j);
        UPDATE treasury.journal SET approvals_given = given,
               approval = CASE WHEN given >= approvals_needed THEN 'APPROVED' ELSE 'WAITING' END,
               approved_by = CASE WHEN given >= approvals_needed THEN session_user END
         WHERE id = j.id RETURNING * INTO j;
        PERFORM treasury.add_history(j, treasury.coded('{APPROVED}', jsonb_build_object(
            'by', session_user, 'given', given, 'needed', j.approvals_needed)));
        PERFORM treasury.approval_audit(j, 'approval.approve',
            CASE WHEN j.approval = 'APPROVED' THEN 'approved' ELSE 'partial' END,
            jsonb_build_object('expires_at', j.approvals_expire_at));
        RETURN j;
    END $f$;

    -- Rejecting and withdrawing write the coded note rejected or withdrawn (by), and the
    -- same code with the reason as the journal's error.
    CREATE OR REPLACE FUNCTION treasury.decide(p_entry bigint, p_outcome text, p_reason text)
        RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal := treasury.waiting_entry(p_entry);
        reason text := btrim(coalesce(p_reason, ''));
    BEGIN
        IF p_outcome = 'WITHDRAWN' THEN
            PERFORM treasury.require_maker_of(j, 'withdraws it');
        ELSE
            PERFORM treasury.require_role('is not an approver: only approvers reject payments',
                '{APPROVER}');
            PERFORM treasury.refuse_own_entry(j, 'withdraw it instead');
        END IF;
        IF reason = '' THEN
            PERFORM treasury.refuse('check_violation', '{END_REASON_CODE}',
                CASE WHEN p_outcome = 'WITHDRAWN' THEN 'a withdrawal needs a reason'
                     ELSE 'a rejection needs a reason' END,
                CASE WHEN p_outcome = 'WITHDRAWN' THEN '{WITHDRAW_REASON_MISSING}'
                     ELSE '{REJECT_REASON_MISSING}' END, jsonb_build_object('entry', j.id));
        END IF;
        UPDATE treasury.journal SET state = 'REJECTED', final = true, approval = p_outcome,
               decided_by = session_user, decision_reason = reason,
               error = treasury.coded(lower(p_outcome),
                   jsonb_build_object('by', session_user, 'reason', reason))
         WHERE id = j.id RETURNING * INTO j;
        PERFORM treasury.add_history(j, treasury.coded(lower(p_outcome),
            jsonb_build_object('by', session_user)));
        PERFORM treasury.approval_audit(j,
            CASE WHEN p_outcome = 'WITHDRAWN' THEN 'approval.withdraw'
                 ELSE 'approval.reject' END, lower(p_outcome),
            jsonb_build_object('reason', reason));
        RETURN j;
    END $f$;

    -- Changing a waiting intent writes the coded note changed (void: approvals voided).
    CREATE OR REPLACE FUNCTION treasury.edit(p_entry bigint, p_amount numeric, p_description text,
            p_request_json text) RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal := treasury.waiting_entry(p_entry);
        before text := j.content_hash;
        voided integer;
    BEGIN
        PERFORM treasury.require_maker_of(j, 'changes it');
        PERFORM treasury.check_amount(p_amount);
        PERFORM treasury.refuse_pending_twin(j.id, j.kind, j.payee_detail, j.payee_document,
            p_amount, p_description, j.payment_flow);
        voided := treasury.void_approvals(j.id, 'content changed');
        UPDATE treasury.journal SET amount = p_amount, description = p_description,
               request_json = p_request_json
         WHERE id = j.id RETURNING * INTO j;
        PERFORM treasury.add_history(j, treasury.coded('{CHANGED}',
            jsonb_build_object('void', voided)));
        PERFORM treasury.approval_audit(j, 'approval.edit', 'changed',
            jsonb_build_object('content_hash_before', before, 'voided', voided));
        RETURN j;
    END $f$;
"""
