-- 1.8 (issue 15, branch scoping): a passbook of an account of a branch the
-- transaction cannot see is not found.
CREATE OR REPLACE FUNCTION corebank.core_passbook_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.passbook_json(
               (SELECT b.id FROM corebank.passbooks b JOIN corebank.ledger_accounts a ON a.id = b.account_id
                WHERE b.id = core_passbook_get.id AND corebank.branch_visible(a.branch_id))),
           'Passbook not found')
$fn$;
