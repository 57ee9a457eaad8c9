CREATE FUNCTION corebank_internal.journal_period_lock() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_period_lock' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
