/* sql/corebank--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.3'" to load this file. \quit

-- corebank 1.3: the verification-session service (docs/verification.md).
--
-- A session is one hosted verification flow: created by the caller's backend
-- (an API key of service 'verify'), completed by the user on the hosted page
-- (authorised by a short-lived client token whose SHA-256 is stored here),
-- decided from the checks a provider ran in the tier, announced by signed
-- webhooks delivered from a durable outbox.
--
-- The rules are C++ (extension/entry/verify_*.cpp, extension/pg/verify_*):
-- the status machine, the idempotency keys, consent before biometric
-- capture, the decision derived from the check results, and the outbox
-- enqueue on every terminal transition. Plain reads and the webhook outbox's
-- claim/done bookkeeping are PL/pgSQL.
--
-- Personal data at rest: the subject (name, ID number, ...) and every
-- captured image arrive AES-256-GCM sealed by the tier with its data key;
-- this database holds the sealed bytes, an HMAC lookup token of the ID number
-- and SHA-256 digests, never the plaintext. Captured images are dropped as
-- soon as the session reaches a terminal status. Webhook signing secrets are
-- sealed the same way.
--
-- This script depends on 1.0 only (corebank_internal.fail, the roles); the
-- API key check the tier performs first is corebank.core_api_key_authenticate.

-- tables

CREATE TABLE corebank.verify_sessions (
    id                      uuid PRIMARY KEY,          -- chosen by the tier (random, version 4)
    api_key_id              uuid NOT NULL,             -- the creating key; no foreign key on purpose
    status                  text NOT NULL DEFAULT 'pending',
    flow                    text NOT NULL,             -- canonical: liveness, facematch, document joined by '+'
    reference               text,
    redirect_url            text,
    metadata                jsonb NOT NULL DEFAULT '{}',
    subject_sealed          bytea,                     -- nonce || ciphertext || tag, sealed by the tier
    subject_lookup          bytea,                     -- HMAC-SHA256 of the normalised ID number
    client_token_hash       bytea NOT NULL,            -- SHA-256 of the client token
    client_token_expires_at timestamptz NOT NULL,
    consent_required        bool NOT NULL,
    decision                text,
    decision_reasons        text[] NOT NULL DEFAULT '{}',
    checks                  jsonb NOT NULL DEFAULT '[]',
    provider                text,
    cancelled_by            text,
    cancellation_reason     text,
    created_at              timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now(),
    expires_at              timestamptz NOT NULL,
    processing_started_at   timestamptz,
    completed_at            timestamptz,
    cancelled_at            timestamptz,
    expired_at              timestamptz,
    CONSTRAINT verify_sessions_status
        CHECK (status IN ('pending', 'processing', 'completed', 'cancelled', 'expired')),
    CONSTRAINT verify_sessions_flow
        CHECK (flow IN ('liveness', 'facematch', 'document', 'liveness+facematch', 'liveness+document',
                        'facematch+document', 'liveness+facematch+document')),
    CONSTRAINT verify_sessions_reference CHECK (length(reference) BETWEEN 1 AND 200),
    CONSTRAINT verify_sessions_redirect_url
        CHECK (redirect_url ~ '^https?://[^\s]+$' AND length(redirect_url) <= 2048),
    CONSTRAINT verify_sessions_metadata
        CHECK (jsonb_typeof(metadata) = 'object' AND length(metadata::text) <= 16384),
    -- Sealed means at least a 12-byte nonce and a 16-byte tag around the data.
    CONSTRAINT verify_sessions_subject_sealed CHECK (length(subject_sealed) BETWEEN 29 AND 4096),
    CONSTRAINT verify_sessions_subject_lookup
        CHECK (subject_lookup IS NULL OR (length(subject_lookup) = 32 AND subject_sealed IS NOT NULL)),
    CONSTRAINT verify_sessions_client_token_hash CHECK (length(client_token_hash) = 32),
    CONSTRAINT verify_sessions_client_token_expiry
        CHECK (client_token_expires_at > created_at AND client_token_expires_at <= expires_at),
    CONSTRAINT verify_sessions_lifetime CHECK (expires_at > created_at),
    CONSTRAINT verify_sessions_decision
        CHECK ((status = 'completed') = (decision IS NOT NULL)
               AND decision IN ('approved', 'declined', 'review')),
    CONSTRAINT verify_sessions_completed CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
    CONSTRAINT verify_sessions_processing CHECK ((status = 'processing') = (processing_started_at IS NOT NULL)),
    CONSTRAINT verify_sessions_cancelled
        CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL)
               AND (status = 'cancelled') = (cancelled_by IS NOT NULL)
               AND cancelled_by IN ('caller', 'user')
               AND length(cancellation_reason) BETWEEN 1 AND 500),
    CONSTRAINT verify_sessions_expired CHECK ((status = 'expired') = (expired_at IS NOT NULL)),
    CONSTRAINT verify_sessions_checks CHECK (jsonb_typeof(checks) = 'array' AND jsonb_array_length(checks) <= 3),
    CONSTRAINT verify_sessions_reasons
        CHECK (cardinality(decision_reasons) <= 32 AND array_position(decision_reasons, NULL) IS NULL),
    CONSTRAINT verify_sessions_provider CHECK (provider ~ '^[a-z0-9_.-]{1,40}$')
);
COMMENT ON TABLE corebank.verify_sessions IS 'Verification sessions; subject data sealed by the tier, never plaintext';
CREATE UNIQUE INDEX verify_sessions_client_token ON corebank.verify_sessions (client_token_hash);
-- The maintenance pass finds the sessions to expire by this index.
CREATE INDEX verify_sessions_open_by_expiry ON corebank.verify_sessions (expires_at)
    WHERE status IN ('pending', 'processing');
CREATE INDEX verify_sessions_by_lookup ON corebank.verify_sessions (subject_lookup, created_at)
    WHERE subject_lookup IS NOT NULL;
CREATE INDEX verify_sessions_by_reference ON corebank.verify_sessions (reference, created_at)
    WHERE reference IS NOT NULL;
CREATE INDEX verify_sessions_by_created ON corebank.verify_sessions (created_at);

-- The user's consent to the processing of their biometric data: one record
-- per session, before any capture of a flow that compares or checks faces.
CREATE TABLE corebank.verify_consents (
    session_id  uuid PRIMARY KEY REFERENCES corebank.verify_sessions (id),
    granted     bool NOT NULL,
    channel     text NOT NULL,
    version     text NOT NULL,
    text_sha256 bytea,
    ip          text,
    user_agent  text,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT verify_consents_channel CHECK (channel IN ('hosted_page', 'api')),
    CONSTRAINT verify_consents_version CHECK (version ~ '^[A-Za-z0-9._:-]{1,50}$'),
    CONSTRAINT verify_consents_text_sha256 CHECK (length(text_sha256) = 32),
    CONSTRAINT verify_consents_texts CHECK (length(ip) <= 64 AND length(user_agent) <= 512)
);
COMMENT ON TABLE corebank.verify_consents IS 'Consent records of verification sessions (granted or declined)';

-- The latest image of each kind; sealed by the tier, dropped (purged_at) once
-- the session is terminal. The digest and dimensions stay for the report.
CREATE TABLE corebank.verify_captures (
    session_id   uuid NOT NULL REFERENCES corebank.verify_sessions (id),
    kind         text NOT NULL,
    image_sealed bytea,
    format       text NOT NULL,
    width        int NOT NULL,
    height       int NOT NULL,
    byte_count   int NOT NULL,
    image_sha256 bytea NOT NULL,
    attempts     int NOT NULL DEFAULT 1,
    received_at  timestamptz NOT NULL DEFAULT now(),
    purged_at    timestamptz,
    PRIMARY KEY (session_id, kind),
    CONSTRAINT verify_captures_kind CHECK (kind IN ('selfie', 'document')),
    CONSTRAINT verify_captures_format CHECK (format IN ('png', 'jpeg')),
    CONSTRAINT verify_captures_dimensions CHECK (width BETWEEN 1 AND 65535 AND height BETWEEN 1 AND 65535),
    CONSTRAINT verify_captures_bytes CHECK (byte_count BETWEEN 1 AND 16777216),
    CONSTRAINT verify_captures_sealed CHECK (length(image_sealed) BETWEEN 29 AND 16777216 + 28),
    CONSTRAINT verify_captures_sha256 CHECK (length(image_sha256) = 32),
    CONSTRAINT verify_captures_attempts CHECK (attempts BETWEEN 1 AND 10),
    CONSTRAINT verify_captures_purged CHECK ((image_sealed IS NULL) = (purged_at IS NOT NULL))
);
COMMENT ON TABLE corebank.verify_captures IS 'Captured images (sealed), dropped when the session ends';
-- Images are large and already random: no compression attempt.
ALTER TABLE corebank.verify_captures ALTER COLUMN image_sealed SET STORAGE EXTERNAL;

-- What happened to a session, in order: the audit timeline of the report.
CREATE TABLE corebank.verify_session_events (
    id         bigserial PRIMARY KEY,
    session_id uuid NOT NULL REFERENCES corebank.verify_sessions (id),
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    event      text NOT NULL,
    detail     jsonb,
    CONSTRAINT verify_session_events_event
        CHECK (event IN ('created', 'consent_granted', 'consent_declined', 'capture_received', 'submitted',
                         'checks_failed', 'processing_reverted', 'completed', 'cancelled', 'expired')),
    CONSTRAINT verify_session_events_detail CHECK (length(detail::text) <= 4096)
);
COMMENT ON TABLE corebank.verify_session_events IS 'Verification session timeline; append-only (trigger)';
CREATE INDEX verify_session_events_by_session ON corebank.verify_session_events (session_id, id);

-- Idempotency keys of every write. The scope is the API key for the API's
-- writes and the session for the hosted page's; a key is remembered for 24
-- hours with the request's HMAC and, once the operation finished, its
-- response. response IS NULL means the operation is still running.
CREATE TABLE corebank.verify_idempotency_keys (
    scope           uuid NOT NULL,
    idem_key        text NOT NULL,
    operation       text NOT NULL,
    session_id      uuid,
    request_hash    bytea NOT NULL,
    response_status int,
    response        jsonb,
    response_sealed bytea,   -- the create response's client token, sealed by the tier
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, idem_key),
    CONSTRAINT verify_idempotency_keys_key CHECK (idem_key ~ '^[!-~]{1,255}$'),
    CONSTRAINT verify_idempotency_keys_operation
        CHECK (operation IN ('session.create', 'session.cancel', 'session.consent', 'hosted.consent',
                             'hosted.capture', 'hosted.submit')),
    CONSTRAINT verify_idempotency_keys_hash CHECK (length(request_hash) = 32),
    CONSTRAINT verify_idempotency_keys_response
        CHECK ((response IS NULL) = (response_status IS NULL) AND response_status BETWEEN 200 AND 299),
    CONSTRAINT verify_idempotency_keys_sealed CHECK (length(response_sealed) BETWEEN 29 AND 1024)
);
COMMENT ON TABLE corebank.verify_idempotency_keys IS 'Idempotency keys of verification writes (24 hours)';
CREATE INDEX verify_idempotency_keys_by_age ON corebank.verify_idempotency_keys (created_at);

CREATE TABLE corebank.verify_webhook_endpoints (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    url           text NOT NULL,
    secret_sealed bytea NOT NULL,   -- the signing secret, sealed by the tier
    status        text NOT NULL DEFAULT 'active',
    created_at    timestamptz NOT NULL DEFAULT now(),
    disabled_at   timestamptz,
    CONSTRAINT verify_webhook_endpoints_url CHECK (url ~ '^https?://[^\s]+$' AND length(url) <= 2048),
    CONSTRAINT verify_webhook_endpoints_secret CHECK (length(secret_sealed) BETWEEN 29 AND 1024),
    CONSTRAINT verify_webhook_endpoints_status CHECK (status IN ('active', 'disabled')),
    CONSTRAINT verify_webhook_endpoints_disabled CHECK ((status = 'disabled') = (disabled_at IS NOT NULL))
);
COMMENT ON TABLE corebank.verify_webhook_endpoints IS 'Webhook endpoints of the verification service';

-- One event per terminal transition of a session; id is the webhook's
-- stable `id`, body the exact bytes every delivery attempt sends.
CREATE TABLE corebank.verify_webhook_events (
    id         uuid PRIMARY KEY,
    type       text NOT NULL,
    session_id uuid NOT NULL REFERENCES corebank.verify_sessions (id),
    created_at timestamptz NOT NULL,
    body       text NOT NULL,
    UNIQUE (session_id, type),
    CONSTRAINT verify_webhook_events_type
        CHECK (type IN ('session.completed', 'session.cancelled', 'session.expired')),
    CONSTRAINT verify_webhook_events_body CHECK (length(body) <= 1024)
);
COMMENT ON TABLE corebank.verify_webhook_events IS 'Webhook events (thin payloads), one per terminal transition';

-- The outbox: one row per event and endpoint, claimed with FOR UPDATE SKIP
-- LOCKED by the tier's sender; a claim pushes next_attempt_at by a lease, so
-- a row claimed by a process that died is claimed again.
CREATE TABLE corebank.verify_webhook_deliveries (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    event_id         uuid NOT NULL REFERENCES corebank.verify_webhook_events (id),
    endpoint_id      uuid NOT NULL REFERENCES corebank.verify_webhook_endpoints (id),
    status           text NOT NULL DEFAULT 'pending',
    attempts         int NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    last_attempt_at  timestamptz,
    last_http_status int,
    last_error       text,
    delivered_at     timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, endpoint_id),
    CONSTRAINT verify_webhook_deliveries_status
        CHECK (status IN ('pending', 'delivered', 'failed', 'abandoned')),
    CONSTRAINT verify_webhook_deliveries_attempts CHECK (attempts >= 0),
    CONSTRAINT verify_webhook_deliveries_delivered CHECK ((status = 'delivered') = (delivered_at IS NOT NULL)),
    CONSTRAINT verify_webhook_deliveries_http_status CHECK (last_http_status BETWEEN 100 AND 599),
    CONSTRAINT verify_webhook_deliveries_error CHECK (length(last_error) <= 1000)
);
COMMENT ON TABLE corebank.verify_webhook_deliveries IS 'Webhook outbox: one delivery per event and endpoint';
CREATE INDEX verify_webhook_deliveries_due ON corebank.verify_webhook_deliveries (next_attempt_at)
    WHERE status = 'pending';
CREATE INDEX verify_webhook_deliveries_by_event ON corebank.verify_webhook_deliveries (event_id);

-- triggers

CREATE FUNCTION corebank_internal.verify_refuse_event_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RAISE EXCEPTION 'corebank.verify_session_events is append-only'
        USING ERRCODE = 'insufficient_privilege', DETAIL = format('%s refused', TG_OP);
END
$fn$;

CREATE TRIGGER verify_session_events_append_only
    BEFORE UPDATE OR DELETE ON corebank.verify_session_events
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.verify_refuse_event_change();
CREATE TRIGGER verify_session_events_no_truncate
    BEFORE TRUNCATE ON corebank.verify_session_events
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.verify_refuse_event_change();

-- private functions (JSON shapes shared by the C++ and PL/pgSQL functions)

-- ISO 8601 UTC with milliseconds and a trailing Z, as every response uses.
CREATE FUNCTION corebank_internal.verify_iso_utc(at timestamptz) RETURNS text
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$fn$;

-- The status a caller sees: a pending or processing session whose expiry
-- has passed is expired, even before the maintenance pass stores it.
CREATE FUNCTION corebank_internal.verify_effective_status(status text, expires_at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT CASE WHEN status IN ('pending', 'processing') AND expires_at <= now() THEN 'expired' ELSE status END
$fn$;

-- The per-check summary of the session object: type, status, score or
-- similarity, provider (the report has the full detail).
CREATE FUNCTION corebank_internal.verify_checks_summary(checks jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
               'type', c.value -> 'type', 'status', c.value -> 'status', 'score', c.value -> 'score',
               'similarity', c.value -> 'similarity', 'provider', c.value -> 'provider'))
             ORDER BY c.ordinality), '[]'::jsonb)
    FROM jsonb_array_elements(checks) WITH ORDINALITY AS c(value, ordinality)
$fn$;

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

-- What the hosted page needs to draw itself: the steps still to do and,
-- once completed, the outcome. No subject data, no metadata.
CREATE FUNCTION corebank_internal.verify_hosted_json(session_id uuid) RETURNS jsonb
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
        WHERE s.id = verify_hosted_json.session_id);
END
$fn$;

-- The audit report: everything but the sealed data itself. subjectSealed
-- (hex) is for the tier, which replaces it with a masked subject.
CREATE FUNCTION corebank_internal.verify_report_json(session_id uuid) RETURNS jsonb
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
        WHERE s.id = verify_report_json.session_id);
END
$fn$;

-- Delay before delivery attempt n+1 after n failures: base * 2^(n-1), at most
-- max. No jitter: the retry schedule is documented and tested exactly.
CREATE FUNCTION corebank_internal.verify_webhook_backoff(attempts int, base_s int, max_s int) RETURNS interval
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT make_interval(secs => least(max_s::float8,
                                       base_s * power(2::float8, least(greatest(attempts - 1, 0), 30))))
$fn$;

-- API functions: C++ (the rules)

CREATE FUNCTION corebank.verify_session_create(api_key_id uuid, idempotency_key text, request_hash bytea,
                                               session_id uuid, flow text, reference text, subject_sealed bytea,
                                               subject_lookup bytea, redirect_url text, metadata jsonb,
                                               client_token_hash bytea, client_token_sealed bytea,
                                               lifetime_s int, client_token_ttl_s int) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_session_create'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_session_cancel(api_key_id uuid, idempotency_key text, request_hash bytea,
                                               session_id uuid, reason text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_session_cancel'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_session_consent(api_key_id uuid, idempotency_key text, request_hash bytea,
                                                session_id uuid, granted bool, version text, text_sha256 bytea,
                                                ip text, user_agent text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_session_consent'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_hosted_state(session_id uuid, client_token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_state'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_hosted_consent(session_id uuid, client_token_hash bytea, idempotency_key text,
                                               request_hash bytea, granted bool, version text, text_sha256 bytea,
                                               ip text, user_agent text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_consent'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_hosted_capture(session_id uuid, client_token_hash bytea, idempotency_key text,
                                               request_hash bytea, kind text, image_sealed bytea, format text,
                                               width int, height int, byte_count int, image_sha256 bytea)
    RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_capture'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_hosted_submit_begin(session_id uuid, client_token_hash bytea, idempotency_key text,
                                                    request_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_submit_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_hosted_submit_finish(session_id uuid, client_token_hash bytea, idempotency_key text,
                                                     provider text, checks jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_submit_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_hosted_submit_abort(session_id uuid, client_token_hash bytea, idempotency_key text,
                                                    error text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_hosted_submit_abort'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.verify_maintenance(stale_processing_s int) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'verify_maintenance'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

-- API functions: PL/pgSQL (reads and the webhook outbox)

-- The sealed images of a session being processed, for the tier's checks;
-- nothing is returned unless the session is processing and the token matches.
CREATE FUNCTION corebank.verify_hosted_images(session_id uuid, client_token_hash bytea)
    RETURNS TABLE (kind text, format text, image_sealed bytea)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_column
BEGIN
    IF verify_hosted_images.session_id IS NULL OR verify_hosted_images.client_token_hash IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'session_id, client_token_hash: are required');
    END IF;
    RETURN QUERY
    SELECT x.kind, x.format, x.image_sealed
    FROM corebank.verify_sessions s
    JOIN corebank.verify_captures x ON x.session_id = s.id
    WHERE s.id = verify_hosted_images.session_id
      AND s.client_token_hash = verify_hosted_images.client_token_hash
      AND s.status = 'processing' AND x.image_sealed IS NOT NULL
    ORDER BY x.kind DESC;
END
$fn$;

CREATE FUNCTION corebank.verify_session_get(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF session_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'session_id: is required');
    END IF;
    RETURN corebank_internal.verify_session_json(verify_session_get.session_id);
END
$fn$;

CREATE FUNCTION corebank.verify_session_report(session_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF session_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'session_id: is required');
    END IF;
    RETURN corebank_internal.verify_report_json(verify_session_report.session_id);
END
$fn$;

-- Newest first; every filter optional; at most 100 rows. created_before is the
-- createdAt of the last row of the previous page (keyset paging).
CREATE FUNCTION corebank.verify_sessions_find(reference text, subject_lookup bytea, status text,
                                              created_before timestamptz, max_rows int) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rows_max CONSTANT int := 100;
    batch int := coalesce(max_rows, 20);
    found jsonb;
BEGIN
    IF batch < 1 OR batch > rows_max THEN
        PERFORM corebank_internal.fail('CBV00', format('limit: must be between 1 and %s', rows_max));
    END IF;
    IF status IS NOT NULL AND status NOT IN ('pending', 'processing', 'completed', 'cancelled', 'expired') THEN
        PERFORM corebank_internal.fail('CBV00', 'status: must be one of pending, processing, completed, cancelled, expired');
    END IF;
    IF subject_lookup IS NOT NULL AND length(subject_lookup) <> 32 THEN
        PERFORM corebank_internal.fail('CBV00', 'subject_lookup: must be 32 bytes');
    END IF;
    SELECT coalesce(jsonb_agg(corebank_internal.verify_session_json(x.id) ORDER BY x.created_at DESC, x.id DESC), '[]'::jsonb)
    INTO found
    FROM (SELECT s.id, s.created_at
          FROM corebank.verify_sessions s
          WHERE (reference IS NULL OR s.reference = reference)
            AND (subject_lookup IS NULL OR s.subject_lookup = subject_lookup)
            AND (status IS NULL OR corebank_internal.verify_effective_status(s.status, s.expires_at) = status)
            AND (created_before IS NULL OR s.created_at < created_before)
          ORDER BY s.created_at DESC, s.id DESC
          LIMIT batch) x;
    RETURN jsonb_build_object('data', found, 'limit', batch);
END
$fn$;

CREATE FUNCTION corebank.verify_webhook_endpoint_add(url text, secret_sealed bytea) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    created jsonb;
BEGIN
    IF url IS NULL OR url !~ '^https?://[^\s/]+[^\s]*$' OR length(url) > 2048 THEN
        PERFORM corebank_internal.fail('CBV00', 'url: must be an absolute http(s) URL of at most 2048 characters');
    END IF;
    IF secret_sealed IS NULL OR length(secret_sealed) NOT BETWEEN 29 AND 1024 THEN
        PERFORM corebank_internal.fail('CBV00', 'secret_sealed: must be a sealed secret (29 to 1024 bytes)');
    END IF;
    INSERT INTO corebank.verify_webhook_endpoints AS e (url, secret_sealed)
    VALUES (url, secret_sealed)
    RETURNING jsonb_build_object('id', e.id, 'url', e.url, 'status', e.status,
                                 'createdAt', corebank_internal.verify_iso_utc(e.created_at))
    INTO created;
    RETURN created;
END
$fn$;

CREATE FUNCTION corebank.verify_webhook_endpoints_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'id', e.id, 'url', e.url, 'status', e.status,
                       'createdAt', corebank_internal.verify_iso_utc(e.created_at),
                       'disabledAt', corebank_internal.verify_iso_utc(e.disabled_at))
                   ORDER BY e.created_at, e.id), '[]'::jsonb)
            FROM corebank.verify_webhook_endpoints e);
END
$fn$;

-- Disabling an endpoint abandons its pending deliveries: nobody will take them.
CREATE FUNCTION corebank.verify_webhook_endpoint_disable(id uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_status text;
BEGIN
    IF id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id: is required');
    END IF;
    SELECT e.status INTO current_status FROM corebank.verify_webhook_endpoints e WHERE e.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Webhook endpoint not found');
    END IF;
    IF current_status = 'active' THEN
        UPDATE corebank.verify_webhook_endpoints e SET status = 'disabled', disabled_at = now() WHERE e.id = id;
        UPDATE corebank.verify_webhook_deliveries d SET status = 'abandoned', last_error = 'endpoint disabled'
        WHERE d.endpoint_id = id AND d.status = 'pending';
    END IF;
    RETURN (SELECT jsonb_build_object('id', e.id, 'url', e.url, 'status', e.status,
                                      'createdAt', corebank_internal.verify_iso_utc(e.created_at),
                                      'disabledAt', corebank_internal.verify_iso_utc(e.disabled_at))
            FROM corebank.verify_webhook_endpoints e WHERE e.id = id);
END
$fn$;

-- Claims due deliveries for one sender. SKIP LOCKED lets several tier
-- processes share the outbox; the claim counts the attempt and leases the
-- row for lease_s seconds, so a row whose sender died is due again after it.
CREATE FUNCTION corebank.verify_webhook_claim(max_rows int, lease_s int)
    RETURNS TABLE (delivery_id uuid, event_id uuid, endpoint_id uuid, url text, secret_sealed bytea, body text,
                   attempts int)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_column
DECLARE
    batch_rows int := least(verify_webhook_claim.max_rows, 100);
BEGIN
    IF batch_rows IS NULL OR batch_rows < 1 THEN
        PERFORM corebank_internal.fail('CBV00', 'max_rows: must be at least 1');
    END IF;
    IF verify_webhook_claim.lease_s IS NULL OR verify_webhook_claim.lease_s NOT BETWEEN 1 AND 3600 THEN
        PERFORM corebank_internal.fail('CBV00', 'lease_s: must be between 1 and 3600');
    END IF;
    RETURN QUERY
    WITH due AS (
        SELECT d.id
        FROM corebank.verify_webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at
        LIMIT batch_rows
        FOR UPDATE SKIP LOCKED
    )
    UPDATE corebank.verify_webhook_deliveries d
    SET attempts = d.attempts + 1,
        last_attempt_at = now(),
        next_attempt_at = now() + make_interval(secs => verify_webhook_claim.lease_s)
    FROM due, corebank.verify_webhook_events e, corebank.verify_webhook_endpoints p
    WHERE d.id = due.id AND e.id = d.event_id AND p.id = d.endpoint_id
    RETURNING d.id, d.event_id, d.endpoint_id, p.url, p.secret_sealed, e.body, d.attempts;
END
$fn$;

-- Records one attempt: delivered, or back to pending after the backoff, or
-- failed once attempts_max attempts are spent. A report on a delivery that
-- is no longer pending (a late duplicate) changes nothing. Returns the status.
CREATE FUNCTION corebank.verify_webhook_done(delivery_id uuid, ok bool, http_status int, error text,
                                             backoff_base_s int, backoff_max_s int, attempts_max int) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_status text;
BEGIN
    IF delivery_id IS NULL OR ok IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'delivery_id, ok: are required');
    END IF;
    IF http_status IS NOT NULL AND http_status NOT BETWEEN 100 AND 599 THEN
        PERFORM corebank_internal.fail('CBV00', 'http_status: must be between 100 and 599');
    END IF;
    IF backoff_base_s IS NULL OR backoff_base_s NOT BETWEEN 1 AND 86400
       OR backoff_max_s IS NULL OR backoff_max_s NOT BETWEEN backoff_base_s AND 604800
       OR attempts_max IS NULL OR attempts_max NOT BETWEEN 1 AND 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'backoff_base_s, backoff_max_s, attempts_max: out of range');
    END IF;
    IF ok THEN
        UPDATE corebank.verify_webhook_deliveries d
        SET status = 'delivered', delivered_at = now(), last_http_status = http_status, last_error = NULL
        WHERE d.id = delivery_id AND d.status = 'pending'
        RETURNING d.status INTO new_status;
    ELSE
        UPDATE corebank.verify_webhook_deliveries d
        SET status = CASE WHEN d.attempts >= attempts_max THEN 'failed' ELSE 'pending' END,
            next_attempt_at = now() + corebank_internal.verify_webhook_backoff(d.attempts, backoff_base_s, backoff_max_s),
            last_http_status = http_status,
            last_error = left(coalesce(error, 'unknown error'), 1000)
        WHERE d.id = delivery_id AND d.status = 'pending'
        RETURNING d.status INTO new_status;
    END IF;
    IF new_status IS NULL THEN
        SELECT d.status INTO new_status FROM corebank.verify_webhook_deliveries d WHERE d.id = delivery_id;
        IF NOT FOUND THEN
            PERFORM corebank_internal.fail('CB404', 'Webhook delivery not found');
        END IF;
    END IF;
    RETURN new_status;
END
$fn$;

-- privileges
--
-- As in 1.0: no table privilege for anyone; corebank_app executes exactly the
-- API functions; the helpers in corebank_internal have no grant.

REVOKE ALL ON ALL TABLES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank_internal FROM PUBLIC;

GRANT EXECUTE ON FUNCTION
    corebank.verify_session_create(uuid, text, bytea, uuid, text, text, bytea, bytea, text, jsonb, bytea, bytea, int, int),
    corebank.verify_session_cancel(uuid, text, bytea, uuid, text),
    corebank.verify_session_consent(uuid, text, bytea, uuid, bool, text, bytea, text, text),
    corebank.verify_session_get(uuid),
    corebank.verify_session_report(uuid),
    corebank.verify_sessions_find(text, bytea, text, timestamptz, int),
    corebank.verify_hosted_state(uuid, bytea),
    corebank.verify_hosted_consent(uuid, bytea, text, bytea, bool, text, bytea, text, text),
    corebank.verify_hosted_capture(uuid, bytea, text, bytea, text, bytea, text, int, int, int, bytea),
    corebank.verify_hosted_submit_begin(uuid, bytea, text, bytea),
    corebank.verify_hosted_images(uuid, bytea),
    corebank.verify_hosted_submit_finish(uuid, bytea, text, text, jsonb),
    corebank.verify_hosted_submit_abort(uuid, bytea, text, text),
    corebank.verify_maintenance(int),
    corebank.verify_webhook_endpoint_add(text, bytea),
    corebank.verify_webhook_endpoints_list(),
    corebank.verify_webhook_endpoint_disable(uuid),
    corebank.verify_webhook_claim(int, int),
    corebank.verify_webhook_done(uuid, bool, int, text, int, int, int)
TO corebank_app;
