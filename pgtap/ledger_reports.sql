-- ledger_reports.sql: the auditor's and reporting functions after many
-- postings.
--
-- Goal: after 300 postings across accounts, currencies and value dates the
-- trial balance is zero per currency (as of any date), GL balances agree
-- with the stripes, a customer statement's running balance ends at the
-- account balance, every chain verifies and ledger_check_balances is empty;
-- the auditor and reporting roles can read exactly what the contract gives
-- them. Method: post in a loop, then compare the reports with sums of the
-- journal.
BEGIN;
SELECT plan(23);
\ir helpers/ledger.sql

UPDATE corebank.platform_config SET today_override = '2024-06-15';
CREATE TEMP TABLE accts AS SELECT n, pg_temp.open_account(CASE WHEN n % 2 = 0 THEN '2000' ELSE '2010' END, 0) AS id
                           FROM generate_series(1, 5) AS n;
CREATE TEMP TABLE zacct AS SELECT pg_temp.open_account('2000', 0, 'ZWG') AS id;

-- 100 deposits on three value dates, 100 transfers between customers, 50
-- fees, 50 ZWG deposits.
SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1000 + i),
                                      pg_temp.account_line((SELECT id FROM accts WHERE accts.n = 1 + i % 5), 'C', 1000 + i)),
                    'D' || i, jsonb_build_object('valueDate', CASE i % 3 WHEN 0 THEN '2024-05-30' WHEN 1 THEN '2024-06-01' ELSE '2024-06-15' END))
FROM generate_series(1, 100) AS i;
SELECT pg_temp.post(jsonb_build_array(pg_temp.account_line((SELECT id FROM accts WHERE accts.n = 1 + i % 5), 'D', 10 + i),
                                      pg_temp.account_line((SELECT id FROM accts WHERE accts.n = 1 + (i + 1) % 5), 'C', 10 + i)),
                    'T' || i)
FROM generate_series(1, 100) AS i;
SELECT pg_temp.post(jsonb_build_array(pg_temp.account_line((SELECT id FROM accts WHERE accts.n = 1 + i % 5), 'D', 25),
                                      pg_temp.gl_line('4100', 'C', 25)), 'F' || i, '{"type": "FEE"}')
FROM generate_series(1, 50) AS i;
SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 3000, 'ZWG'),
                                      pg_temp.account_line((SELECT id FROM zacct), 'C', 3000, 'ZWG')), 'Z' || i)
FROM generate_series(1, 50) AS i;

SELECT is((SELECT count(*) FROM corebank.transactions WHERE status = 'POSTED'), 300::bigint, '300 transactions posted');
SELECT lives_ok('SET CONSTRAINTS ALL IMMEDIATE', 'every one of them is balanced at commit');

-- Trial balance: zero per currency, today and in the past.
SELECT results_eq($$SELECT currency, sum(debit_minor)::bigint = sum(credit_minor)::bigint
                    FROM corebank.trial_balance_as_of('2024-06-15') GROUP BY currency ORDER BY currency$$,
                  $$VALUES ('USD'::text, true), ('ZWG'::text, true)$$, 'the trial balance is zero per currency');
SELECT is((SELECT sum(debit_minor)::bigint FROM corebank.trial_balance_as_of('2024-06-15') WHERE currency = 'USD'),
          (SELECT sum(1000 + n)::bigint FROM generate_series(1, 100) AS n),
          'USD trial balance total = the cash debited');
SELECT is((SELECT sum(debit_minor) - sum(credit_minor) FROM corebank.trial_balance_as_of('2024-05-31')), 0::numeric,
          'the trial balance as of May is zero too');
SELECT is((SELECT debit_minor FROM corebank.trial_balance_as_of('2024-05-31') WHERE code = '1000' AND currency = 'USD'),
          (SELECT sum(1000 + n)::bigint FROM generate_series(1, 100) AS n WHERE n % 3 = 0),
          'as of May only the May deposits count');
