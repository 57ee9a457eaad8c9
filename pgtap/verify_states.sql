-- verify_states.sql: the session status machine.
--
-- Goal: pending -> processing -> completed only through submit and finish;
-- cancel from pending or processing only; completed, cancelled and expired
-- are terminal; the decision is derived in the database from the checks'
-- statuses (any fail declines, else any review is review, else approved;
-- review is never approved) and the provider cannot skip or reorder checks;
-- a failed provider run returns the session to pending; the maintenance
-- pass expires overdue sessions and returns stuck submissions to pending;
-- the client token must match and be live; images are dropped at the end.
-- Method: drive sessions with the C++ functions; age rows by UPDATE.
BEGIN;
SELECT plan(40);
\ir helpers/verify.sql

-- Creation.
CREATE TEMP TABLE a AS SELECT pg_temp.vsession('document+liveness', 'tok-a') AS id;
SELECT is(pg_temp.vstatus((SELECT id FROM a)), 'pending', 'a new session is pending');
SELECT is((SELECT flow FROM corebank.verify_sessions WHERE id = (SELECT id FROM a)), 'liveness+document',
          'the flow is stored in canonical order');
SELECT is((SELECT expires_at - created_at FROM corebank.verify_sessions WHERE id = (SELECT id FROM a)),
          interval '1 hour', 'the session lives lifetime_s');
SELECT is((SELECT client_token_expires_at - created_at FROM corebank.verify_sessions WHERE id = (SELECT id FROM a)),
          interval '15 minutes', 'the client token lives client_token_ttl_s');
SELECT throws_ok($$SELECT pg_temp.vcreate('liveness+liveness', 'tok-dup')$$, 'CBV00', NULL, 'a repeated check is refused');
SELECT throws_ok($$SELECT corebank.verify_session_create(pg_temp.vkey(), 'k-life', pg_temp.h('x'), gen_random_uuid(),
                   'liveness', NULL, NULL, NULL, NULL, NULL, pg_temp.h('tok-life'), pg_temp.sealed('x'), 60, 30)$$,
                 'CBV00', 'lifetime_s: must be between 300 and 604800', 'a lifetime under 5 minutes is refused');
SELECT throws_ok($$SELECT corebank.verify_session_create(pg_temp.vkey(), 'k-url', pg_temp.h('x'), gen_random_uuid(),
                   'liveness', NULL, NULL, NULL, 'javascript:alert(1)', NULL, pg_temp.h('tok-url'), pg_temp.sealed('x'), 3600, 900)$$,
                 'CBV00', NULL, 'a redirectUrl that is not http(s) is refused');
SELECT throws_ok($$SELECT corebank.verify_session_create(pg_temp.vkey(), 'k-meta', pg_temp.h('x'), gen_random_uuid(),
                   'liveness', NULL, NULL, NULL, NULL, '{"a": {"nested": true}}', pg_temp.h('tok-meta'), pg_temp.sealed('x'), 3600, 900)$$,
                 'CBV00', 'metadata.a: must be a string, number, boolean or null', 'nested metadata is refused');

-- The client token.
SELECT throws_ok($$SELECT pg_temp.vconsent((SELECT id FROM a), 'wrong-token')$$, 'CBU01',
                 'Client token is invalid or expired', 'a wrong client token is refused');
SELECT is(corebank.verify_hosted_state((SELECT id FROM a), pg_temp.h('wrong-token')), NULL,
          'the page state is NULL for a wrong token');
SELECT throws_ok($$SELECT pg_temp.vconsent(gen_random_uuid(), 'tok-a')$$, 'CBU01', NULL,
                 'an unknown session answers like a wrong token');
SELECT is(corebank.verify_hosted_state((SELECT id FROM a), pg_temp.h('tok-a')) ->> 'status', 'pending',
          'the right token reads the page state');

-- Submit needs every capture.
SELECT pg_temp.vconsent((SELECT id FROM a), 'tok-a');
SELECT throws_ok($$SELECT pg_temp.vbegin((SELECT id FROM a), 'tok-a')$$, 'CB422',
                 'selfie: an image is required; document: an image is required', 'submit without captures is refused');
