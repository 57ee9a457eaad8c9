CREATE FUNCTION corebank_internal.beneficial_owner_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'beneficial_owner_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
