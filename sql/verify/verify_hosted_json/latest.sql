-- What the hosted page needs to draw itself: the steps still to do and,
-- once completed, the outcome. No subject data, no metadata.
CREATE OR REPLACE FUNCTION corebank_internal.verify_hosted_json(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (
        SELECT corebank_internal.verify_session_head_json(s) || jsonb_build_object(
            'consentRequired', s.consent_required,
            'consent', corebank_internal.verify_consent_status(c.granted),
            'captures', jsonb_build_object(
                'selfie', CASE WHEN s.flow ~ '(liveness|facematch)'
                               THEN CASE WHEN sc.session_id IS NOT NULL THEN 'received' ELSE 'required' END
                               ELSE 'not_needed' END,
                'document', CASE WHEN s.flow ~ '(document|facematch)'
                                 THEN CASE WHEN dc.session_id IS NOT NULL THEN 'received' ELSE 'required' END
                                 ELSE 'not_needed' END),
            'redirectUrl', s.redirect_url,
            'clientTokenExpiresAt', corebank_internal.verify_iso_utc(s.client_token_expires_at))
        FROM corebank.verify_sessions s
        LEFT JOIN corebank.verify_consents c ON c.session_id = s.id
        LEFT JOIN corebank.verify_captures sc ON sc.session_id = s.id AND sc.kind = 'selfie'
        LEFT JOIN corebank.verify_captures dc ON dc.session_id = s.id AND dc.kind = 'document'
        WHERE s.id = verify_hosted_json.session_id);
END
$fn$;
