-- transaction_render.sql: the C++ TransactionResponse (issue 12 part 1,
-- docs/design/posting-engine.md section 5).
--
-- Goal: corebank_internal.transaction_render, the renderer every posting
-- answers with, is equal as jsonb to corebank_internal.transaction_json (the
-- reads' SQL face) for every kind of transaction in every state: deposit,
-- withdrawal with a fee, fixed-deposit penalty, same- and cross-currency
-- transfer, fee, ledger post, manual journal (PENDING, LAPSED approval,
-- POSTED after approval, CANCELLED), reversal (and the REVERSED original),
-- batch transfer, interest accrual and posting; NULL for a NULL or unknown
-- id; amounts for every number of minor units the currencies allow. And the
-- response each posting returned equals transaction_json afterwards.
-- Method: post through the API, then compare the two renderings of every
-- transaction in the journal.
BEGIN;
SELECT plan(39);
\ir helpers/deposits.sql

-- Both renderings of one transaction, and whether they are equal.
CREATE FUNCTION pg_temp.same(id uuid) RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT corebank_internal.transaction_render(id) = corebank_internal.transaction_json(id) $f$;
-- The transactions whose renderings differ (none, when the renderer is right).
CREATE FUNCTION pg_temp.differing() RETURNS SETOF text LANGUAGE sql STABLE
    AS $f$
    SELECT t.type || ' ' || t.status || ' ' || t.reference FROM corebank.transactions t
    WHERE corebank_internal.transaction_render(t.id) IS DISTINCT FROM corebank_internal.transaction_json(t.id)
    ORDER BY 1
$f$;
-- A posting's response equals the transaction as read afterwards.
CREATE FUNCTION pg_temp.answered(response jsonb) RETURNS bool LANGUAGE sql STABLE
    AS $f$ SELECT response = corebank_internal.transaction_json((response ->> 'id')::uuid) $f$;

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Rufaro', 'N-77') AS id;
CREATE TEMP TABLE sav AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 10000) AS id;
CREATE TEMP TABLE cur AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
CREATE TEMP TABLE plus AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-PLUS', 20000) AS id;

-- Deposits, withdrawals, fees, transfers: the money operations.
CREATE TEMP TABLE dep AS
    SELECT pg_temp.put((SELECT id FROM sav), 50000,
                       jsonb_build_object('channel', 'mobile', 'branchCode', 'BYO',
                                          'description', E'cash "in" \\ at Mbare, 5\u00a0% \u2014 \u00fc / \U0001F600')) AS r;
SELECT ok(pg_temp.answered((SELECT r FROM dep)), 'a deposit answers its transaction (quotes, escapes, non-ASCII)');
SELECT ok(pg_temp.same((SELECT (r ->> 'id')::uuid FROM dep)), 'a deposit renders as transaction_json');
SELECT is(corebank_internal.transaction_render((SELECT (r ->> 'id')::uuid FROM dep)) ->> 'description',
          E'cash "in" \\ at Mbare, 5\u00a0% \u2014 \u00fc / \U0001F600', 'the description survives the JSON text');
CREATE TEMP TABLE wf AS SELECT pg_temp.take((SELECT id FROM plus), 5000) AS r;
SELECT is((SELECT jsonb_array_length(r -> 'entries') FROM wf), 3, 'a withdrawal with its fee line');
SELECT ok(pg_temp.answered((SELECT r FROM wf)), 'a withdrawal with a fee answers its transaction');
CREATE TEMP TABLE tr AS SELECT pg_temp.move((SELECT id FROM plus), (SELECT id FROM cur), 2000, '{"idempotencyKey": "rt-1"}') AS r;
SELECT ok(pg_temp.answered((SELECT r FROM tr)), 'a transfer answers its transaction');
SELECT ok(pg_temp.answered(pg_temp.move((SELECT id FROM plus), (SELECT id FROM cur), 2000, '{"idempotencyKey": "rt-1"}')),
          'its replay by idempotency key too');
CREATE TEMP TABLE fee AS SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM cur), 'amountMinor', 250,
                                                  'description', 'card replacement'), pg_temp.operator()) AS r;
SELECT ok(pg_temp.answered((SELECT r FROM fee)), 'a fee answers its transaction');

