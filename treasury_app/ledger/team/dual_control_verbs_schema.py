"""Schema 2 of the team database, maker-checker: what people call (``SECURITY DEFINER``
functions that check the caller's role against ``session_user``): makers ``prepare``, ``edit``
and ``withdraw``; approvers ``approve``, ``reject`` and ``approve_batch``; both ``release`` and
``record``. Its SQL follows :data:`.dual_control_schema.RULES_SQL` in migration 2.
"""

from __future__ import annotations

from treasury_app.ledger.team.roles_schema import APPROVER, MAKER, OWNER

VERBS_SQL = f"""\
    CREATE FUNCTION treasury.prepare(p_kind text, p_payee_name text, p_payee_document text,
            p_payee_detail text, p_amount numeric, p_description text, p_payment_flow text,
            p_idempotency_key text, p_request_json text, p_profile text, p_batch text)
        RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        pol treasury.policies := treasury.current_policy();
        twin bigint;
        fresh boolean;
        j treasury.journal;
    BEGIN
        PERFORM treasury.require_role('is not a maker: only makers prepare payments', '{MAKER}');
        PERFORM treasury.check_amount(p_amount);
        SELECT id INTO twin FROM treasury.journal WHERE idempotency_key = p_idempotency_key;
        IF FOUND THEN
            RAISE EXCEPTION 'payment intent % already journaled', twin
                USING ERRCODE = 'unique_violation', CONSTRAINT = 'journal_idempotency_key_key';
        END IF;
        fresh := NOT treasury.paid_before(p_kind, p_payee_detail, p_payee_document);
        IF treasury.needed(pol, p_amount, fresh) > 0 THEN
            PERFORM treasury.refuse_pending_twin(NULL, p_kind, p_payee_detail,
                p_payee_document, p_amount, p_description, p_payment_flow);
        END IF;
        INSERT INTO treasury.journal (kind, payee_name, payee_document, payee_detail, amount,
            description, payment_flow, idempotency_key, request_json, state, created_at,
            updated_at, profile, batch, approvals_needed, new_payee, policy_version)
        VALUES (p_kind, p_payee_name, p_payee_document, p_payee_detail, p_amount,
            p_description, p_payment_flow, p_idempotency_key, p_request_json, 'PREPARED', '',
            '', p_profile, p_batch, treasury.needed(pol, p_amount, fresh), fresh, pol.version)
        RETURNING * INTO j;
        PERFORM treasury.add_history(j, 'journaled');
        IF j.approvals_needed > 0 THEN
            PERFORM treasury.approval_audit(j, 'approval.prepare', 'waiting',
                jsonb_build_object('new_payee', fresh, 'policy', pol.version));
        END IF;
        RETURN j;
    END $f$;

    -- Void the approvals of intents whose approvals expired (all, or one entry's).
    CREATE FUNCTION treasury.expire_approvals(p_entry bigint DEFAULT NULL) RETURNS integer
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        voided integer;
        expired integer := 0;
    BEGIN
        FOR j IN SELECT * FROM treasury.journal
                  WHERE state = 'PREPARED' AND approval IN ('WAITING', 'APPROVED')
                    AND approvals_expire_at IS NOT NULL
                    AND approvals_expire_at <= treasury.stamp()
                    AND (p_entry IS NULL OR id = p_entry)
                  ORDER BY id FOR UPDATE LOOP
            voided := treasury.void_approvals(j.id, 'expired');
            UPDATE treasury.journal SET approvals_given = 0, approval = 'WAITING',
                   approved_by = NULL, approvals_expire_at = NULL
             WHERE id = j.id RETURNING * INTO j;
            PERFORM treasury.add_history(j, 'approvals expired');
            PERFORM treasury.approval_audit(j, 'approval.expire', 'expired',
                jsonb_build_object('voided', voided));
            expired := expired + 1;
        END LOOP;
        RETURN expired;
    END $f$;

    -- What a person approved today (Brasília): approvals that stand, of intents not ended.
    CREATE FUNCTION treasury.approved_today(p_login text) RETURNS numeric
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT coalesce(sum(j.amount), 0) FROM treasury.approvals a
          JOIN treasury.journal j ON j.id = a.entry_id
         WHERE a.approver = p_login AND a.at >= treasury.brasilia_day_start()
           AND a.void_reason IS NULL
           AND coalesce(j.approval, '') NOT IN ('REJECTED', 'WITHDRAWN')
    $f$;

    -- Whether approving p_amount now takes lim.login over a limit (per payment, per day).
    CREATE FUNCTION treasury.over_limit(lim treasury.person_limits, p_amount numeric)
        RETURNS boolean LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT (lim.payment_limit IS NOT NULL AND p_amount > lim.payment_limit)
            OR (lim.daily_limit IS NOT NULL
                AND p_amount + treasury.approved_today(lim.login) > lim.daily_limit)
    $f$;

    -- Approvers who could still approve entry p_entry: not its maker, not approved already,
    -- with limits that cover it today.
    CREATE FUNCTION treasury.eligible_approvers(p_entry bigint) RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        SELECT r.rolname::text FROM pg_roles r, treasury.journal j
         WHERE j.id = p_entry AND r.rolcanlogin AND NOT r.rolsuper
           AND pg_has_role(r.oid, '{APPROVER}', 'MEMBER')
           AND NOT pg_has_role(r.oid, '{OWNER}', 'MEMBER')
           AND r.rolname::text <> j.created_by
           AND NOT EXISTS (SELECT 1 FROM treasury.approvals a WHERE a.entry_id = j.id
                AND a.approver = r.rolname::text AND a.void_reason IS NULL)
           AND NOT EXISTS (SELECT 1 FROM treasury.person_limits l
                WHERE l.login = r.rolname::text AND treasury.over_limit(l, j.amount))
         ORDER BY 1
    $f$;

    -- Entry p_entry, locked for the change.
    CREATE FUNCTION treasury.locked_entry(p_entry bigint) RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
    BEGIN
        SELECT * INTO j FROM treasury.journal WHERE id = p_entry FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'there is no journal entry %', p_entry
                USING ERRCODE = 'no_data_found';
        END IF;
        RETURN j;
    END $f$;

    -- Entry p_entry, locked, as long as it waits for approval.
    CREATE FUNCTION treasury.waiting_entry(p_entry bigint) RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal := treasury.locked_entry(p_entry);
    BEGIN
        IF j.state <> 'PREPARED' OR j.approval IS NULL
                OR j.approval NOT IN ('WAITING', 'APPROVED') THEN
            RAISE EXCEPTION 'entry % is no longer waiting for approval (%)', p_entry,
                lower(coalesce(j.approval, j.state))
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        RETURN j;
    END $f$;

    CREATE FUNCTION treasury.approve(p_entry bigint, p_content_hash text)
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
        PERFORM treasury.add_history(j, format('approved by %s (%s of %s)', session_user,
            given, j.approvals_needed));
        PERFORM treasury.approval_audit(j, 'approval.approve',
            CASE WHEN j.approval = 'APPROVED' THEN 'approved' ELSE 'partial' END,
            jsonb_build_object('expires_at', j.approvals_expire_at));
        RETURN j;
    END $f$;

    CREATE FUNCTION treasury.decide(p_entry bigint, p_outcome text, p_reason text)
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
            IF reason = '' THEN
                RAISE EXCEPTION 'a rejection needs a reason' USING ERRCODE = 'check_violation';
            END IF;
        END IF;
        UPDATE treasury.journal SET state = 'REJECTED', final = true, approval = p_outcome,
               decided_by = session_user, decision_reason = reason,
               error = CASE WHEN p_outcome = 'WITHDRAWN'
                            THEN 'Withdrawn by ' || session_user
                            ELSE 'Rejected by ' || session_user END
                       || CASE WHEN reason = '' THEN '' ELSE ': ' || reason END
         WHERE id = j.id RETURNING * INTO j;
        PERFORM treasury.add_history(j, lower(p_outcome) || ' by ' || session_user);
        PERFORM treasury.approval_audit(j,
            CASE WHEN p_outcome = 'WITHDRAWN' THEN 'approval.withdraw'
                 ELSE 'approval.reject' END, lower(p_outcome),
            jsonb_build_object('reason', reason));
        RETURN j;
    END $f$;

    CREATE FUNCTION treasury.reject(p_entry bigint, p_reason text) RETURNS treasury.journal
        LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $f$ SELECT * FROM treasury.decide(p_entry, 'REJECTED', p_reason) $f$;

    CREATE FUNCTION treasury.withdraw(p_entry bigint, p_reason text) RETURNS treasury.journal
        LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
        AS $f$ SELECT * FROM treasury.decide(p_entry, 'WITHDRAWN', p_reason) $f$;

    CREATE FUNCTION treasury.edit(p_entry bigint, p_amount numeric, p_description text,
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
        PERFORM treasury.add_history(j, format('changed: %s approval(s) void', voided));
        PERFORM treasury.approval_audit(j, 'approval.edit', 'changed',
            jsonb_build_object('content_hash_before', before, 'voided', voided));
        RETURN j;
    END $f$;

    -- Every other move of an entry (the bank's answers), release included: PREPARED → SENT
    -- passes the journal trigger's approval check.
    CREATE FUNCTION treasury.record(p_entry bigint, p_state text, p_bank_status text,
            p_final boolean, p_end_to_end_id text, p_bank_id text, p_error text, p_note text,
            p_creditor_name text) RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        before treasury.journal;
    BEGIN
        PERFORM treasury.require_role('may not write the journal', '{MAKER}', '{APPROVER}');
        before := treasury.locked_entry(p_entry);
        IF before.state = 'PREPARED' AND p_state = 'REJECTED'
                AND before.approval IS DISTINCT FROM 'APPROVED' THEN
            -- refusing to send what waits is a rejection: treasury.reject, with a reason
            RAISE EXCEPTION 'entry % waits for approval: reject or withdraw it instead', p_entry
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF before.final AND NOT p_final AND p_state = 'ACCEPTED' THEN
            -- a desktop's late answer after the bank's notification made the payment final
            -- (treasury.notified_status): the final status stays, missing ids are filled
            UPDATE treasury.journal
               SET end_to_end_id = COALESCE(end_to_end_id, p_end_to_end_id),
                   bank_id = COALESCE(bank_id, p_bank_id),
                   creditor_name = COALESCE(creditor_name, p_creditor_name)
             WHERE id = p_entry RETURNING * INTO j;
            RETURN j;
        END IF;
        UPDATE treasury.journal SET state = p_state,
               bank_status = COALESCE(p_bank_status, bank_status), final = p_final,
               end_to_end_id = COALESCE(p_end_to_end_id, end_to_end_id),
               bank_id = COALESCE(p_bank_id, bank_id), error = p_error,
               creditor_name = COALESCE(p_creditor_name, creditor_name)
         WHERE id = p_entry RETURNING * INTO j;
        PERFORM treasury.add_history(j, coalesce(p_note, ''));
        IF before.state = 'PREPARED' AND j.state <> 'PREPARED' AND before.approvals_needed > 0
                AND j.approval = 'RELEASED' THEN
            PERFORM treasury.approval_audit(j, 'approval.release', 'released',
                jsonb_build_object('approved_by', before.approved_by));
        END IF;
        RETURN j;
    END $f$;

    CREATE FUNCTION treasury.release(p_entry bigint, p_note text) RETURNS treasury.journal
        LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        SELECT * FROM treasury.record(p_entry, 'SENT', NULL, false, NULL, NULL, NULL, p_note,
            NULL)
    $f$;

    -- The rows of batch p_batch that wait for approval, locked, in order.
    CREATE FUNCTION treasury.waiting_batch(p_batch text) RETURNS SETOF treasury.journal
        LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $f$
        SELECT * FROM treasury.journal WHERE batch = p_batch AND state = 'PREPARED'
           AND approval IN ('WAITING', 'APPROVED') ORDER BY id FOR UPDATE
    $f$;

    -- A batch approved as one decision: every row that waits, as reviewed (p_batch_hash over
    -- the rows' ids and contents), approved, but those in p_reject (rejected with p_reasons).
    CREATE FUNCTION treasury.approve_batch(p_batch text, p_batch_hash text,
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
        FOR j IN SELECT * FROM treasury.waiting_batch(p_batch) LOOP
            seen := seen || treasury.lp(j.id::text) || treasury.lp(j.content_hash);
            profile := j.profile;
        END LOOP;
        IF profile IS NULL THEN
            RAISE EXCEPTION 'no payment of batch % waits for approval', p_batch
                USING ERRCODE = 'object_not_in_prerequisite_state';
        END IF;
        IF encode(sha256(convert_to(seen, 'UTF8')), 'hex') IS DISTINCT FROM p_batch_hash THEN
            RAISE EXCEPTION 'batch % changed since it was reviewed: review it again', p_batch
                USING ERRCODE = 'object_not_in_prerequisite_state';
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

    -- Intents journaled before dual control and not sent yet wait for approval now.
    UPDATE treasury.journal SET policy_version = 1, approval = 'WAITING',
           approvals_needed = greatest(treasury.needed(treasury.current_policy(), amount,
               false), 1)
     WHERE state = 'PREPARED';
    """
"""Migration 2's second part: the functions people call, then the intents already journaled."""
