CREATE FUNCTION corebank.auth_maintenance() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_maintenance'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
