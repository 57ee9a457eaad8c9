-- BEFORE UPDATE OF id OR DELETE, BEFORE TRUNCATE on branches and
-- gl_accounts: the rows the journal refers to are never deleted, and a
-- branch's id never changes (entry/ledger_references.cpp).
CREATE OR REPLACE FUNCTION corebank_internal.referenced_row_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'referenced_row_guard' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
