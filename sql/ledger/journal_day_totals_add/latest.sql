-- AFTER INSERT ... FOR EACH STATEMENT on journal_entries (transition table
-- new_entries): adds the inserted entries to the per-day totals of their
-- customer and GL accounts, in this backend's stripe
-- (entry/ledger_day_totals.cpp).
CREATE OR REPLACE FUNCTION corebank_internal.journal_day_totals_add() RETURNS trigger
    AS 'MODULE_PATHNAME', 'journal_day_totals_add' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
