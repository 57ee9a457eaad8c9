-- AFTER INSERT ... FOR EACH STATEMENT on journal_entries (transition table
-- new_entries): every inserted entry's transaction, GL account in its
-- currency, branch, and customer account on that GL account exist, checked
-- in one query instead of four row-level foreign keys; 23503 otherwise
-- (entry/ledger_references.cpp).
CREATE OR REPLACE FUNCTION corebank_internal.journal_references_check() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_references_check' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
