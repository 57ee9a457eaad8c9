CREATE FUNCTION corebank.parked_change_create(operation text, entity_type text, entity_id text, payload jsonb,
                                              summary text, maker_id uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'parked_change_create'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
