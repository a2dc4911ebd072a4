"""Schema 9 of the team database: the payee registry, where changing where the money goes
takes two people (issue 36).

* **The registry.** ``payees`` (name, bare CPF or CNPJ, tags) and their ``destinations``
  (a Pix key or a bank account, identified by its *detail*: the normalised key, or
  ``ISPB/branch/account``, as a payout journals its ``payee_detail``), each ``new``,
  ``verified``, ``changed`` or ``blocked``. A detail belongs to one payee.
* **Four eyes on where the money goes.** Adding a destination, changing one's key or account
  and unblocking one are a ``destination_changes`` row ``WAITING``, prepared by a maker
  (:func:`treasury.propose_destination`) and applied only when *another* person, an
  approver, approves it (:func:`treasury.decide_destination`); its maker may withdraw it.
  Who is ``session_user``: nobody approves their own change, ``psql`` included (people hold
  no write on these tables). Blocking protects, so anyone blocks at once
  (:func:`treasury.block_destination`). Every step is audited (``payee.*``).
* **One approval more while a destination is fresh.** A payment whose destination (read from
  the request it sends, not only its label) is ``new`` or ``changed`` less than the policy's
  cooling-off period (``registry_policy.cooling_hours``, default 24) after its change took
  effect needs one approval more: the journal's trigger ``journal_registry`` adds it to
  ``approvals_needed`` (where approvals are counted) and keeps why in ``journal.cooling``
  (who changed it, who approved it, when), on insert and on any edit of the content. A
  payment to a blocked destination is refused (``destination_blocked``); with
  ``registry_only`` a payout by key or bank data to a destination outside the registry is
  refused (``not_in_registry``). The cooling-off is measured on the database's clock,
  :func:`treasury.registry_now` (the schedule's clock of schema 8: tests move it, never wait).
* **Verified by the bank.** :func:`treasury.destination_settled` takes what the bank said of
  a settled payment's creditor: the payee's own document verifies the destination; another
  marks it ``changed`` (its cooling-off starts again), audited ``payee.mismatch``.

Refusals are coded notes (schema 7's :func:`treasury.refuse`), codes :data:`REGISTRY_REFUSALS`.
"""

from __future__ import annotations

from treasury_app.ledger.team.codes_schema import NO_ENTRY
from treasury_app.ledger.team.roles_schema import APPROVER, MAKER, VIEWER

OWN_DESTINATION_CHANGE = "own_destination_change"
CHANGE_MAKER_ONLY = "change_maker_only"
CHANGE_NOT_WAITING = "change_not_waiting"
CHANGE_WAITING = "change_waiting"
CHANGE_REASON_MISSING = "change_reason_missing"
DESTINATION_TAKEN = "destination_taken"
DESTINATION_EXISTS = "destination_exists"
DESTINATION_BLOCKED = "destination_blocked"
NOT_IN_REGISTRY = "not_in_registry"
NO_PAYEE = "no_payee"
NO_DESTINATION = "no_destination"
DOCUMENT_FIXED = "document_fixed"
NOT_BLOCKED = "not_blocked"
NOT_SETTLED = "not_settled"
REGISTRY_REFUSALS = frozenset(
    {
        OWN_DESTINATION_CHANGE,
        CHANGE_MAKER_ONLY,
        CHANGE_NOT_WAITING,
        CHANGE_WAITING,
        CHANGE_REASON_MISSING,
        DESTINATION_TAKEN,
        DESTINATION_EXISTS,
        DESTINATION_BLOCKED,
        NOT_IN_REGISTRY,
        NO_PAYEE,
        NO_DESTINATION,
        DOCUMENT_FIXED,
        NOT_BLOCKED,
        NOT_SETTLED,
    }
)
"""The codes of schema 9's refusals (``team.<code>`` for the desktops' words)."""

