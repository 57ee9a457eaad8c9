CREATE FUNCTION corebank_internal.journal_immutable() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_immutable' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
