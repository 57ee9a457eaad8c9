CREATE FUNCTION corebank_internal.parked_change_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'parked_change_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
