-- 1.8: another branch's transaction is absent to a scoped reader (issue 15,
-- branch scoping; corebank_internal.transaction_visible).
CREATE OR REPLACE FUNCTION corebank.core_transaction_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    wanted uuid := corebank_internal.required_id(core_transaction_get.id);
BEGIN
    RETURN corebank_internal.found_or_404(
               (SELECT corebank_internal.transaction_json(t.id)
                FROM corebank.transactions t
                WHERE t.id = wanted AND corebank_internal.transaction_visible(t.id, t.branch_id)),
               'Transaction not found');
END
$fn$;
