-- auth_outbox_claim_rows.sql: corebank_internal.outbox_claim_rows (1.7), the
-- batch size of one outbox claim (auth_mail_claim, verify_webhook_claim).
--
-- Goal: what the sender asks for, at most 100, NULL as 100, below 1 refused
-- with CBV00 as before; the tier cannot call it. Method: direct calls, then
-- through auth_mail_claim.
BEGIN;
SELECT plan(6);

SELECT throws_ok($$SELECT corebank_internal.outbox_claim_rows(0)$$, 'CBV00', 'max_rows: must be at least 1',
                 'a claim of no rows is refused');
SELECT is(corebank_internal.outbox_claim_rows(7), 7, 'a claim takes what the sender asks for');
SELECT is(corebank_internal.outbox_claim_rows(5000), 100, 'a claim takes 100 rows at the most');
SELECT is(corebank_internal.outbox_claim_rows(NULL), 100, 'a NULL asks for 100 (least() passes over it)');
SELECT throws_ok($$SELECT * FROM corebank.auth_mail_claim(-1)$$, 'CBV00', 'max_rows: must be at least 1',
                 'auth_mail_claim still refuses a negative batch');

SELECT is(has_function_privilege('corebank_app', 'corebank_internal.outbox_claim_rows(integer)'::regprocedure, 'EXECUTE'),
          false,
          'the tier cannot call it');

SELECT * FROM finish();
ROLLBACK;
