-- CreateTransferBatchRequest -> TransferBatchResponse; `actor` is the acting
-- staff member (maker and operator of every transfer).
CREATE FUNCTION corebank.core_transfer_batch(request jsonb, actor uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_transfer_batch'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
