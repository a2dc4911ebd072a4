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

Rows written before schema 7 keep their English sentences; the desktops still read those
(:mod:`treasury_app.ui.status_words`). Migrations 1 to 6 are unchanged: this one replaces, in
full, the functions that wrote such sentences (``approve`` of schema 4, ``decide`` of schema
6, ``edit`` of schema 2), each with only its note or error changed.
"""

from __future__ import annotations

import json
from typing import Any

from treasury_app.ledger.team.roles_schema import APPROVER
from treasury_app.ledger.team.trust_schema import END_REASON_CODE

APPROVED = "approved"
REJECTED = "rejected"
WITHDRAWN = "withdrawn"
CHANGED = "changed"
REMOVED_WITHDRAWN = "removed_withdrawn"
REMOVED_VOID = "removed_void"
CODES = frozenset({APPROVED, REJECTED, WITHDRAWN, CHANGED, REMOVED_WITHDRAWN, REMOVED_VOID})
"""Every code a coded note of the team database has (see the table above)."""


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
            RAISE EXCEPTION 'entry % changed since it was reviewed: review it again', j.id
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        IF EXISTS (SELECT 1 FROM treasury.approvals WHERE entry_id = j.id
                    AND approver = session_user AND void_reason IS NULL) THEN
            RETURN j;  -- the same person approving twice counts once
        END IF;
        SELECT * INTO lim FROM treasury.person_limits WHERE login = session_user;
        IF FOUND AND treasury.over_limit(lim, j.amount) THEN
            SELECT string_agg(name, ', ') INTO others FROM treasury.eligible_approvers(j.id)
                AS name WHERE name <> session_user;
            RAISE EXCEPTION '% is over %''s limit (% per payment, % per day, % approved today):'
                ' it takes the approval of %', treasury.brl(j.amount), session_user,
                coalesce(treasury.brl(lim.payment_limit), 'no limit'),
                coalesce(treasury.brl(lim.daily_limit), 'no limit'),
                treasury.brl(treasury.approved_today(session_user)),
                coalesce(others, 'an approver with a higher limit')
                USING ERRCODE = 'insufficient_privilege';
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
            RAISE EXCEPTION '%', CASE WHEN p_outcome = 'WITHDRAWN'
                THEN 'a withdrawal needs a reason' ELSE 'a rejection needs a reason' END
                USING ERRCODE = 'check_violation', CONSTRAINT = '{END_REASON_CODE}';
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
