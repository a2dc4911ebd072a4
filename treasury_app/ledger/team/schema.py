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

from treasury_app.ledger.team import feed_schema, integrity_schema, receiver_schema, trust_schema
from treasury_app.ledger.team.receiver_schema import RECEIVER

SCHEMA = "treasury"
OWNER = "treasury_owner"
MAKER = "treasury_maker"
APPROVER = "treasury_approver"
VIEWER = "treasury_viewer"
PERSON_ROLES = (MAKER, APPROVER, VIEWER)
CHANNEL = "treasury_changes"
GENESIS = "0" * 64
"""The ``prev_hash`` of the audit's first row."""
DEFAULT_POLICY_SQL = "1, 1, 10000, 2, 1, NULL"
"""Policy version 1 (``version, approvals, threshold, approvals_above, new_payee_extra,
expiry_hours``): one approval; two above R$ 10.000,00; one more for a payee never paid
before; approvals expire at the end of the Brasília day of the first one."""
SUCCESS_SQL = "'SETTLED', 'LIQUIDATED', 'REFUNDED', 'PARTIALLY_REFUNDED'"
"""The bank statuses of a payment that reached its payee (``SUCCESS_STATUSES``)."""

ROLES_SQL = f"""
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{OWNER}') THEN
        CREATE ROLE {OWNER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{MAKER}') THEN
        CREATE ROLE {MAKER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{APPROVER}') THEN
        CREATE ROLE {APPROVER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{VIEWER}') THEN
        CREATE ROLE {VIEWER} NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{RECEIVER}') THEN
        CREATE ROLE {RECEIVER} NOLOGIN;
    END IF;
END
$$;
"""

