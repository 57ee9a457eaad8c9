-- The approval of customer.identity_user.link: links the customer and, when
-- the user already holds STANDARD or above, records the session that earned
-- it as the customer's identity-document check (kyc_identity_check_record).
CREATE FUNCTION corebank_internal.kyc_identity_link_apply(entity_id text, payload jsonb, checker uuid, change_id uuid)
    RETURNS jsonb
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    linked uuid := (payload ->> 'userId')::uuid;
    earned uuid;
BEGIN
    -- The user's row first, as a tier move takes it: a link approved while
    -- the user's session is decided waits for it (or it for the link), so
    -- one of the two always sees the other and writes the check.
    PERFORM FROM corebank.auth_users u WHERE u.id = linked FOR UPDATE;
    PERFORM corebank_internal.kyc_identity_link_validate(entity_id, payload);
    UPDATE corebank.customers c SET auth_user_id = linked, updated_at = now() WHERE c.id = entity_id::uuid;
    SELECT (x.evidence ->> 'sessionId')::uuid INTO earned FROM corebank.auth_kyc_tier_changes x
    JOIN corebank.auth_users u ON u.id = x.user_id
    WHERE x.user_id = linked AND x.to_tier = 'STANDARD' AND x.source = 'verification_session'
      AND corebank_internal.auth_kyc_rank(u.kyc_tier) >= corebank_internal.auth_kyc_rank('STANDARD')
    ORDER BY x.id DESC LIMIT 1;
    IF earned IS NOT NULL THEN
        PERFORM corebank_internal.kyc_identity_check_record(linked, earned);
    END IF;
    RETURN jsonb_build_object('customerId', entity_id::uuid, 'identityUserId', linked,
                              'kycTier', (SELECT u.kyc_tier FROM corebank.auth_users u WHERE u.id = linked),
                              'kycStatus', corebank_internal.kyc_status(entity_id::uuid));
END
$fn$;
