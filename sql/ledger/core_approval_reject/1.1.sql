CREATE FUNCTION corebank.core_approval_reject(id uuid, actor uuid, reason text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_reject'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
