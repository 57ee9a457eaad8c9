-- core_transactions.sql: manual journals and reversals through the core_*
-- API (capture, post, abandon, reverse, get, search).
--
-- Goal: a captured journal is PENDING with proposed lines and a parked
-- release, posts nothing until a checker (not its maker) releases it, then
-- posts through the engine; refused or lapsed approvals lead to abandon; a
-- reversal is parked and its approval posts the mirror entries and marks the
-- original REVERSED. Method: drive the functions as the tier would and read
-- the responses and the journal.
BEGIN;
SELECT plan(62);
\ir helpers/ledger.sql

UPDATE corebank.platform_config SET today_override = '2024-06-15';

-- Capture.
CREATE TEMP TABLE j1 AS SELECT pg_temp.capture(500) AS r;
SELECT is((SELECT r ->> 'status' FROM j1), 'PENDING', 'a captured journal is PENDING');
SELECT is((SELECT r ->> 'approvalStatus' FROM j1), 'PENDING', 'its release is awaiting approval');
SELECT is((SELECT r ->> 'type' FROM j1), 'ADJUSTMENT', 'the type defaults to ADJUSTMENT');
SELECT is((SELECT r ->> 'reference' FROM j1), 'TX0000000001', 'the reference is numbered');
SELECT is((SELECT r ->> 'branchCode' FROM j1), 'HO', 'the branch defaults to the head office');
SELECT is((SELECT r ->> 'channel' FROM j1), 'BRANCH', 'the channel defaults to BRANCH');
SELECT is((SELECT r ->> 'makerId' FROM j1), pg_temp.maker()::text, 'the actor is the maker');
SELECT is((SELECT jsonb_array_length(r -> 'entries') FROM j1), 2, 'the proposed lines are shown');
SELECT is((SELECT r -> 'entries' -> 0 ->> 'glAccountCode' FROM j1), '5200', 'lines by GL account code');
SELECT is((SELECT count(*) FROM corebank.journal_entries), 0::bigint, 'capture posts nothing');
SELECT is((SELECT operation FROM corebank.parked_changes WHERE id = (SELECT (r ->> 'parkedChangeId')::uuid FROM j1)),
          'transaction.release', 'the release is parked');

SELECT throws_ok($$SELECT corebank.core_transaction_post((SELECT (r ->> 'id')::uuid FROM j1), pg_temp.operator())$$,
                 'CB409', 'transaction is still awaiting approval', 'posting a parked journal is refused');
SELECT throws_ok($$SELECT corebank.core_transaction_abandon((SELECT (r ->> 'id')::uuid FROM j1), pg_temp.maker())$$,
                 'CB409', 'only a captured journal whose approval was refused or lapsed can be abandoned',
                 'a journal awaiting approval cannot be abandoned');
SELECT throws_ok($$SELECT corebank.core_approval_approve((SELECT (r ->> 'parkedChangeId')::uuid FROM j1), pg_temp.maker(), NULL)$$,
                 'CB403', 'the maker of a change cannot approve it', 'the maker cannot release the journal');
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'parkedChangeId')::uuid FROM j1), pg_temp.checker(), 'ok') -> 'result' ->> 'released',
          'true', 'a checker releases it');
SELECT is((SELECT count(*) FROM corebank.journal_entries), 0::bigint, 'release posts nothing by itself');
CREATE TEMP TABLE p1 AS SELECT corebank.core_transaction_post((SELECT (r ->> 'id')::uuid FROM j1), pg_temp.operator()) AS r;
SELECT is((SELECT r ->> 'status' FROM p1), 'POSTED', 'the released journal posts');
SELECT is((SELECT r ->> 'operatorId' FROM p1), pg_temp.operator()::text, 'the poster is the operator');
SELECT is((SELECT r ->> 'approvalStatus' FROM p1), 'APPROVED', 'its approval reads APPROVED');
SELECT is((SELECT count(*) FROM corebank.journal_entries WHERE transaction_id = (SELECT (r ->> 'id')::uuid FROM p1)),
          2::bigint, 'its entries are in the journal');
SELECT throws_ok($$SELECT corebank.core_transaction_post((SELECT (r ->> 'id')::uuid FROM j1), pg_temp.operator())$$,
                 'CB409', 'transaction is already posted', 'posting twice is refused');

-- Rejected: post refused, abandon cancels.
CREATE TEMP TABLE j2 AS SELECT pg_temp.capture(700) AS r;
SELECT corebank.core_approval_reject((SELECT (r ->> 'parkedChangeId')::uuid FROM j2), pg_temp.checker(), 'wrong account');
SELECT throws_ok($$SELECT corebank.core_transaction_post((SELECT (r ->> 'id')::uuid FROM j2), pg_temp.operator())$$,
                 'CB409', 'approval was refused or lapsed; abandon the journal', 'a rejected journal cannot post');
SELECT is(corebank.core_transaction_abandon((SELECT (r ->> 'id')::uuid FROM j2), pg_temp.maker()) ->> 'status',
          'CANCELLED', 'a rejected journal is abandoned');
