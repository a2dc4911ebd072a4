"""Schema 3 of the team database: what the bank's notifications said (the webhook receiver).

* ``notifications``: one row per notified **item** (one POST may carry several), unique on a
  dedupe key derived from the item (:mod:`treasury_app.receiver.items`), with what became of
  it: ``applied``, ``unchanged`` (it said nothing new), ``unmatched`` (not about this
  account: stored, shown to the admin, changes nothing);
* ``dead_letters``: bodies that could not be read (400), with the reason;
* ``our_refs``: what makes a notification ours: the company's Pix keys, the txids and idRecs
  its desktops created (trust but match);
* ``received_pix``, ``charge_states``, ``recurrence_states``, ``cobr_states``,
  ``account_events``: the bank's word on charges, received Pix, recurrences, recurring charges
  and the account's credits, as notified;
* ``receivers``: each running receiver's heartbeat (desktops show "Notifications: live").

The receiver logs in as a member of ``treasury_receiver``: it may insert into these tables and
move a payment's bank status through :func:`treasury.notified_status` — which never touches
an intent waiting for approval nor reopens a final payment — and nothing else: no prepare, no
approval, no release. Desktops (people) read these tables and may add to ``our_refs``.
Every write ends in ``NOTIFY treasury_bank_events`` (payload: ``source:ref``), which wakes
the desktops' charges and recurrences lists; journal changes go through the journal's own
``treasury_changes`` feed.
"""

from __future__ import annotations

RECEIVER = "treasury_receiver"
EVENTS_CHANNEL = "treasury_bank_events"

RECEIVER_ROLE_SQL = f"""
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{RECEIVER}') THEN
        CREATE ROLE {RECEIVER} NOLOGIN;
    END IF;
END
$$;
"""

