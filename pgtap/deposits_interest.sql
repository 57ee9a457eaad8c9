-- deposits_interest.sql: daily accrual and month-end posting (issue 4).
--
-- Goal: a month of accrual and posting matches hand-computed figures for a
-- simple, a compound and a tiered product (docs/design/deposits.md, worked
-- example: June 2026, 10,000.00 each, 30 days): SIMPLE 3.65% posts 30.00,
-- COMPOUND 3.65% posts 30.04 (3004.354060 minor units, half-even), SAV-TIER
-- (1% / 2% / 3% bands) posts 15.62 (1561.643850). Every accrual and posting
-- is a balanced INTEREST_ACCRUAL journal entry: daily Dr 5000 / Cr 2100, at
-- month end Dr 2100 / Cr the account, so interest payable nets to zero. The
-- run is idempotent and catches up missed days; maintenance fees are charged
-- at month end or skipped with a reason. Method: open the accounts on 1 June,
-- run 30 June, read the journal.
BEGIN;
SELECT plan(37);
\ir helpers/deposits.sql

-- The hand-computed rates: 3.65% makes 10,000.00 earn exactly 1.00 a day.
UPDATE corebank.deposit_products SET annual_rate_bp = 365 WHERE code IN ('SAV-STD', 'SAV-PLUS');
SELECT pg_temp.today('2026-06-01');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Tatenda', 'N-40') AS id;
CREATE TEMP TABLE simple AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 1000000) AS id;
CREATE TEMP TABLE compound AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-PLUS', 1000000) AS id;
CREATE TEMP TABLE tiered AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-TIER', 1000000) AS id;
CREATE TEMP TABLE fee_ok AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
CREATE TEMP TABLE fee_poor AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
CREATE TEMP TABLE pending AS SELECT pg_temp.open((SELECT id FROM ids), 'TRUST-USD') AS id;
SELECT pg_temp.put((SELECT id FROM fee_ok), 2000);
SELECT pg_temp.put((SELECT id FROM fee_poor), 300);

SELECT throws_ok($$SELECT corebank.core_interest_run('2026-06-30', NULL)$$,
                 'CB422', 'date: must not be after the business date 2026-06-01', 'no run for a future date');
SELECT pg_temp.today('2026-06-30');
CREATE TEMP TABLE run AS SELECT corebank.core_interest_run('2026-06-30', pg_temp.operator()) AS r;

-- The month's accrual, day by day.
SELECT is((SELECT (r ->> 'daysProcessed')::int FROM run), 30, 'June''s 30 days are processed');
SELECT is((SELECT count(*) FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM simple)), 30::bigint,
          'one accrual per day');
SELECT is((SELECT count(DISTINCT accrual_micro) || ':' || min(accrual_micro)::text
           FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM simple)), '1:100000000',
          'SIMPLE accrues exactly 1.00 (10^8 micro-minor units) every day');
SELECT is((SELECT accrual_micro FROM corebank.interest_accruals
           WHERE account_id = (SELECT id FROM compound) AND accrual_date = '2026-06-02'), 100010000::numeric,
          'COMPOUND day 2 earns on 10,001.00: 100.01 minor units');
SELECT is((SELECT cumulative_micro FROM corebank.interest_accruals
           WHERE account_id = (SELECT id FROM compound) AND accrual_date = '2026-06-30'), 3004354060::numeric,
          'COMPOUND cumulates 3004.354060 minor units in June');
SELECT is((SELECT min(accrual_micro) FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM tiered)),
          52054795::numeric, 'SAV-TIER: 100,000 x 1% + 900,000 x 2% a year = 52.054795 a day');
SELECT is((SELECT cumulative_micro FROM corebank.interest_accruals
           WHERE account_id = (SELECT id FROM tiered) AND accrual_date = '2026-06-30'), 1561643850::numeric,
          'SAV-TIER cumulates 1561.643850 in June');
SELECT is((SELECT min(rate_bp) FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM tiered)), 190,
          'its effective rate is 1.90%');
SELECT is((SELECT sum(journal_minor)::bigint FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM compound)),
          3004::bigint, 'the daily journal amounts sum to the rounded month');

-- Month-end postings: hand-computed figures.
SELECT is(pg_temp.bal((SELECT id FROM simple)), 1003000::bigint, 'SIMPLE posts 30.00 on 30 June');
SELECT is(pg_temp.bal((SELECT id FROM compound)), 1003004::bigint, 'COMPOUND posts 30.04 (half-even)');
SELECT is(pg_temp.bal((SELECT id FROM tiered)), 1001562::bigint, 'SAV-TIER posts 15.62 (half-even)');
SELECT is((SELECT r -> 'interestPostedMinor' FROM run), '[{"currency": "USD", "amountMinor": 7566}]'::jsonb,
          'the run reports 75.66 posted');
SELECT is((SELECT count(*) FROM corebank.transactions t JOIN corebank.journal_entries e ON e.transaction_id = t.id
           WHERE e.ledger_account_id = (SELECT id FROM simple) AND t.type = 'INTEREST_ACCRUAL' AND t.value_date = '2026-06-30'),
          1::bigint, 'the posting is an INTEREST_ACCRUAL transaction on the account, value date 30 June');
