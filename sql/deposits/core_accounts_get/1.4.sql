CREATE FUNCTION corebank.core_accounts_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    rendered := corebank_internal.account_json(id);
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    RETURN rendered;
END
$fn$;