MIGRATION_SQL = f"""
    CREATE TABLE treasury.notifications (
        id bigserial PRIMARY KEY,
        dedupe_key text NOT NULL UNIQUE,
        source text NOT NULL,
        via text NOT NULL DEFAULT 'webhook',
        received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        receiver text NOT NULL DEFAULT session_user,
        ref text NOT NULL DEFAULT '',
        outcome text NOT NULL
            CHECK (outcome IN ('applied', 'unchanged', 'unmatched', 'failed')),
        entry_id bigint,
        detail text NOT NULL DEFAULT '',
        item jsonb NOT NULL
    );
    CREATE INDEX notifications_outcome ON treasury.notifications (outcome, id);
    CREATE INDEX notifications_ref ON treasury.notifications (source, ref);

    CREATE TABLE treasury.dead_letters (
        id bigserial PRIMARY KEY,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        receiver text NOT NULL DEFAULT session_user,
        route text NOT NULL,
        peer text NOT NULL DEFAULT '',
        reason text NOT NULL,
        size integer NOT NULL,
        body bytea NOT NULL
    );

    CREATE TABLE treasury.our_refs (
        kind text NOT NULL CHECK (kind IN ('key', 'txid', 'idrec')),
        ref text NOT NULL,
        added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        added_by text NOT NULL DEFAULT session_user,
        PRIMARY KEY (kind, ref)
    );

    CREATE TABLE treasury.received_pix (
        end_to_end_id text PRIMARY KEY,
        txid text,
        chave text,
        valor numeric NOT NULL,
        horario text NOT NULL DEFAULT '',
        refunds jsonb NOT NULL DEFAULT '[]',
        item jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX received_pix_txid ON treasury.received_pix (txid);

    CREATE TABLE treasury.charge_states (
        txid text PRIMARY KEY,
        status text NOT NULL,
        end_to_end_id text,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );

    CREATE TABLE treasury.recurrence_states (
        id_rec text PRIMARY KEY,
        status text NOT NULL,
        item jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );

    CREATE TABLE treasury.cobr_states (
        txid text PRIMARY KEY,
        id_rec text NOT NULL,
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        item jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );

    CREATE TABLE treasury.account_events (
        event_key text PRIMARY KEY,
        kind text NOT NULL,
        end_to_end_id text,
        amount numeric,
        status text,
        item jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );

    CREATE TABLE treasury.receivers (
        name text PRIMARY KEY,
        login text NOT NULL DEFAULT session_user,
        started_at timestamptz NOT NULL,
        seen_at timestamptz NOT NULL,
        last_item_at timestamptz,
        url text NOT NULL DEFAULT ''
    );

    -- The bank's word on a payment of the journal: its status (final once the status is),
    -- the ids it gave. Never an intent that waits for approval (that is the trigger's rule
    -- too), never a payment already final (a late or replayed notice changes nothing), never
    -- a refusal of ours. Returns the row as it is afterwards.
    CREATE FUNCTION treasury.notified_status(p_entry bigint, p_bank_status text,
            p_final boolean, p_end_to_end_id text, p_bank_id text, p_note text)
            RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
    BEGIN
        IF NOT treasury.has_role('{RECEIVER}') THEN
            RAISE EXCEPTION '% is not a receiver of the bank''s notifications', session_user
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        SELECT * INTO j FROM treasury.journal WHERE id = p_entry FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'there is no journal entry %', p_entry
                USING ERRCODE = 'no_data_found';
        END IF;
        IF j.final OR j.state IN ('PREPARED', 'REJECTED')
                OR (j.bank_status IS NOT DISTINCT FROM p_bank_status AND j.state = 'ACCEPTED'
                    AND j.final = p_final) THEN
            RETURN j;
        END IF;
        UPDATE treasury.journal SET state = 'ACCEPTED', bank_status = p_bank_status,
               final = p_final, end_to_end_id = COALESCE(p_end_to_end_id, end_to_end_id),
               bank_id = COALESCE(p_bank_id, bank_id), error = NULL
         WHERE id = p_entry RETURNING * INTO j;
        PERFORM treasury.add_history(j, coalesce(p_note, 'webhook'));
        RETURN j;
    END $f$;

    -- Is any of these (kind, ref) pairs ours?
    CREATE FUNCTION treasury.is_ours(p_kinds text[], p_refs text[]) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT EXISTS (SELECT 1 FROM treasury.our_refs o,
                       unnest(p_kinds, p_refs) AS w(kind, ref)
                        WHERE o.kind = w.kind AND o.ref = w.ref)
    $f$;

    -- What one notified item changes, once it is stored (called by treasury.receive only).
    -- a: the item's fields as the receiver read them (see treasury_app/receiver/items.py).
    CREATE FUNCTION treasury.apply_notice(p_source text, p_via text, p_key text, p_item jsonb,
            a jsonb, OUT outcome text, OUT entry_id bigint, OUT detail text)
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        before treasury.journal;
        after treasury.journal;
    BEGIN
        outcome := 'applied';
        detail := '';
        IF p_source = 'pix' THEN
            IF NOT treasury.is_ours(ARRAY['key', 'txid'], ARRAY[a->>'chave', a->>'txid']) THEN
                outcome := 'unmatched';
                detail := 'neither a key nor a txid of ours';
                RETURN;
            END IF;
            INSERT INTO treasury.received_pix (end_to_end_id, txid, chave, valor, horario,
                    refunds, item)
                 VALUES (a->>'e2e', a->>'txid', a->>'chave', (a->>'valor')::numeric,
                    a->>'horario', a->'refunds', p_item)
            ON CONFLICT (end_to_end_id) DO UPDATE SET refunds = EXCLUDED.refunds,
                    item = EXCLUDED.item, updated_at = clock_timestamp();
            IF a->>'txid' IS NOT NULL THEN
                INSERT INTO treasury.charge_states (txid, status, end_to_end_id)
                     VALUES (a->>'txid', 'CONCLUIDA', a->>'e2e')
                ON CONFLICT (txid) DO UPDATE SET status = 'CONCLUIDA',
                        end_to_end_id = EXCLUDED.end_to_end_id, updated_at = clock_timestamp();
            END IF;
        ELSIF p_source = 'rec' THEN
            IF NOT treasury.is_ours(ARRAY['idrec'], ARRAY[a->>'id_rec']) THEN
                outcome := 'unmatched';
                detail := 'not an idRec of ours';
                RETURN;
            END IF;
            INSERT INTO treasury.recurrence_states (id_rec, status, item)
                 VALUES (a->>'id_rec', a->>'status', p_item)
            ON CONFLICT (id_rec) DO UPDATE SET status = EXCLUDED.status, item = EXCLUDED.item,
                    updated_at = clock_timestamp();
        ELSIF p_source = 'cobr' THEN
            IF NOT treasury.is_ours(ARRAY['idrec', 'txid'],
                                    ARRAY[a->>'id_rec', a->>'txid']) THEN
                outcome := 'unmatched';
                detail := 'neither an idRec nor a txid of ours';
                RETURN;
            END IF;
            INSERT INTO treasury.cobr_states (txid, id_rec, status, attempts, item)
                 VALUES (a->>'txid', a->>'id_rec', a->>'status', (a->>'attempts')::integer,
                    p_item)
            ON CONFLICT (txid) DO UPDATE SET status = EXCLUDED.status,
                    attempts = EXCLUDED.attempts, item = EXCLUDED.item,
                    updated_at = clock_timestamp();
        ELSIF p_source IN ('transfer', 'cashout') THEN
            SELECT * INTO before FROM treasury.journal
             WHERE idempotency_key = coalesce(a->>'idempotency_key', '')
                OR (end_to_end_id IS NOT NULL AND end_to_end_id = coalesce(a->>'e2e', ''))
             ORDER BY id LIMIT 1;
            IF NOT FOUND THEN
                outcome := 'unmatched';
                detail := 'no payment of our journal';
                RETURN;
            END IF;
            after := treasury.notified_status(before.id, a->>'status',
                coalesce((a->>'final')::boolean, false), a->>'e2e', a->>'bank_id',
                p_via || ': ' || p_source);
            entry_id := before.id;
            IF after.state IS NOT DISTINCT FROM before.state
                    AND after.bank_status IS NOT DISTINCT FROM before.bank_status
                    AND after.final IS NOT DISTINCT FROM before.final THEN
                outcome := 'unchanged';
                detail := 'already ' || coalesce(before.bank_status, before.state);
            END IF;
        ELSIF p_source IN ('receive', 'refund') THEN
            INSERT INTO treasury.account_events (event_key, kind, end_to_end_id, amount, item)
                 VALUES (p_key, p_source, a->>'e2e', (a->>'amount')::numeric, p_item)
            ON CONFLICT (event_key) DO NOTHING;
            IF a->>'tx_id' IS NOT NULL
                    AND treasury.is_ours(ARRAY['txid'], ARRAY[a->>'tx_id']) THEN
                INSERT INTO treasury.charge_states (txid, status, end_to_end_id)
                     VALUES (a->>'tx_id', 'CONCLUIDA', a->>'e2e')
                ON CONFLICT (txid) DO UPDATE SET status = 'CONCLUIDA',
                        updated_at = clock_timestamp();
            END IF;
        ELSE
            RAISE EXCEPTION 'no notification comes from %', p_source
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
    END $f$;

    -- One notified item, in one call: stored under its dedupe key (a second receiver with the
    -- same item waits on the first one's row, then finds it taken), applied inside a
    -- subtransaction (an item that cannot be applied is kept as failed, with the reason), then
    -- NOTIFY for the desktops. An item stored before as not ours is applied if it is ours now
    -- (a recurrence notified before its desktop named the idRec), once.
    CREATE FUNCTION treasury.receive(p_key text, p_source text, p_via text, p_ref text,
            p_item jsonb, a jsonb, OUT outcome text, OUT entry_id bigint, OUT detail text)
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        stored bigint;
        prior text;
        rematch boolean := false;
    BEGIN
        IF NOT treasury.has_role('{RECEIVER}') THEN
            RAISE EXCEPTION '% is not a receiver of the bank''s notifications', session_user
                USING ERRCODE = 'insufficient_privilege';
        END IF;
        INSERT INTO treasury.notifications (dedupe_key, source, via, ref, outcome, item)
             VALUES (p_key, p_source, p_via, left(p_ref, 200), 'unmatched', p_item)
        ON CONFLICT (dedupe_key) DO NOTHING RETURNING id INTO stored;
        IF stored IS NULL THEN
            SELECT n.id, n.outcome INTO stored, prior FROM treasury.notifications n
             WHERE n.dedupe_key = p_key FOR UPDATE;
            IF prior IS DISTINCT FROM 'unmatched' THEN
                outcome := 'duplicate';
                detail := '';
                RETURN;
            END IF;
            rematch := true;
        END IF;
        BEGIN
            SELECT * INTO outcome, entry_id, detail
              FROM treasury.apply_notice(p_source, p_via, p_key, p_item, a);
        EXCEPTION WHEN OTHERS THEN
            outcome := 'failed';
            entry_id := NULL;
            detail := left(SQLERRM, 300);
        END;
        IF rematch AND outcome <> 'applied' THEN
            outcome := 'duplicate';
            entry_id := NULL;
            detail := '';
            RETURN;
        END IF;
        UPDATE treasury.notifications n
           SET outcome = receive.outcome, entry_id = receive.entry_id,
               detail = left(coalesce(receive.detail, ''), 500)
         WHERE n.id = stored;
        IF outcome = 'applied' THEN
            PERFORM pg_notify('{EVENTS_CHANNEL}', left(p_source || ':' || p_ref, 500));
        END IF;
    END $f$;

    CREATE FUNCTION treasury.receiver_beat(p_name text, p_started timestamptz,
            p_last_item timestamptz, p_url text) RETURNS void
        LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        INSERT INTO treasury.receivers (name, login, started_at, seen_at, last_item_at, url)
        SELECT p_name, session_user, p_started, clock_timestamp(), p_last_item, p_url
         WHERE treasury.has_role('{RECEIVER}')
        ON CONFLICT (name) DO UPDATE SET login = EXCLUDED.login,
            started_at = EXCLUDED.started_at, seen_at = EXCLUDED.seen_at,
            last_item_at = GREATEST(treasury.receivers.last_item_at, EXCLUDED.last_item_at),
            url = EXCLUDED.url
    $f$;
"""