SELECT throws_ok($$SELECT corebank.core_transaction_abandon((SELECT (r ->> 'id')::uuid FROM j2), pg_temp.maker())$$,
                 'CB409', NULL, 'abandoning twice is refused');
SELECT throws_ok($$SELECT corebank.core_transaction_post((SELECT (r ->> 'id')::uuid FROM j2), pg_temp.operator())$$,
                 'CB409', 'transaction was abandoned', 'an abandoned journal cannot post');

-- Lapsed: abandon stores the lapse.
CREATE TEMP TABLE j3 AS SELECT pg_temp.capture(900) AS r;
SELECT pg_temp.expire((SELECT (r ->> 'parkedChangeId')::uuid FROM j3));
SELECT is(corebank.core_transaction_get((SELECT (r ->> 'id')::uuid FROM j3)) ->> 'approvalStatus', 'LAPSED',
          'an overdue release reads LAPSED');
SELECT throws_ok($$SELECT corebank.core_transaction_post((SELECT (r ->> 'id')::uuid FROM j3), pg_temp.operator())$$,
                 'CB409', 'approval was refused or lapsed; abandon the journal', 'a lapsed journal cannot post');
SELECT is(corebank.core_transaction_abandon((SELECT (r ->> 'id')::uuid FROM j3), pg_temp.maker()) ->> 'status',
          'CANCELLED', 'a lapsed journal is abandoned');
SELECT is((SELECT status FROM corebank.parked_changes WHERE id = (SELECT (r ->> 'parkedChangeId')::uuid FROM j3)), 'LAPSED',
          'abandoning stored the lapse');

-- Capture validation.
SELECT throws_ok($$SELECT pg_temp.capture(500, '{"entries": [{"glAccountCode": "5200", "side": "DEBIT", "amount": "5.00"}, {"glAccountCode": "1000", "side": "CREDIT", "amount": "4.99"}]}')$$,
                 'CB422', 'transaction is not balanced in USD', 'an unbalanced journal is refused at capture');
SELECT throws_ok($$SELECT pg_temp.capture(500, '{"entries": [{"glAccountCode": "9999", "side": "DEBIT", "amountMinor": 1}, {"glAccountCode": "1000", "side": "CREDIT", "amountMinor": 1}]}')$$,
                 'CB404', 'entries[0].glAccountCode: no GL account 9999 in USD', 'an unknown GL code');
SELECT throws_ok($$SELECT pg_temp.capture(500, '{"entries": [{"glAccountCode": "5200", "side": "DEBIT", "amount": "1.234"}, {"glAccountCode": "1000", "side": "CREDIT", "amount": "1.234"}]}')$$,
                 'CBV00', 'entries[0].amount: must be a positive decimal amount with at most 2 decimals', 'three decimals');
UPDATE corebank.gl_accounts SET allow_manual = false WHERE code = '2900' AND currency = 'USD';
SELECT throws_ok($$SELECT pg_temp.capture(500, '{"entries": [{"glAccountCode": "2900", "side": "DEBIT", "amountMinor": 1}, {"glAccountCode": "1000", "side": "CREDIT", "amountMinor": 1}]}')$$,
                 'CB422', 'GL account 2900 (USD) does not allow manual posting', 'manual posting not allowed');
INSERT INTO corebank.accounting_periods (period, status, closed_at) VALUES ('2024-04', 'CLOSED', now());
SELECT throws_ok($$SELECT pg_temp.capture(500, '{"valueDate": "2024-04-30"}')$$,
                 'CB422', 'accounting period 2024-04 is closed', 'capture into a closed period');
SELECT throws_ok($$SELECT corebank.core_transaction_capture('{"entries": []}', NULL)$$, 'CBV00', 'actor: is required',
                 'an actor is required');
SELECT is(pg_temp.capture(1234, '{"currency": "ZWG", "entries": [{"glAccountCode": "5200", "side": "DEBIT", "amount": 12.34}, {"glAccountCode": "1000", "side": "CREDIT", "amount": "12.34"}]}') ->> 'currency',
          'ZWG', 'a decimal amount (number or string) in the journal''s currency');

SELECT is(corebank.core_transaction_capture('{"lines": [{"glAccountCode": "5200", "side": "D", "amountMinor": 5}, {"glAccountCode": "1000", "side": "C", "amountMinor": 5}]}',
                                           pg_temp.maker()) ->> 'status', 'PENDING', 'the lines may also be called lines');
SELECT throws_ok($$SELECT pg_temp.capture(5, '{"lines": []}')$$, 'CBV00', 'entries: give entries or lines, not both',
                 'entries and lines together are refused');
SELECT is((SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys((SELECT r FROM p1)) AS k),
          ARRAY['amount', 'amountMinor', 'approvalStatus', 'branchCode', 'branchId', 'chain', 'channel', 'createdAt',
                'currency', 'description', 'entries', 'hash', 'id', 'idempotencyKey', 'makerId', 'operatorId',
                'parkedChangeId', 'postedAt', 'reference', 'released', 'reversedById', 'reversesId', 'state', 'status',
                'totals', 'type', 'valueDate'],
          'the TransactionResponse members');
