CREATE FUNCTION corebank.core_transaction_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    rendered jsonb;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    rendered := corebank_internal.transaction_json(id);
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Transaction not found');
    END IF;
    RETURN rendered;
END
$fn$;
