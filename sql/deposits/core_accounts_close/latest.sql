-- Close: zero balance, no accrued interest, no live standing order; the
-- live passbook closes with the account.
-- Branch scoping (issue 15): an account the transaction cannot see skips the
-- checks and account_lifecycle answers not found, as for an unknown id.
CREATE OR REPLACE FUNCTION corebank.core_accounts_close(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    r record;
    balance bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    SELECT a.status, a.currency, d.accrued_minor, d.accrued_micro INTO r
    FROM corebank.ledger_accounts a JOIN corebank.deposit_accounts d ON d.id = a.id
    WHERE a.id = id AND corebank.branch_visible(a.branch_id) FOR UPDATE OF a;
    IF FOUND AND r.status <> 'CLOSED' THEN
        -- Read after the lock, which waited for credits in flight (1.8: stripes).
        balance := corebank_internal.account_balance(id);
        IF balance <> 0 THEN
            PERFORM corebank_internal.fail('CB422', format('The balance must be zero to close the account (it is %s)',
                                                           corebank_internal.money_text(balance, r.currency)));
        END IF;
        IF r.accrued_micro <> 0 THEN
            PERFORM corebank_internal.fail('CB422', 'The account has accrued interest not yet posted; post it and pay it out first');
        END IF;
        IF EXISTS (SELECT FROM corebank.standing_orders o
                   WHERE (o.source_account_id = id OR o.target_account_id = id) AND o.status IN ('ACTIVE', 'PAUSED')) THEN
            PERFORM corebank_internal.fail('CB422', 'Cancel the account''s standing orders first');
        END IF;
        UPDATE corebank.passbooks b SET status = 'CLOSED', closed_at = now() WHERE b.account_id = id AND b.status = 'ACTIVE';
    END IF;
    RETURN corebank_internal.account_lifecycle(id, ARRAY['PENDING_ACTIVATION', 'ACTIVE', 'DORMANT'], 'CLOSED',
        coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'closed'), actor, 'close');
END
$fn$;