SELECT is_empty($$SELECT * FROM corebank.trial_balance_as_of('2024-01-01')$$, 'nothing before the first posting');
SELECT results_eq($$SELECT gl_account_id, debit_minor, credit_minor FROM corebank.trial_balance_as_of('2024-06-15')$$,
                  $$SELECT g.id, greatest(sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE -e.amount_minor END), 0)::bigint,
                           greatest(sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END), 0)::bigint
                    FROM corebank.gl_accounts g JOIN corebank.journal_entries e ON e.gl_account_id = g.id
                    WHERE e.value_date <= '2024-06-15' GROUP BY g.id, g.currency, g.code ORDER BY g.currency, g.code$$,
                  'the trial balance lists every account posted to, its net in one column, by currency and code');
SELECT throws_ok($$SELECT * FROM corebank.trial_balance_as_of(NULL)$$, 'CBV00', 'as_of: is required', 'the date is required');

-- GL balances as of a date, in the normal direction.
SELECT is((SELECT balance_minor FROM corebank.gl_balances_as_of('2024-06-15') WHERE code = '4100' AND currency = 'USD'),
          1250::bigint, 'fee income is credit-normal and positive');
SELECT is((SELECT balance_minor FROM corebank.gl_balances_as_of('2024-06-15') WHERE code = '1000' AND currency = 'ZWG'),
          150000::bigint, 'ZWG cash is debit-normal and positive');
SELECT is((SELECT count(*) FROM corebank.gl_balances_as_of('2024-06-15')), 46::bigint, 'every GL account is listed');
SELECT is_empty($$SELECT g.code FROM corebank.gl_balances g JOIN corebank.gl_balances_as_of('2024-06-15') a USING (gl_account_id)
                  WHERE g.balance_minor <> a.balance_minor$$, 'the stripes agree with the journal');

-- A statement: opening balance, running balance, closing = account balance.
CREATE TEMP TABLE st AS SELECT * FROM corebank.account_statement((SELECT id FROM accts WHERE n = 1), '2024-06-01', '2024-06-15');
SELECT is((SELECT opening_balance_minor FROM st LIMIT 1),
          (SELECT sum(CASE side WHEN 'C' THEN amount_minor ELSE -amount_minor END)::bigint FROM corebank.journal_entries
           WHERE ledger_account_id = (SELECT id FROM accts WHERE n = 1) AND value_date < '2024-06-01'),
          'the opening balance is everything before the period');
SELECT is((SELECT balance_minor FROM st ORDER BY value_date DESC, entry_id DESC LIMIT 1),
          pg_temp.balance((SELECT id FROM accts WHERE n = 1)), 'the statement closes at the account balance');
SELECT throws_ok($$SELECT * FROM corebank.account_statement(gen_random_uuid(), '2024-06-01', '2024-06-15')$$,
                 'CB404', 'Account not found', 'a statement of an unknown account');
SELECT throws_ok($$SELECT * FROM corebank.account_statement((SELECT id FROM accts WHERE n = 1), '2024-06-15', '2024-06-01')$$,
                 'CBV00', NULL, 'a statement whose end is before its start');

SELECT is_empty('SELECT * FROM corebank.ledger_verify_chain()', 'every chain verifies');
SELECT is_empty('SELECT * FROM corebank.ledger_check_balances()', 'ledger_check_balances is empty');

-- Roles: the auditor reads the journal and runs the checks; no writes.
SET ROLE corebank_auditor;
SELECT is((SELECT count(*) FROM corebank.journal_entries), 600::bigint, 'the auditor reads the journal');
SELECT is_empty('SELECT * FROM corebank.ledger_verify_chain()', 'the auditor runs ledger_verify_chain');
SELECT throws_ok($$SELECT pg_temp.deposit((SELECT id FROM accts WHERE n = 1), 1)$$, '42501', NULL,
                 'the auditor cannot post');
RESET ROLE;
SET ROLE corebank_reporting;
SELECT is((SELECT count(*) FROM corebank.gl_balances), 46::bigint, 'reporting reads the GL balance view');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
