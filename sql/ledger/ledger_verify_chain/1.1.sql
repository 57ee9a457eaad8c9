CREATE FUNCTION corebank.ledger_verify_chain()
    RETURNS TABLE (stripe smallint, seq bigint, transaction_id uuid, problem text)
    AS 'MODULE_PATHNAME', 'ledger_verify_chain'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
