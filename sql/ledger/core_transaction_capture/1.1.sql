CREATE FUNCTION corebank.core_transaction_capture(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transaction_capture'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
