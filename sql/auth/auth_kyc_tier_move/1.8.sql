-- Moves a user's kycTier: records the change (who, from, to, evidence,
-- reason) and then updates the user, whose guard checks the evidence in the
-- same transaction. A rise to STANDARD by a verification session is also
-- recorded as the linked core customer's identity-document check.
CREATE FUNCTION corebank_internal.auth_kyc_tier_move(user_id uuid, to_tier text, source text, evidence jsonb,
                                                     reason text, actor uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    from_tier text;
BEGIN
    SELECT u.kyc_tier INTO from_tier FROM corebank.auth_users u WHERE u.id = auth_kyc_tier_move.user_id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Identity user not found');
    END IF;
    IF from_tier = to_tier THEN
        PERFORM corebank_internal.fail('CB422', format('kycTier is already %s', to_tier));
    END IF;
    INSERT INTO corebank.auth_kyc_tier_changes (user_id, from_tier, to_tier, source, evidence, reason, actor_id)
    VALUES (auth_kyc_tier_move.user_id, from_tier, to_tier, source, evidence, reason, actor);
    UPDATE corebank.auth_users u SET kyc_tier = to_tier, updated_at = now() WHERE u.id = auth_kyc_tier_move.user_id;
    IF to_tier = 'STANDARD' AND source = 'verification_session' THEN
        PERFORM corebank_internal.kyc_identity_check_record(user_id, (evidence ->> 'sessionId')::uuid);
    END IF;
END
$fn$;
