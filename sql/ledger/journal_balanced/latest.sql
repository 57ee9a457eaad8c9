CREATE FUNCTION corebank_internal.journal_balanced() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_balanced' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
