CREATE FUNCTION corebank_internal.transaction_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'transaction_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