SELECT pg_temp.vcapture((SELECT id FROM a), 'tok-a', 'selfie');
SELECT throws_ok($$SELECT pg_temp.vbegin((SELECT id FROM a), 'tok-a', 'sub-a2')$$, 'CB422',
                 'document: an image is required', 'submit without the document is refused');
SELECT pg_temp.vcapture((SELECT id FROM a), 'tok-a', 'document');
SELECT is(pg_temp.vbegin((SELECT id FROM a), 'tok-a') -> 'checks', '["liveness", "document"]'::jsonb,
          'begin hands out the checks to run');
SELECT is(pg_temp.vstatus((SELECT id FROM a)), 'processing', 'begin moves the session to processing');
SELECT throws_ok($$SELECT pg_temp.vcapture((SELECT id FROM a), 'tok-a', 'selfie', 'late-cap', 'late')$$, 'CB409',
                 'Session is being processed; wait for its result', 'no capture while processing');
SELECT is((SELECT count(*) FROM corebank.verify_hosted_images((SELECT id FROM a), pg_temp.h('tok-a'))), 2::bigint,
          'the tier can read both sealed images while processing');

-- Finish: the results must match the flow.
SELECT throws_ok($$SELECT corebank.verify_hosted_submit_finish((SELECT id FROM a), pg_temp.h('tok-a'), 'submit-tok-a', 'offline',
                   '[{"type": "liveness", "status": "pass", "score": 0.9}]')$$,
                 'CBV00', 'checks: must hold exactly one result per check of the flow (liveness+document)',
                 'a missing check result is refused');
SELECT throws_ok($$SELECT corebank.verify_hosted_submit_finish((SELECT id FROM a), pg_temp.h('tok-a'), 'submit-tok-a', 'offline',
                   '[{"type": "document", "status": "pass", "score": 0.9}, {"type": "liveness", "status": "pass", "score": 0.9}]')$$,
                 'CBV00', 'checks[0].type: must be liveness', 'results out of order are refused');
SELECT throws_ok($$SELECT corebank.verify_hosted_submit_finish((SELECT id FROM a), pg_temp.h('tok-a'), 'submit-tok-a', 'offline',
                   '[{"type": "liveness", "status": "approved", "score": 0.9}, {"type": "document", "status": "pass", "score": 0.9}]')$$,
                 'CBV00', 'checks[0].status: must be pass, fail or review', 'a check cannot claim "approved"');
SELECT throws_ok($$SELECT corebank.verify_hosted_submit_finish((SELECT id FROM a), pg_temp.h('tok-a'), 'submit-tok-a', 'offline',
                   '[{"type": "liveness", "status": "pass", "score": 1.5}, {"type": "document", "status": "pass", "score": 0.9}]')$$,
                 'CBV00', 'checks[0].score: must be 0 to 1', 'a score above 1 is refused');
SELECT is(pg_temp.vfinish((SELECT id FROM a), 'tok-a', ARRAY['pass', 'review']) -> 'body' ->> 'decision', 'review',
          'a check in review makes the session a review, never approved');
SELECT is((SELECT status || '/' || decision || '/' || array_to_string(decision_reasons, ',')
           FROM corebank.verify_sessions WHERE id = (SELECT id FROM a)),
          'completed/review/liveness_pass,document_review', 'completed with decision and reasons');
SELECT is((SELECT count(*) FROM corebank.verify_captures WHERE session_id = (SELECT id FROM a) AND image_sealed IS NOT NULL),
          0::bigint, 'the images are dropped when the session completes');

-- Decisions.
CREATE TEMP TABLE b AS SELECT pg_temp.vsession('liveness+facematch+document', 'tok-b') AS id;
SELECT is(pg_temp.vcomplete((SELECT id FROM b), 'tok-b', ARRAY['pass', 'fail', 'review']) -> 'body' ->> 'decision',
          'declined', 'any failed check declines');
CREATE TEMP TABLE c AS SELECT pg_temp.vsession('liveness+facematch+document', 'tok-c') AS id;
SELECT is(pg_temp.vcomplete((SELECT id FROM c), 'tok-c', ARRAY['pass', 'pass', 'pass']) -> 'body' ->> 'decision',
          'approved', 'only all passed checks approve');
