-- Trigger arguments name the columns an UPDATE may still change: events keep
-- the one exception they had, a customer merge moving customer_id (the
-- detail then reads "UPDATE refused; only customer_id may change").
-- docs/ledger.md lists the tables; pgtap/append_only.sql tries every one and
-- fails when an append-only table lacks the trigger.
CREATE FUNCTION corebank_internal.refuse_change() RETURNS trigger
    AS 'MODULE_PATHNAME', 'refuse_change' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
