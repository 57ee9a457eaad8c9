-- Moves an account's status on a business date (the trigger decides whether
-- the move is allowed) and records it; the date stamps dormant_since and the
-- activity a reactivation restarts the dormancy clock from. The end-of-day
-- runner's dormancy for a past date (a catch-up) passes that date, every
-- other move the business date (account_status_set). The caller holds the
-- ledger row lock: FOR UPDATE for the moves that must wait for credits in
-- flight (close, freeze, dormancy: account_lifecycle, dormancy_mark). The row
-- is taken here FOR NO KEY UPDATE, not FOR UPDATE, so that a posting that
-- reactivates a DORMANT account while holding it FOR KEY SHARE (a credit to
-- a held account, docs/design/posting-engine.md section 3) waits only for a
-- debit or another reactivation, never for the other credits (which would
-- deadlock two reactivating credits).
CREATE FUNCTION corebank_internal.account_status_set_on(account uuid, to_status text, reason text, actor uuid,
                                                        on_date date)
    RETURNS void
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    from_status text;
BEGIN
    SELECT a.status INTO from_status FROM corebank.ledger_accounts a WHERE a.id = account FOR NO KEY UPDATE;
    UPDATE corebank.ledger_accounts a SET status = to_status, updated_at = now() WHERE a.id = account;
    INSERT INTO corebank.account_status_history (account_id, from_status, to_status, reason, actor_id)
    VALUES (account, from_status, to_status, reason, actor);
    UPDATE corebank.deposit_accounts d
    SET dormant_since = CASE WHEN to_status = 'DORMANT' THEN on_date WHEN to_status = 'ACTIVE' THEN NULL
                             ELSE d.dormant_since END,
        -- Reactivation restarts the dormancy clock.
        last_customer_activity_on = CASE WHEN from_status = 'DORMANT' AND to_status = 'ACTIVE'
                                         THEN greatest(d.last_customer_activity_on, on_date)
                                         ELSE d.last_customer_activity_on END,
        frozen_reason = CASE WHEN to_status = 'FROZEN' THEN reason WHEN from_status = 'FROZEN' THEN NULL
                             ELSE d.frozen_reason END,
        frozen_at = CASE WHEN to_status = 'FROZEN' THEN now() WHEN from_status = 'FROZEN' THEN NULL ELSE d.frozen_at END,
        frozen_by = CASE WHEN to_status = 'FROZEN' THEN actor WHEN from_status = 'FROZEN' THEN NULL ELSE d.frozen_by END,
        activated_at = CASE WHEN from_status = 'PENDING_ACTIVATION' AND to_status = 'ACTIVE' THEN now()
                            ELSE d.activated_at END,
        activated_by = CASE WHEN from_status = 'PENDING_ACTIVATION' AND to_status = 'ACTIVE' THEN actor
                            ELSE d.activated_by END,
        closed_at = CASE WHEN to_status = 'CLOSED' THEN now() ELSE d.closed_at END,
        closed_by = CASE WHEN to_status = 'CLOSED' THEN actor ELSE d.closed_by END,
        close_reason = CASE WHEN to_status = 'CLOSED' THEN reason ELSE d.close_reason END,
        updated_at = now()
    WHERE d.id = account;
END
$fn$;
