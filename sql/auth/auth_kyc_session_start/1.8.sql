-- POST /auth/kyc/sessions: a verification session (flow
-- liveness+facematch+document) for the signed-in user, created by the
-- verification service's own function in this transaction, then owned by
-- the user instead of an API key. The idempotency scope is the user: a retry
-- with the same Idempotency-Key answers with the first session. Refused when
-- the tier is STANDARD or above (a session cannot raise it further) and past
-- 5 sessions per user in 24 hours.
CREATE FUNCTION corebank.auth_kyc_session_start(user_id uuid, idempotency_key text, request_hash bytea,
                                                session_id uuid, redirect_url text, client_token_hash bytea,
                                                client_token_sealed bytea, lifetime_s int, client_token_ttl_s int)
    RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    u corebank.auth_users;
    result jsonb;
BEGIN
    SELECT * INTO u FROM corebank.auth_users x WHERE x.id = auth_kyc_session_start.user_id FOR UPDATE;
    IF NOT FOUND OR u.status <> 'ACTIVE' THEN
        PERFORM corebank_internal.fail('CB404', 'Identity user not found');
    END IF;
    IF NOT EXISTS (SELECT FROM corebank.verify_idempotency_keys k
                   WHERE k.scope = u.id AND k.idem_key = auth_kyc_session_start.idempotency_key) THEN
        IF corebank_internal.auth_kyc_rank(u.kyc_tier) >= corebank_internal.auth_kyc_rank('STANDARD') THEN
            PERFORM corebank_internal.fail('CB409', format(
                'kycTier is already %s: a verification session cannot raise it further', u.kyc_tier));
        END IF;
        IF (SELECT count(*) FROM corebank.verify_sessions s
            WHERE s.auth_user_id = u.id AND s.created_at > now() - interval '24 hours') >= 5 THEN
            PERFORM corebank_internal.fail('CB429', 'At most 5 verification sessions per 24 hours; try again later');
        END IF;
    END IF;
    result := corebank.verify_session_create(u.id, idempotency_key, request_hash, session_id,
                                             'liveness+facematch+document', NULL, NULL, NULL, redirect_url,
                                             '{"startedBy": "identity"}'::jsonb, client_token_hash,
                                             client_token_sealed, lifetime_s, client_token_ttl_s);
    UPDATE corebank.verify_sessions s SET api_key_id = NULL, auth_user_id = u.id
    WHERE s.id = (result -> 'body' ->> 'sessionId')::uuid AND s.api_key_id = u.id AND s.auth_user_id IS NULL;
    IF NOT EXISTS (SELECT FROM corebank.verify_sessions s
                   WHERE s.id = (result -> 'body' ->> 'sessionId')::uuid AND s.auth_user_id = u.id) THEN
        PERFORM corebank_internal.fail('CB409', 'Idempotency-Key was used for another request');
    END IF;
    RETURN result;
END
$fn$;
