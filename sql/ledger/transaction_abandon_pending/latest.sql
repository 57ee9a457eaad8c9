-- The cancelling of a refused or lapsed manual journal
-- (entry/core_transactions.cpp), called by corebank.core_transaction_abandon
-- once the journal is visible.
CREATE FUNCTION corebank_internal.transaction_abandon_pending(id uuid, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transaction_abandon'
    LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
