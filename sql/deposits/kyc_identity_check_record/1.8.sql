-- The verification session that earned a user STANDARD, recorded as the
-- identity-document check of the core customer linked to that user (one
-- KYC truth across the services); nothing when no customer is linked, and
-- once per customer and session.
CREATE FUNCTION corebank_internal.kyc_identity_check_record(user_id uuid, session_id uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    INSERT INTO corebank.kyc_checks (customer_id, check_type, provider_mode, source, outcome, details, requested_by,
                                     verify_session_id)
    SELECT c.id, 'IDENTITY_DOCUMENT', 'VERIFICATION_SERVICE', 'VERIFICATION_SESSION', 'CLEAR',
           jsonb_build_object('sessionId', s.id, 'identityUserId', s.auth_user_id, 'flow', s.flow,
                              'decision', s.decision, 'decisionReasons', to_jsonb(s.decision_reasons),
                              'checks', corebank_internal.verify_checks_summary(s.checks), 'provider', s.provider,
                              'completedAt', corebank_internal.iso_utc(s.completed_at),
                              'message', 'Recorded from the verification session that earned the identity STANDARD'),
           kyc_identity_check_record.user_id, s.id
    FROM corebank.customers c
    JOIN corebank.verify_sessions s ON s.id = kyc_identity_check_record.session_id
    WHERE c.auth_user_id = kyc_identity_check_record.user_id
    ON CONFLICT (customer_id, verify_session_id) WHERE verify_session_id IS NOT NULL DO NOTHING;
END
$fn$;
