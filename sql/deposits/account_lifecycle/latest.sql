-- One lifecycle operation: the account must be in one of `allowed`
-- (CB409 otherwise); the trigger enforces the state table again.
CREATE FUNCTION corebank_internal.account_lifecycle(account uuid, allowed text[], to_status text, reason text,
                                                    actor uuid, verb text) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    current_status text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF account IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    SELECT a.status INTO current_status FROM corebank.ledger_accounts a
    JOIN corebank.deposit_accounts d ON d.id = a.id WHERE a.id = account FOR UPDATE OF a;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    IF NOT current_status = ANY (allowed) THEN
        PERFORM corebank_internal.fail('CB409', format('Cannot %s an account that is %s', verb, current_status));
    END IF;
    PERFORM corebank_internal.account_status_set(account, to_status, reason, actor);
    RETURN corebank_internal.account_json(account);
END
$fn$;
