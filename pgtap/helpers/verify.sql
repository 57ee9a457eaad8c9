-- helpers/verify.sql: pg_temp helpers shared by the verification tests
-- (included with \ir inside each test's transaction; gone at ROLLBACK).
--
-- The database never sees a plaintext subject, image or client token: the
-- tier seals them with AES-256-GCM and hashes tokens with SHA-256. These
-- helpers stand in for the tier with fixed "sealed" bytes (33 bytes that are
-- not JSON) and SHA-256 of plaintext token strings.

-- The API key every helper acts as (no api_keys row needed: the functions
-- take the id the tier authenticated).
CREATE FUNCTION pg_temp.vkey() RETURNS uuid
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT '0b0b0b0b-0000-4000-8000-000000000001'::uuid $f$;

-- SHA-256 of a plaintext string (a client token, a request).
CREATE FUNCTION pg_temp.h(plaintext text) RETURNS bytea
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to(plaintext, 'UTF8')) $f$;

-- Stand-in for tier-sealed bytes: 0x01 and a SHA-256, never plaintext.
CREATE FUNCTION pg_temp.sealed(label text) RETURNS bytea
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT '\x01'::bytea || sha256(convert_to(label, 'UTF8')) $f$;

-- Creates a session whose client token is the plaintext `token`; returns the whole result.
CREATE FUNCTION pg_temp.vcreate(flow text, token text, idem text DEFAULT NULL, request text DEFAULT NULL)
    RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.verify_session_create(pg_temp.vkey(), coalesce(idem, 'create-' || token),
                                          pg_temp.h(coalesce(request, flow)), gen_random_uuid(), flow, NULL,
                                          NULL, NULL, NULL, NULL, pg_temp.h(token), pg_temp.sealed(token), 3600, 900)
$f$;

-- Creates a session and returns its id.
CREATE FUNCTION pg_temp.vsession(flow text, token text) RETURNS uuid
    LANGUAGE sql
    AS $f$ SELECT (pg_temp.vcreate(flow, token) -> 'body' ->> 'sessionId')::uuid $f$;

CREATE FUNCTION pg_temp.vconsent(session_id uuid, token text, granted bool DEFAULT true, idem text DEFAULT NULL)
    RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.verify_hosted_consent(session_id, pg_temp.h(token), coalesce(idem, 'consent-' || token),
                                          pg_temp.h('consent' || granted::text), granted, 'v1',
                                          pg_temp.h('the consent text'), '203.0.113.9', 'pgtap')
$f$;

CREATE FUNCTION pg_temp.vcapture(session_id uuid, token text, kind text, idem text DEFAULT NULL,
                                 image text DEFAULT 'image') RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.verify_hosted_capture(session_id, pg_temp.h(token), coalesce(idem, kind || '-' || image || '-' || token),
                                          pg_temp.h(kind || image), kind, pg_temp.sealed(kind || image), 'png',
                                          640, 480, 12345, pg_temp.h(image))
$f$;

CREATE FUNCTION pg_temp.vbegin(session_id uuid, token text, idem text DEFAULT NULL) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.verify_hosted_submit_begin(session_id, pg_temp.h(token), coalesce(idem, 'submit-' || token),
                                               pg_temp.h('submit'))
$f$;

-- Check results for a flow: statuses in canonical order (liveness, facematch, document).
CREATE FUNCTION pg_temp.vchecks(flow text, statuses text[]) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT jsonb_agg(CASE WHEN t.type = 'facematch'
                          THEN jsonb_build_object('type', t.type, 'status', statuses[t.n], 'similarity', 0.9)
                          ELSE jsonb_build_object('type', t.type, 'status', statuses[t.n], 'score', 0.9) END
                     ORDER BY t.n)
    FROM (SELECT x.type, row_number() OVER (ORDER BY x.rank) AS n
          FROM (VALUES ('liveness', 1), ('facematch', 2), ('document', 3)) AS x(type, rank)
          WHERE flow ~ x.type) t
$f$;

CREATE FUNCTION pg_temp.vfinish(session_id uuid, token text, statuses text[], idem text DEFAULT NULL) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.verify_hosted_submit_finish(
        session_id, pg_temp.h(token), coalesce(idem, 'submit-' || token), 'offline',
        pg_temp.vchecks((SELECT s.flow FROM corebank.verify_sessions s WHERE s.id = session_id), statuses))
$f$;

-- The whole hosted flow: consent (when needed), the captures the flow needs,
-- begin, finish with `statuses`. Returns the finish result.
CREATE FUNCTION pg_temp.vcomplete(session_id uuid, token text, statuses text[]) RETURNS jsonb
    LANGUAGE plpgsql
    AS $f$
DECLARE
    flow text := (SELECT s.flow FROM corebank.verify_sessions s WHERE s.id = session_id);
BEGIN
    IF flow ~ '(liveness|facematch)' THEN
        PERFORM pg_temp.vconsent(session_id, token);
        PERFORM pg_temp.vcapture(session_id, token, 'selfie');
    END IF;
    IF flow ~ '(document|facematch)' THEN
        PERFORM pg_temp.vcapture(session_id, token, 'document');
    END IF;
    PERFORM pg_temp.vbegin(session_id, token);
    RETURN pg_temp.vfinish(session_id, token, statuses);
END
$f$;

-- Moves a session's clock back by `age` (creation, token, expiry together).
CREATE FUNCTION pg_temp.vage(session_id uuid, age interval) RETURNS void
    LANGUAGE sql
    AS $f$
    UPDATE corebank.verify_sessions s
    SET created_at = s.created_at - age, updated_at = s.updated_at - age,
        client_token_expires_at = s.client_token_expires_at - age, expires_at = s.expires_at - age
    WHERE s.id = session_id
$f$;

CREATE FUNCTION pg_temp.vstatus(session_id uuid) RETURNS text
    LANGUAGE sql
    AS $f$ SELECT s.status FROM corebank.verify_sessions s WHERE s.id = session_id $f$;