-- A fixed deposit: the early-withdrawal penalty.
CREATE TEMP TABLE fd AS SELECT pg_temp.open((SELECT id FROM ids), 'FD-3M', 100000) AS id;
CREATE TEMP TABLE early AS SELECT pg_temp.take((SELECT id FROM fd), 50000) AS r;
SELECT is((SELECT r -> 'entries' -> 2 ->> 'narrative' FROM early), 'Early withdrawal penalty', 'a penalty line');
SELECT ok(pg_temp.answered((SELECT r FROM early)), 'a withdrawal with a penalty answers its transaction');

-- Cross-currency: two currencies, so no single amount.
SELECT corebank.core_fx_rates_set('{"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "26.5", "effectiveDate": "2026-03-01"}',
                                  pg_temp.maker());
CREATE TEMP TABLE zwg AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-ZWG') AS id;
CREATE TEMP TABLE fx AS SELECT pg_temp.move((SELECT id FROM cur), (SELECT id FROM zwg), 1000) AS r;
SELECT is((SELECT jsonb_array_length(r -> 'totals') FROM fx), 2, 'a cross-currency transfer has two totals');
SELECT ok((SELECT r -> 'currency' = 'null' AND r -> 'amountMinor' = 'null' AND r -> 'amount' = 'null' FROM fx),
          'and null single-currency members');
SELECT ok(pg_temp.answered((SELECT r FROM fx)), 'a cross-currency transfer answers its transaction');

-- A ledger post (customer-account line, no description).
CREATE TEMP TABLE acct AS SELECT pg_temp.open_account('2000', 0) AS id;
CREATE TEMP TABLE lp AS SELECT pg_temp.deposit((SELECT id FROM acct), 2500, 'DEP-R') AS r;
SELECT ok(pg_temp.answered((SELECT r FROM lp)), 'a ledger post answers its transaction');

-- Manual journals: PENDING, POSTED after approval, CANCELLED, LAPSED.
CREATE TEMP TABLE j1 AS SELECT pg_temp.capture(500) AS r;
SELECT ok(pg_temp.answered((SELECT r FROM j1)), 'a captured journal (PENDING, proposed lines) answers its transaction');
SELECT ok((SELECT r -> 'hash' = 'null' AND r -> 'chain' = 'null' AND r -> 'postedAt' = 'null' FROM j1),
          'with null hash, chain and postedAt');
SELECT corebank.core_approval_approve((SELECT (r ->> 'parkedChangeId')::uuid FROM j1), pg_temp.checker(), 'ok');
SELECT ok(pg_temp.same((SELECT (r ->> 'id')::uuid FROM j1)), 'a released journal (APPROVED, not posted) renders as transaction_json');
CREATE TEMP TABLE p1 AS SELECT corebank.core_transaction_post((SELECT (r ->> 'id')::uuid FROM j1), pg_temp.operator()) AS r;
SELECT is((SELECT r ->> 'status' || ' ' || (r ->> 'approvalStatus') FROM p1), 'POSTED APPROVED', 'the journal posts');
SELECT ok(pg_temp.answered((SELECT r FROM p1)), 'a posted journal answers its transaction');
CREATE TEMP TABLE j2 AS SELECT pg_temp.capture(700, '{"idempotencyKey": "rc-1"}') AS r;
SELECT ok(pg_temp.answered((SELECT r FROM j2)), 'a capture under an idempotency key answers its transaction');
SELECT corebank.core_approval_reject((SELECT (r ->> 'parkedChangeId')::uuid FROM j2), pg_temp.checker(), 'wrong account');
CREATE TEMP TABLE c2 AS SELECT corebank.core_transaction_abandon((SELECT (r ->> 'id')::uuid FROM j2), pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'status' || ' ' || (r ->> 'approvalStatus') FROM c2), 'CANCELLED REJECTED', 'a rejected journal is abandoned');
SELECT ok(pg_temp.answered((SELECT r FROM c2)), 'an abandoned journal answers its transaction');
CREATE TEMP TABLE j3 AS SELECT pg_temp.capture(900) AS r;
SELECT pg_temp.expire((SELECT (r ->> 'parkedChangeId')::uuid FROM j3));
SELECT is(corebank_internal.transaction_render((SELECT (r ->> 'id')::uuid FROM j3)) ->> 'approvalStatus', 'LAPSED',
          'an overdue approval renders LAPSED (stored PENDING)');
SELECT ok(pg_temp.same((SELECT (r ->> 'id')::uuid FROM j3)), 'a lapsed journal renders as transaction_json');

