-- POST /v1/identity-users/{id}/kyc-tier {tier, reason?}: parks
-- identity.kyc_tier.set; a compliance officer other than the maker approves
-- it at /v1/approvals.
CREATE FUNCTION corebank.kyc_identity_tier_request(user_id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    tier text;
    reason text;
    payload jsonb;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    tier := corebank_internal.json_enum(request, 'tier', ARRAY['NONE', 'BASIC', 'STANDARD', 'ENHANCED']);
    reason := corebank_internal.json_trimmed(request, 'reason', 500);
    IF tier IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'tier: is required (NONE, BASIC, STANDARD or ENHANCED)');
    END IF;
    payload := jsonb_build_object('tier', tier, 'reason', reason);
    RETURN corebank.parked_change_create('identity.kyc_tier.set', 'identity_user', user_id::text, payload,
                                         format('Set the KYC tier of identity user %s to %s', user_id, tier), actor);
END
$fn$;
