-- The session object of the API. clientToken and hostedUrl are null: the tier
-- fills them (the token exists only in the creation response).
CREATE OR REPLACE FUNCTION corebank_internal.verify_session_json(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (
        SELECT corebank_internal.verify_session_record_json(s) || jsonb_build_object(
            'clientToken', NULL,
            'hostedUrl', NULL,
            'redirectUrl', s.redirect_url,
            'metadata', s.metadata,
            'updatedAt', corebank_internal.verify_iso_utc(s.updated_at),
            'expiredAt', corebank_internal.verify_iso_utc(coalesce(s.expired_at,
                CASE WHEN s.status IN ('pending', 'processing') AND s.expires_at <= now() THEN s.expires_at END)),
            'consent', corebank_internal.verify_consent_json(s.consent_required, c),
            'checks', corebank_internal.verify_checks_summary(s.checks))
        FROM corebank.verify_sessions s
        LEFT JOIN corebank.verify_consents c ON c.session_id = s.id
        WHERE s.id = verify_session_json.session_id);
END
$fn$;
