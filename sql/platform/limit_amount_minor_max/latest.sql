-- The largest amount of one movement of money, in minor units: limits::amount_minor_max.
CREATE FUNCTION corebank_internal.limit_amount_minor_max() RETURNS bigint
    AS 'MODULE_PATHNAME', 'limit_amount_minor_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
