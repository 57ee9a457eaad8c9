-- Whether `type` is one of the spec's transaction types (core::ledger::
-- is_transaction_type; entry/transaction_type.cpp): the CHECK transactions_type.
CREATE FUNCTION corebank_internal.transaction_type_known(type text) RETURNS boolean
    AS 'MODULE_PATHNAME', 'transaction_type_known' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
