-- The TransactionResponse of a transaction rendered in C++ from one
-- statement (pg/transaction_render.hpp): what every posting answers. Equal
-- as jsonb to corebank_internal.transaction_json, which the reads keep; this
-- face exists so that the tests can hold the two equal.
CREATE FUNCTION corebank_internal.transaction_render(transaction_id uuid) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'transaction_render' LANGUAGE C STABLE STRICT
    SET search_path = pg_catalog, pg_temp;
