"""Schema 4 of the team database: the team's own people cannot fake, hide, swap or stall a
payment (issue 32).

* **Claims through a function.** :func:`treasury.claim` locks an entry's ``entry_claims`` row
  (``FOR UPDATE SKIP LOCKED``, in the claiming transaction, as before) and returns a token,
  ``<backend pid>:<transaction id>``. :func:`treasury.record` takes the token and checks, from
  whichever pooled connection the desktop records on, that the claim row is locked right now
  by that transaction (the row's ``xmax``), that ``pg_locks`` shows the transaction alive in
  that backend, and that the backend is the caller's own login (``pg_stat_activity``). People
  hold no privilege on ``entry_claims`` any more: they cannot lock its rows by hand.
* **The payment engine's moves, and nothing else.** ``PREPARED → SENT | REJECTED``,
  ``SENT | UNKNOWN → SENT | UNKNOWN | ACCEPTED | REJECTED``, ``ACCEPTED → ACCEPTED`` while not
  final; a final entry does not move (but for the bank's word, below). ``final`` is the
  database's: ``REJECTED``, or ``ACCEPTED`` with a final bank status. A refusal (``REJECTED``)
  needs its reason and leaves an audit row (``payment.refused``) naming who recorded it.
* **The bank's word comes from the bank.** Each entry says who recorded its outcome
  (``outcome_by``), how (``outcome_word``: ``answer`` to a send, ``lookup`` by idempotency
  key, ``notice`` from the webhook receiver, ``legacy`` before this schema) and who confirmed
  it (``confirmed_by``: the receiver, or another login's lookup that found the same). The
  receiver's notification (:func:`treasury.notified_status`) and another login's lookup
  overrule an outcome a desktop recorded — final or not, ``REJECTED`` included — when the bank
  says otherwise; the overruled outcome stays on the entry (``overruled_by``,
  ``overruled_state``, ``overruled_status``, ``overruled_at``), in its history and in an
  audit row (``payment.overruled``, ``bank_wins``). A desktop's late word that contradicts
  the bank's notification is kept the same way (``bank_stands``) and changes nothing.
  "Paid before" counts only confirmed outcomes (and those recorded before this schema).
* **Money is money.** Amounts are more than zero, at most
  :data:`~treasury_app.domain.money.MAX_AMOUNT`, in centavos — in ``prepare``, ``edit`` and a
  check of the column itself (``journal_amount_money``); NaN and infinities are refused.
* **Limits under locks nobody can take by hand.** An approval locks its approver's row of
  ``approver_locks`` before it reads what they approved today (two parallel approvals of one
  approver queue); a prepare or an edit locks its content's row of ``content_locks`` (keyed
  by the content's digest) before it looks for a waiting twin. Each row is made on first use
  (``INSERT … ON CONFLICT DO NOTHING``, then ``SELECT … FOR UPDATE``) by the functions, as
  the schema's owner; people hold no privilege at all on these tables, and every locking
  clause and ``LOCK TABLE`` needs one, so the only way to hold such a lock is to approve,
  prepare or edit in one's own open transaction. That stalls only the same approver's other
  sessions, or a prepare or edit of the very same content (which the first one's commit
  would refuse anyway: one waiting intent per content). No advisory lock: any login may take
  any advisory key (``pg_advisory_lock``), so a colleague could have held an approver's or a
  content's key and stalled every approval of that approver, every prepare of that content.
* **Receipts bound for good.** :func:`treasury.store_receipt` keeps a receipt only for a
  payment the bank completed, under that payment's own bank identifier (``bank_id`` of a
  slip, ``end_to_end_id`` of a Pix), once: the first one stays. People may no longer insert
  or update ``receipts`` or ``receipt_files``.

Refusals carry stable codes: the SQLSTATE and the constraint name (:data:`CLAIM_CODE`,
:data:`MOVE_CODE`, :data:`REASON_CODE`, :data:`AMOUNT_CODE`, :data:`RECEIPT_CODE`), which
:mod:`treasury_app.ledger.team.store` maps to typed errors.
"""

from __future__ import annotations

from treasury_app.domain.money import MAX_AMOUNT

MAKER = "treasury_maker"
APPROVER = "treasury_approver"
VIEWER = "treasury_viewer"
RECEIVER = "treasury_receiver"

SUCCESS_SQL = "'SETTLED', 'LIQUIDATED', 'REFUNDED', 'PARTIALLY_REFUNDED'"
FINAL_SQL = SUCCESS_SQL + ", 'CANCELED', 'REJECTED'"
"""The bank statuses after which a payment is decided (``FINAL_PIX_STATUSES``)."""
MAX_SQL = str(MAX_AMOUNT)

