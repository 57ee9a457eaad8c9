-- 1.8 (issue 15, branch scoping): a standing order is its source account's
-- (the paying customer's); one whose source the transaction cannot see is
-- not found.
CREATE OR REPLACE FUNCTION corebank.core_standing_orders_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.standing_order_json(
               (SELECT o.id FROM corebank.standing_orders o JOIN corebank.ledger_accounts s ON s.id = o.source_account_id
                WHERE o.id = core_standing_orders_get.id AND corebank.branch_visible(s.branch_id))),
           'Standing order not found')
$fn$;
