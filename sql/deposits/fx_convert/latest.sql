-- The argument is one amount (corebank.amount_minor: 0..limits::amount_minor_max);
-- the converted result may exceed it, so it stays bigint.
CREATE FUNCTION corebank_internal.fx_convert(amount_minor corebank.amount_minor, rate text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'fx_convert' LANGUAGE C IMMUTABLE STRICT;
