CREATE FUNCTION corebank.ledger_post(request jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'ledger_post'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
