CREATE FUNCTION corebank.core_accounts_get_by_number(account_number text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.account_json(
        (SELECT a.id FROM corebank.ledger_accounts a WHERE a.account_number = upper(btrim(account_number))));
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    RETURN rendered;
END
$fn$;
