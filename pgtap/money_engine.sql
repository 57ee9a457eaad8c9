-- money_engine.sql: the money operations in C++ (issue 12 part 1,
-- extension/pg/money_posting.cpp).
--
-- Goal: the four SQL faces are C functions over the one engine and the
-- PL/pgSQL chain is gone; a key claimed by the engine hashes its request as
-- 1.7 did (a key claimed before an upgrade still replays after it); a
-- request with two faults names the one 1.7 named (the engine reads members
-- and checks the database in the old order); a decimal amount and a string of
-- digits read as before; one branch rule (request_branch, C) serves the
-- money operations, account opening and customer creation; standing orders
-- and opening deposits post through
-- corebank_internal.money_post. Method: call the faces from SQL as a DBA
-- would, read the catalog and the idempotency table.
BEGIN;
SELECT plan(30);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Rudo', 'N-77') AS id;
CREATE TEMP TABLE sav AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 50000) AS id;
CREATE TEMP TABLE cur AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;

-- The faces and the chain.
SELECT is((SELECT array_agg(l.lanname || ' ' || p.prosecdef ORDER BY p.proname) FROM pg_proc p
           JOIN pg_language l ON l.oid = p.prolang
           WHERE p.pronamespace = 'corebank'::regnamespace
             AND p.proname IN ('core_deposit', 'core_withdraw', 'core_transfer', 'core_fee')),
          ARRAY['c true', 'c true', 'c true', 'c true'], 'the four money faces are C functions, SECURITY DEFINER');
SELECT is_empty($$SELECT p.proname FROM pg_proc p WHERE p.pronamespace = 'corebank_internal'::regnamespace
                  AND p.proname IN ('money_run', 'money_deposit_posting', 'money_withdraw_posting',
                                    'money_transfer_posting', 'money_fee_posting', 'money_header', 'money_gl',
                                    'money_account_check', 'money_fixed_deposit_check', 'money_penalty',
                                    'money_withdraw', 'money_fee', 'money_idempotency_claim',
                                    'money_idempotency_complete', 'money_idempotency_store')$$,
                'the PL/pgSQL money chain is gone');
SELECT is((SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
           WHERE p.oid = 'corebank_internal.money_currency_check(jsonb, text, text)'::regprocedure),
          'c', 'the standing orders'' currency check is the engine''s rule');

-- One branch rule: the money operations', account opening's and customer creation's.
SELECT is((SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
           WHERE p.oid = 'corebank_internal.request_branch(jsonb, uuid, uuid)'::regprocedure),
          'c', 'request_branch is the engine''s rule');
SELECT throws_ok($$SELECT corebank_internal.request_branch('{"branchCode": "NOPE"}', NULL, NULL)$$,
                 'CB404', 'Branch not found', 'an unknown branch code');
SELECT is(corebank_internal.request_branch('{"branchCode": "byo"}', NULL, NULL),
          (SELECT id FROM corebank.branches WHERE code = 'BYO'), 'a branch code in any case');
SELECT is(corebank_internal.request_branch(NULL, NULL, NULL),
          (SELECT id FROM corebank.branches WHERE is_head_office), 'no request, actor or fallback: head office');

-- Idempotency: the request hash of 1.7.
CREATE TEMP TABLE req AS SELECT jsonb_build_object('fromAccountId', (SELECT id FROM sav), 'toAccountId', (SELECT id FROM cur),
                                                   'amountMinor', 1234, 'idempotencyKey', 'engine-1',
                                                   'narrative', 'rent é') AS r;
CREATE TEMP TABLE first AS SELECT corebank.core_transfer((SELECT r FROM req), pg_temp.operator()) AS r;
SELECT is((SELECT k.request_hash FROM corebank.idempotency_keys k WHERE k.scope = 'core.money' AND k.key = 'engine-1'),
          sha256(convert_to('core.money' || E'\n' ||
                            jsonb_build_object('operation', 'transfer', 'request', (SELECT r FROM req))::text, 'UTF8')),
          'the key hashes the request as 1.7 did');
SELECT is(corebank.core_transfer((SELECT r FROM req), pg_temp.operator()), (SELECT r FROM first),
          'a repeat answers the first response');
SELECT is((SELECT count(*) FROM corebank.transactions t WHERE t.id = (SELECT (r ->> 'id')::uuid FROM first)), 1::bigint,
          'and posts nothing');
SELECT throws_ok($$SELECT corebank.core_deposit((SELECT r FROM req), pg_temp.operator())$$,
                 'CB409', 'idempotencyKey was already used for a different request', 'the key under another operation');
SELECT throws_ok($$SELECT corebank.core_transfer((SELECT r FROM req) || '{"amountMinor": 1}', pg_temp.operator())$$,
                 'CB409', 'idempotencyKey was already used for a different request', 'the key with another amount');
