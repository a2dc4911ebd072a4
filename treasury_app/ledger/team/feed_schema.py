"""Schema 5 of the team database: nobody's open transaction holds the team up (issue 32).

Up to schema 4 two one-row heads were locked until the writer's commit: ``audit_head`` by
every audit row (the chain's ``seq`` and hash were taken in a ``BEFORE INSERT`` trigger under
``SELECT ... FOR UPDATE``) and ``change_head`` by every change of a journal entry. A viewer
who inserted an audit row in ``psql`` and kept the transaction open made every prepare and
approval of everyone wait, then fail at the lock timeout. Schema 5 takes both heads out of the
writers' way.

**The audit chain is sealed, not taken.** An audit row is inserted *unsealed* (``seq``,
``prev_hash`` and ``hash`` null; its own ``id`` from a sequence), with no lock. It is chained
(*sealed*: the next ``seq``, the previous row's hash, its own hash, ``audit_head`` moved on)
by whoever holds the head's row lock, taken only with ``FOR UPDATE SKIP LOCKED``:

* the insert's trigger tries it: when the head is free, the transaction seals the committed
  rows still unsealed (up to :data:`INLINE_SEAL_LIMIT`) and then its own (the usual case: one
  writer, its row chained at once); when another transaction holds the head, the row stays
  unsealed and the insert goes on without waiting;
* :func:`treasury.seal_audit` (``SECURITY DEFINER``, granted to every team login) seals what is
  committed and unsealed, in its own short transaction; desktops call it when their row came
  back unsealed (and at close if it still is) and at unlock (the anchor check); ``treasury-admin
  verify-audit`` calls it too, waiting up to its lock timeout (``p_wait``).

Measured on the shared 2-core dev container (PostgreSQL 15 without fsync, a person's login,
autocommit inserts; noisy): one writer 0.4-1.1 ms an insert (0.6-1.3 ms before); 8 writers at
once 2,700-4,200 rows/s (1,300-1,800 before), the slowest insert 75-105 ms (40-60 ms before:
the one that seals a backlog pays for it); an insert while a viewer holds an audit insert
open: done in ~10 ms (before: failed at the lock timeout); sealing a backlog: ~70 µs a row.

So the head is held at most by one transaction at a time, and nobody ever waits for it: a
person who keeps a transaction open after an audit insert (or after calling the sealer) holds
it, and meanwhile the others' rows wait to be sealed — their work does not. The chain's order
is the order in which sealing transactions commit (they are serialised by the head's lock, so
``seq`` has no gaps and a rolled-back seal leaves none); ``at`` is stamped at insert, so a
row sealed late has an earlier ``at`` than the row before it. People cannot take the head's
lock by other means: ``FOR UPDATE`` needs ``UPDATE`` on ``audit_head`` and ``LOCK TABLE`` a
table privilege they do not hold (and no advisory lock is involved, which anyone could take).
Sealing is the only update the audit allows (``audit_guard``: once, its content unchanged);
every other ``UPDATE``, ``DELETE`` or ``TRUNCATE`` still raises.

**The changes feed is read by snapshot, not numbered under a lock.** A ``changes`` row takes
its ``seq`` from a sequence and records its transaction (``txid``, ``pg_current_xact_id()``);
``change_head`` is no longer used. A reader keeps, as its position, the snapshot of its last
read (``pg_current_snapshot()``) and reads the rows whose transaction that snapshot did not
see and its current one does: exactly the rows committed in between, each once, whatever the
order in which ``seq`` was handed out (a row committed late is read at the next read after its
commit). An open transaction elsewhere delays nothing but its own rows
(:mod:`treasury_app.ledger.team.changes`).

**Who blocks.** :func:`treasury.blocking_sessions` tells a login which sessions hold the lock
one of its own backends waits for (login, application, state, transaction start), so that a
desktop's write that times out says who holds it. The owner is given ``pg_read_all_stats``
when the administrator migrating may grant it, so that it sees the state and the transaction
start of every session (without it, only login and application).
"""

from __future__ import annotations

