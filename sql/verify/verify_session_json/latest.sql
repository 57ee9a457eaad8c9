-- The session object of the API. clientToken and hostedUrl are null: the tier
-- fills them (the token exists only in the creation response).
CREATE FUNCTION corebank_internal.verify_session_json(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (
        SELECT jsonb_build_object(
            'sessionId', s.id,
            'status', corebank_internal.verify_effective_status(s.status, s.expires_at),
            'flow', s.flow,
            'clientToken', NULL,
            'hostedUrl', NULL,
            'reference', s.reference,
            'redirectUrl', s.redirect_url,
            'metadata', s.metadata,
            'createdAt', corebank_internal.verify_iso_utc(s.created_at),
            'updatedAt', corebank_internal.verify_iso_utc(s.updated_at),
            'expiresAt', corebank_internal.verify_iso_utc(s.expires_at),
            'completedAt', corebank_internal.verify_iso_utc(s.completed_at),
            'cancelledAt', corebank_internal.verify_iso_utc(s.cancelled_at),
            'expiredAt', corebank_internal.verify_iso_utc(coalesce(s.expired_at,
                CASE WHEN s.status IN ('pending', 'processing') AND s.expires_at <= now() THEN s.expires_at END)),
            'cancelledBy', s.cancelled_by,
            'cancellationReason', s.cancellation_reason,
            'consent', jsonb_build_object(
                'required', s.consent_required,
                'status', CASE WHEN c.granted THEN 'granted' WHEN NOT c.granted THEN 'declined' ELSE 'not_recorded' END,
                'channel', c.channel,
                'recordedAt', corebank_internal.verify_iso_utc(c.recorded_at)),
            'decision', s.decision,
            'decisionReasons', to_jsonb(s.decision_reasons),
            'checks', corebank_internal.verify_checks_summary(s.checks))
        FROM corebank.verify_sessions s
        LEFT JOIN corebank.verify_consents c ON c.session_id = s.id
        WHERE s.id = verify_session_json.session_id);
END
$fn$;
