CREATE FUNCTION corebank.parked_change_reject(id uuid, checker_id uuid, reason text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_reject'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