-- A reversal, and its REVERSED original.
CREATE TEMP TABLE rv AS SELECT corebank.core_transaction_reverse_request((SELECT (r ->> 'id')::uuid FROM lp), 'duplicate', pg_temp.maker()) AS r;
CREATE TEMP TABLE ra AS SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM rv), pg_temp.checker(), NULL) AS r;
SELECT ok(pg_temp.answered((SELECT r -> 'result' FROM ra)), 'a reversal answers its transaction');
SELECT is(corebank_internal.transaction_render((SELECT (r ->> 'id')::uuid FROM lp)) ->> 'reversedById',
          (SELECT r -> 'result' ->> 'id' FROM ra), 'the original renders REVERSED, with its reversal');

-- A batch of transfers.
CREATE TEMP TABLE b1 AS
    SELECT corebank.core_transfer_batch(jsonb_build_object('transfers', jsonb_build_array(
               jsonb_build_object('fromAccountId', (SELECT id FROM sav), 'toAccountId', (SELECT id FROM cur), 'amountMinor', 300),
               jsonb_build_object('fromAccountId', (SELECT id FROM cur), 'toAccountId', (SELECT id FROM sav), 'amountMinor', 7))),
           pg_temp.operator()) AS r;
SELECT is((SELECT (r ->> 'postedCount')::int FROM b1), 2, 'a batch posts two transfers');
SELECT ok((SELECT bool_and(pg_temp.same((x ->> 'transactionId')::uuid)) FROM b1, jsonb_array_elements(r -> 'results') x),
          'each renders as transaction_json');

-- Interest: daily accruals and the month-end posting.
SELECT pg_temp.today('2026-03-31');
CREATE TEMP TABLE run AS SELECT corebank.core_interest_run('2026-03-31', pg_temp.operator()) AS r;
SELECT ok((SELECT count(*) FROM corebank.transactions WHERE type = 'INTEREST_ACCRUAL') > 1, 'the interest run posted');

-- Every transaction in the journal, and every kind and state the test meant to cover.
SELECT is((SELECT array_agg(DISTINCT t.type || ' ' || t.status ORDER BY t.type || ' ' || t.status) FROM corebank.transactions t),
          ARRAY['ADJUSTMENT CANCELLED', 'ADJUSTMENT PENDING', 'ADJUSTMENT POSTED', 'DEPOSIT POSTED', 'FEE POSTED',
                'INTEREST_ACCRUAL POSTED', 'TRANSFER POSTED', 'TRANSFER REVERSED', 'WITHDRAWAL POSTED'],
          'the journal holds every kind and state');
SELECT is_empty($$SELECT * FROM pg_temp.differing()$$, 'every transaction renders as transaction_json');

-- Amounts for every number of minor units (currencies_minor_units: 0..4).
UPDATE corebank.currencies SET minor_units = 0 WHERE code = 'ZWG';
SELECT is_empty($$SELECT * FROM pg_temp.differing()$$, 'with 0 minor units');
SELECT is(corebank_internal.transaction_render((SELECT (r ->> 'id')::uuid FROM fx)) -> 'totals' -> 1 ->> 'debit', '26500',
          '26500 minor units of a currency without decimals read 26500');
UPDATE corebank.currencies SET minor_units = 3 WHERE code = 'ZWG';
SELECT is_empty($$SELECT * FROM pg_temp.differing()$$, 'with 3 minor units');
UPDATE corebank.currencies SET minor_units = 4 WHERE code = 'ZWG';
SELECT is_empty($$SELECT * FROM pg_temp.differing()$$, 'with 4 minor units');
SELECT is(corebank_internal.transaction_render((SELECT (r ->> 'id')::uuid FROM fx)) -> 'entries' -> 3 ->> 'amount', '2.6500',
          '26500 minor units at 4 decimals read 2.6500');
UPDATE corebank.currencies SET minor_units = 2 WHERE code = 'ZWG';

-- No transaction.
SELECT is(corebank_internal.transaction_render(NULL), NULL, 'a NULL id renders NULL');
SELECT is(corebank_internal.transaction_render(gen_random_uuid()), NULL, 'an unknown id renders NULL, as transaction_json does');
SELECT is(has_function_privilege('corebank_app', 'corebank_internal.transaction_render(uuid)', 'EXECUTE'), false,
          'the renderer is internal');

SELECT * FROM finish();
ROLLBACK;
