"""Schema 1 of the team database: the journal and its history, the hash-chained audit,
receipts, batches and the ``changes`` feed, with the triggers that write who did what
(``session_user``) and refuse changes to the audit.
"""

from __future__ import annotations

from treasury_app.ledger.team.roles_schema import CHANNEL, OWNER

GENESIS = "0" * 64
"""The ``prev_hash`` of the audit's first row."""

MIGRATION_SQL = f"""
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
    """