SELECT is((SELECT checks -> 1 ->> 'provider' FROM corebank.verify_sessions WHERE id = (SELECT id FROM c)), 'offline',
          'every stored check carries its provider');

-- Cancel.
SELECT throws_ok($$SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-c', pg_temp.h('{}'), (SELECT id FROM c), NULL)$$,
                 'CB409', 'Session is already completed; only a pending or processing session can be cancelled',
                 'a completed session cannot be cancelled');
CREATE TEMP TABLE d AS SELECT pg_temp.vsession('liveness', 'tok-d') AS id;
SELECT pg_temp.vconsent((SELECT id FROM d), 'tok-d');
SELECT pg_temp.vcapture((SELECT id FROM d), 'tok-d', 'selfie');
SELECT pg_temp.vbegin((SELECT id FROM d), 'tok-d');
SELECT is(corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-d', pg_temp.h('{}'), (SELECT id FROM d), 'fraud suspected')
          -> 'body' ->> 'status', 'cancelled', 'a processing session can be cancelled');
SELECT is(pg_temp.vfinish((SELECT id FROM d), 'tok-d', ARRAY['pass']) -> 'body' ->> 'status', 'cancelled',
          'results arriving after a cancel are dropped; the session stays cancelled');
SELECT throws_ok($$SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-d2', pg_temp.h('{}'), (SELECT id FROM d), NULL)$$,
                 'CB409', 'Session is already cancelled; only a pending or processing session can be cancelled',
                 'a cancelled session cannot be cancelled again (new key)');
SELECT throws_ok($$SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-x', pg_temp.h('{}'), gen_random_uuid(), NULL)$$,
                 'CB404', 'Session not found', 'cancelling an unknown session is 404');

-- A provider failure returns the session to pending.
CREATE TEMP TABLE e AS SELECT pg_temp.vsession('liveness', 'tok-e') AS id;
SELECT pg_temp.vconsent((SELECT id FROM e), 'tok-e');
SELECT pg_temp.vcapture((SELECT id FROM e), 'tok-e', 'selfie');
SELECT pg_temp.vbegin((SELECT id FROM e), 'tok-e');
SELECT corebank.verify_hosted_submit_abort((SELECT id FROM e), pg_temp.h('tok-e'), 'submit-tok-e', 'vendor timeout');
SELECT is(pg_temp.vstatus((SELECT id FROM e)), 'pending', 'abort returns the session to pending');
SELECT is(pg_temp.vbegin((SELECT id FROM e), 'tok-e') ->> 'replayed', 'false', 'and the same key may submit again');

-- Maintenance: stuck submissions back to pending, overdue sessions expired.
UPDATE corebank.verify_sessions SET processing_started_at = now() - interval '10 minutes' WHERE id = (SELECT id FROM e);
CREATE TEMP TABLE f AS SELECT pg_temp.vsession('liveness', 'tok-f') AS id;
SELECT pg_temp.vage((SELECT id FROM f), interval '2 hours');
SELECT is(corebank.verify_session_get((SELECT id FROM f)) ->> 'status', 'expired',
          'an overdue session reads as expired before maintenance stores it');
SELECT throws_ok($$SELECT corebank.verify_session_cancel(pg_temp.vkey(), 'cancel-f', pg_temp.h('{}'), (SELECT id FROM f), NULL)$$,
                 'CB409', 'Session has expired', 'an overdue session cannot be cancelled');
SELECT is(corebank.verify_maintenance(120) - 'idempotencyKeysForgotten', '{"expired": 1, "reverted": 1}'::jsonb,
          'maintenance expires one session and reverts one stuck submission');
SELECT is(pg_temp.vstatus((SELECT id FROM f)) || '/' || pg_temp.vstatus((SELECT id FROM e)), 'expired/pending',
          'the overdue session is expired, the stuck one pending again');
SELECT is((corebank.verify_maintenance(120) ->> 'expired')::int, 0, 'a second pass finds nothing more');

SELECT * FROM finish();
ROLLBACK;
