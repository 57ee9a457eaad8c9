-- ledger_post.sql: corebank.ledger_post, the posting contract.
--
-- Goal: a valid request posts a balanced transaction (entries, customer
-- balance, GL stripes, first posting, hash chain) and renders the
-- TransactionResponse; every malformed request is CBV00 with the field
-- named; every refused rule is CB422 (or CB404 for unknown ids) and writes
-- nothing. Method: post through the function and read the tables.
BEGIN;
SELECT plan(47);
\ir helpers/ledger.sql

CREATE TEMP TABLE acct AS SELECT pg_temp.open_account('2000', 0) AS id;
CREATE TEMP TABLE posted AS SELECT pg_temp.deposit((SELECT id FROM acct), 1234, 'DEP-1') AS r;

-- The happy path and its response.
SELECT is((SELECT r ->> 'status' FROM posted), 'POSTED', 'the deposit is POSTED');
SELECT is((SELECT r ->> 'state' FROM posted), 'POSTED', 'state mirrors status');
SELECT is((SELECT r ->> 'amount' FROM posted), '12.34', 'amount is a decimal string');
SELECT is((SELECT (r ->> 'amountMinor')::bigint FROM posted), 1234::bigint, 'amountMinor is an integer');
SELECT is((SELECT r -> 'entries' -> 0 ->> 'side' FROM posted), 'DEBIT', 'sides render as DEBIT/CREDIT');
SELECT is((SELECT r -> 'entries' -> 1 ->> 'accountNumber' FROM posted),
          (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acct)),
          'customer lines carry the account number');
SELECT ok((SELECT r ->> 'postedAt' FROM posted) ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$',
          'timestamps are ISO 8601 UTC');
SELECT is((SELECT r ->> 'valueDate' FROM posted), corebank.business_today()::text,
          'the value date defaults to the business date');
SELECT is((SELECT count(*) FROM corebank.journal_entries
           WHERE transaction_id = (SELECT (r ->> 'id')::uuid FROM posted)), 2::bigint, 'two entries were written');
SELECT is(pg_temp.balance((SELECT id FROM acct)), 1234::bigint, 'the customer balance rose by the credit');
SELECT is((SELECT sum(debit_minor)::bigint FROM corebank.gl_balance_stripes WHERE gl_account_id = pg_temp.gl('1000')),
          1234::bigint, 'the cash GL stripes carry the debit');
SELECT isnt((SELECT first_posted_at FROM corebank.gl_accounts WHERE id = pg_temp.gl('1000')), NULL,
            'the first posting is recorded on the GL account');
SELECT is((SELECT first_posted_at FROM corebank.gl_accounts WHERE id = pg_temp.gl('1000', 'ZWG')), NULL,
          'its ZWG mirror was not posted to');
SELECT is((SELECT sum(seq)::bigint FROM corebank.chain_heads), 1::bigint, 'one chain moved by one link');
SELECT lives_ok('SET CONSTRAINTS ALL IMMEDIATE', 'the deferred balance check accepts the posting');
SET CONSTRAINTS ALL DEFERRED;
-- The deferred check runs at COMMIT as the session's role (the tier's).
CREATE TEMP TABLE app_request AS
    SELECT pg_temp.request(jsonb_build_array(pg_temp.gl_line('1900', 'D', 1), pg_temp.gl_line('4100', 'C', 1))) AS r;
GRANT SELECT ON app_request TO corebank_app;
SET ROLE corebank_app;
SELECT lives_ok($$SELECT corebank.ledger_post((SELECT r FROM app_request)); SET CONSTRAINTS ALL IMMEDIATE$$,
                'the deferred balance check works when the tier''s role commits');
RESET ROLE;
SET CONSTRAINTS ALL DEFERRED;

-- A line may name both the customer account and its control GL account.
SELECT is(pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 100),
                                         pg_temp.account_line((SELECT id FROM acct), 'C', 100)
                                             || jsonb_build_object('glAccountId', pg_temp.gl('2000')))) ->> 'status',
          'POSTED', 'an account line may also name its control GL account');

-- Malformed requests: CBV00 naming the field.
SELECT throws_ok($$SELECT corebank.ledger_post(NULL)$$, 'CBV00', 'request: is required', 'a NULL request');
SELECT throws_ok($$SELECT corebank.ledger_post('[]')$$, 'CBV00', 'request: must be a JSON object', 'a non-object');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1)))$$,
                 'CBV00', 'lines: must have 2 to 256 lines', 'one line');
SELECT throws_ok($$SELECT pg_temp.post((SELECT jsonb_agg(pg_temp.gl_line('1000', CASE WHEN n % 2 = 0 THEN 'D' ELSE 'C' END, 1))
                                        FROM generate_series(1, 257) AS n))$$,
                 'CBV00', 'lines: must have 2 to 256 lines', '257 lines');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'X', 1), pg_temp.gl_line('1900', 'C', 1)))$$,
                 'CBV00', 'lines[0].side: must be DEBIT or CREDIT (D or C)', 'a bad side');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 0), pg_temp.gl_line('1900', 'C', 0)))$$,
                 'CBV00', 'lines[0].amountMinor: must be greater than zero', 'a zero amount');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1) || '{"amountMinor": 1.5}',
                                                         pg_temp.gl_line('1900', 'C', 1)))$$,
                 'CBV00', 'lines[0].amountMinor: must be a positive integer number of minor units', 'a fractional amount');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1) || '{"amountMinor": 1000000000000001}',
                                                         pg_temp.gl_line('1900', 'C', 1)))$$,
                 'CBV00', 'lines[0].amountMinor: is too large', 'an amount over the bound');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1) - 'currency', pg_temp.gl_line('1900', 'C', 1)))$$,
                 'CBV00', 'lines[0].currency: is required', 'a line without currency');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1) || '{"currency": "usd"}', pg_temp.gl_line('1900', 'C', 1)))$$,
                 'CBV00', 'lines[0].currency: must be an ISO 4217 code such as USD', 'a malformed currency');
