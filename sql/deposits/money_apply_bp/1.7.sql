-- The argument is one amount (corebank.amount_minor: 0..limits::amount_minor_max).
CREATE FUNCTION corebank_internal.money_apply_bp(amount_minor corebank.amount_minor, bp int) RETURNS bigint
    AS 'MODULE_PATHNAME', 'money_apply_bp' LANGUAGE C IMMUTABLE STRICT;
