CREATE FUNCTION corebank_internal.interest_micro_to_minor(micro text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'interest_micro_to_minor' LANGUAGE C IMMUTABLE STRICT;