APPROVER_LOCKS = "treasury.approver_locks"
"""One row per approver (``login``), locked by each approval until its transaction ends: one
approval at a time per approver (their daily limit is read under it). The owner's only."""
CONTENT_LOCKS = "treasury.content_locks"
"""One row per content (``content``: the SHA-256 of its fields), locked by each prepare or
edit until its transaction ends: the "one waiting intent per content" rule is read under it.
The owner's only."""

CLAIM_CODE = "entry_claim"
MOVE_CODE = "journal_move"
REASON_CODE = "journal_refusal_reason"
AMOUNT_CODE = "journal_amount_money"
RECEIPT_CODE = "receipt_binding"

WORDS = ("answer", "lookup", "notice", "legacy")
"""How an outcome reached the journal (``journal.outcome_word``)."""

MIGRATION_SQL = f"""
    -- Who told the journal what it says of each payment, and what the bank overruled.
    ALTER TABLE treasury.journal
        ADD COLUMN outcome_by text,
        ADD COLUMN outcome_word text CHECK (outcome_word IN ('answer', 'lookup', 'notice',
            'legacy')),
        ADD COLUMN confirmed_by text,
        ADD COLUMN overruled_by text,
        ADD COLUMN overruled_state text,
        ADD COLUMN overruled_status text,
        ADD COLUMN overruled_at text;
    CREATE INDEX journal_unconfirmed ON treasury.journal (id)
        WHERE final AND confirmed_by IS NULL;
    CREATE INDEX journal_end_to_end ON treasury.journal (end_to_end_id)
        WHERE end_to_end_id IS NOT NULL;

    -- What is there already: outcomes the receiver wrote last are the bank's (confirmed);
    -- the rest were recorded before anyone checked who records (legacy). No change of the
    -- feed for this: nothing a desktop shows moved.
    ALTER TABLE treasury.journal DISABLE TRIGGER journal_changed;
    ALTER TABLE treasury.journal DISABLE TRIGGER journal_identity;
    WITH last AS (
        SELECT DISTINCT ON (h.entry_id) h.entry_id, h.actor
          FROM treasury.journal_history h ORDER BY h.entry_id, h.id DESC
    )
    UPDATE treasury.journal j
       SET outcome_by = coalesce(last.actor, j.updated_by),
           outcome_word = CASE WHEN r.rolname IS NOT NULL THEN 'notice' ELSE 'legacy' END,
           confirmed_by = CASE WHEN r.rolname IS NOT NULL THEN last.actor END
      FROM last LEFT JOIN pg_roles r ON r.rolname = last.actor
           AND pg_has_role(r.oid, '{RECEIVER}', 'MEMBER')
     WHERE last.entry_id = j.id AND j.state <> 'PREPARED';
    ALTER TABLE treasury.journal ENABLE TRIGGER journal_identity;
    ALTER TABLE treasury.journal ENABLE TRIGGER journal_changed;

    -- Money is money: more than zero, at most MAX_AMOUNT, centavos; NaN and infinities fail
    -- (NaN sorts above every number, so "<= max" refuses it).
    CREATE FUNCTION treasury.is_money(p_amount numeric) RETURNS boolean
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT p_amount > 0 AND p_amount <= {MAX_SQL} AND p_amount = round(p_amount, 2)
    $f$;

    CREATE OR REPLACE FUNCTION treasury.check_amount(p_amount numeric) RETURNS void
        LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        IF p_amount IS NULL OR NOT treasury.is_money(p_amount) THEN
            RAISE EXCEPTION 'the amount must be more than zero, at most %, in reais and'
                ' centavos', treasury.brl({MAX_SQL})
                USING ERRCODE = 'check_violation', CONSTRAINT = '{AMOUNT_CODE}';
        END IF;
    END $f$;

    -- Intents journaled with an amount that is no money (NaN, an infinity, 1e30...) and still
    -- waiting are ended (audited): nothing of them is ever sent.
    INSERT INTO treasury.journal_history (entry_id, at, state, bank_status, note, actor)
    SELECT id, treasury.stamp(), 'REJECTED', bank_status,
           'ended by schema 4: the amount is not money', session_user
      FROM treasury.journal WHERE state = 'PREPARED' AND NOT treasury.is_money(amount);
    INSERT INTO treasury.audit (at, profile, action, outcome, reference, amount, details)
    SELECT treasury.stamp(), profile, 'payment.refused', 'not_money', idempotency_key,
           amount::text, jsonb_build_object('entry', id, 'reason',
               'the amount is not money', 'maker', created_by)::text
      FROM treasury.journal WHERE state = 'PREPARED' AND NOT treasury.is_money(amount);
    UPDATE treasury.journal
       SET state = 'REJECTED', final = true, approval = 'REJECTED',
           decided_by = session_user, decision_reason = 'the amount is not money',
           error = 'Not sent: the amount is not money', outcome_by = session_user
     WHERE state = 'PREPARED' AND NOT treasury.is_money(amount);
    ALTER TABLE treasury.journal ADD CONSTRAINT {AMOUNT_CODE}
        CHECK (amount > 0 AND amount <= {MAX_SQL} AND amount = round(amount, 2)) NOT VALID;
    DO $do$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM treasury.journal WHERE NOT treasury.is_money(amount)) THEN
            ALTER TABLE treasury.journal VALIDATE CONSTRAINT {AMOUNT_CODE};
        END IF;  -- else: rows ended above keep their amount; every new row is checked
    END
    $do$;

    -- The rows the limits are serialized on (see treasury.lock_approver, lock_content):
    -- nobody but the owner may read, write or lock them.
    CREATE TABLE {APPROVER_LOCKS} (login text PRIMARY KEY);
    CREATE TABLE {CONTENT_LOCKS} (content text PRIMARY KEY);

    -- Whether (p_state, p_status) is a decided outcome.
    CREATE FUNCTION treasury.final_outcome(p_state text, p_status text) RETURNS boolean
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT p_state = 'REJECTED'
            OR (p_state = 'ACCEPTED' AND coalesce(p_status, '') IN ({FINAL_SQL}))
    $f$;

    -- An outcome in one word: STATE or STATE/BANK_STATUS.
    CREATE FUNCTION treasury.outcome_text(p_state text, p_status text) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT coalesce(p_state, '?') || coalesce('/' || p_status, '')
    $f$;

    -- Whether entry j was ever handed to the bank.
    CREATE FUNCTION treasury.was_sent(j treasury.journal) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT j.released_by IS NOT NULL OR EXISTS (SELECT 1 FROM treasury.journal_history h
            WHERE h.entry_id = j.id AND h.state IN ('SENT', 'UNKNOWN', 'ACCEPTED'))
    $f$;

    -- The journal's identity and content rules (migration 2's), but that the bank's word may
    -- overrule a refusal recorded after a send (an update that stamps overruled_at).
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
                NEW.outcome_by := NULL;
                NEW.outcome_word := NULL;
                NEW.confirmed_by := NULL;
                NEW.overruled_by := NULL;
                NEW.overruled_state := NULL;
                NEW.overruled_status := NULL;
                NEW.overruled_at := NULL;
                NEW.approvals_needed := greatest(NEW.approvals_needed, 0);
                start_over := true;
            ELSIF NEW.state <> 'PREPARED' AND NEW.outcome_word IS NULL THEN
                -- an admin's import of a desktop's file: recorded before anyone checked
                NEW.outcome_word := 'legacy';
                NEW.outcome_by := coalesce(NEW.outcome_by, NEW.updated_by, NEW.created_by);
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
            IF OLD.state = 'REJECTED' AND NEW.state <> 'REJECTED'
                    AND NEW.overruled_at IS NOT DISTINCT FROM OLD.overruled_at THEN
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

    -- Whether the login may release entry j (PREPARED): approved, and without dual control
    -- only by its maker (the journal's trigger says the same).
    CREATE FUNCTION treasury.may_release(j treasury.journal) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT coalesce(j.approval, 'APPROVED') = 'APPROVED'
           AND (j.approvals_needed > 0 OR j.created_by = session_user)
    $f$;

    -- The claim of entry p_entry for this transaction: its claim row locked until the
    -- transaction ends, and a token for treasury.record ('<pid>:<xid>'). NULL when another
    -- transaction holds it (it is sending or resolving this entry).
    CREATE FUNCTION treasury.claim(p_entry bigint) RETURNS text
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        locker xid;
    BEGIN
        PERFORM treasury.require_role('may not send or resolve payments', '{MAKER}',
            '{APPROVER}');
        SELECT * INTO j FROM treasury.journal WHERE id = p_entry;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'there is no journal entry %', p_entry
                USING ERRCODE = 'no_data_found';
        END IF;
        IF j.state = 'PREPARED' AND NOT treasury.may_release(j) THEN
            IF coalesce(j.approval, 'APPROVED') <> 'APPROVED' THEN
                RAISE EXCEPTION 'journal entry % has % of % approvals: it cannot be sent',
                    j.id, treasury.valid_approvals(j), j.approvals_needed
                    USING ERRCODE = 'insufficient_privilege', CONSTRAINT = '{CLAIM_CODE}';
            END IF;
            RAISE EXCEPTION 'journal entry % was prepared by %: only they send it', j.id,
                j.created_by USING ERRCODE = 'insufficient_privilege',
                CONSTRAINT = '{CLAIM_CODE}';
        END IF;
        PERFORM 1 FROM treasury.entry_claims WHERE entry_id = p_entry FOR UPDATE SKIP LOCKED;
        IF NOT FOUND THEN
            RETURN NULL;
        END IF;
        SELECT xmax INTO locker FROM treasury.entry_claims WHERE entry_id = p_entry;
        RETURN pg_backend_pid()::text || ':' || locker::text;
    END $f$;

    -- Who holds the claim of entry p_entry now (their login), NULL when nobody does.
    CREATE FUNCTION treasury.claim_holder(p_entry bigint) RETURNS text
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT a.usename::text FROM treasury.entry_claims c
          JOIN pg_locks l ON l.locktype = 'transactionid' AND l.transactionid = c.xmax
               AND l.mode = 'ExclusiveLock' AND l.granted
          JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE c.entry_id = p_entry LIMIT 1
    $f$;

    -- The caller holds the claim p_claim of entry p_entry: the claim row is locked now by the
    -- token's transaction, alive in the token's backend, which is the caller's own login.
    CREATE FUNCTION treasury.require_claim(p_entry bigint, p_claim text) RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        holder integer;
        locker xid;
    BEGIN
        IF p_claim IS NULL OR p_claim !~ '^[0-9]{{1,10}}:[0-9]{{1,10}}$' THEN
            RAISE EXCEPTION '% does not hold the claim of entry %: only the desktop sending'
                ' or resolving it records its outcome', session_user, p_entry
                USING ERRCODE = 'insufficient_privilege', CONSTRAINT = '{CLAIM_CODE}';
        END IF;
        holder := split_part(p_claim, ':', 1)::integer;
        locker := split_part(p_claim, ':', 2)::xid;
        IF NOT EXISTS (SELECT 1 FROM treasury.entry_claims c
                JOIN pg_locks l ON l.locktype = 'transactionid' AND l.transactionid = c.xmax
                     AND l.mode = 'ExclusiveLock' AND l.granted
                JOIN pg_stat_activity a ON a.pid = l.pid
               WHERE c.entry_id = p_entry AND c.xmax = locker AND l.pid = holder
                 AND a.usename = session_user) THEN
            RAISE EXCEPTION '% does not hold the claim of entry %: only the desktop sending'
                ' or resolving it records its outcome', session_user, p_entry
                USING ERRCODE = 'insufficient_privilege', CONSTRAINT = '{CLAIM_CODE}';
        END IF;
    END $f$;

    CREATE FUNCTION treasury.refuse_move(j treasury.journal, p_state text) RETURNS void
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        RAISE EXCEPTION 'entry % is %: the payment engine does not move it to %', j.id,
            treasury.outcome_text(j.state, j.bank_status), coalesce(p_state, 'nothing')
            USING ERRCODE = 'object_not_in_prerequisite_state', CONSTRAINT = '{MOVE_CODE}';
    END $f$;

    -- One audit row about a payment's outcome (the database's own, whoever called).
    CREATE FUNCTION treasury.outcome_audit(j treasury.journal, p_action text, p_outcome text,
            p_details jsonb) RETURNS void
        LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $f$
        INSERT INTO treasury.audit (at, profile, action, outcome, reference, amount, details)
        VALUES ('', j.profile, p_action, p_outcome, j.idempotency_key, j.amount::text,
            (jsonb_build_object('entry', j.id, 'kind', j.kind, 'payee', j.payee_name,
                'maker', j.created_by, 'state', j.state, 'bank_status', j.bank_status)
             || p_details)::text)
    $f$;

    -- The bank's word (p_word: a receiver's notice, another login's lookup) overrules what a
    -- desktop recorded of entry before: the entry takes the bank's outcome and keeps who
    -- recorded what (overruled_*), in its history and in the audit.
    CREATE FUNCTION treasury.overrule(before treasury.journal, p_state text,
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
        PERFORM treasury.add_history(j, format('%s recorded %s; the bank''s word (%s)'
            ' overruled it: %s', recorder,
            treasury.outcome_text(before.state, before.bank_status), p_word,
            coalesce(nullif(p_note, ''), 'asked')));
        PERFORM treasury.outcome_audit(j, 'payment.overruled', 'bank_wins',
            jsonb_build_object('recorded_by', recorder, 'recorded_word', before.outcome_word,
                'recorded_state', before.state, 'recorded_status', before.bank_status,
                'recorded_end_to_end_id', before.end_to_end_id,
                'recorded_bank_id', before.bank_id, 'told_by', session_user, 'via', p_word,
                'end_to_end_id', j.end_to_end_id, 'bank_id', j.bank_id));
        RETURN j;
    END $f$;

    -- A desktop (p_word) recorded (p_state, p_bank_status) of entry j after the bank's own
    -- word made it what it is: the bank's word stands, the disagreement is kept and audited.
    CREATE FUNCTION treasury.contradicted(j treasury.journal, p_state text,
            p_bank_status text, p_word text) RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        after treasury.journal;
    BEGIN
        UPDATE treasury.journal
           SET overruled_by = session_user, overruled_state = p_state,
               overruled_status = p_bank_status, overruled_at = treasury.stamp()
         WHERE id = j.id RETURNING * INTO after;
        PERFORM treasury.add_history(after, format('%s recorded %s: the bank''s word stands',
            session_user, treasury.outcome_text(p_state, p_bank_status)));
        PERFORM treasury.outcome_audit(after, 'payment.overruled', 'bank_stands',
            jsonb_build_object('recorded_by', session_user, 'recorded_word', p_word,
                'recorded_state', p_state, 'recorded_status', p_bank_status,
                'told_by', j.outcome_by, 'via', j.outcome_word));
        RETURN after;
    END $f$;

    -- What a desktop records of a final entry (see treasury.record).
    CREATE FUNCTION treasury.record_on_final(before treasury.journal, p_state text,
            p_bank_status text, p_final boolean, p_end_to_end_id text, p_bank_id text,
            p_error text, p_note text, p_creditor_name text, p_word text)
            RETURNS treasury.journal
        LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        same boolean := p_state = before.state
            AND (p_state = 'REJECTED' OR p_bank_status IS NOT DISTINCT FROM before.bank_status);
    BEGIN
        IF before.state = 'ACCEPTED' AND p_state = 'ACCEPTED' AND NOT p_final
                AND p_word = 'answer' THEN
            -- a desktop's late answer after the bank made the payment final: the final
            -- status stays, missing ids are filled
            UPDATE treasury.journal
               SET end_to_end_id = COALESCE(end_to_end_id, p_end_to_end_id),
                   bank_id = COALESCE(bank_id, p_bank_id),
                   creditor_name = COALESCE(creditor_name, p_creditor_name)
             WHERE id = before.id RETURNING * INTO j;
            RETURN j;
        END IF;
        IF p_word = 'lookup' AND before.confirmed_by IS NULL
                AND coalesce(before.outcome_word, 'legacy') <> 'notice'
                AND coalesce(before.outcome_by, before.updated_by) <> session_user
                AND treasury.was_sent(before) THEN
            -- another login asked the bank about an outcome a desktop recorded
            IF same AND (p_end_to_end_id IS NULL OR before.end_to_end_id IS NULL
                         OR p_end_to_end_id = before.end_to_end_id) THEN
                UPDATE treasury.journal
                   SET confirmed_by = session_user,
                       end_to_end_id = COALESCE(end_to_end_id, p_end_to_end_id),
                       bank_id = COALESCE(bank_id, p_bank_id),
                       creditor_name = COALESCE(creditor_name, p_creditor_name)
                 WHERE id = before.id RETURNING * INTO j;
                RETURN j;
            END IF;
            IF p_state IN ('ACCEPTED', 'UNKNOWN') THEN
                RETURN treasury.overrule(before, p_state, p_bank_status, p_final,
                    p_end_to_end_id, p_bank_id, p_error, p_note, p_creditor_name, p_word);
            END IF;
        END IF;
        IF before.outcome_word = 'notice' OR before.confirmed_by IS NOT NULL THEN
            -- the bank's word stands; a desktop's late word that says otherwise is kept
            IF (p_state = 'REJECTED' AND before.state = 'ACCEPTED')
                    OR (p_state = 'ACCEPTED' AND p_final AND NOT same) THEN
                RETURN treasury.contradicted(before, p_state, p_bank_status, p_word);
            END IF;
            RETURN before;
        END IF;
        IF same THEN
            RETURN before;  -- said again: nothing new
        END IF;
        PERFORM treasury.refuse_move(before, p_state);
        RETURN before;
    END $f$;

    -- A desktop's record of its send of entry p_entry (p_word 'answer': the bank's answer to
    -- it; 'lookup': what the bank said when asked by idempotency key), under its claim
    -- p_claim: only the payment engine's moves from the entry's state.
    CREATE FUNCTION treasury.record(p_entry bigint, p_claim text, p_state text,
            p_bank_status text, p_end_to_end_id text, p_bank_id text, p_error text,
            p_note text, p_creditor_name text, p_word text) RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        before treasury.journal;
        j treasury.journal;
        word text := coalesce(p_word, 'answer');
        fin boolean := treasury.final_outcome(p_state, p_bank_status);
        reason text := btrim(coalesce(p_error, ''));
        same boolean;
    BEGIN
        PERFORM treasury.require_role('may not write the journal', '{MAKER}', '{APPROVER}');
        IF word NOT IN ('answer', 'lookup') THEN
            RAISE EXCEPTION 'a desktop records an answer or a lookup, not %', word
                USING ERRCODE = 'invalid_parameter_value';
        END IF;
        PERFORM treasury.require_claim(p_entry, p_claim);
        before := treasury.locked_entry(p_entry);
        IF p_state IS NULL OR p_state NOT IN ('SENT', 'UNKNOWN', 'ACCEPTED', 'REJECTED') THEN
            PERFORM treasury.refuse_move(before, p_state);
        END IF;
        IF p_state = 'REJECTED' AND reason = '' THEN
            RAISE EXCEPTION 'a refusal of entry % needs its reason', p_entry
                USING ERRCODE = 'check_violation', CONSTRAINT = '{REASON_CODE}';
        END IF;
        IF before.state = 'PREPARED' THEN
            IF p_state NOT IN ('SENT', 'REJECTED') THEN
                PERFORM treasury.refuse_move(before, p_state);
            END IF;
            IF p_state = 'REJECTED' AND before.approval IS DISTINCT FROM 'APPROVED' THEN
                -- refusing to send what waits is a rejection: treasury.reject, with a reason
                RAISE EXCEPTION 'entry % waits for approval: reject or withdraw it instead',
                    p_entry USING ERRCODE = 'insufficient_privilege',
                    CONSTRAINT = '{MOVE_CODE}';
            END IF;
        ELSIF before.final THEN
            RETURN treasury.record_on_final(before, p_state, p_bank_status, fin,
                p_end_to_end_id, p_bank_id, p_error, p_note, p_creditor_name, word);
        ELSIF before.state = 'ACCEPTED' AND p_state <> 'ACCEPTED' THEN
            IF before.outcome_word = 'notice' THEN
                -- the bank's notification took the entry on while this desktop sent or asked
                IF p_state = 'REJECTED' THEN
                    RETURN treasury.contradicted(before, p_state, NULL, word);
                END IF;
                RETURN before;
            END IF;
            PERFORM treasury.refuse_move(before, p_state);
        END IF;
        same := p_state = before.state AND coalesce(p_bank_status, before.bank_status)
            IS NOT DISTINCT FROM before.bank_status;
        UPDATE treasury.journal SET state = p_state,
               bank_status = COALESCE(p_bank_status, bank_status), final = fin,
               end_to_end_id = COALESCE(p_end_to_end_id, end_to_end_id),
               bank_id = COALESCE(p_bank_id, bank_id), error = p_error,
               creditor_name = COALESCE(p_creditor_name, creditor_name),
               outcome_by = CASE WHEN same THEN outcome_by ELSE session_user END,
               outcome_word = CASE WHEN same THEN outcome_word ELSE word END,
               confirmed_by = CASE WHEN same THEN confirmed_by END
         WHERE id = p_entry RETURNING * INTO j;
        PERFORM treasury.add_history(j, coalesce(p_note, ''));
        IF before.state = 'PREPARED' AND j.state <> 'PREPARED' AND before.approvals_needed > 0
                AND j.approval = 'RELEASED' THEN
            PERFORM treasury.approval_audit(j, 'approval.release', 'released',
                jsonb_build_object('approved_by', before.approved_by));
        END IF;
        IF j.state = 'REJECTED' THEN
            PERFORM treasury.outcome_audit(j, 'payment.refused',
                CASE WHEN before.state = 'PREPARED' THEN 'not_sent' ELSE 'refused' END,
                jsonb_build_object('reason', reason, 'recorded_by', session_user,
                    'word', word));
        END IF;
        RETURN j;
    END $f$;

    CREATE FUNCTION treasury.release(p_entry bigint, p_note text, p_claim text)
            RETURNS treasury.journal
        LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
        SELECT * FROM treasury.record(p_entry, p_claim, 'SENT', NULL, NULL, NULL, NULL, p_note,
            NULL, 'answer')
    $f$;

    -- Schema 3's record (no claim): an app older than schema 4 is told to update.
    CREATE OR REPLACE FUNCTION treasury.record(p_entry bigint, p_state text,
            p_bank_status text, p_final boolean, p_end_to_end_id text, p_bank_id text,
            p_error text, p_note text, p_creditor_name text) RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        RAISE EXCEPTION 'entry %: a payment''s outcome is recorded under its claim now'
            ' (treasury.claim, then treasury.record with the claim): update the app', p_entry
            USING ERRCODE = 'insufficient_privilege', CONSTRAINT = '{CLAIM_CODE}';
    END $f$;

    -- The bank's word on a payment of the journal, from the webhook receiver (replaces
    -- schema 3's): never an intent that waits nor one refused before it was sent; a final
    -- outcome the bank notified stays; an outcome a desktop recorded is confirmed when the
    -- bank says the same and overruled when it says otherwise (a decided status, another
    -- endToEndId, or any word on a payment the desktop recorded as refused). A notice that is
    -- not final leaves a desktop's final outcome alone (notices may come out of order).
    CREATE OR REPLACE FUNCTION treasury.notified_status(p_entry bigint, p_bank_status text,
            p_final boolean, p_end_to_end_id text, p_bank_id text, p_note text)
            RETURNS treasury.journal
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $f$
    DECLARE
        j treasury.journal;
        fin boolean := coalesce(p_final, false);
        other_e2e boolean;
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
        IF j.state = 'PREPARED' OR (j.state = 'REJECTED' AND NOT treasury.was_sent(j))
                OR (j.final AND j.outcome_word = 'notice') THEN
            RETURN j;
        END IF;
        other_e2e := p_end_to_end_id IS NOT NULL AND j.end_to_end_id IS NOT NULL
            AND p_end_to_end_id <> j.end_to_end_id;
        IF j.state = 'ACCEPTED' AND j.bank_status IS NOT DISTINCT FROM p_bank_status
                AND (j.final OR NOT fin) AND NOT other_e2e THEN
            IF j.confirmed_by IS NULL OR j.end_to_end_id IS NULL OR j.bank_id IS NULL THEN
                UPDATE treasury.journal SET confirmed_by = session_user,
                       end_to_end_id = COALESCE(end_to_end_id, p_end_to_end_id),
                       bank_id = COALESCE(bank_id, p_bank_id)
                 WHERE id = p_entry RETURNING * INTO j;
            END IF;
            RETURN j;
        END IF;
        IF j.final AND j.state = 'ACCEPTED' AND NOT fin AND NOT other_e2e THEN
            RETURN j;
        END IF;
        IF j.final OR other_e2e THEN
            RETURN treasury.overrule(j, 'ACCEPTED', p_bank_status, fin, p_end_to_end_id,
                p_bank_id, NULL, p_note, NULL, 'notice');
        END IF;
        UPDATE treasury.journal SET state = 'ACCEPTED', bank_status = p_bank_status,
               final = fin, end_to_end_id = COALESCE(p_end_to_end_id, end_to_end_id),
               bank_id = COALESCE(p_bank_id, bank_id), error = NULL,
               outcome_by = session_user, outcome_word = 'notice',
               confirmed_by = session_user
         WHERE id = p_entry RETURNING * INTO j;
        PERFORM treasury.add_history(j, coalesce(p_note, 'webhook'));
        RETURN j;
    END $f$;

    -- Paid before from this account (replaces schema 2's): only what the bank confirmed (a
    -- notification, or a lookup by another login than the one who recorded it), or was
    -- recorded before schema 4.
    CREATE OR REPLACE FUNCTION treasury.paid_before(p_kind text, p_detail text,
            p_document text) RETURNS boolean
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $f$
        SELECT CASE WHEN p_kind = 'BILLET' THEN
            p_document <> '' AND EXISTS (SELECT 1 FROM treasury.journal
                WHERE kind = 'BILLET' AND payee_document = p_document AND state = 'ACCEPTED'
                  AND bank_status IN ({SUCCESS_SQL})
                  AND (confirmed_by IS NOT NULL OR outcome_word = 'legacy'))
        ELSE
            EXISTS (SELECT 1 FROM treasury.journal
                WHERE kind <> 'BILLET' AND payee_detail = p_detail AND state = 'ACCEPTED'
                  AND bank_status IN ({SUCCESS_SQL})
                  AND (confirmed_by IS NOT NULL OR outcome_word = 'legacy'))
        END
    $f$;

    -- The lock of content p_content until this transaction ends: its row of content_locks
    -- (made on first use). Called by prepare and edit (SECURITY DEFINER: as the owner).
    CREATE FUNCTION treasury.lock_content(p_content text) RETURNS void
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        INSERT INTO {CONTENT_LOCKS} (content) VALUES (p_content) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM {CONTENT_LOCKS} WHERE content = p_content FOR UPDATE;
    END $f$;

    -- One waiting intent per content (replaces schema 2's): decided under the content's lock,
    -- so that two parallel prepares (or edits) of one content queue and the second finds the
    -- first (VOLATILE: its query sees what committed while it waited).
    CREATE OR REPLACE FUNCTION treasury.refuse_pending_twin(p_id bigint, p_kind text,
            p_detail text, p_document text, p_amount numeric, p_description text,
            p_flow text) RETURNS void
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
           AND payment_flow = p_flow
         ORDER BY id LIMIT 1;
        IF twin IS NOT NULL THEN
            RAISE EXCEPTION 'entry % to the same payee, for the same amount and description,'
                ' waits for approval already', twin
                USING ERRCODE = 'unique_violation', CONSTRAINT = 'journal_pending_content',
                      DETAIL = twin::text;
        END IF;
    END $f$;

    -- One approval at a time per approver: the caller's row of approver_locks (made on
    -- first use) locked until this transaction ends; their daily limit is read under it,
    -- taken before any entry's row lock, as in approve_batch. Called by approve and
    -- approve_batch (SECURITY DEFINER: as the owner), only ever for the caller's own login.
    CREATE FUNCTION treasury.lock_approver() RETURNS void
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $f$
    BEGIN
        INSERT INTO {APPROVER_LOCKS} (login) VALUES (session_user) ON CONFLICT DO NOTHING;
        PERFORM 1 FROM {APPROVER_LOCKS} WHERE login = session_user FOR UPDATE;
    END $f$;

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
        PERFORM treasury.add_history(j, format('approved by %s (%s of %s)', session_user,
            given, j.approvals_needed));
        PERFORM treasury.approval_audit(j, 'approval.approve',
            CASE WHEN j.approval = 'APPROVED' THEN 'approved' ELSE 'partial' END,
            jsonb_build_object('expires_at', j.approvals_expire_at));
        RETURN j;
    END $f$;

    CREATE OR REPLACE FUNCTION treasury.approve_batch(p_batch text, p_batch_hash text,
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
        PERFORM treasury.lock_approver();
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

    -- A receipt, kept with the one payment it belongs to, for good: the bank completed the
    -- payment, the receipt is filed under the payment's own bank identifier (a slip's
    -- bank_id, a Pix's endToEndId) and bound to its content's hash; the first one stays.
    CREATE FUNCTION treasury.store_receipt(p_entry bigint, p_kind text, p_bank_id text,
            p_pdf bytea, p_payee_name text, p_paid_on text) RETURNS treasury.receipts
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
        SELECT * INTO r FROM treasury.receipts WHERE kind = own_kind AND bank_id = own_id;
        IF FOUND THEN
            RETURN r;  -- the first receipt of a payment stays
        END IF;
        digest := encode(sha256(p_pdf), 'hex');
        INSERT INTO treasury.receipt_files (sha256, pdf, size)
        VALUES (digest, p_pdf, length(p_pdf)) ON CONFLICT (sha256) DO NOTHING;
        INSERT INTO treasury.receipts (sha256, kind, bank_id, entry_id, payee_name, amount,
            paid_on, saved_at, size)
        VALUES (digest, own_kind, own_id, j.id, coalesce(p_payee_name, ''), j.amount::text,
            p_paid_on, '', length(p_pdf))
        ON CONFLICT (kind, bank_id) DO NOTHING RETURNING * INTO r;
        IF r.id IS NULL THEN
            SELECT * INTO r FROM treasury.receipts WHERE kind = own_kind AND bank_id = own_id;
        END IF;
        RETURN r;
    END $f$;
"""

