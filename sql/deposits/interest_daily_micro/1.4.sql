-- One day's accrual (micro-minor units, as text) of a balance.
CREATE FUNCTION corebank_internal.interest_daily_micro(balance_minor bigint, accrued_micro text, method text,
                                                       rate_bp int, tiers jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'interest_daily_micro' LANGUAGE C IMMUTABLE;