from treasury_app.ledger.team.receiver_schema import RECEIVER

OWNER = "treasury_owner"
INLINE_SEAL_LIMIT = 100
"""At most this many rows left unsealed before it are sealed by one insert (the rest by the
next): what one writer pays for the others' backlog stays bounded."""
PEOPLE = "treasury_maker, treasury_approver, treasury_viewer"

MIGRATION_SQL = f"""
    -- The audit: an id of its own; seq, prev_hash and hash null until the row is sealed.
    DROP TRIGGER audit_append_only ON treasury.audit;
    ALTER TABLE treasury.audit ADD COLUMN id bigint;
    UPDATE treasury.audit SET id = seq;  -- the rows so far: their chain order
    CREATE SEQUENCE treasury.audit_id_seq OWNED BY treasury.audit.id;
    SELECT setval('treasury.audit_id_seq', coalesce(max(id), 0) + 1, false) FROM treasury.audit;
    ALTER TABLE treasury.audit DROP CONSTRAINT audit_pkey;
    ALTER TABLE treasury.audit ALTER COLUMN id SET NOT NULL;
    ALTER TABLE treasury.audit ADD PRIMARY KEY (id);
    ALTER TABLE treasury.audit ALTER COLUMN seq DROP NOT NULL,
        ALTER COLUMN prev_hash DROP NOT NULL, ALTER COLUMN hash DROP NOT NULL;
    ALTER TABLE treasury.audit ADD CONSTRAINT audit_seq_key UNIQUE (seq),
        ADD CONSTRAINT audit_sealed_whole
            CHECK ((seq IS NULL) = (prev_hash IS NULL) AND (seq IS NULL) = (hash IS NULL));
    CREATE INDEX audit_unsealed ON treasury.audit (id) WHERE seq IS NULL;

    -- The head, locked for this transaction; NULL fields when another transaction holds it
    -- (p_wait: wait for it, up to the caller's lock_timeout, instead of giving up at once).
    -- In REPEATABLE READ a head moved since the transaction's snapshot cannot be locked (the
    -- rows it sealed are not in that snapshot): NULL too. SERIALIZABLE never seals (its
    -- reading of the unsealed rows would make the others' inserts its conflicts).
    CREATE FUNCTION treasury.take_audit_head(p_wait boolean) RETURNS treasury.audit_head
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        head treasury.audit_head;
        isolation text := current_setting('transaction_isolation');
    BEGIN
        IF isolation = 'read committed' THEN
            IF p_wait THEN
                SELECT * INTO head FROM treasury.audit_head FOR UPDATE;
            ELSE
                SELECT * INTO head FROM treasury.audit_head FOR UPDATE SKIP LOCKED;
            END IF;
        ELSIF isolation = 'repeatable read' THEN
            BEGIN
                IF p_wait THEN
                    SELECT * INTO head FROM treasury.audit_head FOR UPDATE;
                ELSE
                    SELECT * INTO head FROM treasury.audit_head FOR UPDATE SKIP LOCKED;
                END IF;
            EXCEPTION WHEN serialization_failure THEN
                head := NULL;
            END;
        END IF;
        RETURN head;
    END $f$;

    -- The audit row's hash after prev: treasury.audit_link's, inlinable (no SET clause: the
    -- sealer calls it for every row; its callers pin search_path). Not granted to anyone.
    CREATE FUNCTION treasury.audit_hash(prev text, a treasury.audit) RETURNS text
        LANGUAGE sql IMMUTABLE AS $f$
        SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(prev || 'audit-v1'
            || CASE WHEN a.seq IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.seq::text)::text || ':' || a.seq::text END
            || CASE WHEN a.at IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.at)::text || ':' || a.at END
            || CASE WHEN a.actor IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.actor)::text || ':' || a.actor END
            || CASE WHEN a.profile IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.profile)::text || ':' || a.profile END
            || CASE WHEN a.action IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.action)::text || ':' || a.action END
            || CASE WHEN a.outcome IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.outcome)::text || ':' || a.outcome END
            || CASE WHEN a.reference IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.reference)::text || ':' || a.reference END
            || CASE WHEN a.amount IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.amount)::text || ':' || a.amount END
            || CASE WHEN a.details IS NULL THEN 'N'
                    ELSE pg_catalog.length(a.details)::text || ':' || a.details END,
            'UTF8')), 'hex')
    $f$;

    -- Seal, after p_head (locked by the caller), the unsealed rows this transaction sees (the
    -- committed ones, and its own), in id order, at most p_limit (NULL: all); the new head
    -- (audit_head not updated yet).
    CREATE FUNCTION treasury.seal_rows(p_head treasury.audit_head, p_limit integer)
        RETURNS treasury.audit_head
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        head treasury.audit_head := p_head;
        a treasury.audit;
        ids bigint[] := '{{}}';
        seqs bigint[] := '{{}}';
        prevs text[] := '{{}}';
        hashes text[] := '{{}}';
    BEGIN
        FOR a IN SELECT * FROM treasury.audit WHERE seq IS NULL ORDER BY id LIMIT p_limit
                 FOR UPDATE SKIP LOCKED LOOP
            a.seq := head.seq + 1;
            ids := ids || a.id;
            seqs := seqs || a.seq;
            prevs := prevs || head.hash;
            head.hash := treasury.audit_hash(head.hash, a);
            hashes := hashes || head.hash;
            head.seq := a.seq;
        END LOOP;
        IF cardinality(ids) > 0 THEN
            UPDATE treasury.audit t SET seq = s.seq, prev_hash = s.prev, hash = s.hash
              FROM unnest(ids, seqs, prevs, hashes) AS s(id, seq, prev, hash)
             WHERE t.id = s.id;
        END IF;
        RETURN head;
    END $f$;

    -- Every audit row: who and when by the database, an id; sealed at once if the head is
    -- free (after the rows left unsealed before it, up to {INLINE_SEAL_LIMIT}: what one writer
    -- pays stays bounded), else left for the next sealer. No wait.
    CREATE OR REPLACE FUNCTION treasury.audit_chain() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        head treasury.audit_head;
    BEGIN
        IF NOT treasury.is_admin() OR NEW.actor IS NULL THEN
            NEW.actor := session_user;
        END IF;
        IF NOT treasury.is_admin() THEN
            NEW.at := treasury.stamp();
        END IF;
        NEW.id := nextval('treasury.audit_id_seq');
        NEW.seq := NULL;
        NEW.prev_hash := NULL;
        NEW.hash := NULL;
        head := treasury.take_audit_head(false);
        IF head.seq IS NOT NULL THEN
            head := treasury.seal_rows(head, {INLINE_SEAL_LIMIT});
            NEW.seq := head.seq + 1;
            NEW.prev_hash := head.hash;
            NEW.hash := treasury.audit_hash(head.hash, NEW);
            UPDATE treasury.audit_head SET seq = NEW.seq, hash = NEW.hash;
        END IF;
        RETURN NEW;
    END $f$;

    -- Seal what is committed and unsealed, in a transaction of the caller's: the head's seq
    -- after it, NULL when another transaction holds the head (or this one is not READ
    -- COMMITTED). Call it on its own (autocommit): the head stays held until the caller's
    -- commit, and the others' rows meanwhile stay unsealed (never their work).
    CREATE FUNCTION treasury.seal_audit(p_wait boolean DEFAULT false) RETURNS bigint
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        head treasury.audit_head := treasury.take_audit_head(p_wait);
        sealed treasury.audit_head;
    BEGIN
        IF head.seq IS NULL THEN
            RETURN NULL;
        END IF;
        sealed := treasury.seal_rows(head, NULL);
        IF sealed.seq <> head.seq THEN
            UPDATE treasury.audit_head SET seq = sealed.seq, hash = sealed.hash;
        END IF;
        RETURN sealed.seq;
    END $f$;

    -- Append-only, but for the seal: an unsealed row is given its seq, prev_hash and hash
    -- once, nothing else of it changing. Whoever runs it (the owner included); a wrong hash
    -- is verify-audit's to find.
    CREATE FUNCTION treasury.audit_guard() RETURNS trigger
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF TG_OP = 'UPDATE' AND OLD.seq IS NULL AND NEW.seq IS NOT NULL
                AND NEW.hash IS NOT NULL AND NEW.prev_hash IS NOT NULL
                AND (NEW.id, NEW.at, NEW.actor, NEW.profile, NEW.action, NEW.outcome,
                     NEW.reference, NEW.amount, NEW.details)
                    IS NOT DISTINCT FROM (OLD.id, OLD.at, OLD.actor, OLD.profile, OLD.action,
                     OLD.outcome, OLD.reference, OLD.amount, OLD.details) THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION 'treasury.% is append-only', TG_TABLE_NAME
            USING ERRCODE = 'insufficient_privilege';
    END $f$;
    CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON treasury.audit
        FOR EACH ROW EXECUTE FUNCTION treasury.audit_guard();

    -- The changes feed: seq from a sequence (no head), the writer's transaction recorded;
    -- readers fence on snapshots (treasury_app/ledger/team/changes.py). The rows so far take
    -- this migration's transaction: committed with it.
    CREATE SEQUENCE treasury.changes_seq_seq OWNED BY treasury.changes.seq;
    SELECT setval('treasury.changes_seq_seq',
        greatest((SELECT seq FROM treasury.change_head),
                 (SELECT coalesce(max(seq), 0) FROM treasury.changes)) + 1, false);
    ALTER TABLE treasury.changes
        ALTER COLUMN seq SET DEFAULT nextval('treasury.changes_seq_seq'),
        ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
    CREATE INDEX changes_txid ON treasury.changes (txid);
    COMMENT ON TABLE treasury.change_head IS
        'Not used since schema 5: changes are read by snapshot (treasury.changes.txid).';

    CREATE OR REPLACE FUNCTION treasury.journal_changed() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            INSERT INTO treasury.entry_claims (entry_id) VALUES (NEW.id);
        END IF;
        INSERT INTO treasury.changes (entry_id) VALUES (NEW.id);
        PERFORM pg_notify('treasury_changes', '');
        RETURN NULL;
    END $f$;

    -- The sessions holding what backend p_pid waits for (only a backend of the caller's own
    -- login, or any for an administrator), longest open first.
    CREATE FUNCTION treasury.blocking_sessions(p_pid integer)
        RETURNS TABLE (pid integer, login text, application text, state text,
                       xact_start timestamptz)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        SELECT a.pid, a.usename::text, a.application_name::text, a.state::text, a.xact_start
          FROM pg_stat_activity a
         WHERE a.pid = ANY (pg_blocking_pids(p_pid))
           AND (treasury.is_admin() OR EXISTS (SELECT 1 FROM pg_stat_activity w
                 WHERE w.pid = p_pid AND w.usename = session_user))
         ORDER BY a.xact_start NULLS LAST, a.pid
    $f$;

    -- The owner sees every session's state and transaction start (for blocking_sessions),
    -- when the administrator running this migration may grant it.
    RESET ROLE;
    DO $$
    BEGIN
        GRANT pg_read_all_stats TO {OWNER};
    EXCEPTION WHEN insufficient_privilege OR invalid_grant_operation THEN
        RAISE NOTICE 'pg_read_all_stats not granted to {OWNER}: blocking sessions are named'
            ' by login and application only';
    END
    $$;
    SET LOCAL ROLE {OWNER};
"""

PRIVILEGES_SQL = f"""
DO $$
BEGIN
    IF to_regprocedure('treasury.seal_audit(boolean)') IS NOT NULL THEN  -- schema 5 or later
        GRANT EXECUTE ON FUNCTION treasury.seal_audit(boolean),
            treasury.blocking_sessions(integer) TO {PEOPLE}, {RECEIVER};
    END IF;
END
$$;
"""
"""Appended to the schema's privileges: every team login may seal the audit and ask who
blocks its own backend (nothing before schema 5: a database migrated to an earlier target)."""
