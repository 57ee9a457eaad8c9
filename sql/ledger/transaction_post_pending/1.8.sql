-- The posting of a released manual journal (entry/core_transactions.cpp),
-- called by corebank.core_transaction_post once the journal is visible.
CREATE FUNCTION corebank_internal.transaction_post_pending(id uuid, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transaction_post'
    LANGUAGE C VOLATILE
    SET search_path = pg_catalog, pg_temp;
