-- deposits_profitability.sql: customer profitability as the spec defines it.
--
-- Goal: income, not profit: revenue GL postings (INCOME accounts) on
-- transactions that actually posted, where the customer was the only party,
-- per GL account and currency; a transaction shared with another customer is
-- reported separately with its full amount, not split; reversed
-- transactions and their reversals count for nothing. Method: post fees,
-- a shared penalty and a reversed fee, then read the report.
BEGIN;
SELECT plan(14);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-02-02');
CREATE TEMP TABLE a AS SELECT pg_temp.customer('Anesu', 'N-60') AS id;
CREATE TEMP TABLE b AS SELECT pg_temp.customer('Blessing', 'N-61') AS id;
CREATE TEMP TABLE a_cur AS SELECT pg_temp.open((SELECT id FROM a), 'CUR-STD') AS id;
CREATE TEMP TABLE a_zwg AS SELECT pg_temp.open((SELECT id FROM a), 'CUR-ZWG') AS id;
CREATE TEMP TABLE a_fd AS SELECT pg_temp.open((SELECT id FROM a), 'FD-3M', 100000) AS id;
CREATE TEMP TABLE b_cur AS SELECT pg_temp.open((SELECT id FROM b), 'CUR-STD') AS id;
SELECT pg_temp.put((SELECT id FROM a_cur), 10000);
SELECT pg_temp.put((SELECT id FROM a_zwg), 100000);

-- Sole: two USD fees and one ZWG fee, and a fee that is reversed.
SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM a_cur), 'amountMinor', 300, 'description', 'statement'), pg_temp.operator());
SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM a_cur), 'amountMinor', 200, 'description', 'sms'), pg_temp.operator());
SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM a_zwg), 'amountMinor', 1500, 'description', 'sms'), pg_temp.operator());
CREATE TEMP TABLE wrong AS SELECT (corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM a_cur), 'amountMinor', 999,
                                                     'description', 'charged in error'), pg_temp.operator()) ->> 'id')::uuid AS id;
SELECT corebank.core_approval_approve(
    (corebank.core_transaction_reverse_request((SELECT id FROM wrong), 'error', pg_temp.maker()) ->> 'id')::uuid,
    pg_temp.checker(), NULL);
-- Shared: an early transfer out of A's fixed deposit to B pays a 2% penalty.
SELECT pg_temp.move((SELECT id FROM a_fd), (SELECT id FROM b_cur), 50000);

CREATE TEMP TABLE p AS SELECT corebank.core_customers_profitability((SELECT id FROM a), '2026-02-01', '2026-02-28') AS r;
SELECT is((SELECT r -> 'sole' FROM p),
          '[{"revenue": "5.00", "currency": "USD", "revenueMinor": 500, "glAccountCode": "4100", "glAccountName": "Fee and commission income", "transactionCount": 2},
            {"revenue": "15.00", "currency": "ZWG", "revenueMinor": 1500, "glAccountCode": "4100", "glAccountName": "Fee and commission income", "transactionCount": 1}]'::jsonb,
          'sole-party revenue per GL account and currency; the reversed fee counts for nothing');
SELECT is((SELECT r -> 'shared' FROM p),
          '[{"revenue": "10.00", "currency": "USD", "revenueMinor": 1000, "glAccountCode": "4100", "glAccountName": "Fee and commission income", "transactionCount": 1}]'::jsonb,
          'the shared transaction is reported separately, in full');
SELECT is((SELECT r ->> 'basis' FROM p), 'INCOME', 'it is income, not profit');
SELECT is((SELECT r -> 'totals' FROM p),
          '[{"currency": "USD", "soleMinor": 500, "sharedMinor": 1000}, {"currency": "ZWG", "soleMinor": 1500, "sharedMinor": 0}]'::jsonb,
          'totals per currency');
SELECT is((SELECT corebank.core_customers_profitability((SELECT id FROM b), '2026-02-01', '2026-02-28') -> 'shared' -> 0 ->> 'revenueMinor'),
          '1000', 'the other party sees the same shared revenue, not split');
SELECT is((SELECT corebank.core_customers_profitability((SELECT id FROM b), '2026-02-01', '2026-02-28') -> 'sole'), '[]'::jsonb,
          'and nothing sole');
SELECT is((SELECT corebank.core_customers_profitability((SELECT id FROM a), '2026-03-01', '2026-03-31') -> 'sole'), '[]'::jsonb,
          'the range is by value date');
SELECT throws_ok($$SELECT corebank.core_customers_profitability((SELECT id FROM a), '2026-03-01', '2026-01-01')$$,
                 'CBV00', 'to: must be on or after from and at most 366 days later', 'a reversed range');
SELECT throws_ok($$SELECT corebank.core_customers_profitability('00000000-0000-4000-8000-00000000dead', NULL, NULL)$$,
                 'CB404', 'Customer not found', 'an unknown customer');

-- The period rule of statements and reports (deposit_period), business date 2026-02-02.
SELECT is((SELECT (p.first_day, p.last_day)::text FROM corebank_internal.deposit_period(NULL, NULL) p),
          '(2026-02-01,2026-02-02)', 'no dates: the business month so far');
SELECT is((SELECT (p.first_day, p.last_day)::text FROM corebank_internal.deposit_period('2025-02-02', '2026-02-03') p),
          '(2025-02-02,2026-02-03)', '366 days is allowed');
SELECT throws_ok($$SELECT corebank_internal.deposit_period('2025-02-01', '2026-02-03')$$,
                 'CBV00', 'to: must be on or after from and at most 366 days later', '367 is not');
SELECT throws_ok($$SELECT corebank.core_statement((SELECT id FROM corebank.deposit_accounts LIMIT 1), '2026-03-01', NULL)$$,
                 'CBV00', 'to: must be on or after from and at most 366 days later', 'a statement starting after today needs a to');
SELECT throws_ok($$SELECT corebank.core_interest_accruals_list((SELECT id FROM corebank.deposit_accounts LIMIT 1), NULL, '2026-01-01')$$,
                 'CBV00', 'to: must be on or after from and at most 366 days later', 'the accruals list has the same rule');

SELECT * FROM finish();
ROLLBACK;
