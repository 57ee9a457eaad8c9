CREATE FUNCTION corebank.parked_change_approve(id uuid, checker_id uuid, comment text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_approve'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
