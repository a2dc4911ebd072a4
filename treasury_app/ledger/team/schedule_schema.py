"""Schema 8 of the team database: scheduled and recurring payments (issue 35).

* **A pay date on the intent.** ``journal.pay_date`` (a Brasília date), ``series_id`` and
  ``series_seq`` (the occurrence of a recurring series). :func:`treasury.prepare_scheduled`
  journals a scheduled intent the way :func:`treasury.prepare` journals any (the policy, the
  approvals it needs, the twin check — a twin being the same content *for the same day and
  occurrence*), its idempotency key fixed then. A pay date before the database's business
  date is refused (``pay_date_past``).
* **Nothing scheduled leaves before its day — the database says so.** The database's
  business date is :func:`treasury.schedule_today`: its own clock in ``America/Sao_Paulo``,
  plus the shift of the one-row ``schedule_clock`` (``0`` in production; only the schema's
  owner writes it: the tests and the sandbox move the clock there, never wait). A
  ``PREPARED`` intent whose pay date is later is refused by :func:`treasury.claim`
  (``not_due``, constraint ``journal_entry_claim``: the desktops leave it alone) and by the
  journal's trigger ``journal_schedule`` on any ``PREPARED → SENT`` (or any move but to
  ``REJECTED``), whoever runs the update.
* **Approved ahead, bound to the date.** The content hash an approval is bound to includes
  the pay date (``journal_schedule`` derives it from the content hash of schema 2 and the
  date). The policy's approval expiry counts from the pay date: approvals given on Monday
  for Friday stand until the end of Friday (Brasília), or ``expiry_hours`` after Friday's
  start when that is later. Moving the date (:func:`treasury.move_scheduled`) voids the
  approvals (void reason ``content changed``: the date is content) and the intent waits again.
* **Who moves, who cancels.** Moving a date is a change of the intent's content: **its maker
  only**, as :func:`treasury.edit` (an approver who disagrees rejects it). Cancelling
  (:func:`treasury.cancel_scheduled`) is its maker's withdrawal or an approver's rejection
  (not of their own), with a reason. Both are audited (``schedule.move``,
  ``schedule.cancel``) with ``session_user``.
* **Holds.** A scheduled payment a desktop found unfit on its day (a slip's amount changed,
  a charge no longer payable, a day the balance does not cover, refusals for lack of funds)
  waits for a person: ``schedule_holds`` (one open hold per entry), written by
  :func:`treasury.hold_scheduled` and cleared by :func:`treasury.clear_hold`, audited.
* **Series.** ``series`` keeps a recurring series' rule and what each occurrence pays;
  :func:`treasury.save_series` (its maker), :func:`treasury.end_series` (its maker or an
  approver).

Refusals are coded notes (schema 7's :func:`treasury.refuse`) with the codes of
:data:`SCHEDULE_REFUSALS`.
"""

from __future__ import annotations

from treasury_app.ledger.team.codes_schema import MAKER_SENDS, NO_ENTRY, TOO_FEW_APPROVALS
from treasury_app.ledger.team.integrity_schema import CLAIM_CODE
from treasury_app.ledger.team.roles_schema import APPROVER, MAKER, VIEWER

NOT_DUE = "not_due"
PAY_DATE_PAST = "pay_date_past"
NOT_SCHEDULED = "not_scheduled"
SCHEDULE_NOT_WAITING = "schedule_not_waiting"
MOVE_MAKER_ONLY = "move_maker_only"
SERIES_NOT_YOURS = "series_not_yours"
SCHEDULE_REFUSALS = frozenset(
    {NOT_DUE, PAY_DATE_PAST, NOT_SCHEDULED, SCHEDULE_NOT_WAITING, MOVE_MAKER_ONLY, SERIES_NOT_YOURS}
)
"""The codes of schema 8's refusals (``team.<code>`` for the desktops' words)."""

