"""Schema 2 of the team database, maker-checker: the tables (versioned ``policies``,
``person_limits``, ``approvals``), the rules the journal's trigger enforces and the checks the
journal's functions share. The functions people call (``prepare``, ``approve``, ...) are in
:mod:`.dual_control_verbs_schema`; together they are migration 2's SQL, unchanged.
"""

from __future__ import annotations

from treasury_app.ledger.team import dual_control_verbs_schema
from treasury_app.ledger.team.roles_schema import MAKER

DEFAULT_POLICY_SQL = "1, 1, 10000, 2, 1, NULL"
"""Policy version 1 (``version, approvals, threshold, approvals_above, new_payee_extra,
expiry_hours``): one approval; two above R$ 10.000,00; one more for a payee never paid
before; approvals expire at the end of the Brasília day of the first one."""
SUCCESS_SQL = "'SETTLED', 'LIQUIDATED', 'REFUNDED', 'PARTIALLY_REFUNDED'"
"""The bank statuses of a payment that reached its payee (``SUCCESS_STATUSES``)."""

RULES_SQL = f"""
    CREATE TABLE treasury.policies (
        version integer PRIMARY KEY,
        approvals integer NOT NULL CHECK (approvals BETWEEN 0 AND 9),
        threshold numeric CHECK (threshold IS NULL OR threshold >= 0),
        approvals_above integer NOT NULL CHECK (approvals_above BETWEEN 0 AND 9),
        new_payee_extra integer NOT NULL CHECK (new_payee_extra BETWEEN 0 AND 9),
        expiry_hours numeric CHECK (expiry_hours IS NULL OR expiry_hours > 0),
        set_at text NOT NULL,
        set_by text NOT NULL DEFAULT session_user
    );
    INSERT INTO treasury.policies
        VALUES ({DEFAULT_POLICY_SQL}, treasury.stamp(), session_user);

    CREATE TABLE treasury.person_limits (
        login text PRIMARY KEY,
        payment_limit numeric CHECK (payment_limit IS NULL OR payment_limit > 0),
        daily_limit numeric CHECK (daily_limit IS NULL OR daily_limit > 0),
        set_at text NOT NULL,
        set_by text NOT NULL DEFAULT session_user
    );

    ALTER TABLE treasury.journal
        ADD COLUMN approval text CHECK (approval IN
            ('WAITING', 'APPROVED', 'RELEASED', 'REJECTED', 'WITHDRAWN')),
        ADD COLUMN approvals_needed integer NOT NULL DEFAULT 0,
        ADD COLUMN approvals_given integer NOT NULL DEFAULT 0,
        ADD COLUMN approved_by text,
        ADD COLUMN content_hash text,
        ADD COLUMN new_payee boolean NOT NULL DEFAULT false,
        ADD COLUMN approvals_expire_at text,
        ADD COLUMN decided_by text,
        ADD COLUMN decision_reason text,
        ADD COLUMN policy_version integer REFERENCES treasury.policies (version),
        ADD COLUMN released_by text;
    -- One waiting intent per content: the same payee and amount again is a second payment
    -- only with a description of its own.
    CREATE UNIQUE INDEX journal_pending_content ON treasury.journal
        (kind, payee_detail, payee_document, round(amount, 2), description, payment_flow)
        WHERE state = 'PREPARED' AND approvals_needed > 0
            AND approval IN ('WAITING', 'APPROVED');
    CREATE INDEX journal_approval ON treasury.journal (approval, id)
        WHERE approval IN ('WAITING', 'APPROVED');

    CREATE TABLE treasury.approvals (
        id bigserial PRIMARY KEY,
        entry_id bigint NOT NULL REFERENCES treasury.journal (id),
        approver text NOT NULL,
        content_hash text NOT NULL,
        at text NOT NULL,
        void_reason text,
        voided_at text
    );
    CREATE INDEX approvals_entry ON treasury.approvals (entry_id);
    CREATE INDEX approvals_approver ON treasury.approvals (approver, at);
    CREATE UNIQUE INDEX approvals_once ON treasury.approvals (entry_id, approver)
        WHERE void_reason IS NULL;

    CREATE FUNCTION treasury.has_role(role_name text) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
        AS $f$ SELECT pg_has_role(session_user, role_name, 'MEMBER') $f$;

    CREATE FUNCTION treasury.brl(value numeric) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT 'R$ ' || translate(to_char(round(value, 2), 'FM999,999,999,999,990.00'),
                                  ',.', '.,')
    $f$;

    -- The stamp of a moment, in the journal's text form (UTC, milliseconds, a Z).
    CREATE FUNCTION treasury.stamp_of(moment timestamptz) RETURNS text
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT to_char(moment AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    $f$;

    -- The start of today in Brasília (business dates are Brasília dates), as a stamp.
    CREATE FUNCTION treasury.brasilia_day_start() RETURNS text
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT treasury.stamp_of(date_trunc('day', clock_timestamp()
            AT TIME ZONE 'America/Sao_Paulo') AT TIME ZONE 'America/Sao_Paulo')
    $f$;

    -- What an approval is bound to: the intent's exact content, length-prefixed fields
    -- (treasury_app.ledger.team.approvals.content_hash computes the same).
    CREATE FUNCTION treasury.content_hash(kind text, payee_name text, payee_document text,
            payee_detail text, amount numeric, description text, payment_flow text,
            request_json text) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT encode(sha256(convert_to('intent-v1' || treasury.lp(kind)
            || treasury.lp(payee_name) || treasury.lp(payee_document)
            || treasury.lp(payee_detail) || treasury.lp(round(amount, 2)::text)
            || treasury.lp(description) || treasury.lp(payment_flow)
            || treasury.lp(request_json), 'UTF8')), 'hex')
    $f$;

    CREATE FUNCTION treasury.needed(pol treasury.policies, amount numeric, new_payee boolean)
        RETURNS integer LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT CASE WHEN pol.threshold IS NOT NULL AND amount > pol.threshold
                    THEN pol.approvals_above ELSE pol.approvals END
             + CASE WHEN new_payee THEN pol.new_payee_extra ELSE 0 END
    $f$;

    -- Paid before from this account: a Pix key or account the bank settled a payment to; for
    -- a slip, its beneficiary's document.
    CREATE FUNCTION treasury.paid_before(p_kind text, p_detail text, p_document text)
        RETURNS boolean LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT CASE WHEN p_kind = 'BILLET' THEN
            p_document <> '' AND EXISTS (SELECT 1 FROM treasury.journal
                WHERE kind = 'BILLET' AND payee_document = p_document AND state = 'ACCEPTED'
                  AND bank_status IN ({SUCCESS_SQL}))
        ELSE
            EXISTS (SELECT 1 FROM treasury.journal
                WHERE kind <> 'BILLET' AND payee_detail = p_detail AND state = 'ACCEPTED'
                  AND bank_status IN ({SUCCESS_SQL}))
        END
    $f$;

    -- Approvals that count now: not void, given to the content as it is, not expired, by
    -- someone other than its maker (each person once).
    CREATE FUNCTION treasury.valid_approvals(j treasury.journal) RETURNS integer
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT count(DISTINCT a.approver)::integer FROM treasury.approvals a
         WHERE a.entry_id = j.id AND a.void_reason IS NULL
           AND a.content_hash = j.content_hash AND a.approver <> j.created_by
           AND (j.approvals_expire_at IS NULL OR j.approvals_expire_at > treasury.stamp())
    $f$;

    CREATE FUNCTION treasury.approval_audit(j treasury.journal, p_action text, p_outcome text,
            p_details jsonb) RETURNS void
        LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $f$
        INSERT INTO treasury.audit (at, profile, action, outcome, reference, amount, details)
        VALUES ('', j.profile, p_action, p_outcome, j.idempotency_key, j.amount::text,
            (jsonb_build_object('entry', j.id, 'content_hash', j.content_hash,
                'maker', j.created_by, 'payee', j.payee_name,
                'approvals', j.approvals_given, 'needed', j.approvals_needed)
             || p_details)::text)
    $f$;

    CREATE FUNCTION treasury.add_history(j treasury.journal, p_note text) RETURNS void
        LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $f$
        INSERT INTO treasury.journal_history (entry_id, at, state, bank_status, note)
        VALUES (j.id, '', j.state, j.bank_status, p_note)
    $f$;

    -- The journal's identity and content rules (replaces migration 1's): nobody edits what
    -- was prepared but its maker while it waits (voiding the approvals); nobody moves an
    -- intent out of PREPARED but to REJECTED without the approvals its policy asks for.
    CREATE OR REPLACE FUNCTION treasury.journal_identity() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        pol treasury.policies;
        person boolean := NOT treasury.is_admin();
        start_over boolean := false;  -- no approval given so far counts
    BEGIN
        IF TG_OP = 'INSERT' THEN
            IF person OR NEW.created_by IS NULL THEN
                NEW.created_by := session_user;
            END IF;
            IF person THEN
                NEW.created_at := treasury.stamp();
                NEW.updated_at := NEW.created_at;
                NEW.state := 'PREPARED';
                NEW.final := false;
                NEW.bank_status := NULL;
                NEW.end_to_end_id := NULL;
                NEW.bank_id := NULL;
                NEW.error := NULL;
                NEW.creditor_name := NULL;
                NEW.decided_by := NULL;
                NEW.decision_reason := NULL;
                NEW.released_by := NULL;
                NEW.approvals_needed := greatest(NEW.approvals_needed, 0);
                start_over := true;
            END IF;
        ELSE
            NEW.created_by := OLD.created_by;
            NEW.id := OLD.id;
            NEW.idempotency_key := OLD.idempotency_key;
            IF person THEN
                NEW.created_at := OLD.created_at;
                NEW.updated_at := treasury.stamp();
                NEW.kind := OLD.kind;
                NEW.payee_name := OLD.payee_name;
                NEW.payee_document := OLD.payee_document;
                NEW.payee_detail := OLD.payee_detail;
                NEW.payment_flow := OLD.payment_flow;
                NEW.profile := OLD.profile;
                NEW.batch := OLD.batch;
                NEW.policy_version := OLD.policy_version;
                NEW.new_payee := OLD.new_payee;
                IF (NEW.amount, NEW.description, NEW.request_json)
                        IS DISTINCT FROM (OLD.amount, OLD.description, OLD.request_json) THEN
                    IF OLD.state <> 'PREPARED' OR OLD.created_by <> session_user
                            OR OLD.approval IS NULL
                            OR OLD.approval NOT IN ('WAITING', 'APPROVED') THEN
                        RAISE EXCEPTION 'the content of journal entry % cannot change now'
                            ' (only its maker changes it, while it waits)', OLD.id
                            USING ERRCODE = 'insufficient_privilege';
                    END IF;
                    SELECT * INTO pol FROM treasury.policies
                     WHERE version = OLD.policy_version;
                    IF FOUND THEN
                        NEW.approvals_needed := treasury.needed(pol, NEW.amount, OLD.new_payee);
                    END IF;
                    start_over := true;
                END IF;
            END IF;
        END IF;
        IF start_over THEN
            NEW.approvals_given := 0;
            NEW.approvals_expire_at := NULL;
            IF NEW.approvals_needed > 0 THEN
                NEW.approval := 'WAITING';
                NEW.approved_by := NULL;
            ELSE
                NEW.approval := 'APPROVED';
                NEW.approved_by := session_user;  -- no dual control: its maker sends it
            END IF;
        END IF;
        IF TG_OP = 'INSERT' OR person THEN
            NEW.content_hash := treasury.content_hash(NEW.kind, NEW.payee_name,
                NEW.payee_document, NEW.payee_detail, NEW.amount, NEW.description,
                NEW.payment_flow, NEW.request_json);
        END IF;
        IF TG_OP = 'UPDATE' AND person THEN
            IF OLD.state = 'REJECTED' AND NEW.state <> 'REJECTED' THEN
                -- refused, withdrawn or rejected: nothing happened, and nothing will
                RAISE EXCEPTION 'journal entry % was refused or withdrawn: it is never sent',
                    OLD.id USING ERRCODE = 'insufficient_privilege';
            END IF;
            IF OLD.state = 'PREPARED' AND NEW.state = 'REJECTED'
                    AND NEW.approval IN ('WAITING', 'APPROVED') THEN
                NEW.approval := 'REJECTED';  -- the releasing desktop refused to send it
                NEW.final := true;
            END IF;
            IF OLD.state = 'PREPARED' AND NEW.state <> 'PREPARED' AND NEW.state <> 'REJECTED' THEN
                IF OLD.approval IS DISTINCT FROM 'APPROVED' OR
                        treasury.valid_approvals(OLD) < OLD.approvals_needed THEN
                    RAISE EXCEPTION 'journal entry % has % of % approvals: it cannot be sent',
                        OLD.id, treasury.valid_approvals(OLD), OLD.approvals_needed
                        USING ERRCODE = 'insufficient_privilege';
                END IF;
                IF OLD.approvals_needed = 0 AND OLD.created_by <> session_user THEN
                    RAISE EXCEPTION 'journal entry % was prepared by %: only they send it',
                        OLD.id, OLD.created_by USING ERRCODE = 'insufficient_privilege';
                END IF;
                NEW.approval := 'RELEASED';
                NEW.released_by := session_user;
            END IF;
        END IF;
        IF person OR NEW.updated_by IS NULL THEN
            NEW.updated_by := session_user;
        END IF;
        RETURN NEW;
    END $f$;

    CREATE FUNCTION treasury.current_policy() RETURNS treasury.policies
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
        AS $f$ SELECT * FROM treasury.policies ORDER BY version DESC LIMIT 1 $f$;

    -- The checks the journal's functions share (called by them only: never granted).
    -- The login must be a member of one of p_roles: '<login> <p_refusal>' otherwise.
    CREATE FUNCTION treasury.require_role(p_refusal text, VARIADIC p_roles text[])
        RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM unnest(p_roles) AS r WHERE treasury.has_role(r)) THEN
            RAISE EXCEPTION '% %', session_user, p_refusal
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END $f$;

    -- Only the maker of j (still a maker) p_verb it.
    CREATE FUNCTION treasury.require_maker_of(j treasury.journal, p_verb text) RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF j.created_by <> session_user OR NOT treasury.has_role('{MAKER}') THEN
            RAISE EXCEPTION 'only % (who prepared entry %) %', j.created_by, j.id, p_verb
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END $f$;

    -- Its maker does not decide on j: p_instead says what they may do.
    CREATE FUNCTION treasury.refuse_own_entry(j treasury.journal, p_instead text) RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF j.created_by = session_user THEN
            RAISE EXCEPTION 'you prepared entry %: %', j.id, p_instead
                USING ERRCODE = 'insufficient_privilege';
        END IF;
    END $f$;

    CREATE FUNCTION treasury.check_amount(p_amount numeric) RETURNS void
        LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF p_amount IS NULL OR p_amount <= 0 OR p_amount <> round(p_amount, 2) THEN
            RAISE EXCEPTION 'the amount must be more than zero, in reais and centavos'
                USING ERRCODE = 'check_violation';
        END IF;
    END $f$;

    -- One waiting intent per content (journal_pending_content, but for entry p_id itself):
    -- a unique violation of that index naming the waiting twin (in DETAIL, its id).
    CREATE FUNCTION treasury.refuse_pending_twin(p_id bigint, p_kind text, p_detail text,
            p_document text, p_amount numeric, p_description text, p_flow text) RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        twin bigint;
    BEGIN
        SELECT id INTO twin FROM treasury.journal
         WHERE state = 'PREPARED' AND approvals_needed > 0
           AND approval IN ('WAITING', 'APPROVED') AND id IS DISTINCT FROM p_id
           AND kind = p_kind AND payee_detail = p_detail AND payee_document = p_document
           AND round(amount, 2) = round(p_amount, 2) AND description = p_description
           AND payment_flow = p_flow
         ORDER BY id LIMIT 1;
        IF twin IS NOT NULL THEN
            RAISE EXCEPTION 'entry % to the same payee, for the same amount and description,'
                ' waits for approval already', twin
                USING ERRCODE = 'unique_violation', CONSTRAINT = 'journal_pending_content',
                      DETAIL = twin::text;
        END IF;
    END $f$;

    -- Void the approvals of entry p_entry that stand (p_reason): how many.
    CREATE FUNCTION treasury.void_approvals(p_entry bigint, p_reason text) RETURNS integer
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        voided integer;
    BEGIN
        UPDATE treasury.approvals SET void_reason = p_reason, voided_at = treasury.stamp()
         WHERE entry_id = p_entry AND void_reason IS NULL;
        GET DIAGNOSTICS voided = ROW_COUNT;
        RETURN voided;
    END $f$;

"""
"""Migration 2's first part: tables, the journal trigger's rules, shared checks."""

MIGRATION_SQL = RULES_SQL + dual_control_verbs_schema.VERBS_SQL
