"""Schema 6 of the team database: what schema 4 and 5 left open of issue 32.

* **A stale session is ended by the colleague it holds up.** A person's transaction is
  *stale* once it has been open longer than ``session_rules.stale_after`` (15 minutes unless
  the administrator says otherwise: ``treasury-admin stale-after``). A desktop's own
  transactions last at most the time of one send (a claim is held while the bank answers:
  minutes at worst), so only a session left open by hand — ``psql`` with ``BEGIN`` and a
  claim, or a row lock, then nothing — gets there. Session defaults such as
  ``idle_in_transaction_session_timeout`` are only defaults (``SET`` overrides them); this
  rule does not depend on them. Two functions, for makers and approvers:

  - :func:`treasury.end_stale_claim` (entry): the session holding that entry's send claim,
    when stale — a desktop that finds an entry claimed calls it before it gives up;
  - :func:`treasury.end_stale_blocker` (pid): a session holding a lock another backend waits
    for, when stale — a desktop's write that waits calls it for each session that blocks it.

  Either ends the session (``pg_terminate_backend``; the owner is given ``pg_signal_backend``
  when the administrator migrating may grant it, otherwise nothing is ended and the desktop
  names the session as before) and writes an audit row ``session.ended`` naming the login,
  its backend, since when its transaction was open, and who ended it. Only a person's login
  is ever ended (a member of the maker, approver or viewer role, not a superuser, not the
  receiver or an administrator), only in this database, never the caller's own backend.
* **Every end of an intent has a reason.** A withdrawal needs one too now (a rejection always
  did), refused otherwise with the code ``journal_end_reason``.
* **A receipt has one version the bank gave, and a second opinion.** The first receipt
  stored for a payment stays (schema 4). When another login stores the receipt it fetched
  from the bank for the same payment, :func:`treasury.store_receipt` compares: the same bytes
  confirm it (``confirmed_by``, audit ``receipt.confirmed``); other bytes dispute it
  (``disputed_by``, ``disputed_sha256``, ``disputed_at``; the other file is kept beside it, not
  in its place; audit ``receipt.disputed`` naming both logins and both digests). Desktops
  fetch again the receipts someone else stored and nobody confirmed, and show a disputed
  receipt as such: a PDF a person planted first is caught by the next desktop that asks the
  bank.
* **The journal's notes about the bank's word are codes.** An overruled outcome's history
  note is ``overruled`` and a contradicted one's ``bank_stands`` (who, what and how are the
  entry's ``overruled_*`` columns and the audit row's details); the desktops put them in
  words.
"""

from __future__ import annotations

from treasury_app.ledger.team.integrity_schema import RECEIPT_CODE, SUCCESS_SQL

OWNER = "treasury_owner"
MAKER = "treasury_maker"
APPROVER = "treasury_approver"
VIEWER = "treasury_viewer"
RECEIVER = "treasury_receiver"

STALE_AFTER_DEFAULT = "15 minutes"
STALE_AFTER_MAX_MINUTES = 24 * 60
END_REASON_CODE = "journal_end_reason"
OVERRULED_NOTE = "overruled"
BANK_STANDS_NOTE = "bank_stands"
TERMINATE_WAIT_MS = 5000

