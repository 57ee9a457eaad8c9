CREATE FUNCTION corebank.core_transaction_abandon(id uuid, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transaction_abandon'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
