-- 1.8 (issue 15, branch scoping): an account of a branch the transaction
-- cannot see is not found (the money functions take ids and stay unscoped).
CREATE OR REPLACE FUNCTION corebank.core_accounts_get_by_number(account_number text) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.account_json(
               (SELECT a.id FROM corebank.ledger_accounts a
                WHERE a.account_number = upper(btrim(core_accounts_get_by_number.account_number))
                  AND corebank.branch_visible(a.branch_id))),
           'Account not found')
$fn$;
