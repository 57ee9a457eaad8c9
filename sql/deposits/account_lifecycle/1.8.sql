-- One lifecycle operation: the account must be in one of `allowed`
-- (CB409 otherwise); the trigger enforces the state table again.
-- 1.8 (issue 15, branch scoping): an account of a branch the transaction
-- cannot see is not found (every caller is a staff amend, none a posting).
CREATE OR REPLACE FUNCTION corebank_internal.account_lifecycle(account uuid, allowed text[], to_status text, reason text,
                                                               actor uuid, verb text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    SELECT a.status INTO current_status FROM corebank.ledger_accounts a
    JOIN corebank.deposit_accounts d ON d.id = a.id
    WHERE a.id = account AND corebank.branch_visible(a.branch_id) FOR UPDATE OF a;
    PERFORM corebank_internal.deposit_status_move_check(account, current_status, allowed, 'an account', verb,
                                                        'Account not found');
    PERFORM corebank_internal.account_status_set(account, to_status, reason, actor);
    RETURN corebank_internal.account_json(account);
END
$fn$;