SELECT is((SELECT (k.transaction_id::text, k.response IS NULL) FROM corebank.idempotency_keys k WHERE k.key = 'engine-1'),
          ((SELECT r ->> 'id' FROM first), true),
          'the key keeps the transaction and no copy of the answer (a replay renders it)');
-- Reversed since: a replay still answers the first response (POSTED, no reversal).
CREATE TEMP TABLE rev AS
    SELECT corebank.core_transaction_reverse_request((SELECT (r ->> 'id')::uuid FROM first), 'test', pg_temp.maker()) AS r;
SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM rev), pg_temp.checker(), NULL);
SELECT is((SELECT t.status FROM corebank.transactions t WHERE t.id = (SELECT (r ->> 'id')::uuid FROM first)), 'REVERSED',
          'the transfer was reversed');
SELECT is(corebank.core_transfer((SELECT r FROM req), pg_temp.operator()), (SELECT r FROM first),
          'a repeat after the reversal answers the first response, as posted');

-- Two faults: the first one 1.7 named.
SELECT throws_ok($$SELECT corebank.core_transfer('{"amountMinor": "x", "fromAccountId": "bad"}', pg_temp.operator())$$,
                 'CBV00', 'amountMinor: must be an integer from 0 to 1000000000000000', 'the amount before the accounts');
SELECT throws_ok($$SELECT corebank.core_transfer('{"amountMinor": 5, "fromAccountId": "bad", "narrative": 7}', pg_temp.operator())$$,
                 'CBV00', 'fromAccountId: must be a UUID', 'the account before the narrative');
SELECT throws_ok($$SELECT corebank.core_transfer('{"amountMinor": 5, "toAccountId": "00000000-0000-4000-8000-000000000001", "narrative": 7}', pg_temp.operator())$$,
                 'CBV00', 'narrative: must be a string', 'a bad narrative before a missing account');
SELECT throws_ok(format($$SELECT corebank.core_withdraw('{"amountMinor": 5, "accountId": "%s", "destinationGlAccountCode": 9, "reference": 9}', pg_temp.operator())$$,
                        (SELECT id FROM sav)),
                 'CBV00', 'destinationGlAccountCode: must be a string', 'the cash GL before the header');
SELECT throws_ok($$SELECT corebank.core_fee('{"amountMinor": 5, "accountId": "bad"}', pg_temp.operator())$$,
                 'CBV00', 'description: is required', 'a fee''s description before its account');
SELECT throws_ok(format($$SELECT corebank.core_deposit('{"amountMinor": 5, "accountId": "%s", "currency": "zwg", "sourceGlAccountCode": 1}', pg_temp.operator())$$,
                        (SELECT id FROM sav)),
                 'CB422', format('currency: account %s is in USD', (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM sav))),
                 'the currency (upper-cased) before the cash GL');
SELECT throws_ok(format($$SELECT corebank.core_deposit('{"amountMinor": 5, "accountId": "%s", "branchCode": "NOPE", "narrative": 3}', pg_temp.operator())$$,
                        (SELECT id FROM sav)),
                 'CB404', 'Branch not found', 'the branch before the narrative');
SELECT throws_ok($$SELECT corebank.core_transfer('[1]', pg_temp.operator())$$,
                 'CBV00', 'request: must be a JSON object', 'an array is not a request');
SELECT throws_ok($$SELECT corebank.core_transfer('{}', NULL)$$, 'CBV00', 'actor: is required', 'the actor before the request');

-- Amounts as 1.7 read them.
SELECT is((SELECT (pg_temp.put((SELECT id FROM cur), 0, '{"amountMinor": null, "amount": 12.3}') ->> 'totals')::jsonb -> 0 ->> 'debitMinor'),
          '1230', 'a decimal amount of one place');
SELECT is((SELECT corebank.core_deposit(jsonb_build_object('accountId', (SELECT id FROM cur), 'amountMinor', '250'),
                                        pg_temp.operator()) -> 'totals' -> 0 ->> 'debitMinor'),
          '250', 'amountMinor as a string of digits');
SELECT is((SELECT corebank.core_deposit(jsonb_build_object('accountId', (SELECT id FROM cur), 'amountMinor', 1e2),
                                        pg_temp.operator()) -> 'totals' -> 0 ->> 'debitMinor'),
          '100', 'amountMinor written with an exponent');

-- The engine without a key: money_post.
SELECT is((SELECT corebank_internal.money_post('transfer', jsonb_build_object('fromAccountId', (SELECT id FROM sav),
              'toAccountId', (SELECT id FROM cur), 'amountMinor', 10), pg_temp.operator(), false) ->> 'type'),
          'TRANSFER', 'money_post posts a transfer');
SELECT throws_ok($$SELECT corebank_internal.money_post('refund', '{}', pg_temp.operator(), true)$$,
                 'CBV00', 'operation: must be deposit, withdrawal, transfer or fee', 'an unknown operation');
SELECT ok(pg_temp.ledger_healthy(), 'the ledger checks are clean');

SELECT * FROM finish();
ROLLBACK;