SELECT ok((SELECT r ->> 'hash' FROM p1) ~ '^[0-9a-f]{64}$', 'a posted transaction shows its chain hash');

-- Idempotent capture.
CREATE TEMP TABLE k1 AS SELECT pg_temp.capture(600, '{"idempotencyKey": "cap-1"}') AS r;
SELECT is(pg_temp.capture(600, '{"idempotencyKey": "cap-1"}') ->> 'id', (SELECT r ->> 'id' FROM k1),
          'a repeated capture returns the same journal');
SELECT throws_ok($$SELECT pg_temp.capture(601, '{"idempotencyKey": "cap-1"}')$$, 'CB409',
                 'idempotencyKey was already used for a different request', 'another capture under the key');

-- Reversal of a posted transaction.
CREATE TEMP TABLE acct AS SELECT pg_temp.open_account('2000', 0) AS id;
CREATE TEMP TABLE d1 AS SELECT pg_temp.deposit((SELECT id FROM acct), 2500, 'DEP-R') AS r;
SELECT throws_ok($$SELECT corebank.core_transaction_reverse_request((SELECT (r ->> 'id')::uuid FROM d1), repeat('x', 1001), pg_temp.maker())$$,
                 'CBV00', 'reason: must be at most 1000 characters', 'the reason is bounded');
CREATE TEMP TABLE rv AS SELECT corebank.core_transaction_reverse_request((SELECT (r ->> 'id')::uuid FROM d1), 'duplicate', pg_temp.maker()) AS r;
SELECT is((SELECT r ->> 'operation' FROM rv), 'transaction.reverse', 'the reversal is parked');
SELECT is((SELECT r -> 'payload' ->> 'reason' FROM rv), 'duplicate', 'the reason is shown to the checker');
SELECT throws_ok($$SELECT corebank.core_transaction_reverse_request((SELECT (r ->> 'id')::uuid FROM d1), NULL, pg_temp.maker())$$,
                 'CB409', 'a transaction.reverse of this transaction is already awaiting approval', 'one pending reversal');
SELECT is(pg_temp.balance((SELECT id FROM acct)), 2500::bigint, 'parking the reversal changed nothing');
CREATE TEMP TABLE ra AS SELECT corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM rv), pg_temp.checker(), NULL) AS r;
SELECT is((SELECT r -> 'result' ->> 'reversesId' FROM ra), (SELECT r ->> 'id' FROM d1), 'the approval posted the reversal');
SELECT is((SELECT r -> 'result' -> 'entries' -> 1 ->> 'side' FROM ra), 'DEBIT', 'with the sides swapped');
SELECT is((SELECT r -> 'result' ->> 'valueDate' FROM ra), '2024-06-15', 'on the business date');
SELECT is(pg_temp.balance((SELECT id FROM acct)), 0::bigint, 'the customer balance is back');
SELECT is(corebank.core_transaction_get((SELECT (r ->> 'id')::uuid FROM d1)) ->> 'status', 'REVERSED', 'the original is REVERSED');
SELECT throws_ok($$SELECT corebank.core_transaction_reverse_request((SELECT (r ->> 'id')::uuid FROM d1), NULL, pg_temp.maker())$$,
                 'CB409', 'transaction is already reversed', 'a reversed transaction cannot be reversed again');
SELECT throws_ok($$SELECT corebank.core_transaction_reverse_request((SELECT (r -> 'result' ->> 'id')::uuid FROM ra), NULL, pg_temp.maker())$$,
                 'CB422', 'a reversal cannot be reversed; post a new transaction', 'a reversal cannot be reversed');

-- Get and search.
SELECT throws_ok($$SELECT corebank.core_transaction_get(gen_random_uuid())$$, 'CB404', 'Transaction not found', 'get: unknown id');
SELECT is((corebank.core_transaction_search('{"status": "CANCELLED"}') ->> 'totalElements')::int, 2, 'search by status');
SELECT is((corebank.core_transaction_search('{"state": "REVERSED"}') -> 'content' -> 0 ->> 'reference'), 'DEP-R', 'search by state');
SELECT is((corebank.core_transaction_search('{"glAccountCode": "5200", "size": 2, "page": 0}') - 'content'),
          '{"page": 0, "size": 2, "totalPages": 3, "totalElements": 6}'::jsonb, 'search by GL code, paged');
SELECT throws_ok($$SELECT corebank.core_transaction_search('{"size": 201}')$$, 'CBV00', 'size: must be an integer from 1 to 200',
                 'the page size is bounded');
SELECT throws_ok($$SELECT corebank.core_transaction_search('[]')$$, 'CBV00', 'filter: must be a JSON object', 'the filter is an object');
SELECT throws_ok($$SELECT corebank.core_transaction_search('{"page": -1}')$$, 'CBV00', 'page: must be an integer from 0 to 1000000',
                 'the page is bounded');
SELECT is((corebank.core_transaction_search(NULL) - 'content') - 'totalElements' - 'totalPages',
          jsonb_build_object('page', 0, 'size', corebank_internal.limit_page_size_default()), 'no filter: the first page of the default size');

SELECT * FROM finish();
ROLLBACK;