MIGRATION_SQL = f"""
    CREATE TABLE treasury.registry_policy (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        cooling_hours integer NOT NULL DEFAULT 24 CHECK (cooling_hours BETWEEN 0 AND 720),
        registry_only boolean NOT NULL DEFAULT false
    );
    INSERT INTO treasury.registry_policy DEFAULT VALUES;

    CREATE TABLE treasury.payees (
        id bigserial PRIMARY KEY,
        name text NOT NULL CHECK (btrim(name) <> '' AND length(name) <= 140),
        document text NOT NULL CHECK (document ~ '^([0-9]{{11}}|[0-9A-Z]{{12}}[0-9]{{2}})$'),
        tags text[] NOT NULL DEFAULT '{{}}',
        created_at text NOT NULL,
        created_by text NOT NULL,
        updated_at text NOT NULL
    );
    CREATE INDEX payees_document ON treasury.payees (document);

    CREATE TABLE treasury.destinations (
        id bigserial PRIMARY KEY,
        payee_id bigint NOT NULL REFERENCES treasury.payees (id),
        kind text NOT NULL CHECK (kind IN ('PIX_KEY', 'ACCOUNT')),
        detail text NOT NULL CHECK (btrim(detail) <> ''),
        key_type text,
        ispb text,
        branch text,
        account text,
        account_type text,
        state text NOT NULL CHECK (state IN ('new', 'verified', 'changed', 'blocked')),
        changed_at timestamptz NOT NULL,
        action text NOT NULL,
        changed_by text NOT NULL,
        approved_by text NOT NULL DEFAULT ''
    );
    CREATE UNIQUE INDEX destinations_detail ON treasury.destinations (lower(detail));
    CREATE INDEX destinations_payee ON treasury.destinations (payee_id);

    CREATE TABLE treasury.destination_changes (
        id bigserial PRIMARY KEY,
        payee_id bigint NOT NULL REFERENCES treasury.payees (id),
        destination_id bigint REFERENCES treasury.destinations (id),
        action text NOT NULL,
        proposed jsonb,
        prepared_by text NOT NULL,
        prepared_at text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('WAITING', 'APPROVED', 'REJECTED',
            'WITHDRAWN', 'DONE')),
        decided_by text,
        decided_at text,
        reason text NOT NULL DEFAULT '',
        params jsonb NOT NULL DEFAULT '{{}}'
    );
    CREATE INDEX destination_changes_payee ON treasury.destination_changes (payee_id);
    CREATE INDEX destination_changes_waiting ON treasury.destination_changes (id)
        WHERE outcome = 'WAITING';

    ALTER TABLE treasury.journal ADD COLUMN cooling jsonb;

    -- The registry's clock: the database's, shifted as the schedule's (schema 8).
    CREATE FUNCTION treasury.registry_now() RETURNS timestamptz
        LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT clock_timestamp() + coalesce((SELECT shift FROM treasury.schedule_clock),
            interval '0')
    $f$;

    CREATE FUNCTION treasury.registry_audit(p_action text, p_outcome text, p_reference text,
            p_details jsonb) RETURNS void
        LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
        INSERT INTO treasury.audit (at, profile, action, outcome, reference, details)
        VALUES ('', '', p_action, p_outcome, coalesce(p_reference, ''), p_details::text)
    $f$;

    -- The detail a journal row pays, from the request it sends (its label may say anything).
    CREATE FUNCTION treasury.paid_detail(p_kind text, p_detail text, p_request text)
        RETURNS text
        LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        body jsonb;
    BEGIN
        BEGIN
            body := p_request::jsonb;
        EXCEPTION WHEN others THEN
            RETURN p_detail;
        END;
        IF jsonb_typeof(body) <> 'object' THEN
            RETURN p_detail;
        END IF;
        IF p_kind = 'PIX_KEY' THEN
            RETURN coalesce(body->>'pixKey', p_detail);
        ELSIF p_kind = 'PIX_MANU' AND jsonb_typeof(body->'creditorAccount') = 'object' THEN
            RETURN (body->'creditorAccount'->>'ispb') || '/' || (body->'creditorAccount'->>'issuer')
                || '/' || (body->'creditorAccount'->>'number');
        END IF;
        RETURN p_detail;
    END $f$;

    -- Why a payment to destination d needs one approval more now (NULL: it does not).
    CREATE FUNCTION treasury.cooling_of(d treasury.destinations) RETURNS jsonb
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        pol treasury.registry_policy;
    BEGIN
        SELECT * INTO pol FROM treasury.registry_policy;
        IF d.state NOT IN ('new', 'changed') OR d.changed_at
                + coalesce(pol.cooling_hours, 24) * interval '1 hour'
                <= treasury.registry_now() THEN
            RETURN NULL;
        END IF;
        RETURN jsonb_build_object('destination', d.id, 'payee',
            (SELECT name FROM treasury.payees WHERE id = d.payee_id), 'kind', d.kind,
            'action', d.action, 'state', d.state, 'at', treasury.stamp_of(d.changed_at),
            'by', d.changed_by, 'approved_by', d.approved_by,
            'hours', coalesce(pol.cooling_hours, 24));
    END $f$;

    -- The journal's registry rules, after journal_identity (triggers fire by name).
    CREATE FUNCTION treasury.journal_registry() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        d treasury.destinations;
        pol treasury.registry_policy;
        paid text;
        why jsonb;
    BEGIN
        IF TG_OP = 'UPDATE' THEN
            NEW.cooling := OLD.cooling;
            IF treasury.is_admin() OR OLD.state <> 'PREPARED' OR (NEW.amount,
                    NEW.description, NEW.request_json) IS NOT DISTINCT FROM (OLD.amount,
                    OLD.description, OLD.request_json) THEN
                RETURN NEW;  -- no content changed: approvals_needed as it was
            END IF;
        ELSIF treasury.is_admin() THEN
            RETURN NEW;  -- an administrator's import of what was recorded elsewhere
        END IF;
        IF NEW.kind NOT IN ('PIX_KEY', 'PIX_MANU', 'PIX_QRC') THEN
            RETURN NEW;
        END IF;
        SELECT * INTO pol FROM treasury.registry_policy;
        paid := treasury.paid_detail(NEW.kind, NEW.payee_detail, NEW.request_json);
        SELECT * INTO d FROM treasury.destinations
         WHERE lower(detail) = lower(paid)
           AND kind = CASE WHEN NEW.kind = 'PIX_MANU' THEN 'ACCOUNT' ELSE 'PIX_KEY' END;
        IF NOT FOUND THEN
            IF pol.registry_only AND NEW.kind IN ('PIX_KEY', 'PIX_MANU') THEN
                PERFORM treasury.refuse('check_violation', NULL,
                    format('%s is not in the payee registry: the team pays only registered'
                        ' destinations', paid), '{NOT_IN_REGISTRY}',
                    jsonb_build_object('detail', paid));
            END IF;
            NEW.cooling := NULL;
            RETURN NEW;
        END IF;
        IF d.state = 'blocked' THEN
            PERFORM treasury.refuse('insufficient_privilege', NULL,
                format('%s is blocked in the payee registry', paid), '{DESTINATION_BLOCKED}',
                jsonb_build_object('detail', paid, 'payee',
                    (SELECT name FROM treasury.payees WHERE id = d.payee_id)));
        END IF;
        why := treasury.cooling_of(d);
        NEW.cooling := why;
        IF why IS NOT NULL THEN
            NEW.approvals_needed := NEW.approvals_needed + 1;
            IF NEW.approval = 'APPROVED' AND NEW.approvals_given = 0 THEN
                NEW.approval := 'WAITING';
                NEW.approved_by := NULL;
            END IF;
        END IF;
        RETURN NEW;
    END $f$;
    CREATE TRIGGER journal_registry BEFORE INSERT OR UPDATE ON treasury.journal
        FOR EACH ROW EXECUTE FUNCTION treasury.journal_registry();

    -- Register a payee, or change one's name and tags (its document is who it is).
    CREATE FUNCTION treasury.save_payee(p_id bigint, p_name text, p_document text,
            p_tags text[]) RETURNS treasury.payees
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        p treasury.payees;
    BEGIN
        PERFORM treasury.require_role('is not a maker: only makers register payees',
            '{MAKER}');
        IF p_id IS NULL THEN
            INSERT INTO treasury.payees (name, document, tags, created_at, created_by,
                updated_at)
            VALUES (btrim(p_name), p_document, coalesce(p_tags, '{{}}'), treasury.stamp(),
                session_user, treasury.stamp())
            RETURNING * INTO p;
        ELSE
            SELECT * INTO p FROM treasury.payees WHERE id = p_id FOR UPDATE;
            IF NOT FOUND THEN
                PERFORM treasury.refuse('no_data_found', NULL,
                    format('there is no payee %s', p_id), '{NO_PAYEE}',
                    jsonb_build_object('payee', p_id));
            END IF;
            IF p.document <> p_document THEN
                PERFORM treasury.refuse('insufficient_privilege', NULL,
                    format('payee %s is %s: another document is another payee', p_id,
                        p.document), '{DOCUMENT_FIXED}', jsonb_build_object('payee', p_id));
            END IF;
            UPDATE treasury.payees SET name = btrim(p_name), tags = coalesce(p_tags, '{{}}'),
                   updated_at = treasury.stamp()
             WHERE id = p_id RETURNING * INTO p;
        END IF;
        PERFORM treasury.registry_audit('payee.save', 'ok', p.document,
            jsonb_build_object('payee', p.id, 'name', p.name, 'tags', to_jsonb(p.tags)));
        RETURN p;
    END $f$;

    -- A destination's detail is free for payee p_payee (destination p_own aside).
    CREATE FUNCTION treasury.check_detail_free(p_payee bigint, p_detail text, p_own bigint)
        RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        d treasury.destinations;
    BEGIN
        SELECT * INTO d FROM treasury.destinations WHERE lower(detail) = lower(p_detail);
        IF FOUND AND d.id IS DISTINCT FROM p_own THEN
            IF d.payee_id = p_payee THEN
                PERFORM treasury.refuse('check_violation', NULL,
                    format('%s is this payee''s already', p_detail), '{DESTINATION_EXISTS}',
                    jsonb_build_object('detail', p_detail));
            END IF;
            PERFORM treasury.refuse('check_violation', NULL,
                format('%s is registered to another payee', p_detail), '{DESTINATION_TAKEN}',
                jsonb_build_object('detail', p_detail, 'owner',
                    (SELECT name FROM treasury.payees WHERE id = d.payee_id)));
        END IF;
    END $f$;

    -- Prepare adding, changing or unblocking a destination: it waits for another person.
    CREATE FUNCTION treasury.propose_destination(p_payee bigint, p_action text,
            p_proposed jsonb, p_destination bigint) RETURNS treasury.destination_changes
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        p treasury.payees;
        d treasury.destinations;
        c treasury.destination_changes;
        wanted jsonb := p_proposed;
    BEGIN
        PERFORM treasury.require_role('is not a maker: only makers prepare changes',
            '{MAKER}');
        SELECT * INTO p FROM treasury.payees WHERE id = p_payee FOR UPDATE;
        IF NOT FOUND THEN
            PERFORM treasury.refuse('no_data_found', NULL, format('there is no payee %s',
                p_payee), '{NO_PAYEE}', jsonb_build_object('payee', p_payee));
        END IF;
        IF p_action NOT IN ('add', 'change', 'unblock') THEN
            RAISE EXCEPTION 'unknown change %', p_action USING ERRCODE = 'check_violation';
        END IF;
        IF p_action <> 'add' THEN
            SELECT * INTO d FROM treasury.destinations
             WHERE id = p_destination AND payee_id = p_payee;
            IF NOT FOUND THEN
                PERFORM treasury.refuse('no_data_found', NULL,
                    format('payee %s has no destination %s', p_payee, p_destination),
                    '{NO_DESTINATION}', jsonb_build_object('destination', p_destination));
            END IF;
            IF p_action = 'unblock' THEN
                IF d.state <> 'blocked' THEN
                    PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                        format('destination %s is not blocked', d.id), '{NOT_BLOCKED}',
                        jsonb_build_object('destination', d.id));
                END IF;
                wanted := jsonb_build_object('kind', d.kind, 'detail', d.detail, 'key_type',
                    d.key_type, 'ispb', d.ispb, 'branch', d.branch, 'account', d.account,
                    'account_type', d.account_type);
            END IF;
        END IF;
        IF wanted IS NULL OR jsonb_typeof(wanted) <> 'object'
                OR coalesce(wanted->>'kind', '') NOT IN ('PIX_KEY', 'ACCOUNT')
                OR btrim(coalesce(wanted->>'detail', '')) = '' THEN
            RAISE EXCEPTION 'a destination needs its kind and detail'
                USING ERRCODE = 'check_violation';
        END IF;
        PERFORM treasury.check_detail_free(p_payee, wanted->>'detail', d.id);
        IF EXISTS (SELECT 1 FROM treasury.destination_changes
                    WHERE outcome = 'WAITING' AND (lower(proposed->>'detail')
                        = lower(wanted->>'detail') OR destination_id = d.id)) THEN
            PERFORM treasury.refuse('check_violation', NULL,
                format('a change of %s waits for approval already', wanted->>'detail'),
                '{CHANGE_WAITING}', jsonb_build_object('detail', wanted->>'detail'));
        END IF;
        INSERT INTO treasury.destination_changes (payee_id, destination_id, action, proposed,
            prepared_by, prepared_at, outcome)
        VALUES (p_payee, d.id, p_action, wanted, session_user, treasury.stamp(), 'WAITING')
        RETURNING * INTO c;
        PERFORM treasury.registry_audit('payee.propose', 'waiting', wanted->>'detail',
            jsonb_build_object('payee', p_payee, 'change', c.id, 'action', p_action,
                'destination', d.id));
        RETURN c;
    END $f$;

    -- Approve or reject a change (another person, an approver), or withdraw it (its maker).
    CREATE FUNCTION treasury.decide_destination(p_change bigint, p_outcome text,
            p_reason text) RETURNS treasury.destination_changes
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        c treasury.destination_changes;
        d treasury.destinations;
        w jsonb;
        now_at timestamptz := treasury.registry_now();
    BEGIN
        PERFORM treasury.require_role('may not decide on changes', '{MAKER}', '{APPROVER}');
        SELECT * INTO c FROM treasury.destination_changes WHERE id = p_change FOR UPDATE;
        IF NOT FOUND OR c.outcome <> 'WAITING' THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('change %s does not wait for approval', p_change),
                '{CHANGE_NOT_WAITING}', jsonb_build_object('change', p_change,
                    'outcome', c.outcome));
        END IF;
        IF p_outcome = 'WITHDRAWN' THEN
            IF c.prepared_by <> session_user THEN
                PERFORM treasury.refuse('insufficient_privilege', NULL,
                    format('only %s, who prepared change %s, withdraws it', c.prepared_by,
                        c.id), '{CHANGE_MAKER_ONLY}', jsonb_build_object('change', c.id,
                        'maker', c.prepared_by));
            END IF;
        ELSIF p_outcome IN ('APPROVED', 'REJECTED') THEN
            PERFORM treasury.require_role('is not an approver: only approvers decide',
                '{APPROVER}');
            IF c.prepared_by = session_user THEN
                PERFORM treasury.refuse('insufficient_privilege', NULL,
                    format('you prepared change %s: another person approves it', c.id),
                    '{OWN_DESTINATION_CHANGE}', jsonb_build_object('change', c.id));
            END IF;
        ELSE
            RAISE EXCEPTION 'unknown outcome %', p_outcome USING ERRCODE = 'check_violation';
        END IF;
        IF p_outcome <> 'APPROVED' AND btrim(coalesce(p_reason, '')) = '' THEN
            PERFORM treasury.refuse('check_violation', NULL,
                'a rejection or a withdrawal needs its reason', '{CHANGE_REASON_MISSING}',
                jsonb_build_object('change', c.id));
        END IF;
        IF p_outcome = 'APPROVED' THEN
            w := c.proposed;
            IF c.action = 'add' THEN
                PERFORM treasury.check_detail_free(c.payee_id, w->>'detail', NULL);
                INSERT INTO treasury.destinations (payee_id, kind, detail, key_type, ispb,
                    branch, account, account_type, state, changed_at, action, changed_by,
                    approved_by)
                VALUES (c.payee_id, w->>'kind', w->>'detail', w->>'key_type', w->>'ispb',
                    w->>'branch', w->>'account', w->>'account_type', 'new', now_at, 'added',
                    c.prepared_by, session_user)
                RETURNING * INTO d;
            ELSE
                PERFORM treasury.check_detail_free(c.payee_id, w->>'detail', c.destination_id);
                UPDATE treasury.destinations SET kind = w->>'kind', detail = w->>'detail',
                       key_type = w->>'key_type', ispb = w->>'ispb', branch = w->>'branch',
                       account = w->>'account', account_type = w->>'account_type',
                       state = 'changed', changed_at = now_at,
                       action = CASE WHEN c.action = 'unblock' THEN 'unblocked'
                                     ELSE 'changed' END,
                       changed_by = c.prepared_by, approved_by = session_user
                 WHERE id = c.destination_id RETURNING * INTO d;
            END IF;
        END IF;
        UPDATE treasury.destination_changes SET outcome = p_outcome,
               decided_by = session_user, decided_at = treasury.stamp(),
               reason = btrim(coalesce(p_reason, '')),
               destination_id = coalesce(d.id, destination_id)
         WHERE id = c.id RETURNING * INTO c;
        PERFORM treasury.registry_audit('payee.' || lower(p_outcome), lower(p_outcome),
            c.proposed->>'detail', jsonb_build_object('payee', c.payee_id, 'change', c.id,
                'action', c.action, 'maker', c.prepared_by, 'reason', c.reason));
        RETURN c;
    END $f$;

    -- Block a destination: nothing more is paid to it (anyone, at once).
    CREATE FUNCTION treasury.block_destination(p_destination bigint, p_reason text)
        RETURNS treasury.destinations
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        d treasury.destinations;
    BEGIN
        PERFORM treasury.require_role('may not block destinations', '{MAKER}', '{APPROVER}');
        IF btrim(coalesce(p_reason, '')) = '' THEN
            PERFORM treasury.refuse('check_violation', NULL, 'blocking needs its reason',
                '{CHANGE_REASON_MISSING}', jsonb_build_object('destination', p_destination));
        END IF;
        UPDATE treasury.destinations SET state = 'blocked' WHERE id = p_destination
        RETURNING * INTO d;
        IF NOT FOUND THEN
            PERFORM treasury.refuse('no_data_found', NULL,
                format('there is no destination %s', p_destination), '{NO_DESTINATION}',
                jsonb_build_object('destination', p_destination));
        END IF;
        INSERT INTO treasury.destination_changes (payee_id, destination_id, action, proposed,
            prepared_by, prepared_at, outcome, decided_by, decided_at, reason)
        VALUES (d.payee_id, d.id, 'block', jsonb_build_object('kind', d.kind, 'detail',
            d.detail), session_user, treasury.stamp(), 'DONE', session_user, treasury.stamp(),
            btrim(p_reason));
        PERFORM treasury.registry_audit('payee.block', 'blocked', d.detail,
            jsonb_build_object('payee', d.payee_id, 'destination', d.id,
                'reason', btrim(p_reason)));
        RETURN d;
    END $f$;

    -- What the bank said of a settled payment's creditor: the payee's own document verifies
    -- its destination; another's marks it changed (its cooling-off starts again), audited.
    CREATE FUNCTION treasury.destination_settled(p_entry bigint, p_creditor_name text,
            p_creditor_document text) RETURNS treasury.destinations
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        d treasury.destinations;
        p treasury.payees;
        shown text := upper(regexp_replace(coalesce(p_creditor_document, ''), '[^0-9A-Za-z*]',
            '', 'g'));
        same boolean;
        facts jsonb;
    BEGIN
        PERFORM treasury.require_role('may not record the bank''s answers', '{MAKER}',
            '{APPROVER}');
        SELECT * INTO j FROM treasury.journal WHERE id = p_entry;
        IF NOT FOUND THEN
            PERFORM treasury.refuse('no_data_found', NULL,
                format('there is no journal entry %s', p_entry), '{NO_ENTRY}',
                jsonb_build_object('entry', p_entry));
        END IF;
        IF j.state <> 'ACCEPTED' OR NOT j.final THEN
            PERFORM treasury.refuse('object_not_in_prerequisite_state', NULL,
                format('journal entry %s has not settled', p_entry), '{NOT_SETTLED}',
                jsonb_build_object('entry', p_entry));
        END IF;
        SELECT * INTO d FROM treasury.destinations
         WHERE lower(detail) = lower(treasury.paid_detail(j.kind, j.payee_detail,
            j.request_json)) FOR UPDATE;
        IF NOT FOUND OR EXISTS (SELECT 1 FROM treasury.destination_changes
                WHERE destination_id = d.id AND action IN ('verified', 'mismatch')
                  AND params->>'entry' = p_entry::text) THEN
            RETURN d;  -- not registered, or this payment's answer was taken already
        END IF;
        SELECT * INTO p FROM treasury.payees WHERE id = d.payee_id;
        IF position('*' IN shown) > 0 THEN
            same := length(replace(shown, '*', '')) > 0
                AND position(replace(shown, '*', '') IN p.document) > 0;
        ELSE
            same := shown = p.document;
        END IF;
        facts := jsonb_build_object('entry', p_entry, 'name', p_creditor_name, 'document',
            p_creditor_document);
        IF same AND d.state IN ('new', 'changed') THEN
            UPDATE treasury.destinations SET state = 'verified' WHERE id = d.id
            RETURNING * INTO d;
            INSERT INTO treasury.destination_changes (payee_id, destination_id, action,
                prepared_by, prepared_at, outcome, params)
            VALUES (d.payee_id, d.id, 'verified', session_user, treasury.stamp(), 'DONE',
                facts);
            PERFORM treasury.registry_audit('payee.verified', 'ok', d.detail,
                facts || jsonb_build_object('payee', p.id));
        ELSIF NOT same AND d.state <> 'blocked' THEN
            UPDATE treasury.destinations SET state = 'changed',
                   changed_at = treasury.registry_now(), action = 'mismatch'
             WHERE id = d.id RETURNING * INTO d;
            INSERT INTO treasury.destination_changes (payee_id, destination_id, action,
                prepared_by, prepared_at, outcome, params)
            VALUES (d.payee_id, d.id, 'mismatch', session_user, treasury.stamp(), 'DONE',
                facts);
            PERFORM treasury.registry_audit('payee.mismatch', 'changed', d.detail,
                facts || jsonb_build_object('payee', p.id, 'registered', p.document));
        END IF;
        RETURN d;
    END $f$;
"""

PRIVILEGES_SQL = f"""
DO $$
BEGIN
    IF to_regprocedure('treasury.registry_now()') IS NOT NULL THEN  -- schema 9 on
        REVOKE ALL ON treasury.registry_policy, treasury.payees, treasury.destinations,
            treasury.destination_changes FROM PUBLIC;
        GRANT SELECT ON treasury.registry_policy, treasury.payees, treasury.destinations,
            treasury.destination_changes TO {MAKER}, {APPROVER}, {VIEWER};
        GRANT EXECUTE ON FUNCTION treasury.registry_now(),
            treasury.paid_detail(text, text, text) TO {MAKER}, {APPROVER}, {VIEWER};
        GRANT EXECUTE ON FUNCTION
            treasury.save_payee(bigint, text, text, text[]),
            treasury.propose_destination(bigint, text, jsonb, bigint),
            treasury.decide_destination(bigint, text, text),
            treasury.block_destination(bigint, text),
            treasury.destination_settled(bigint, text, text)
            TO {MAKER}, {APPROVER};
    END IF;
END
$$;
"""
"""Appended to the schema's privileges: read the registry, call its functions (each checks
the caller's role and who they are itself); nobody but the owner writes its tables."""
