CREATE FUNCTION corebank_internal.deposits_append_only() RETURNS trigger
    AS 'MODULE_PATHNAME', 'deposits_append_only' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
