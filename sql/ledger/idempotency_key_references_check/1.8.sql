-- AFTER INSERT OR UPDATE OF transaction_id on idempotency_keys, deferred to
-- the commit (a grouped posting claims its key before it writes the
-- transaction): the key's transaction exists, found by a probe of its
-- primary key instead of a row-level foreign key's SPI query; 23503
-- otherwise (entry/ledger_references.cpp).
CREATE OR REPLACE FUNCTION corebank_internal.idempotency_key_references_check() RETURNS trigger
    AS 'MODULE_PATHNAME', 'idempotency_key_references_check' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
