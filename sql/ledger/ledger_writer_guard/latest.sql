CREATE FUNCTION corebank_internal.ledger_writer_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'ledger_writer_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
