-- mail_outbox.sql: enqueue, claim, done.
--
-- Goal: a claim takes due PENDING rows (at most 100), counts the attempt and
-- pushes next_attempt_at, so the same row is not claimed twice in a row and
-- comes back after a crash; SENT drops the sealed body; failures retry with
-- backoff and become FAILED after 8 attempts.
BEGIN;
SELECT plan(14);

CREATE TEMP TABLE m AS SELECT corebank.auth_mail_enqueue('ada@example.com', 'Reset your password', '\x0102'::bytea) AS id;
SELECT is((SELECT status || '/' || attempts FROM corebank.auth_mail_outbox WHERE id = (SELECT id FROM m)), 'PENDING/0',
          'an enqueued mail is PENDING with no attempt');

SELECT results_eq($$SELECT id, recipient, subject, body_sealed, attempts FROM corebank.auth_mail_claim(10)$$,
                  $$SELECT (SELECT id FROM m), 'ada@example.com'::text, 'Reset your password'::text, '\x0102'::bytea, 1$$,
                  'a claim returns the due mail with its attempt counted');
SELECT is((SELECT next_attempt_at FROM corebank.auth_mail_outbox WHERE id = (SELECT id FROM m)),
          now() + interval '1 minute', 'the claim pushes the next attempt by the backoff');
SELECT is((SELECT count(*) FROM corebank.auth_mail_claim(10)), 0::bigint, 'a claimed mail is not claimed again at once');

SELECT corebank.auth_mail_done((SELECT id FROM m), false, 'smtp: connection refused');
SELECT is((SELECT status || '/' || last_error FROM corebank.auth_mail_outbox WHERE id = (SELECT id FROM m)),
          'PENDING/smtp: connection refused', 'a failure goes back to PENDING with the error');
UPDATE corebank.auth_mail_outbox SET next_attempt_at = now() WHERE id = (SELECT id FROM m);
SELECT is((SELECT attempts FROM corebank.auth_mail_claim(10)), 2, 'the retry is attempt 2');
SELECT corebank.auth_mail_done((SELECT id FROM m), true, NULL);
SELECT is((SELECT status FROM corebank.auth_mail_outbox WHERE id = (SELECT id FROM m)), 'SENT', 'success marks it SENT');
SELECT is((SELECT body_sealed FROM corebank.auth_mail_outbox WHERE id = (SELECT id FROM m)), NULL,
          'a sent mail keeps no body');
SELECT lives_ok($$SELECT corebank.auth_mail_done((SELECT id FROM m), false, 'late')$$, 'a late report on a sent mail is a no-op');
SELECT is((SELECT status FROM corebank.auth_mail_outbox WHERE id = (SELECT id FROM m)), 'SENT', 'and leaves it SENT');

-- Give up after 8 attempts.
CREATE TEMP TABLE f AS SELECT corebank.auth_mail_enqueue('bob@example.com', 'Reset', '\x03'::bytea) AS id;
UPDATE corebank.auth_mail_outbox SET attempts = 8 WHERE id = (SELECT id FROM f);
SELECT corebank.auth_mail_done((SELECT id FROM f), false, 'mailbox unavailable');
SELECT is((SELECT status || '/' || (body_sealed IS NULL) FROM corebank.auth_mail_outbox WHERE id = (SELECT id FROM f)),
          'FAILED/true', 'the 8th failure marks it FAILED and drops the body');

-- Bounds.
SELECT corebank.auth_mail_enqueue('bulk@example.com', 'Bulk', '\x04'::bytea) FROM generate_series(1, 101);
SELECT is((SELECT count(*) FROM corebank.auth_mail_claim(1000)), 100::bigint, 'one claim takes at most 100 mails');
SELECT throws_ok($$SELECT * FROM corebank.auth_mail_claim(0)$$, 'CBV00', 'max_rows: must be at least 1',
                 'a claim needs a positive size');
SELECT throws_ok($$SELECT corebank.auth_mail_done(gen_random_uuid(), true, NULL)$$, 'CB404', 'Mail not found',
                 'done on an unknown mail is not found');

SELECT * FROM finish();
ROLLBACK;
