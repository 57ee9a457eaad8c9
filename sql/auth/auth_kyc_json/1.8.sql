-- GET /auth/kyc (and the staff view of a tier change): the tier, the
-- evidence of the change that set it, what the next tier needs with each
-- requirement met or not, the recent changes and the user's recent
-- verification sessions (docs/identity.md, "KYC tiers"). The staff reason
-- of a fall is not shown: telling a customer why compliance lowered them can
-- be tipping-off; it stays in auth_kyc_tier_changes and the approval.
CREATE FUNCTION corebank_internal.auth_kyc_json(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    u corebank.auth_users;
    last_change corebank.auth_kyc_tier_changes;
    session jsonb;
    names bool;
    contact bool;
    next jsonb;
BEGIN
    SELECT * INTO u FROM corebank.auth_users x WHERE x.id = auth_kyc_json.user_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Identity user not found');
    END IF;
    SELECT * INTO last_change FROM corebank.auth_kyc_tier_changes c
    WHERE c.user_id = u.id AND c.to_tier = u.kyc_tier ORDER BY c.id DESC LIMIT 1;
    -- The newest approved session of the user with every check passed, for
    -- the requirements of STANDARD and ENHANCED.
    SELECT e INTO session
    FROM corebank.verify_sessions s
    CROSS JOIN LATERAL corebank_internal.auth_kyc_session_evidence(s.id, u.id) e
    WHERE s.auth_user_id = u.id AND s.status = 'completed' AND s.decision = 'approved'
    ORDER BY (e ->> 'facematch')::bool DESC, s.completed_at DESC LIMIT 1;
    names := btrim(coalesce(u.first_name, '')) <> '' AND btrim(coalesce(u.last_name, '')) <> '';
    contact := EXISTS (SELECT FROM corebank.auth_reset_tokens r WHERE r.user_id = u.id AND r.used_at IS NOT NULL)
               OR to_jsonb(u) ->> 'email_verified_at' IS NOT NULL OR to_jsonb(u) ->> 'phone_verified_at' IS NOT NULL;
    next := CASE u.kyc_tier
        WHEN 'NONE' THEN jsonb_build_object('tier', 'BASIC', 'requirements', jsonb_build_array(
            jsonb_build_object('code', 'names', 'met', names,
                               'description', 'a first and a last name on the account'),
            jsonb_build_object('code', 'verified_contact', 'met', contact,
                               'description', 'a verified email or phone: a confirmed contact, or a followed'
                                              ' password reset link (STANDARD may also be earned directly)')))
        WHEN 'BASIC' THEN jsonb_build_object('tier', 'STANDARD', 'requirements', jsonb_build_array(
            jsonb_build_object('code', 'verification_session', 'met', false,
                               'description', 'an approved verification session with liveness and document checks:'
                                              ' POST /auth/kyc/sessions')))
        WHEN 'STANDARD' THEN jsonb_build_object('tier', 'ENHANCED', 'requirements', jsonb_build_array(
            jsonb_build_object('code', 'face_match', 'met', coalesce((session ->> 'facematch')::bool, false),
                               'description', 'a passed face match in an approved verification session'),
            jsonb_build_object('code', 'compliance_approval', 'met', false,
                               'description', 'a compliance officer approves the change through maker-checker'
                                              ' (POST /v1/identity-users/{id}/kyc-tier on core banking)')))
        ELSE NULL END;
    RETURN jsonb_build_object(
        'userId', u.id,
        'kycTier', u.kyc_tier,
        'evidence', CASE WHEN last_change.id IS NULL THEN NULL ELSE jsonb_build_object(
                        'source', last_change.source, 'detail', last_change.evidence,
                        'since', corebank_internal.iso_utc(last_change.at)) END,
        'next', next,
        'history', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                               'from', c.from_tier, 'to', c.to_tier, 'source', c.source,
                               'at', corebank_internal.iso_utc(c.at)) ORDER BY c.id DESC), '[]'::jsonb)
                    FROM (SELECT * FROM corebank.auth_kyc_tier_changes x WHERE x.user_id = u.id
                          ORDER BY x.id DESC LIMIT 20) c),
        'sessions', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                'sessionId', s.id, 'status', corebank_internal.verify_effective_status(s.status, s.expires_at),
                                'decision', s.decision, 'createdAt', corebank_internal.iso_utc(s.created_at))
                                ORDER BY s.created_at DESC), '[]'::jsonb)
                     FROM (SELECT * FROM corebank.verify_sessions x WHERE x.auth_user_id = u.id
                           ORDER BY x.created_at DESC LIMIT 5) s));
END
$fn$;
