-- The approval of identity.kyc_tier.set: the checker must hold the
-- compliance_officer role; the rules are checked again, then the tier moves
-- with the approval and (for ENHANCED) the face-match session as evidence.
CREATE FUNCTION corebank_internal.kyc_identity_tier_apply(entity_id text, payload jsonb, checker uuid, change_id uuid)
    RETURNS jsonb
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    session uuid;
BEGIN
    IF NOT EXISTS (SELECT FROM corebank.auth_users u
                   WHERE u.id = checker AND 'compliance_officer' = ANY (u.roles)) THEN
        PERFORM corebank_internal.fail('CB403', 'A KYC tier change is approved by a compliance officer');
    END IF;
    session := corebank_internal.kyc_identity_tier_validate(entity_id, payload);
    PERFORM corebank_internal.auth_kyc_tier_move(entity_id::uuid, payload ->> 'tier', 'maker_checker',
        jsonb_strip_nulls(jsonb_build_object('parkedChangeId', change_id, 'approvedBy', checker, 'sessionId', session)),
        nullif(btrim(payload ->> 'reason'), ''), checker);
    RETURN corebank_internal.auth_kyc_json(entity_id::uuid);
END
$fn$;
