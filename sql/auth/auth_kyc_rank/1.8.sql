-- The order of the KYC tiers (docs/identity.md, "KYC tiers"): NONE 0,
-- BASIC 1, STANDARD 2, ENHANCED 3; NULL for anything else.
CREATE FUNCTION corebank_internal.auth_kyc_rank(tier text) RETURNS int
    LANGUAGE sql IMMUTABLE
    AS $fn$ SELECT array_position(ARRAY['NONE', 'BASIC', 'STANDARD', 'ENHANCED'], tier) - 1 $fn$;
