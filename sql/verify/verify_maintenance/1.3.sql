CREATE FUNCTION corebank.verify_maintenance(stale_processing_s int) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_maintenance'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