SELECT throws_ok($$SELECT corebank.ledger_post(pg_temp.request(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1))) - 'operatorId')$$,
                 'CBV00', 'operatorId: is required', 'no operator');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'R', '{"type": "GIFT"}')$$,
                 'CBV00', 'type: is not a known transaction type', 'an unknown type');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), repeat('r', 65))$$,
                 'CBV00', 'reference: must be at most 64 characters', 'a reference over 64 characters');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'R', '{"valueDate": "2024-02-30"}')$$,
                 'CBV00', 'valueDate: must be a date YYYY-MM-DD', 'an impossible date');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'R', '{"channel": "bad channel"}')$$,
                 'CBV00', 'channel: must be 1 to 32 of A-Z a-z 0-9 _ . -', 'a channel with a space');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), jsonb_build_object('glAccountId', 'nope', 'side', 'C', 'amountMinor', 1, 'currency', 'USD')))$$,
                 'CBV00', 'lines[1].glAccountId: must be a UUID', 'a malformed id');

-- Refused rules: CB422 / CB404, nothing written.
CREATE TEMP TABLE before AS SELECT count(*) AS n FROM corebank.journal_entries;
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 100), pg_temp.gl_line('1900', 'C', 99)))$$,
                 'CB422', 'transaction is not balanced in USD', 'unbalanced');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 100), pg_temp.gl_line('1900', 'C', 100),
                                                         pg_temp.gl_line('1000', 'D', 5, 'ZWG'), pg_temp.gl_line('1900', 'C', 4, 'ZWG')))$$,
                 'CB422', 'transaction is not balanced in ZWG', 'balanced in USD but not in ZWG');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 100) || '{"currency": "ZWG"}', pg_temp.gl_line('1900', 'C', 100, 'ZWG')))$$,
                 'CB422', 'lines[0]: GL account 1000 (USD) does not take ZWG', 'a GL account of another currency');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1) || jsonb_build_object('glAccountId', gen_random_uuid()), pg_temp.gl_line('1900', 'C', 1)))$$,
                 'CB404', 'lines[0].glAccountId: GL account not found', 'an unknown GL account');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.account_line(gen_random_uuid(), 'C', 1)))$$,
                 'CB404', 'lines[1].accountId: account not found', 'an unknown customer account');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.account_line((SELECT id FROM acct), 'C', 1) || jsonb_build_object('glAccountId', pg_temp.gl('2010'))))$$,
                 'CB422', NULL, 'an account line on another GL account than its control account');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'R', jsonb_build_object('branchId', gen_random_uuid()))$$,
                 'CB404', 'branchId: branch not found', 'an unknown branch');
UPDATE corebank.branches SET active = false WHERE code = 'MSV';
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'R', jsonb_build_object('branchId', pg_temp.branch('MSV')))$$,
                 'CB422', 'branch MSV is inactive', 'an inactive branch');
UPDATE corebank.gl_accounts SET active = false WHERE code = '1300' AND currency = 'USD';
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1300', 'D', 1), pg_temp.gl_line('1900', 'C', 1)))$$,
                 'CB422', 'GL account 1300 (USD) is inactive', 'an inactive GL account');
UPDATE corebank.ledger_accounts SET status = 'FROZEN' WHERE id = (SELECT id FROM acct);
SELECT throws_ok($$SELECT pg_temp.deposit((SELECT id FROM acct), 1)$$,
                 'CB422', NULL, 'a FROZEN account takes no posting (issue 4 refines the rules)');
UPDATE corebank.ledger_accounts SET status = 'ACTIVE' WHERE id = (SELECT id FROM acct);
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)), 'R',
                                       jsonb_build_object('valueDate', to_char(corebank.business_today() + 1, 'YYYY-MM-DD')))$$,
                 'CB422', 'valueDate must not be after the business date ' || corebank.business_today(), 'a future value date');
SELECT is((SELECT count(*) FROM corebank.journal_entries), (SELECT n FROM before), 'no refused request wrote an entry');

-- ZWG: a ZWG account posts on the ZWG mirrors.
CREATE TEMP TABLE zacct AS SELECT pg_temp.open_account('2000', 0, 'ZWG') AS id;
SELECT is(pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 700, 'ZWG'),
                                         pg_temp.account_line((SELECT id FROM zacct), 'C', 700, 'ZWG'))) ->> 'currency',
          'ZWG', 'a ZWG posting');
SELECT is((SELECT count(*) FROM corebank.ledger_check_balances()), 0::bigint, 'the balances are healthy');

SELECT * FROM finish();
ROLLBACK;
