CREATE FUNCTION corebank_internal.account_lifecycle_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'account_lifecycle_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
