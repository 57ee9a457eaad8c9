-- The audit report: everything but the sealed data itself. subjectSealed
-- (hex) is for the tier, which replaces it with a masked subject.
CREATE OR REPLACE FUNCTION corebank_internal.verify_report_json(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (
        SELECT corebank_internal.verify_session_record_json(s) || jsonb_build_object(
            'provider', s.provider,
            'expiredAt', corebank_internal.verify_iso_utc(s.expired_at),
            'apiKeyId', s.api_key_id,
            'subjectSealed', encode(s.subject_sealed, 'hex'),
            'consent', corebank_internal.verify_consent_json(s.consent_required, c) || jsonb_build_object(
                'version', c.version,
                'textSha256', encode(c.text_sha256, 'hex'),
                'ip', c.ip,
                'userAgent', c.user_agent),
            'captures', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                 'kind', x.kind, 'format', x.format, 'width', x.width, 'height', x.height,
                                 'bytes', x.byte_count, 'sha256', encode(x.image_sha256, 'hex'),
                                 'attempts', x.attempts, 'receivedAt', corebank_internal.verify_iso_utc(x.received_at),
                                 'imageRetained', x.image_sealed IS NOT NULL,
                                 'purgedAt', corebank_internal.verify_iso_utc(x.purged_at))
                             ORDER BY x.kind DESC), '[]'::jsonb)
                         FROM corebank.verify_captures x WHERE x.session_id = s.id),
            'checks', s.checks,
            'webhooks', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                 'eventId', e.id, 'type', e.type, 'createdAt', corebank_internal.verify_iso_utc(e.created_at),
                                 'deliveries', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                                    'endpointId', d.endpoint_id, 'status', d.status,
                                                    'attempts', d.attempts, 'lastHttpStatus', d.last_http_status,
                                                    'deliveredAt', corebank_internal.verify_iso_utc(d.delivered_at))
                                                  ORDER BY d.created_at, d.id), '[]'::jsonb)
                                                FROM corebank.verify_webhook_deliveries d WHERE d.event_id = e.id))
                             ORDER BY e.created_at, e.id), '[]'::jsonb)
                         FROM corebank.verify_webhook_events e WHERE e.session_id = s.id),
            'timeline', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                 'at', corebank_internal.verify_iso_utc(v.at), 'event', v.event, 'detail', v.detail)
                             ORDER BY v.id), '[]'::jsonb)
                         FROM corebank.verify_session_events v WHERE v.session_id = s.id))
        FROM corebank.verify_sessions s
        LEFT JOIN corebank.verify_consents c ON c.session_id = s.id
        WHERE s.id = verify_report_json.session_id);
END
$fn$;
