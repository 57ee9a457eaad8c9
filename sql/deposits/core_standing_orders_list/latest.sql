-- 1.8 (issue 15, branch scoping): not found for an account of a branch the
-- transaction cannot see; an order is its source account's, so the orders
-- of another branch's customers paying into the account are left out.
CREATE OR REPLACE FUNCTION corebank.core_standing_orders_list(account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF account_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'accountId: is required');
    END IF;
    PERFORM corebank_internal.require_deposit_account(account_id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.standing_order_json(o.id) ORDER BY o.created_at DESC, o.id), '[]'::jsonb)
            FROM (SELECT x.* FROM corebank.standing_orders x
                  JOIN corebank.ledger_accounts s ON s.id = x.source_account_id
                  WHERE (x.source_account_id = account_id OR x.target_account_id = account_id)
                    AND corebank.branch_visible(s.branch_id)
                  ORDER BY x.created_at DESC, x.id LIMIT 1000) o);
END
$fn$;