PRIVILEGES_SQL = f"""
REVOKE ALL ON {APPROVER_LOCKS}, {CONTENT_LOCKS} FROM PUBLIC, {MAKER}, {APPROVER}, {VIEWER},
    {RECEIVER};  -- not even SELECT: nobody locks them by hand
REVOKE UPDATE ON treasury.entry_claims FROM {MAKER}, {APPROVER}, {VIEWER};
REVOKE INSERT, UPDATE ON treasury.receipts, treasury.receipt_files
    FROM {MAKER}, {APPROVER}, {VIEWER};
REVOKE EXECUTE ON FUNCTION
    treasury.record(bigint, text, text, boolean, text, text, text, text, text),
    treasury.release(bigint, text) FROM {MAKER}, {APPROVER};
GRANT EXECUTE ON FUNCTION treasury.is_money(numeric), treasury.final_outcome(text, text),
    treasury.outcome_text(text, text), treasury.was_sent(treasury.journal),
    treasury.claim_holder(bigint) TO {MAKER}, {APPROVER}, {VIEWER};
GRANT EXECUTE ON FUNCTION treasury.claim(bigint),
    treasury.record(bigint, text, text, text, text, text, text, text, text, text),
    treasury.release(bigint, text, text),
    treasury.store_receipt(bigint, text, text, bytea, text, text)
    TO {MAKER}, {APPROVER};  -- each checks the caller's role (and claim) itself
"""
"""Appended to the schema's privileges (after every migration): claims, outcomes and
receipts only through the functions above."""
