CREATE FUNCTION corebank_internal.fx_convert(amount_minor bigint, rate text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'fx_convert' LANGUAGE C IMMUTABLE STRICT;
