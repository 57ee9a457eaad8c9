-- 1.8 (issue 15, branch scoping): not found for an account of a branch the
-- transaction cannot see.
CREATE OR REPLACE FUNCTION corebank.core_passbook_list(account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    PERFORM corebank_internal.require_deposit_account(account_id);
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.passbook_json(b.id) ORDER BY b.book_number DESC), '[]'::jsonb)
            FROM corebank.passbooks b WHERE b.account_id = account_id);
END
$fn$;