MIGRATION_SQL = f"""
    ALTER TABLE treasury.journal ADD COLUMN pay_date date, ADD COLUMN series_id text,
        ADD COLUMN series_seq integer;
    CREATE INDEX journal_pay_date ON treasury.journal (pay_date) WHERE pay_date IS NOT NULL;
    CREATE UNIQUE INDEX journal_series_seq ON treasury.journal (series_id, series_seq)
        WHERE series_id IS NOT NULL;
    -- One waiting intent per content, per day and occurrence: a payment of the same content
    -- on another date (a series' next occurrence) is another payment.
    DROP INDEX treasury.journal_pending_content;
    CREATE UNIQUE INDEX journal_pending_content ON treasury.journal
        (kind, payee_detail, payee_document, round(amount, 2), description, payment_flow,
         coalesce(pay_date, 'infinity'::date), coalesce(series_seq, -1))
        WHERE state = 'PREPARED' AND approvals_needed > 0
            AND approval IN ('WAITING', 'APPROVED');

    -- The schedule's clock: the database's, shifted by the owner (tests, the sandbox).
    CREATE TABLE treasury.schedule_clock (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        shift interval NOT NULL DEFAULT interval '0'
    );
    INSERT INTO treasury.schedule_clock DEFAULT VALUES;

    CREATE FUNCTION treasury.schedule_today() RETURNS date
        LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT ((clock_timestamp() + coalesce((SELECT shift FROM treasury.schedule_clock),
                 interval '0')) AT TIME ZONE 'America/Sao_Paulo')::date
    $f$;

    CREATE TABLE treasury.schedule_holds (
        id bigserial PRIMARY KEY,
        entry_id bigint NOT NULL REFERENCES treasury.journal (id),
        at text NOT NULL,
        held_by text NOT NULL,
        code text NOT NULL,
        params jsonb NOT NULL DEFAULT '{{}}',
        cleared_at text,
        cleared_by text,
        outcome text
    );
    CREATE UNIQUE INDEX schedule_holds_open ON treasury.schedule_holds (entry_id)
        WHERE cleared_at IS NULL;

    CREATE TABLE treasury.series (
        id text PRIMARY KEY,
        rule jsonb NOT NULL,
        template jsonb NOT NULL,
        profile text NOT NULL DEFAULT '',
        created_by text NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        ended_at text,
        ended_by text
    );

    -- A twin of a waiting intent: the same content, for the same day and occurrence.
    CREATE FUNCTION treasury.refuse_pending_twin(p_id bigint, p_kind text, p_detail text,
            p_document text, p_amount numeric, p_description text, p_flow text,
            p_pay_date date, p_seq integer) RETURNS void
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        twin bigint;
    BEGIN
        PERFORM treasury.lock_content(encode(sha256(convert_to(treasury.lp(p_kind)
            || treasury.lp(p_detail) || treasury.lp(p_document)
            || treasury.lp(round(p_amount, 2)::text) || treasury.lp(p_description)
            || treasury.lp(p_flow), 'UTF8')), 'hex'));
        SELECT id INTO twin FROM treasury.journal
         WHERE state = 'PREPARED' AND approvals_needed > 0
           AND approval IN ('WAITING', 'APPROVED') AND id IS DISTINCT FROM p_id
           AND kind = p_kind AND payee_detail = p_detail AND payee_document = p_document
           AND round(amount, 2) = round(p_amount, 2) AND description = p_description
           AND payment_flow = p_flow AND pay_date IS NOT DISTINCT FROM p_pay_date
           AND series_seq IS NOT DISTINCT FROM p_seq
         ORDER BY id LIMIT 1;
        IF twin IS NOT NULL THEN
            RAISE EXCEPTION 'entry % to the same payee, for the same amount and description,'
                ' waits for approval already', twin
                USING ERRCODE = 'unique_violation', CONSTRAINT = 'journal_pending_content',
                      DETAIL = twin::text;
        END IF;
    END $f$;

    -- Schema 4's twin check (prepare, edit), for the day and occurrence of entry p_id.
    CREATE OR REPLACE FUNCTION treasury.refuse_pending_twin(p_id bigint, p_kind text,
            p_detail text, p_document text, p_amount numeric, p_description text,
            p_flow text) RETURNS void
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        day date;
        seq integer;
    BEGIN
        SELECT pay_date, series_seq INTO day, seq FROM treasury.journal WHERE id = p_id;
        PERFORM treasury.refuse_pending_twin(p_id, p_kind, p_detail, p_document, p_amount,
            p_description, p_flow, day, seq);
    END $f$;

    -- The journal's schedule rules, after journal_identity (triggers fire by name).
    CREATE FUNCTION treasury.journal_schedule() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        pol treasury.policies;
        day_start timestamptz;
    BEGIN
        IF TG_OP = 'UPDATE' AND OLD.state = 'PREPARED' AND NEW.state NOT IN ('PREPARED',
                'REJECTED') AND OLD.pay_date IS NOT NULL
                AND OLD.pay_date > treasury.schedule_today() THEN
            PERFORM treasury.refuse('insufficient_privilege', '{CLAIM_CODE}',
                format('journal entry %s is scheduled for %s: it is not sent before its pay'
                    ' date', OLD.id, OLD.pay_date), '{NOT_DUE}',
                jsonb_build_object('entry', OLD.id, 'pay_date', OLD.pay_date));
        END IF;
        -- the approvals are bound to the date: it is part of the content hash
        IF NEW.pay_date IS NOT NULL AND (TG_OP = 'INSERT' OR NOT treasury.is_admin()) THEN
            NEW.content_hash := encode(sha256(convert_to(NEW.content_hash
                || treasury.lp(to_char(NEW.pay_date, 'YYYY-MM-DD')), 'UTF8')), 'hex');
        END IF;
        -- the policy's expiry counts from the pay date
        IF TG_OP = 'UPDATE' AND NEW.pay_date IS NOT NULL AND OLD.approvals_expire_at IS NULL
                AND NEW.approvals_expire_at IS NOT NULL THEN
            SELECT * INTO pol FROM treasury.policies WHERE version = NEW.policy_version;
            day_start := NEW.pay_date::timestamp AT TIME ZONE 'America/Sao_Paulo';
            -- on the clock approvals are checked against (the schedule's, less its shift)
            NEW.approvals_expire_at := treasury.stamp_of(greatest(
                (NEW.pay_date + 1)::timestamp AT TIME ZONE 'America/Sao_Paulo',
                day_start + coalesce(pol.expiry_hours, 0) * interval '1 hour')
                - coalesce((SELECT shift FROM treasury.schedule_clock), interval '0'));
        END IF;
        RETURN NEW;
    END $f$;
    CREATE TRIGGER journal_schedule BEFORE INSERT OR UPDATE ON treasury.journal
        FOR EACH ROW EXECUTE FUNCTION treasury.journal_schedule();

    -- Schema 7's claim: and a scheduled intent not due yet is nobody's to send.
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
        IF j.state = 'PREPARED' AND j.pay_date IS NOT NULL
                AND j.pay_date > treasury.schedule_today() THEN
            PERFORM treasury.refuse('insufficient_privilege', '{CLAIM_CODE}',
                format('journal entry %s is scheduled for %s: it is not sent before its pay'
                    ' date', j.id, j.pay_date), '{NOT_DUE}',
                jsonb_build_object('entry', j.id, 'pay_date', j.pay_date));
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

    -- Journal a scheduled intent (as treasury.prepare, with its day and occurrence).
    CREATE FUNCTION treasury.prepare_scheduled(p_kind text, p_payee_name text,
            p_payee_document text, p_payee_detail text, p_amount numeric, p_description text,
            p_payment_flow text, p_idempotency_key text, p_request_json text, p_profile text,
            p_batch text, p_pay_date date, p_series_id text, p_series_seq integer)
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
        IF p_pay_date IS NULL OR p_pay_date < treasury.schedule_today() THEN
            PERFORM treasury.refuse('check_violation', NULL,
                format('the pay date %s has passed', p_pay_date), '{PAY_DATE_PAST}',
                jsonb_build_object('pay_date', p_pay_date, 'today', treasury.schedule_today()));
        END IF;
        SELECT id INTO twin FROM treasury.journal WHERE idempotency_key = p_idempotency_key;
        IF FOUND THEN
            RAISE EXCEPTION 'payment intent % already journaled', twin
                USING ERRCODE = 'unique_violation', CONSTRAINT = 'journal_idempotency_key_key';
        END IF;
        fresh := NOT treasury.paid_before(p_kind, p_payee_detail, p_payee_document);
        IF treasury.needed(pol, p_amount, fresh) > 0 THEN
            PERFORM treasury.refuse_pending_twin(NULL, p_kind, p_payee_detail,
                p_payee_document, p_amount, p_description, p_payment_flow, p_pay_date,
                p_series_seq);
        END IF;
        INSERT INTO treasury.journal (kind, payee_name, payee_document, payee_detail, amount,
            description, payment_flow, idempotency_key, request_json, state, created_at,
            updated_at, profile, batch, approvals_needed, new_payee, policy_version, pay_date,
            series_id, series_seq)
        VALUES (p_kind, p_payee_name, p_payee_document, p_payee_detail, p_amount,
            p_description, p_payment_flow, p_idempotency_key, p_request_json, 'PREPARED', '',
            '', p_profile, p_batch, treasury.needed(pol, p_amount, fresh), fresh, pol.version,
            p_pay_date, p_series_id, p_series_seq)
        RETURNING * INTO j;
        PERFORM treasury.add_history(j, 'journaled');
        IF j.approvals_needed > 0 THEN
            PERFORM treasury.approval_audit(j, 'approval.prepare', 'waiting',
                jsonb_build_object('new_payee', fresh, 'policy', pol.version,
                    'pay_date', p_pay_date));
        END IF;
        RETURN j;
    END $f$;

    -- A scheduled intent that has not left: locked, or refused.
    CREATE FUNCTION treasury.scheduled_entry(p_entry bigint) RETURNS treasury.journal
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
        IF j.pay_date IS NULL THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('entry %s is not a scheduled payment', p_entry), '{NOT_SCHEDULED}',
                jsonb_build_object('entry', p_entry));
        END IF;
        IF j.state <> 'PREPARED' OR coalesce(j.approval, 'APPROVED') NOT IN ('WAITING',
                'APPROVED') THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('scheduled entry %s has left or ended (%s)', p_entry,
                    lower(coalesce(j.approval, j.state))), '{SCHEDULE_NOT_WAITING}',
                jsonb_build_object('entry', p_entry, 'state', coalesce(j.approval, j.state)));
        END IF;
        RETURN j;
    END $f$;

    -- Move a scheduled intent's pay date: its maker only; the approvals are void.
    CREATE FUNCTION treasury.move_scheduled(p_entry bigint, p_pay_date date)
        RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        before date;
        voided integer;
    BEGIN
        PERFORM treasury.require_role('is not a maker: only an intent''s maker moves it',
            '{MAKER}');
        j := treasury.scheduled_entry(p_entry);
        IF j.created_by <> session_user THEN
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                format('entry %s was prepared by %s: only they move it', j.id, j.created_by),
                '{MOVE_MAKER_ONLY}', jsonb_build_object('entry', j.id, 'maker', j.created_by));
        END IF;
        IF p_pay_date IS NULL OR p_pay_date < treasury.schedule_today() THEN
            PERFORM treasury.refuse('check_violation', NULL,
                format('the pay date %s has passed', p_pay_date), '{PAY_DATE_PAST}',
                jsonb_build_object('pay_date', p_pay_date, 'today', treasury.schedule_today()));
        END IF;
        before := j.pay_date;
        voided := treasury.void_approvals(j.id, 'content changed');
        UPDATE treasury.journal SET pay_date = p_pay_date, approvals_given = 0,
               approvals_expire_at = NULL,
               approval = CASE WHEN approvals_needed > 0 THEN 'WAITING' ELSE 'APPROVED' END,
               approved_by = CASE WHEN approvals_needed > 0 THEN NULL ELSE session_user END
         WHERE id = j.id RETURNING * INTO j;
        PERFORM treasury.add_history(j, treasury.coded('changed',
            jsonb_build_object('void', voided)));
        PERFORM treasury.approval_audit(j, 'schedule.move', 'moved',
            jsonb_build_object('from', before, 'to', p_pay_date, 'voided', voided));
        RETURN j;
    END $f$;

    -- Cancel a scheduled intent: its maker withdraws it, an approver rejects it.
    CREATE FUNCTION treasury.cancel_scheduled(p_entry bigint, p_reason text)
        RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
    BEGIN
        PERFORM treasury.require_role('may not cancel payments', '{MAKER}', '{APPROVER}');
        j := treasury.scheduled_entry(p_entry);
        j := treasury.decide(j.id, CASE WHEN j.created_by = session_user THEN 'WITHDRAWN'
            ELSE 'REJECTED' END, p_reason);
        PERFORM treasury.approval_audit(j, 'schedule.cancel', 'cancelled',
            jsonb_build_object('pay_date', j.pay_date, 'reason', btrim(p_reason)));
        UPDATE treasury.schedule_holds SET cleared_at = treasury.stamp(),
               cleared_by = session_user, outcome = 'cancel'
         WHERE entry_id = j.id AND cleared_at IS NULL;
        RETURN j;
    END $f$;

    -- Hold a scheduled intent for a person (the first open hold stays).
    CREATE FUNCTION treasury.hold_scheduled(p_entry bigint, p_code text, p_params jsonb)
        RETURNS treasury.schedule_holds
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        h treasury.schedule_holds;
    BEGIN
        PERFORM treasury.require_role('may not hold payments', '{MAKER}', '{APPROVER}');
        j := treasury.scheduled_entry(p_entry);
        SELECT * INTO h FROM treasury.schedule_holds
         WHERE entry_id = j.id AND cleared_at IS NULL;
        IF FOUND THEN
            RETURN h;
        END IF;
        INSERT INTO treasury.schedule_holds (entry_id, at, held_by, code, params)
        VALUES (j.id, treasury.stamp(), session_user, p_code, coalesce(p_params, '{{}}'))
        RETURNING * INTO h;
        PERFORM treasury.approval_audit(j, 'schedule.hold', 'held',
            jsonb_build_object('code', p_code, 'params', p_params));
        RETURN h;
    END $f$;

    CREATE FUNCTION treasury.clear_hold(p_entry bigint, p_outcome text) RETURNS boolean
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        cleared integer;
    BEGIN
        PERFORM treasury.require_role('may not decide on held payments', '{MAKER}',
            '{APPROVER}');
        UPDATE treasury.schedule_holds SET cleared_at = treasury.stamp(),
               cleared_by = session_user, outcome = p_outcome
         WHERE entry_id = p_entry AND cleared_at IS NULL;
        GET DIAGNOSTICS cleared = ROW_COUNT;
        IF cleared > 0 THEN
            SELECT * INTO j FROM treasury.journal WHERE id = p_entry;
            PERFORM treasury.approval_audit(j, 'schedule.decide', p_outcome, '{{}}'::jsonb);
        END IF;
        RETURN cleared > 0;
    END $f$;

    -- A recurring series: made and changed by its maker, ended by its maker or an approver.
    CREATE FUNCTION treasury.save_series(p_id text, p_rule jsonb, p_template jsonb,
            p_profile text) RETURNS treasury.series
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        s treasury.series;
    BEGIN
        PERFORM treasury.require_role('is not a maker: only makers prepare payments', '{MAKER}');
        SELECT * INTO s FROM treasury.series WHERE id = p_id FOR UPDATE;
        IF FOUND AND (s.created_by <> session_user OR s.ended_at IS NOT NULL) THEN
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                format('series %s is %s''s or has ended', p_id, s.created_by),
                '{SERIES_NOT_YOURS}', jsonb_build_object('series', p_id,
                    'maker', s.created_by));
        END IF;
        INSERT INTO treasury.series (id, rule, template, profile, created_by, created_at,
            updated_at)
        VALUES (p_id, p_rule, p_template, coalesce(p_profile, ''), session_user,
            treasury.stamp(), treasury.stamp())
        ON CONFLICT (id) DO UPDATE SET rule = EXCLUDED.rule, template = EXCLUDED.template,
            updated_at = EXCLUDED.updated_at
        RETURNING * INTO s;
        INSERT INTO treasury.audit (at, profile, action, outcome, reference, details)
        VALUES ('', s.profile, 'schedule.series', 'saved', s.id, p_rule::text);
        RETURN s;
    END $f$;

    CREATE FUNCTION treasury.end_series(p_id text) RETURNS treasury.series
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        s treasury.series;
    BEGIN
        PERFORM treasury.require_role('may not end a series', '{MAKER}', '{APPROVER}');
        SELECT * INTO s FROM treasury.series WHERE id = p_id FOR UPDATE;
        IF NOT FOUND OR (s.created_by <> session_user AND NOT treasury.has_role('{APPROVER}'))
                THEN
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                format('series %s is not yours to end', p_id), '{SERIES_NOT_YOURS}',
                jsonb_build_object('series', p_id, 'maker', s.created_by));
        END IF;
        UPDATE treasury.series SET ended_at = coalesce(ended_at, treasury.stamp()),
               ended_by = coalesce(ended_by, session_user)
         WHERE id = p_id RETURNING * INTO s;
        INSERT INTO treasury.audit (at, profile, action, outcome, reference, details)
        VALUES ('', s.profile, 'schedule.series', 'ended', s.id, '{{}}');
        RETURN s;
    END $f$;
"""

PRIVILEGES_SQL = f"""
DO $$
BEGIN
    IF to_regprocedure('treasury.schedule_today()') IS NOT NULL THEN  -- schema 8 on
        REVOKE ALL ON treasury.schedule_clock, treasury.schedule_holds, treasury.series
            FROM PUBLIC;
        GRANT SELECT ON treasury.schedule_clock, treasury.schedule_holds, treasury.series
            TO {MAKER}, {APPROVER}, {VIEWER};
        GRANT EXECUTE ON FUNCTION treasury.schedule_today() TO {MAKER}, {APPROVER}, {VIEWER};
        GRANT EXECUTE ON FUNCTION
            treasury.prepare_scheduled(text, text, text, text, numeric, text, text, text, text,
                text, text, date, text, integer),
            treasury.move_scheduled(bigint, date), treasury.cancel_scheduled(bigint, text),
            treasury.hold_scheduled(bigint, text, jsonb), treasury.clear_hold(bigint, text),
            treasury.save_series(text, jsonb, jsonb, text), treasury.end_series(text)
            TO {MAKER}, {APPROVER};
    END IF;
END
$$;
"""
"""Appended to the schema's privileges: read the schedule, call its functions (each checks
the caller's role itself); nobody but the owner writes the schedule's clock."""