MIGRATIONS: tuple[str, ...] = (
    # 1: journal, history, audit chain, receipts, batches, changes
    f"""
    CREATE TABLE treasury.journal (
        id bigserial PRIMARY KEY,
        kind text NOT NULL,
        payee_name text NOT NULL DEFAULT '',
        payee_document text NOT NULL DEFAULT '',
        payee_detail text NOT NULL DEFAULT '',
        amount numeric NOT NULL,
        description text NOT NULL DEFAULT '',
        payment_flow text NOT NULL DEFAULT 'INSTANT',
        idempotency_key text NOT NULL UNIQUE,
        request_json text NOT NULL,
        state text NOT NULL,
        bank_status text,
        final boolean NOT NULL DEFAULT false,
        end_to_end_id text,
        bank_id text,
        error text,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        created_by text NOT NULL DEFAULT session_user,
        updated_by text NOT NULL DEFAULT session_user,
        profile text NOT NULL,
        batch text,
        creditor_name text
    );
    CREATE INDEX journal_open ON treasury.journal (final, state);
    CREATE INDEX journal_payee ON treasury.journal (payee_detail, amount, created_at);
    CREATE INDEX journal_batch ON treasury.journal (batch);

    CREATE TABLE treasury.journal_history (
        id bigserial PRIMARY KEY,
        entry_id bigint NOT NULL REFERENCES treasury.journal (id),
        at text NOT NULL,
        state text NOT NULL,
        bank_status text,
        note text NOT NULL DEFAULT '',
        actor text NOT NULL DEFAULT session_user
    );
    CREATE INDEX journal_history_entry ON treasury.journal_history (entry_id);

    -- One row per entry: SELECT ... FOR UPDATE SKIP LOCKED on it is the claim of the desktop
    -- sending or resolving the entry (a row lock: it works behind any pooler and ends with
    -- the claiming connection, a killed desktop's included).
    CREATE TABLE treasury.entry_claims (
        entry_id bigint PRIMARY KEY REFERENCES treasury.journal (id)
    );

    CREATE TABLE treasury.change_head (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        seq bigint NOT NULL
    );
    INSERT INTO treasury.change_head VALUES (true, 0);
    CREATE TABLE treasury.changes (
        seq bigint PRIMARY KEY,
        entry_id bigint NOT NULL,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor text NOT NULL DEFAULT session_user
    );

    CREATE TABLE treasury.audit_head (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        seq bigint NOT NULL,
        hash text NOT NULL
    );
    INSERT INTO treasury.audit_head VALUES (true, 0, '{GENESIS}');
    CREATE TABLE treasury.audit (
        seq bigint PRIMARY KEY,
        at text NOT NULL,
        actor text NOT NULL DEFAULT session_user,
        profile text NOT NULL,
        action text NOT NULL,
        outcome text NOT NULL,
        reference text NOT NULL DEFAULT '',
        amount text,
        details text NOT NULL DEFAULT '{{}}',
        prev_hash text NOT NULL,
        hash text NOT NULL
    );
    CREATE INDEX audit_action ON treasury.audit (action);
    CREATE INDEX audit_at ON treasury.audit (at);

    CREATE TABLE treasury.receipt_files (
        sha256 text PRIMARY KEY,
        pdf bytea NOT NULL,
        size integer NOT NULL,
        CHECK (sha256 = encode(sha256(pdf), 'hex') AND size = length(pdf))
    );
    CREATE TABLE treasury.receipts (
        id bigserial PRIMARY KEY,
        sha256 text NOT NULL REFERENCES treasury.receipt_files (sha256),
        kind text NOT NULL,
        bank_id text NOT NULL,
        entry_id bigint REFERENCES treasury.journal (id),
        payee_name text NOT NULL DEFAULT '',
        amount text,
        paid_on text,
        saved_at text NOT NULL,
        saved_by text NOT NULL DEFAULT session_user,
        size integer NOT NULL,
        UNIQUE (kind, bank_id)
    );
    CREATE INDEX receipts_entry ON treasury.receipts (entry_id);

    CREATE TABLE treasury.batches (
        id text PRIMARY KEY,
        created_at text NOT NULL,
        created_by text NOT NULL DEFAULT session_user,
        profile text NOT NULL,
        label text NOT NULL DEFAULT '',
        file_sha256 text,
        signature text NOT NULL,
        rows integer NOT NULL,
        total text NOT NULL
    );
    CREATE INDEX batches_signature ON treasury.batches (signature, created_at);
    CREATE INDEX batches_file ON treasury.batches (file_sha256, created_at);

    -- Desktop ledger files moved in by `treasury-admin import-ledger` (each file once).
    CREATE TABLE treasury.imports (
        source text PRIMARY KEY,
        file_name text NOT NULL,
        profile text NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        imported_by text NOT NULL DEFAULT session_user,
        journal_rows integer NOT NULL,
        audit_rows integer NOT NULL,
        receipts integer NOT NULL
    );

    -- When: the server's clock for every row a person writes (a desktop cannot backdate or
    -- post-date a row), in the text form both backends use: UTC, milliseconds, a Z.
    CREATE FUNCTION treasury.stamp() RETURNS text
        LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    $f$;

    -- Who: always the login role (session_user), except that the owner's admin commands may
    -- keep the authors of rows they import from a desktop's file.
    CREATE FUNCTION treasury.is_admin() RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
        AS $f$ SELECT pg_has_role(session_user, '{OWNER}', 'MEMBER') $f$;

    CREATE FUNCTION treasury.journal_identity() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            IF NOT treasury.is_admin() OR NEW.created_by IS NULL THEN
                NEW.created_by := session_user;
            END IF;
            IF NOT treasury.is_admin() THEN
                NEW.created_at := treasury.stamp();
                NEW.updated_at := NEW.created_at;
                -- A person journals an intent; only the bank's answers move it on.
                NEW.state := 'PREPARED';
                NEW.final := false;
                NEW.bank_status := NULL;
                NEW.end_to_end_id := NULL;
                NEW.bank_id := NULL;
                NEW.error := NULL;
                NEW.creditor_name := NULL;
            END IF;
        ELSE
            NEW.created_by := OLD.created_by;
            NEW.id := OLD.id;
            NEW.idempotency_key := OLD.idempotency_key;
            IF NOT treasury.is_admin() THEN
                NEW.created_at := OLD.created_at;
                NEW.updated_at := treasury.stamp();
                -- Only the person who journaled an intent sends it first (their desktop).
                IF OLD.state = 'PREPARED' AND NEW.state <> 'PREPARED'
                        AND OLD.created_by <> session_user THEN
                    RAISE EXCEPTION 'journal entry % was prepared by %: only they send it',
                        OLD.id, OLD.created_by USING ERRCODE = 'insufficient_privilege';
                END IF;
            END IF;
        END IF;
        IF NOT treasury.is_admin() OR NEW.updated_by IS NULL THEN
            NEW.updated_by := session_user;
        END IF;
        RETURN NEW;
    END $f$;
    CREATE TRIGGER journal_identity BEFORE INSERT OR UPDATE ON treasury.journal
        FOR EACH ROW EXECUTE FUNCTION treasury.journal_identity();

    CREATE FUNCTION treasury.row_actor() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF TG_TABLE_NAME = 'journal_history' THEN
            IF NOT treasury.is_admin() OR NEW.actor IS NULL THEN
                NEW.actor := session_user;
            END IF;
            IF NOT treasury.is_admin() THEN
                NEW.at := treasury.stamp();
            END IF;
        ELSIF TG_TABLE_NAME = 'receipts' THEN
            IF TG_OP = 'UPDATE' THEN
                NEW.saved_by := OLD.saved_by;
                NEW.saved_at := OLD.saved_at;
                IF NOT treasury.is_admin() AND NEW.sha256 <> OLD.sha256 THEN
                    RAISE EXCEPTION 'the receipt of % % is kept as first saved', OLD.kind,
                        OLD.bank_id USING ERRCODE = 'insufficient_privilege';
                END IF;
            ELSIF NOT treasury.is_admin() OR NEW.saved_by IS NULL THEN
                NEW.saved_by := session_user;
                NEW.saved_at := treasury.stamp();
            END IF;
        ELSIF TG_TABLE_NAME = 'batches' THEN
            IF NOT treasury.is_admin() OR NEW.created_by IS NULL THEN
                NEW.created_by := session_user;
            END IF;
            IF NOT treasury.is_admin() THEN
                NEW.created_at := treasury.stamp();
            END IF;
        END IF;
        RETURN NEW;
    END $f$;
    CREATE TRIGGER journal_history_actor BEFORE INSERT ON treasury.journal_history
        FOR EACH ROW EXECUTE FUNCTION treasury.row_actor();
    CREATE TRIGGER receipts_actor BEFORE INSERT OR UPDATE ON treasury.receipts
        FOR EACH ROW EXECUTE FUNCTION treasury.row_actor();
    CREATE TRIGGER batches_actor BEFORE INSERT ON treasury.batches
        FOR EACH ROW EXECUTE FUNCTION treasury.row_actor();

    -- History and receipt files are append-only too (a receipt's index row may be completed).
    CREATE FUNCTION treasury.refuse_change() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        RAISE EXCEPTION 'treasury.% is append-only', TG_TABLE_NAME
            USING ERRCODE = 'insufficient_privilege';
    END $f$;
    CREATE TRIGGER journal_history_append_only BEFORE UPDATE OR DELETE ON treasury.journal_history
        FOR EACH ROW EXECUTE FUNCTION treasury.refuse_change();
    CREATE TRIGGER journal_history_no_truncate BEFORE TRUNCATE ON treasury.journal_history
        FOR EACH STATEMENT EXECUTE FUNCTION treasury.refuse_change();
    CREATE TRIGGER journal_no_delete BEFORE DELETE ON treasury.journal
        FOR EACH ROW EXECUTE FUNCTION treasury.refuse_change();
    CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON treasury.journal
        FOR EACH STATEMENT EXECUTE FUNCTION treasury.refuse_change();
    CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON treasury.audit
        FOR EACH ROW EXECUTE FUNCTION treasury.refuse_change();
    CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON treasury.audit
        FOR EACH STATEMENT EXECUTE FUNCTION treasury.refuse_change();

    -- The audit chain: length-prefixed fields (never row::text: its form depends on settings).
    CREATE FUNCTION treasury.lp(value text) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp
        AS $f$
        SELECT CASE WHEN value IS NULL THEN 'N' ELSE length(value)::text || ':' || value END
    $f$;

    CREATE FUNCTION treasury.audit_link(prev text, a treasury.audit) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT encode(sha256(convert_to(
            prev || 'audit-v1' || treasury.lp(a.seq::text) || treasury.lp(a.at)
            || treasury.lp(a.actor) || treasury.lp(a.profile) || treasury.lp(a.action)
            || treasury.lp(a.outcome) || treasury.lp(a.reference) || treasury.lp(a.amount)
            || treasury.lp(a.details), 'UTF8')), 'hex')
    $f$;

    CREATE FUNCTION treasury.audit_chain() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        head record;
    BEGIN
        SELECT seq, hash INTO head FROM treasury.audit_head FOR UPDATE;
        IF NOT treasury.is_admin() OR NEW.actor IS NULL THEN
            NEW.actor := session_user;
        END IF;
        IF NOT treasury.is_admin() THEN
            NEW.at := treasury.stamp();  -- under the head's lock: the chain's order in time
        END IF;
        NEW.seq := head.seq + 1;
        NEW.prev_hash := head.hash;
        NEW.hash := treasury.audit_link(head.hash, NEW);
        UPDATE treasury.audit_head SET seq = NEW.seq, hash = NEW.hash;
        RETURN NEW;
    END $f$;
    CREATE TRIGGER audit_chain BEFORE INSERT ON treasury.audit
        FOR EACH ROW EXECUTE FUNCTION treasury.audit_chain();

    -- Changes feed: numbered under the head's row lock (held to commit), one wake-up per
    -- transaction.
    CREATE FUNCTION treasury.journal_changed() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        next_seq bigint;
    BEGIN
        IF TG_OP = 'INSERT' THEN
            INSERT INTO treasury.entry_claims (entry_id) VALUES (NEW.id);
        END IF;
        UPDATE treasury.change_head SET seq = seq + 1 RETURNING seq INTO next_seq;
        INSERT INTO treasury.changes (seq, entry_id) VALUES (next_seq, NEW.id);
        PERFORM pg_notify('{CHANNEL}', '');
        RETURN NULL;
    END $f$;
    CREATE TRIGGER journal_changed AFTER INSERT OR UPDATE ON treasury.journal
        FOR EACH ROW EXECUTE FUNCTION treasury.journal_changed();
    """,
    # 2: maker-checker approvals (policy, limits, approvals; every write through functions)
    f"""
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
    """,
    # 3: what the bank notified (the webhook receiver, treasury_app/receiver)
    receiver_schema.MIGRATION_SQL,
    integrity_schema.MIGRATION_SQL,  # 4: claims, the engine's moves, the bank's word, money
    feed_schema.MIGRATION_SQL,  # 5: no head locked to commit (audit sealed, feed by snapshot)
    trust_schema.MIGRATION_SQL,  # 6: stale sessions ended, reasons, receipts checked, codes
)

SCHEMA_VERSION = len(MIGRATIONS)

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
"""Applied after every migration (idempotent): nobody but the owner holds more than this."""
PRIVILEGES_SQL += receiver_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += integrity_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += feed_schema.PRIVILEGES_SQL
PRIVILEGES_SQL += trust_schema.PRIVILEGES_SQL
