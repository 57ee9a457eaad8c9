-- identity.kyc_tier.set, {tier, reason}: staff grant ENHANCED to a STANDARD
-- user with a passed face match, or lower a tier with a reason; BASIC and
-- STANDARD are earned, never granted (docs/identity.md, "KYC tiers").
-- Checked when parked and again when approved. Returns the face-match
-- session of an ENHANCED grant (else NULL).
CREATE FUNCTION corebank_internal.kyc_identity_tier_validate(entity_id text, payload jsonb) RETURNS uuid
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    current_tier text;
    tier text := payload ->> 'tier';
    session uuid;
BEGIN
    IF entity_id !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
        PERFORM corebank_internal.fail('CB404', 'Identity user not found');
    END IF;
    SELECT u.kyc_tier INTO current_tier FROM corebank.auth_users u WHERE u.id = entity_id::uuid;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Identity user not found');
    END IF;
    IF corebank_internal.auth_kyc_rank(tier) IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'tier: must be one of NONE, BASIC, STANDARD, ENHANCED');
    END IF;
    IF tier = current_tier THEN
        PERFORM corebank_internal.fail('CB422', format('kycTier is already %s', tier));
    END IF;
    IF corebank_internal.auth_kyc_rank(tier) < corebank_internal.auth_kyc_rank(current_tier) THEN
        IF nullif(btrim(payload ->> 'reason'), '') IS NULL THEN
            PERFORM corebank_internal.fail('CBV00', 'reason: is required to lower a tier');
        END IF;
        RETURN NULL;
    END IF;
    IF tier <> 'ENHANCED' THEN
        PERFORM corebank_internal.fail('CB422', format(
            '%s is earned by the user, not granted by staff; staff grant only ENHANCED', tier));
    END IF;
    IF current_tier <> 'STANDARD' THEN
        PERFORM corebank_internal.fail('CB422', 'ENHANCED is granted only to a STANDARD user');
    END IF;
    SELECT s.id INTO session FROM corebank.verify_sessions s
    WHERE s.auth_user_id = entity_id::uuid
      AND (corebank_internal.auth_kyc_session_evidence(s.id, entity_id::uuid) ->> 'facematch')::bool
      AND (corebank_internal.auth_kyc_session_evidence(s.id, entity_id::uuid) ->> 'document')::bool
      AND (corebank_internal.auth_kyc_session_evidence(s.id, entity_id::uuid) ->> 'liveness')::bool
    ORDER BY s.completed_at DESC LIMIT 1;
    IF session IS NULL THEN
        PERFORM corebank_internal.fail('CB422', 'ENHANCED needs an approved verification session with a passed face match');
    END IF;
    RETURN session;
END
$fn$;
