-- verify_consent.sql: consent before biometrics.
--
-- Goal: in a flow that processes a face (liveness, facematch) no image is
-- accepted and no check runs before the user's consent is recorded; a flow
-- with only a document needs none; consent is recorded once, with its
-- channel, text version and text digest; declining cancels the session
-- (cancelled by the user) and queues session.cancelled; the caller's backend
-- may record consent it collected itself (channel api).
-- Method: the C++ functions as the tier calls them.
BEGIN;
SELECT plan(17);
\ir helpers/verify.sql

CREATE TEMP TABLE a AS SELECT pg_temp.vsession('liveness+facematch', 'tok-ca') AS id;
SELECT is((SELECT consent_required FROM corebank.verify_sessions WHERE id = (SELECT id FROM a)), true,
          'a face flow requires consent');
SELECT throws_ok($$SELECT pg_temp.vcapture((SELECT id FROM a), 'tok-ca', 'selfie')$$, 'CB422',
                 'Consent must be recorded before biometric capture', 'no selfie before consent');
SELECT throws_ok($$SELECT pg_temp.vcapture((SELECT id FROM a), 'tok-ca', 'document')$$, 'CB422',
                 'Consent must be recorded before biometric capture',
                 'no document either: its portrait is compared with the selfie');
SELECT throws_ok($$SELECT pg_temp.vbegin((SELECT id FROM a), 'tok-ca')$$, 'CB422',
                 'Consent must be recorded before the checks can run', 'no checks before consent');
SELECT is((SELECT count(*) FROM corebank.verify_captures WHERE session_id = (SELECT id FROM a)), 0::bigint,
          'nothing was stored');

SELECT is(pg_temp.vconsent((SELECT id FROM a), 'tok-ca') -> 'body' ->> 'consent', 'granted', 'consent is recorded');
SELECT is((SELECT granted::text || '/' || channel || '/' || version || '/' || (text_sha256 = pg_temp.h('the consent text'))::text
           FROM corebank.verify_consents WHERE session_id = (SELECT id FROM a)),
          'true/hosted_page/v1/true', 'with its channel, text version and text digest');
SELECT lives_ok($$SELECT pg_temp.vcapture((SELECT id FROM a), 'tok-ca', 'selfie')$$, 'after consent the selfie is accepted');
SELECT throws_ok($$SELECT pg_temp.vconsent((SELECT id FROM a), 'tok-ca', false, 'consent-again')$$, 'CB409',
                 'Consent is already recorded for this session', 'consent is recorded once');

-- A document-only flow captures no face: no consent needed.
CREATE TEMP TABLE b AS SELECT pg_temp.vsession('document', 'tok-cb') AS id;
SELECT is((SELECT consent_required FROM corebank.verify_sessions WHERE id = (SELECT id FROM b)), false,
          'a document-only flow requires no consent');
SELECT lives_ok($$SELECT pg_temp.vcapture((SELECT id FROM b), 'tok-cb', 'document')$$, 'its document is accepted at once');
SELECT throws_ok($$SELECT pg_temp.vcapture((SELECT id FROM b), 'tok-cb', 'selfie')$$, 'CB422',
                 'kind: the document flow captures no selfie image', 'and it takes no selfie');

-- Declining ends the session.
CREATE TEMP TABLE c AS SELECT pg_temp.vsession('liveness', 'tok-cc') AS id;
SELECT corebank.verify_webhook_endpoint_add('https://hooks.example.com/consent', pg_temp.sealed('s'));
SELECT is(pg_temp.vconsent((SELECT id FROM c), 'tok-cc', false) -> 'body' ->> 'status', 'cancelled',
          'declining consent cancels the session');
SELECT is((SELECT cancelled_by || '/' || cancellation_reason FROM corebank.verify_sessions WHERE id = (SELECT id FROM c)),
          'user/consent_declined', 'cancelled by the user, reason consent_declined');
SELECT is((SELECT type FROM corebank.verify_webhook_events WHERE session_id = (SELECT id FROM c)), 'session.cancelled',
          'and session.cancelled is queued');

-- The caller's backend records consent it collected.
CREATE TEMP TABLE d AS SELECT pg_temp.vsession('liveness', 'tok-cd') AS id;
SELECT is(corebank.verify_session_consent(pg_temp.vkey(), 'api-consent', pg_temp.h('{"granted":true}'), (SELECT id FROM d),
                                          true, 'app-2026-01', pg_temp.h('app text'), '198.51.100.7', 'MyApp/1.0')
          -> 'body' -> 'consent' ->> 'channel', 'api', 'consent recorded through the API has channel api');
SELECT throws_ok($$SELECT corebank.verify_session_consent(pg_temp.vkey(), 'api-consent-2', pg_temp.h('x'), (SELECT id FROM d),
                   true, 'not a version!', NULL, NULL, NULL)$$,
                 'CBV00', 'version: must be 1 to 50 of A-Z a-z 0-9 . _ : -', 'the consent version is checked');

SELECT * FROM finish();
ROLLBACK;
