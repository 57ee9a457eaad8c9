-- Whether change_id is an APPROVED identity.kyc_tier.set of this user to
-- this tier whose checker holds the compliance_officer role: the only way a
-- tier reaches ENHANCED or falls (docs/identity.md, "KYC tiers").
CREATE FUNCTION corebank_internal.auth_kyc_approval_valid(change_id uuid, user_id uuid, tier text) RETURNS bool
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN EXISTS (
        SELECT FROM corebank.parked_changes p JOIN corebank.auth_users checker ON checker.id = p.checker_id
        WHERE p.id = auth_kyc_approval_valid.change_id AND p.operation = 'identity.kyc_tier.set'
          AND p.entity_type = 'identity_user' AND p.entity_id = auth_kyc_approval_valid.user_id::text
          AND p.status = 'APPROVED' AND p.payload ->> 'tier' = auth_kyc_approval_valid.tier
          AND 'compliance_officer' = ANY (checker.roles));
END
$fn$;