MIGRATION_SQL = f"""
    CREATE TABLE treasury.session_rules (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        stale_after interval NOT NULL DEFAULT '{STALE_AFTER_DEFAULT}'
            CHECK (stale_after >= interval '0'
                   AND stale_after <= interval '{STALE_AFTER_MAX_MINUTES} minutes')
    );
    INSERT INTO treasury.session_rules DEFAULT VALUES;

    -- Whether p_login is a person's login: a member of a person's role, nothing more.
    CREATE FUNCTION treasury.is_person_login(p_login name) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT EXISTS (SELECT 1 FROM pg_roles u WHERE u.rolname = p_login
                          AND NOT u.rolsuper AND NOT u.rolcreaterole AND NOT u.rolbypassrls)
           AND (pg_has_role(p_login, '{MAKER}', 'MEMBER')
                OR pg_has_role(p_login, '{APPROVER}', 'MEMBER')
                OR pg_has_role(p_login, '{VIEWER}', 'MEMBER'))
           AND NOT pg_has_role(p_login, '{RECEIVER}', 'MEMBER')
           AND NOT pg_has_role(p_login, '{OWNER}', 'MEMBER')
    $f$;

    -- End backend p_pid when it is a person's session in this database whose transaction is
    -- stale, audited (p_why: 'claim' or 'lock'; p_entry: the claimed entry); whether it ended.
    CREATE FUNCTION treasury.end_stale(p_pid integer, p_why text, p_entry bigint)
        RETURNS boolean
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        a record;
        limit_ interval;
    BEGIN
        SELECT stale_after INTO limit_ FROM treasury.session_rules;
        SELECT s.pid, s.usename::text AS login, s.application_name::text AS application,
               s.xact_start, s.state::text AS state
          INTO a FROM pg_stat_activity s
         WHERE s.pid = p_pid AND s.pid <> pg_backend_pid()
           AND s.datname = current_database()
           AND s.xact_start IS NOT NULL
           AND s.xact_start <= clock_timestamp() - limit_;
        IF NOT FOUND OR NOT treasury.is_person_login(a.login::name) THEN
            RETURN false;
        END IF;
        BEGIN
            IF NOT pg_terminate_backend(p_pid, {TERMINATE_WAIT_MS}) THEN
                RETURN false;
            END IF;
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'the stale session % of % was not ended: the database''s owner may'
                ' not end sessions (pg_signal_backend)', p_pid, a.login;
            RETURN false;
        END;
        INSERT INTO treasury.audit (at, profile, action, outcome, reference, details)
        VALUES ('', '', 'session.ended', 'stale', a.login,
            jsonb_build_object('login', a.login, 'pid', a.pid, 'application', a.application,
                'state', a.state, 'open_since', treasury.stamp_of(a.xact_start),
                'stale_after_seconds', extract(epoch FROM limit_)::bigint,
                'why', p_why, 'entry', p_entry, 'ended_by', session_user)::text);
        RETURN true;
    END $f$;

    -- The session that holds entry p_entry's send claim, ended when stale: whether it was.
    CREATE FUNCTION treasury.end_stale_claim(p_entry bigint) RETURNS boolean
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        holder integer;
    BEGIN
        PERFORM treasury.require_role('may not send or resolve payments', '{MAKER}',
            '{APPROVER}');
        SELECT l.pid INTO holder FROM treasury.entry_claims c
          JOIN pg_locks l ON l.locktype = 'transactionid' AND l.transactionid = c.xmax
               AND l.mode = 'ExclusiveLock' AND l.granted
         WHERE c.entry_id = p_entry LIMIT 1;
        IF holder IS NULL THEN
            RETURN false;
        END IF;
        RETURN treasury.end_stale(holder, 'claim', p_entry);
    END $f$;

    -- Session p_pid, when it holds a lock some backend waits for and is stale: whether it
    -- was ended.
    CREATE FUNCTION treasury.end_stale_blocker(p_pid integer) RETURNS boolean
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        PERFORM treasury.require_role('may not write the journal', '{MAKER}', '{APPROVER}');
        IF NOT EXISTS (SELECT 1 FROM pg_stat_activity w
                        WHERE w.datname = current_database()
                          AND p_pid = ANY (pg_blocking_pids(w.pid))) THEN
            RETURN false;
        END IF;
        RETURN treasury.end_stale(p_pid, 'lock', NULL);
    END $f$;

    -- The owner may end a person's stale session when the administrator migrating may
    -- grant it (otherwise such a session is only named).
    RESET ROLE;
    DO $$
    BEGIN
        GRANT pg_signal_backend TO {OWNER};
    EXCEPTION WHEN insufficient_privilege OR invalid_grant_operation THEN
        RAISE NOTICE 'pg_signal_backend not granted to {OWNER}: stale sessions are named,'
            ' not ended';
    END
    $$;
    SET LOCAL ROLE {OWNER};

    -- Every end of an intent has a reason: a withdrawal too.
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
               error = CASE WHEN p_outcome = 'WITHDRAWN'
                            THEN 'Withdrawn by ' || session_user
                            ELSE 'Rejected by ' || session_user END || ': ' || reason
         WHERE id = j.id RETURNING * INTO j;
        PERFORM treasury.add_history(j, lower(p_outcome) || ' by ' || session_user);
        PERFORM treasury.approval_audit(j,
            CASE WHEN p_outcome = 'WITHDRAWN' THEN 'approval.withdraw'
                 ELSE 'approval.reject' END, lower(p_outcome),
            jsonb_build_object('reason', reason));
        RETURN j;
    END $f$;

    -- The bank's word overrules a desktop's: the history note is a code now.
    CREATE OR REPLACE FUNCTION treasury.overrule(before treasury.journal, p_state text,
            p_bank_status text, p_final boolean, p_end_to_end_id text, p_bank_id text,
            p_error text, p_note text, p_creditor_name text, p_word text)
            RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        recorder text := coalesce(before.outcome_by, before.updated_by);
        accepted boolean := p_state = 'ACCEPTED';
    BEGIN
        UPDATE treasury.journal
           SET state = p_state,
               bank_status = CASE WHEN accepted THEN p_bank_status END,
               final = p_final,
               end_to_end_id = CASE WHEN accepted
                                    THEN coalesce(p_end_to_end_id, end_to_end_id) END,
               bank_id = CASE WHEN accepted THEN coalesce(p_bank_id, bank_id) END,
               error = p_error,
               creditor_name = coalesce(p_creditor_name, creditor_name),
               outcome_by = session_user, outcome_word = p_word,
               confirmed_by = CASE WHEN p_word = 'notice' THEN session_user END,
               overruled_by = recorder, overruled_state = before.state,
               overruled_status = before.bank_status, overruled_at = treasury.stamp()
         WHERE id = before.id RETURNING * INTO j;
        PERFORM treasury.add_history(j, '{OVERRULED_NOTE}');
        PERFORM treasury.outcome_audit(j, 'payment.overruled', 'bank_wins',
            jsonb_build_object('recorded_by', recorder, 'recorded_word', before.outcome_word,
                'recorded_state', before.state, 'recorded_status', before.bank_status,
                'recorded_end_to_end_id', before.end_to_end_id,
                'recorded_bank_id', before.bank_id, 'told_by', session_user, 'via', p_word,
                'note', coalesce(p_note, ''),
                'end_to_end_id', j.end_to_end_id, 'bank_id', j.bank_id));
        RETURN j;
    END $f$;

    CREATE OR REPLACE FUNCTION treasury.contradicted(j treasury.journal, p_state text,
            p_bank_status text, p_word text) RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        after treasury.journal;
    BEGIN
        UPDATE treasury.journal
           SET overruled_by = session_user, overruled_state = p_state,
               overruled_status = p_bank_status, overruled_at = treasury.stamp()
         WHERE id = j.id RETURNING * INTO after;
        PERFORM treasury.add_history(after, '{BANK_STANDS_NOTE}');
        PERFORM treasury.outcome_audit(after, 'payment.overruled', 'bank_stands',
            jsonb_build_object('recorded_by', session_user, 'recorded_word', p_word,
                'recorded_state', p_state, 'recorded_status', p_bank_status,
                'told_by', j.outcome_by, 'via', j.outcome_word));
        RETURN after;
    END $f$;

    -- Receipts: a second login's fetch confirms or disputes the first one stored.
    ALTER TABLE treasury.receipts
        ADD COLUMN confirmed_by text,
        ADD COLUMN disputed_by text,
        ADD COLUMN disputed_sha256 text REFERENCES treasury.receipt_files (sha256),
        ADD COLUMN disputed_at text;

    CREATE OR REPLACE FUNCTION treasury.store_receipt(p_entry bigint, p_kind text,
            p_bank_id text, p_pdf bytea, p_payee_name text, p_paid_on text)
            RETURNS treasury.receipts
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        r treasury.receipts;
        own_kind text;
        own_id text;
        digest text;
    BEGIN
        PERFORM treasury.require_role('may not keep receipts', '{MAKER}', '{APPROVER}');
        SELECT * INTO j FROM treasury.journal WHERE id = p_entry FOR SHARE;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'there is no journal entry %', p_entry
                USING ERRCODE = 'no_data_found';
        END IF;
        own_kind := CASE WHEN j.kind = 'BILLET' THEN 'BILLET' ELSE 'PIX' END;
        own_id := CASE WHEN j.kind = 'BILLET' THEN j.bank_id ELSE j.end_to_end_id END;
        IF j.state <> 'ACCEPTED' OR NOT j.final
                OR coalesce(j.bank_status, '') NOT IN ({SUCCESS_SQL}) THEN
            RAISE EXCEPTION 'entry % has no receipt: the bank did not complete it', p_entry
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      CONSTRAINT = '{RECEIPT_CODE}';
        END IF;
        IF p_kind IS DISTINCT FROM own_kind OR own_id IS NULL
                OR p_bank_id IS DISTINCT FROM own_id THEN
            RAISE EXCEPTION 'the receipt of % % is not the one of entry %', p_kind, p_bank_id,
                p_entry USING ERRCODE = 'check_violation', CONSTRAINT = '{RECEIPT_CODE}';
        END IF;
        IF p_pdf IS NULL OR substr(p_pdf, 1, 4) IS DISTINCT FROM convert_to('%PDF', 'UTF8') THEN
            RAISE EXCEPTION 'the receipt of entry % is not a PDF file', p_entry
                USING ERRCODE = 'check_violation', CONSTRAINT = '{RECEIPT_CODE}';
        END IF;
        digest := encode(sha256(p_pdf), 'hex');
        -- One stored receipt per payment at a time: the first store wins the row, a second
        -- one compares with it.
        SELECT * INTO r FROM treasury.receipts WHERE kind = own_kind AND bank_id = own_id
           FOR UPDATE;
        IF NOT FOUND THEN
            INSERT INTO treasury.receipt_files (sha256, pdf, size)
            VALUES (digest, p_pdf, length(p_pdf)) ON CONFLICT (sha256) DO NOTHING;
            INSERT INTO treasury.receipts (sha256, kind, bank_id, entry_id, payee_name,
                amount, paid_on, saved_at, size)
            VALUES (digest, own_kind, own_id, j.id, coalesce(p_payee_name, ''),
                j.amount::text, p_paid_on, '', length(p_pdf))
            ON CONFLICT (kind, bank_id) DO NOTHING RETURNING * INTO r;
            IF r.id IS NOT NULL THEN
                RETURN r;
            END IF;
            SELECT * INTO r FROM treasury.receipts WHERE kind = own_kind AND bank_id = own_id
               FOR UPDATE;
        END IF;
        IF r.saved_by = session_user OR r.disputed_at IS NOT NULL THEN
            RETURN r;  -- one login's second fetch is no second opinion; a dispute stays
        END IF;
        IF digest = r.sha256 THEN
            IF r.confirmed_by IS NULL THEN
                UPDATE treasury.receipts SET confirmed_by = session_user
                 WHERE id = r.id RETURNING * INTO r;
                PERFORM treasury.outcome_audit(j, 'receipt.confirmed', 'same',
                    jsonb_build_object('sha256', digest, 'stored_by', r.saved_by));
            END IF;
            RETURN r;
        END IF;
        INSERT INTO treasury.receipt_files (sha256, pdf, size)
        VALUES (digest, p_pdf, length(p_pdf)) ON CONFLICT (sha256) DO NOTHING;
        UPDATE treasury.receipts SET disputed_by = session_user, disputed_sha256 = digest,
               disputed_at = treasury.stamp()
         WHERE id = r.id RETURNING * INTO r;
        PERFORM treasury.outcome_audit(j, 'receipt.disputed', 'differs',
            jsonb_build_object('stored_by', r.saved_by, 'stored_sha256', r.sha256,
                'fetched_by', session_user, 'fetched_sha256', digest));
        RETURN r;
    END $f$;
"""

PRIVILEGES_SQL = f"""
DO $$
BEGIN
    IF to_regprocedure('treasury.end_stale_claim(bigint)') IS NOT NULL THEN  -- schema 6 on
        REVOKE ALL ON treasury.session_rules FROM PUBLIC;
        GRANT SELECT ON treasury.session_rules TO {MAKER}, {APPROVER}, {VIEWER};
        REVOKE ALL ON FUNCTION treasury.end_stale(integer, text, bigint)
            FROM PUBLIC, {MAKER}, {APPROVER}, {VIEWER}, {RECEIVER};
        GRANT EXECUTE ON FUNCTION treasury.is_person_login(name) TO {MAKER}, {APPROVER},
            {VIEWER};
        GRANT EXECUTE ON FUNCTION treasury.end_stale_claim(bigint),
            treasury.end_stale_blocker(integer) TO {MAKER}, {APPROVER};
    END IF;
END
$$;
"""
"""Appended to the schema's privileges: makers and approvers may end a stale session that
holds them up (nothing before schema 6: a database migrated to an earlier target)."""