SELECT is((SELECT t.reference FROM corebank.transactions t JOIN corebank.journal_entries e ON e.transaction_id = t.id
           WHERE e.ledger_account_id = (SELECT id FROM simple) AND t.type = 'INTEREST_ACCRUAL'),
          'INT-202606-' || (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM simple)),
          'referenced by month and account');
SELECT is((SELECT count(*) FROM corebank.interest_accrual_journals WHERE accrual_date BETWEEN '2026-06-01' AND '2026-06-30'),
          30::bigint, 'one daily accrual journal per day (one currency, one branch)');
SELECT is((SELECT count(*) FROM corebank.transactions WHERE type = 'INTEREST_ACCRUAL' AND status = 'POSTED'), 33::bigint,
          '30 daily accruals and 3 month-end postings, all INTEREST_ACCRUAL');
SELECT is(pg_temp.gl_net('5000'), 7566::bigint, 'interest expense carries the month''s 75.66');
SELECT is(pg_temp.gl_net('2100'), 0::bigint, 'interest payable nets to zero after month end');
SELECT is((SELECT accrued_micro::text || '/' || accrued_minor FROM corebank.deposit_accounts WHERE id = (SELECT id FROM compound)),
          '0/0', 'the accrual state resets');
SELECT ok(pg_temp.ledger_healthy(), 'every posting balanced; balances match the journal');

-- Maintenance fees at month end.
SELECT is(pg_temp.bal((SELECT id FROM fee_ok)), 1500::bigint, 'CUR-STD pays its 5.00 maintenance fee');
SELECT is((SELECT fee_skipped_reason FROM corebank.account_month_ends WHERE account_id = (SELECT id FROM fee_poor)),
          'insufficient funds for the maintenance fee', 'a fee that does not fit is skipped with its reason');
SELECT is((SELECT fee_skipped_reason FROM corebank.account_month_ends WHERE account_id = (SELECT id FROM pending)),
          'account is PENDING_ACTIVATION', 'an account not yet active pays no fee');
SELECT is((SELECT r ->> 'feesCharged' || '/' || (r ->> 'feesSkipped') FROM run), '1/2', 'the run reports them');

-- Idempotent: a day is never accrued twice.
SELECT is((SELECT corebank.core_interest_run('2026-06-30', NULL) ->> 'daysProcessed'), '0', 'running 30 June again does nothing');
SELECT is((SELECT corebank.core_interest_run('2026-06-15', NULL) ->> 'daysProcessed'), '0', 'nor an earlier date');
SELECT is(pg_temp.bal((SELECT id FROM simple)), 1003000::bigint, 'and pays nothing twice');
SELECT throws_ok($$INSERT INTO corebank.interest_accruals (account_id, accrual_date, balance_minor, rate_bp, accrual_micro, cumulative_micro, journal_minor)
                   VALUES ((SELECT id FROM simple), '2026-06-30', 1, 1, 1, 1, 0)$$,
                 '23505', NULL, 'one accrual per account and day, whoever writes');
SELECT throws_ok($$UPDATE corebank.deposit_accounts SET processed_through = '2026-06-01' WHERE id = (SELECT id FROM simple)$$,
                 'CB422', 'the daily run of an account only moves forward', 'the run cannot be rewound');

-- Catch-up of missed days; frozen and dormant accounts still earn.
SELECT corebank.core_accounts_freeze((SELECT id FROM simple), '{"reason": "investigation"}', pg_temp.maker());
UPDATE corebank.ledger_accounts SET status = 'DORMANT' WHERE id = (SELECT id FROM tiered);
SELECT pg_temp.today('2026-07-03');
SELECT is((SELECT corebank.core_interest_run('2026-07-02', NULL) ->> 'daysProcessed'), '2', 'a run catches up 1 and 2 July');
SELECT is((SELECT count(*) FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM simple) AND accrual_date > '2026-06-30'),
          2::bigint, 'a FROZEN account still accrues');
SELECT is((SELECT count(*) FROM corebank.interest_accruals WHERE account_id = (SELECT id FROM tiered) AND accrual_date > '2026-06-30'),
          2::bigint, 'so does a DORMANT one');
SELECT is(jsonb_array_length(corebank.core_interest_accruals_list((SELECT id FROM simple), '2026-06-01', '2026-07-02')), 32,
          'the accruals are listed by the API');

-- The run's per-currency totals: each member summed over the days, in currency order.
SELECT is(corebank_internal.interest_currency_totals(
              '[{"m": {"ZWG": 5, "USD": 100}}, {"m": {"USD": 1}}, {"other": {"USD": 7}}]', 'm'),
          '[{"currency": "USD", "amountMinor": 101}, {"currency": "ZWG", "amountMinor": 5}]'::jsonb,
          'interest_currency_totals sums a member per currency over the days');
SELECT is(corebank_internal.interest_currency_totals('[]', 'm'), '[]'::jsonb, 'and is an empty list for no days');

SELECT * FROM finish();
ROLLBACK;
