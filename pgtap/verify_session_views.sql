-- verify_session_views.sql: the members the session object, the report and the
-- hosted page share, built once since 1.7 (verify_consent_status,
-- verify_consent_json, verify_session_head_json, verify_session_record_json).
--
-- Goal: the three views of a session answer exactly what their 1.3
-- definitions answered, in every state a test can reach here (pending, face
-- flow without consent, declined, completed, cancelled, expired by the
-- clock), and the helpers have no grant.
-- Method: the 1.3 definitions, copied below as pg_temp functions, are the
-- oracle; each state's three views are compared with them.
BEGIN;
SELECT plan(21);
\ir helpers/verify.sql

CREATE FUNCTION pg_temp.old_session_json(session_id uuid) RETURNS jsonb
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
        WHERE s.id = old_session_json.session_id);
END
$fn$;

CREATE FUNCTION pg_temp.old_report_json(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (
        SELECT jsonb_build_object(
            'sessionId', s.id,
            'status', corebank_internal.verify_effective_status(s.status, s.expires_at),
            'flow', s.flow,
            'reference', s.reference,
            'decision', s.decision,
            'decisionReasons', to_jsonb(s.decision_reasons),
            'provider', s.provider,
            'createdAt', corebank_internal.verify_iso_utc(s.created_at),
            'expiresAt', corebank_internal.verify_iso_utc(s.expires_at),
            'completedAt', corebank_internal.verify_iso_utc(s.completed_at),
            'cancelledAt', corebank_internal.verify_iso_utc(s.cancelled_at),
            'expiredAt', corebank_internal.verify_iso_utc(s.expired_at),
            'cancelledBy', s.cancelled_by,
            'cancellationReason', s.cancellation_reason,
            'apiKeyId', s.api_key_id,
            'subjectSealed', encode(s.subject_sealed, 'hex'),
            'consent', jsonb_build_object(
                'required', s.consent_required,
                'status', CASE WHEN c.granted THEN 'granted' WHEN NOT c.granted THEN 'declined' ELSE 'not_recorded' END,
                'channel', c.channel,
                'version', c.version,
                'textSha256', encode(c.text_sha256, 'hex'),
                'ip', c.ip,
                'userAgent', c.user_agent,
                'recordedAt', corebank_internal.verify_iso_utc(c.recorded_at)),
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
        WHERE s.id = old_report_json.session_id);
END
$fn$;

CREATE FUNCTION pg_temp.old_hosted_json(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (
        SELECT jsonb_build_object(
            'sessionId', s.id,
            'status', corebank_internal.verify_effective_status(s.status, s.expires_at),
            'flow', s.flow,
            'consentRequired', s.consent_required,
            'consent', CASE WHEN c.granted THEN 'granted' WHEN NOT c.granted THEN 'declined' ELSE 'not_recorded' END,
            'captures', jsonb_build_object(
                'selfie', CASE WHEN s.flow ~ '(liveness|facematch)'
                               THEN CASE WHEN sc.session_id IS NOT NULL THEN 'received' ELSE 'required' END
                               ELSE 'not_needed' END,
                'document', CASE WHEN s.flow ~ '(document|facematch)'
                                 THEN CASE WHEN dc.session_id IS NOT NULL THEN 'received' ELSE 'required' END
                                 ELSE 'not_needed' END),
            'decision', s.decision,
            'redirectUrl', s.redirect_url,
            'expiresAt', corebank_internal.verify_iso_utc(s.expires_at),
            'clientTokenExpiresAt', corebank_internal.verify_iso_utc(s.client_token_expires_at))
        FROM corebank.verify_sessions s
        LEFT JOIN corebank.verify_consents c ON c.session_id = s.id
        LEFT JOIN corebank.verify_captures sc ON sc.session_id = s.id AND sc.kind = 'selfie'
        LEFT JOIN corebank.verify_captures dc ON dc.session_id = s.id AND dc.kind = 'document'
        WHERE s.id = old_hosted_json.session_id);
END
$fn$;

-- The three views of one session, new and old, side by side.
CREATE FUNCTION pg_temp.same_views(session_id uuid) RETURNS bool
    LANGUAGE sql
    AS $f$
    SELECT corebank_internal.verify_session_json(session_id) = pg_temp.old_session_json(session_id)
       AND corebank_internal.verify_report_json(session_id) = pg_temp.old_report_json(session_id)
       AND corebank_internal.verify_hosted_json(session_id) = pg_temp.old_hosted_json(session_id)
       AND corebank_internal.verify_session_json(session_id)::text = pg_temp.old_session_json(session_id)::text
       AND corebank_internal.verify_report_json(session_id)::text = pg_temp.old_report_json(session_id)::text
       AND corebank_internal.verify_hosted_json(session_id)::text = pg_temp.old_hosted_json(session_id)::text
$f$;

-- verify_consent_status
SELECT is(corebank_internal.verify_consent_status(true), 'granted', 'granted consent');
SELECT is(corebank_internal.verify_consent_status(false), 'declined', 'declined consent');
SELECT is(corebank_internal.verify_consent_status(NULL), 'not_recorded', 'no consent row');

-- verify_consent_json without a consent row
SELECT is(corebank_internal.verify_consent_json(true, NULL::corebank.verify_consents),
          '{"required": true, "status": "not_recorded", "channel": null, "recordedAt": null}'::jsonb,
          'a consent not recorded has only required and status');

-- The head and the record
CREATE TEMP TABLE p AS SELECT pg_temp.vsession('document', 'tok-hp') AS id;
SELECT is((SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(corebank_internal.verify_session_head_json(
               (SELECT s FROM corebank.verify_sessions s WHERE s.id = (SELECT id FROM p)))) AS k),
          ARRAY['decision', 'expiresAt', 'flow', 'sessionId', 'status'], 'the head has the members all three views share');
SELECT is((SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(corebank_internal.verify_session_record_json(
               (SELECT s FROM corebank.verify_sessions s WHERE s.id = (SELECT id FROM p)))) AS k),
          ARRAY['cancellationReason', 'cancelledAt', 'cancelledBy', 'completedAt', 'createdAt', 'decision',
                'decisionReasons', 'expiresAt', 'flow', 'reference', 'sessionId', 'status'],
          'the record is the head and the lifecycle members');

-- Every state: the three views are those of 1.3.
SELECT ok(pg_temp.same_views((SELECT id FROM p)), 'a pending document session: the views of 1.3');
SELECT is(corebank_internal.verify_session_json(gen_random_uuid()), NULL, 'an unknown session has no object');
SELECT ok(corebank_internal.verify_report_json(gen_random_uuid()) IS NULL
          AND corebank_internal.verify_hosted_json(gen_random_uuid()) IS NULL, 'nor a report or a hosted view');

CREATE TEMP TABLE f AS SELECT pg_temp.vsession('liveness+facematch', 'tok-hf') AS id;
SELECT ok(pg_temp.same_views((SELECT id FROM f)), 'a face flow before consent: the views of 1.3');
SELECT pg_temp.vconsent((SELECT id FROM f), 'tok-hf');
SELECT ok(pg_temp.same_views((SELECT id FROM f)), 'after consent: the views of 1.3');
SELECT pg_temp.vcapture((SELECT id FROM f), 'tok-hf', 'selfie');
SELECT ok(pg_temp.same_views((SELECT id FROM f)), 'with a selfie: the views of 1.3');
SELECT is(corebank_internal.verify_report_json((SELECT id FROM f)) -> 'consent' ->> 'version', 'v1',
          'the report''s consent keeps its evidence');

CREATE TEMP TABLE d AS SELECT pg_temp.vsession('liveness', 'tok-hd') AS id;
SELECT pg_temp.vconsent((SELECT id FROM d), 'tok-hd', false);
SELECT ok(pg_temp.same_views((SELECT id FROM d)), 'declined consent (cancelled): the views of 1.3');
SELECT is(corebank_internal.verify_hosted_json((SELECT id FROM d)) ->> 'consent', 'declined',
          'the hosted view says declined');

CREATE TEMP TABLE c AS SELECT pg_temp.vsession('liveness+facematch+document', 'tok-hc') AS id;
SELECT pg_temp.vcomplete((SELECT id FROM c), 'tok-hc', ARRAY['pass', 'pass', 'pass']);
SELECT ok(pg_temp.same_views((SELECT id FROM c)), 'a completed session: the views of 1.3');
SELECT is(corebank_internal.verify_session_json((SELECT id FROM c)) ->> 'decision', 'approved',
          'the completed session is approved');

CREATE TEMP TABLE x AS SELECT pg_temp.vsession('document', 'tok-hx') AS id;
SELECT pg_temp.vage((SELECT id FROM x), interval '2 days');
SELECT ok(pg_temp.same_views((SELECT id FROM x)), 'a session past its expiry: the views of 1.3');
SELECT is(corebank_internal.verify_session_json((SELECT id FROM x)) ->> 'status', 'expired', 'it reads as expired');

SELECT lives_ok($$SELECT corebank.verify_session_get((SELECT id FROM x))$$, 'verify_session_get answers');
SELECT is((SELECT count(*) FROM unnest(ARRAY[
               'corebank_internal.verify_consent_status(boolean)',
               'corebank_internal.verify_consent_json(boolean,corebank.verify_consents)',
               'corebank_internal.verify_session_head_json(corebank.verify_sessions)',
               'corebank_internal.verify_session_record_json(corebank.verify_sessions)']) AS f(sig)
           WHERE has_function_privilege('corebank_app', f.sig::regprocedure, 'EXECUTE')), 0::bigint,
          'the tier has no EXECUTE on the new helpers');

SELECT * FROM finish();
ROLLBACK;
