CREATE FUNCTION corebank_internal.money_apply_bp(amount_minor bigint, bp int) RETURNS bigint
    AS 'MODULE_PATHNAME', 'money_apply_bp' LANGUAGE C IMMUTABLE STRICT;
