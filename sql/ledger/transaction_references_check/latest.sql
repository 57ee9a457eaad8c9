-- BEFORE INSERT OR UPDATE OF branch_id, reverses_id, reversed_by_id,
-- parked_change_id on transactions: each row a transaction names (branch,
-- reversed and reversing transaction, parked change) exists, found by a probe
-- of its primary key instead of a row-level foreign key's SPI query; 23503
-- otherwise (entry/ledger_references.cpp).
CREATE OR REPLACE FUNCTION corebank_internal.transaction_references_check() RETURNS trigger
    AS 'MODULE_PATHNAME', 'transaction_references_check' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
