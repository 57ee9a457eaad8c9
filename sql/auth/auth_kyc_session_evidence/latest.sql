-- What an approved verification session of this user proves, or NULL when
-- the session is not the user's, not completed or not approved: which of
-- liveness, document and face match passed (the checks the service scored,
-- never a claim of the tier).
CREATE FUNCTION corebank_internal.auth_kyc_session_evidence(session_id uuid, user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (
        SELECT jsonb_build_object(
                   'sessionId', s.id, 'flow', s.flow, 'decision', s.decision, 'provider', s.provider,
                   'completedAt', corebank_internal.iso_utc(s.completed_at),
                   'liveness', EXISTS (SELECT FROM jsonb_array_elements(s.checks) c
                                       WHERE c ->> 'type' = 'liveness' AND c ->> 'status' = 'pass'),
                   'document', EXISTS (SELECT FROM jsonb_array_elements(s.checks) c
                                       WHERE c ->> 'type' = 'document' AND c ->> 'status' = 'pass'),
                   'facematch', EXISTS (SELECT FROM jsonb_array_elements(s.checks) c
                                        WHERE c ->> 'type' = 'facematch' AND c ->> 'status' = 'pass'))
        FROM corebank.verify_sessions s
        WHERE s.id = auth_kyc_session_evidence.session_id AND s.auth_user_id = auth_kyc_session_evidence.user_id
          AND s.status = 'completed' AND s.decision = 'approved');
END
$fn$;