PRIVILEGES_SQL = f"""
GRANT USAGE ON SCHEMA treasury TO {RECEIVER};
GRANT SELECT ON treasury.journal, treasury.our_refs, treasury.notifications,
    treasury.received_pix, treasury.charge_states, treasury.recurrence_states,
    treasury.cobr_states, treasury.account_events, treasury.receivers, treasury.dead_letters,
    treasury.schema_version TO {RECEIVER};
GRANT INSERT (dedupe_key, source, via, ref, outcome, entry_id, detail, item)
    ON treasury.notifications TO {RECEIVER};
GRANT UPDATE (outcome, entry_id, detail) ON treasury.notifications TO {RECEIVER};
GRANT INSERT (route, peer, reason, size, body) ON treasury.dead_letters TO {RECEIVER};
GRANT INSERT, UPDATE ON treasury.received_pix, treasury.charge_states,
    treasury.recurrence_states, treasury.cobr_states TO {RECEIVER};
GRANT INSERT ON treasury.account_events TO {RECEIVER};
GRANT USAGE ON SEQUENCE treasury.notifications_id_seq, treasury.dead_letters_id_seq
    TO {RECEIVER};
GRANT EXECUTE ON FUNCTION treasury.has_role(text),
    treasury.notified_status(bigint, text, boolean, text, text, text),
    treasury.receiver_beat(text, timestamptz, timestamptz, text),
    treasury.receive(text, text, text, text, jsonb, jsonb) TO {RECEIVER};
GRANT INSERT (kind, ref) ON treasury.our_refs TO treasury_maker, treasury_approver;
"""
"""Appended to the schema's privileges: what the receiver's login may do, and the people's
right to name what they created (``our_refs``)."""
