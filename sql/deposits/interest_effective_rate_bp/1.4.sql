CREATE FUNCTION corebank_internal.interest_effective_rate_bp(balance_minor bigint, rate_bp int, tiers jsonb) RETURNS int
    AS 'MODULE_PATHNAME', 'interest_effective_rate_bp' LANGUAGE C IMMUTABLE;
