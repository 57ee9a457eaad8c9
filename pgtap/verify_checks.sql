-- verify_checks.sql: single checks (issue 14, part 7).
--
-- Goal: a check is stored with the provider's result, validated exactly as a
-- session's (type, status, score or similarity, order), with the images'
-- description and no image; a biometric check needs granted consent (422
-- otherwise), a document check none; the Idempotency-Key rules of the session
-- writes hold: the same key and request replay the first answer, another
-- request or another check type under the key is 409, a refused request
-- stores nothing, keys are per API key; the stored check reads back and
-- cannot be changed (append-only).
-- Method: the functions as the tier calls them, with the helpers' stand-ins
-- for hashes.
BEGIN;
SELECT plan(21);
\ir helpers/verify.sql

CREATE FUNCTION pg_temp.images(kinds text[]) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $f$
    SELECT jsonb_agg(jsonb_build_object('kind', k, 'format', 'png', 'width', 320, 'height', 320, 'bytes', 1000,
                                        'sha256', repeat('ab', 32)) ORDER BY n)
    FROM unnest(kinds) WITH ORDINALITY AS u(k, n)
$f$;
-- A check as the tier stores it: results for `type` with `status`, consent granted unless told.
CREATE FUNCTION pg_temp.vcheck(type text, idem text, request text, status text DEFAULT 'pass',
                               granted bool DEFAULT true, key uuid DEFAULT NULL) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.verify_check_create(coalesce(key, pg_temp.vkey()), idem, pg_temp.h(request), gen_random_uuid(), type,
                                        'ref-' || idem,
                                        pg_temp.images(CASE type WHEN 'liveness' THEN ARRAY['selfie']
                                                                 WHEN 'document' THEN ARRAY['document']
                                                                 ELSE ARRAY['selfie', 'document'] END),
                                        'offline', pg_temp.vchecks(type, ARRAY[status]),
                                        granted, CASE WHEN granted IS NULL THEN NULL ELSE 'v1' END, pg_temp.h('text'),
                                        '203.0.113.5', 'agent')
$f$;
CREATE FUNCTION pg_temp.counts() RETURNS text
    LANGUAGE sql
    AS $f$ SELECT (SELECT count(*) FROM corebank.verify_checks) || '/' || (SELECT count(*) FROM corebank.verify_idempotency_keys) $f$;

CREATE TEMP TABLE first AS SELECT pg_temp.vcheck('liveness', 'chk-1', 'request-1', 'review') AS r;
SELECT is((SELECT (r ->> 'status')::int || ' ' || (r ->> 'replayed') FROM first), '201 false', 'a check is created: 201');
SELECT is((SELECT r -> 'body' ->> 'status' FROM first), 'review', 'its status is the provider''s');
SELECT is((SELECT r -> 'body' -> 'result' FROM first),
          jsonb_build_object('type', 'liveness', 'status', 'review', 'score', 0.9, 'reasons', '[]'::jsonb,
                             'measurements', '{}'::jsonb, 'provider', 'offline'),
          'the result is stored as a session''s checks are');
SELECT is((SELECT r -> 'body' -> 'consent' FROM first),
          jsonb_build_object('granted', true, 'version', 'v1', 'channel', 'api', 'textSha256', encode(pg_temp.h('text'), 'hex'),
                             'ip', '203.0.113.5', 'userAgent', 'agent'),
          'the consent is recorded with the check');
SELECT is((SELECT r -> 'body' -> 'images' -> 0 ->> 'kind' FROM first), 'selfie', 'the images are described, not kept');
SELECT is(corebank.verify_check_get((SELECT (r -> 'body' ->> 'checkId')::uuid FROM first)), (SELECT r -> 'body' FROM first),
          'the check reads back as created');
SELECT is(corebank.verify_check_get(gen_random_uuid()), NULL, 'an unknown check reads as NULL');

-- Idempotency.
SELECT is(pg_temp.vcheck('liveness', 'chk-1', 'request-1', 'review') - 'replayed',
          (SELECT r - 'replayed' FROM first), 'the same key and request replay the first answer');
SELECT is(pg_temp.vcheck('liveness', 'chk-1', 'request-1', 'pass') ->> 'replayed', 'true',
          'a replay does not store a second result (even if the provider now answers otherwise)');
SELECT throws_ok($$SELECT pg_temp.vcheck('liveness', 'chk-1', 'request-2')$$, 'CB409',
                 'Idempotency-Key was already used with a different request; use a new key for a new request',
                 'another request under the key is 409');
SELECT throws_ok($$SELECT pg_temp.vcheck('document', 'chk-1', 'request-1')$$, 'CB409', NULL,
                 'another check type under the key is 409');
SELECT is(pg_temp.vcheck('liveness', 'chk-1', 'request-2', 'pass', true, '0b0b0b0b-0000-4000-8000-000000000002') ->> 'replayed',
          'false', 'keys are per API key');
SELECT is((SELECT count(*) FROM corebank.verify_checks WHERE reference = 'ref-chk-1'), 2::bigint,
          'one check per API key and request, whatever the retries');

-- Refusals store nothing.
CREATE TEMP TABLE before AS SELECT pg_temp.counts() AS c;
SELECT throws_ok($$SELECT pg_temp.vcheck('facematch', 'chk-2', 'r', 'pass', false)$$, 'CB422',
                 'consent: the user''s consent must be granted before a biometric check', 'declined consent is 422');
SELECT throws_ok($$SELECT pg_temp.vcheck('liveness', 'chk-3', 'r', 'pass', NULL)$$, 'CB422',
                 'consent: the user''s consent must be granted before a biometric check', 'no consent is 422');
SELECT throws_ok($$SELECT corebank.verify_check_create(pg_temp.vkey(), 'chk-4', pg_temp.h('r'), gen_random_uuid(), 'liveness',
                   NULL, pg_temp.images(ARRAY['selfie']), 'offline', pg_temp.vchecks('document', ARRAY['pass']),
                   true, 'v1', NULL, NULL, NULL)$$, 'CBV00', NULL, 'a result for another check type is refused');
SELECT throws_ok($$SELECT corebank.verify_check_create(pg_temp.vkey(), 'chk-5', pg_temp.h('r'), gen_random_uuid(), 'facematch',
                   NULL, pg_temp.images(ARRAY['selfie']), 'offline', pg_temp.vchecks('facematch', ARRAY['pass']),
                   true, 'v1', NULL, NULL, NULL)$$, 'CBV00',
                 'images: must describe the images the check reads, selfie before document', 'a face match reads two images');
SELECT throws_ok($$SELECT pg_temp.vcheck('liveness+document', 'chk-6', 'r')$$, 'CBV00',
                 'type: must be liveness, document or facematch', 'one check at a time');
SELECT is(pg_temp.counts(), (SELECT c FROM before), 'refused requests store nothing');

-- A document check needs no consent; a stored check cannot be changed.
SELECT is(pg_temp.vcheck('document', 'chk-7', 'r', 'pass', NULL) -> 'body' -> 'consent', 'null'::jsonb,
          'a document check needs no consent');
SELECT throws_ok($$UPDATE corebank.verify_checks SET status = 'pass' WHERE reference = 'ref-chk-1'$$, '42501', NULL,
                 'a stored check cannot be changed (append-only)');

SELECT * FROM finish();
ROLLBACK;
