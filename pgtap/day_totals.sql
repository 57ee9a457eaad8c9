-- day_totals.sql: the per-day totals of customer and GL accounts (1.8,
-- issue 12 part 4, docs/design/posting-engine.md section 4).
--
-- Goal: account_day_totals and gl_day_totals equal the journal's sums per
-- account and value date after every kind of posting (opening deposit,
-- single transfer, batch, reversal, a back-dated deposit), in this backend's
-- stripe; a back-dated posting changes the balance as of its day and every
-- later day and no earlier day; the balance as of a date equals the old
-- definition (the sum of the entries up to it); only the posting trigger
-- writes the tables; ledger_check_balances reports a tampered total; the
-- reporting roles read them and the tier's role does not.
-- Method: postings through the API, then compare with aggregates of
-- journal_entries; tampering with the writer guard disabled, rolled back.
BEGIN;
SELECT plan(40);
\ir helpers/deposits.sql

-- Rows of the stored totals (summed over stripes) that differ from the
-- journal's sums, for both tables; zero when they agree.
CREATE FUNCTION pg_temp.totals_differ() RETURNS bigint LANGUAGE sql STABLE
    AS $f$
    WITH je AS (
        SELECT e.ledger_account_id AS id, e.value_date AS day,
               sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE 0 END) AS debit,
               sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE 0 END) AS credit
        FROM corebank.journal_entries e WHERE e.ledger_account_id IS NOT NULL GROUP BY 1, 2
    ), jt AS (
        SELECT t.account_id AS id, t.day, sum(t.debit_minor) AS debit, sum(t.credit_minor) AS credit
        FROM corebank.account_day_totals t GROUP BY 1, 2
    ), ge AS (
        SELECT e.gl_account_id AS id, e.value_date AS day,
               sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE 0 END) AS debit,
               sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE 0 END) AS credit
        FROM corebank.journal_entries e GROUP BY 1, 2
    ), gt AS (
        SELECT t.gl_account_id AS id, t.day, sum(t.debit_minor) AS debit, sum(t.credit_minor) AS credit
        FROM corebank.gl_day_totals t GROUP BY 1, 2
    )
    SELECT (SELECT count(*) FROM je FULL JOIN jt USING (id, day)
            WHERE je.debit IS DISTINCT FROM jt.debit OR je.credit IS DISTINCT FROM jt.credit)
         + (SELECT count(*) FROM ge FULL JOIN gt USING (id, day)
            WHERE ge.debit IS DISTINCT FROM gt.debit OR ge.credit IS DISTINCT FROM gt.credit)
$f$;

-- The old definition of a balance as of a day: its entries up to that day.
CREATE FUNCTION pg_temp.entries_as_of(account uuid, as_of date) RETURNS bigint LANGUAGE sql STABLE
    AS $f$
    SELECT coalesce(sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END), 0)::bigint
    FROM corebank.journal_entries e WHERE e.ledger_account_id = account AND e.value_date <= as_of
$f$;

-- The same from the stored totals: the current balance minus the later days.
CREATE FUNCTION pg_temp.totals_as_of(account uuid, as_of date) RETURNS bigint LANGUAGE sql STABLE
    AS $f$
    SELECT a.balance_minor - coalesce((SELECT sum(t.credit_minor - t.debit_minor) FROM corebank.account_day_totals t
                                       WHERE t.account_id = account AND t.day > as_of), 0)::bigint
    FROM corebank.ledger_accounts a WHERE a.id = account
$f$;

SELECT is(pg_temp.totals_differ(), 0::bigint, 'the totals equal the journal before this test posts');

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE cust AS SELECT pg_temp.customer('Days', 'N-90') AS c;
CREATE TEMP TABLE acct AS SELECT pg_temp.open((SELECT c FROM cust), 'CUR-STD', 100000) AS a,
                                 pg_temp.open((SELECT c FROM cust), 'CUR-STD') AS b;
SELECT is(pg_temp.totals_differ(), 0::bigint, 'after opening deposits');
SELECT is((SELECT credit_minor FROM corebank.account_day_totals WHERE account_id = (SELECT a FROM acct)
           AND day = '2026-03-02'), 100000::bigint, 'the opening deposit is a credit of its day');

-- One rule for the stripe: this backend's, as the GL stripes and the chain.
SELECT is((SELECT array_agg(DISTINCT stripe) FROM corebank.account_day_totals
           WHERE account_id IN ((SELECT a FROM acct), (SELECT b FROM acct))),
          ARRAY[(pg_backend_pid() % 16)::smallint], 'written into this backend''s stripe');
SELECT is((SELECT array_agg(DISTINCT stripe) FROM corebank.account_day_totals
           WHERE account_id IN ((SELECT a FROM acct), (SELECT b FROM acct))),
          (SELECT array_agg(DISTINCT t.chain_stripe) FROM corebank.transactions t
           JOIN corebank.journal_entries e ON e.transaction_id = t.id
           WHERE e.ledger_account_id IN ((SELECT a FROM acct), (SELECT b FROM acct))),
          'the stripe of the hash chain of the same postings');

-- A single transfer.
CREATE TEMP TABLE t1 AS SELECT pg_temp.move((SELECT a FROM acct), (SELECT b FROM acct), 1500) AS r;
SELECT is(pg_temp.totals_differ(), 0::bigint, 'after a single transfer');
SELECT is((SELECT debit_minor FROM corebank.account_day_totals WHERE account_id = (SELECT a FROM acct)
           AND day = '2026-03-02'), 1500::bigint, 'the source''s debit of the day');
SELECT is((SELECT credit_minor FROM corebank.account_day_totals WHERE account_id = (SELECT b FROM acct)
           AND day = '2026-03-02'), 1500::bigint, 'the target''s credit of the day');

-- A batch: several entries of one account and day add up in one row.
SELECT is(corebank.core_transfer_batch(jsonb_build_object('transfers', jsonb_build_array(
              jsonb_build_object('fromAccountId', (SELECT a FROM acct), 'toAccountId', (SELECT b FROM acct), 'amountMinor', 100),
              jsonb_build_object('fromAccountId', (SELECT a FROM acct), 'toAccountId', (SELECT b FROM acct), 'amountMinor', 200),
              jsonb_build_object('fromAccountId', (SELECT b FROM acct), 'toAccountId', (SELECT a FROM acct), 'amountMinor', 50))),
          pg_temp.operator()) -> 'results' -> 2 ->> 'status', 'POSTED', 'a batch of three transfers posts');
SELECT is(pg_temp.totals_differ(), 0::bigint, 'after a batch');
SELECT is((SELECT (debit_minor, credit_minor)::text FROM corebank.account_day_totals
           WHERE account_id = (SELECT b FROM acct) AND day = '2026-03-02'), '(50,1800)', 'the batch''s lines in one row per day');

-- A reversal (maker-checker).
CREATE TEMP TABLE rv AS SELECT corebank.core_transaction_reverse_request((SELECT (r ->> 'id')::uuid FROM t1), 'wrong',
                                                                         pg_temp.maker()) AS r;
SELECT is(corebank.core_approval_approve((SELECT (r ->> 'id')::uuid FROM rv), pg_temp.checker(), NULL)
              -> 'result' ->> 'reversesId', (SELECT r ->> 'id' FROM t1), 'the reversal posts');
SELECT is(pg_temp.totals_differ(), 0::bigint, 'after a reversal');

-- Later days, then a deposit back-dated into them.
SELECT pg_temp.today('2026-03-05');
SELECT pg_temp.put((SELECT b FROM acct), 3000);
SELECT pg_temp.today('2026-03-06');
SELECT pg_temp.take((SELECT b FROM acct), 700);
CREATE TEMP TABLE before_days AS
    SELECT d::date AS day, corebank_internal.account_balance_as_of((SELECT b FROM acct), d::date) AS balance
    FROM generate_series('2026-02-27'::date, '2026-03-08'::date, '1 day') d;
SELECT pg_temp.put((SELECT b FROM acct), 400, '{"valueDate": "2026-03-03"}');
SELECT is(pg_temp.totals_differ(), 0::bigint, 'after a back-dated deposit');
SELECT is((SELECT credit_minor FROM corebank.account_day_totals WHERE account_id = (SELECT b FROM acct)
           AND day = '2026-03-03'), 400::bigint, 'the back-dated deposit is a credit of its value date');
SELECT is((SELECT count(*) FROM before_days x
           WHERE x.day < '2026-03-03' AND corebank_internal.account_balance_as_of((SELECT b FROM acct), x.day) <> x.balance),
          0::bigint, 'no balance before its value date moves');
SELECT is((SELECT count(*) FROM before_days x
           WHERE x.day >= '2026-03-03'
             AND corebank_internal.account_balance_as_of((SELECT b FROM acct), x.day) <> x.balance + 400),
          0::bigint, 'the balance of its value date and of every later day grows by it');
SELECT is(corebank_internal.account_balance_as_of((SELECT b FROM acct), '2026-03-08'), pg_temp.bal((SELECT b FROM acct)),
          'the balance as of a day after the last posting is the current balance');

-- As of any date: the function, the entries and the stored totals agree.
SELECT is((SELECT count(*) FROM generate_series('2026-02-20'::date, '2026-03-10'::date, '1 day') d,
                                (VALUES ((SELECT a FROM acct)), ((SELECT b FROM acct))) v(acc)
           WHERE corebank_internal.account_balance_as_of(v.acc, d::date) <> pg_temp.entries_as_of(v.acc, d::date)
              OR pg_temp.totals_as_of(v.acc, d::date) <> pg_temp.entries_as_of(v.acc, d::date)),
          0::bigint, 'as of every day from before the opening to after the last posting: the entries'' sum');
SELECT is(corebank_internal.account_balance_as_of((SELECT a FROM acct), '2026-03-01'), 0::bigint,
          'zero before the account opened');
SELECT is(corebank_internal.account_balance_as_of((SELECT a FROM acct), NULL), 0::bigint, 'a NULL date: zero');
SELECT is(corebank_internal.account_balance_as_of('00000000-0000-4000-8000-0000000000ff', '2026-03-05'), 0::bigint,
          'an unknown account: zero');
SELECT is(corebank_internal.account_balance_as_of(NULL, '2026-03-05'), 0::bigint, 'a NULL account: zero');

-- GL balances as of any date: the old definition, from the entries.
SELECT is((SELECT count(*) FROM generate_series('2026-02-20'::date, '2026-03-10'::date, '1 day') d
           CROSS JOIN LATERAL corebank.gl_balances_as_of(d::date) g
           LEFT JOIN LATERAL (SELECT e.gl_account_id,
                             sum(CASE WHEN e.side = 'D' THEN e.amount_minor ELSE 0 END) AS debit,
                             sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE 0 END) AS credit
                      FROM corebank.journal_entries e WHERE e.value_date <= d::date
                      GROUP BY e.gl_account_id) x ON x.gl_account_id = g.gl_account_id
           WHERE g.debit_minor <> coalesce(x.debit, 0) OR g.credit_minor <> coalesce(x.credit, 0)),
          0::bigint, 'gl_balances_as_of equals the entries'' sums up to every day');
SELECT is((SELECT g.debit_minor FROM corebank.gl_balances_as_of('2026-03-02') g
           WHERE g.gl_account_id = (SELECT gl_account_id FROM corebank.ledger_accounts WHERE id = (SELECT b FROM acct)))
          - (SELECT g.debit_minor FROM corebank.gl_balances_as_of('2026-03-05') g
             WHERE g.gl_account_id = (SELECT gl_account_id FROM corebank.ledger_accounts WHERE id = (SELECT b FROM acct))),
          0::bigint, 'no debit of the control account between 2 and 5 March');
SELECT throws_ok($$SELECT * FROM corebank.gl_balances_as_of(NULL)$$, 'CBV00', 'as_of: is required',
                 'gl_balances_as_of still needs a date');

-- Only the posting trigger writes them.
SELECT throws_ok($$INSERT INTO corebank.account_day_totals VALUES ((SELECT a FROM acct), '2026-03-09', 0, 0, 1)$$,
                 'CB422', NULL, 'no INSERT into account_day_totals');
SELECT throws_ok($$UPDATE corebank.account_day_totals SET credit_minor = credit_minor + 1$$,
                 'CB422', NULL, 'no UPDATE of account_day_totals');
SELECT throws_ok($$DELETE FROM corebank.account_day_totals$$, 'CB422', NULL, 'no DELETE from account_day_totals');
SELECT throws_ok($$UPDATE corebank.gl_day_totals SET debit_minor = debit_minor + 1$$,
                 'CB422', NULL, 'no UPDATE of gl_day_totals');
SELECT throws_ok($$TRUNCATE corebank.gl_day_totals$$, 'CB422', NULL, 'no TRUNCATE of gl_day_totals');
-- 1.8: the engine's writer guards fire once per statement (the answer is the
-- same for every row), so a write that touches no row is refused as well.
SELECT is((SELECT array_agg(c.relname::text ORDER BY c.relname) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
           WHERE t.tgfoid = 'corebank_internal.ledger_writer_guard'::regproc AND NOT t.tgisinternal
             AND t.tgtype & 1 = 0 AND t.tgtype & (4 | 8 | 16) = (4 | 8 | 16)),
          ARRAY['account_credit_stripes', 'account_day_totals', 'chain_heads', 'gl_balance_stripes', 'gl_day_totals'],
          'the five engine-written tables are guarded before each INSERT, UPDATE and DELETE statement');
SELECT is((SELECT count(*)::int FROM pg_trigger t
           WHERE t.tgfoid = 'corebank_internal.ledger_writer_guard'::regproc AND t.tgtype & 1 = 1), 0,
          'and by no row-level trigger');
SELECT throws_ok($$UPDATE corebank.account_day_totals SET credit_minor = credit_minor WHERE false$$,
                 'CB422', 'account_day_totals is maintained by the posting engine only',
                 'an UPDATE of no row is refused too');

-- Who reads them.
SELECT ok(has_table_privilege('corebank_reporting', 'corebank.account_day_totals', 'SELECT')
          AND has_table_privilege('corebank_reporting', 'corebank.gl_day_totals', 'SELECT')
          AND has_table_privilege('corebank_auditor', 'corebank.gl_day_totals', 'SELECT'),
          'the reporting roles read the day totals');
SELECT ok(NOT has_table_privilege('corebank_app', 'corebank.account_day_totals', 'SELECT')
          AND NOT has_table_privilege('corebank_app', 'corebank.gl_day_totals', 'SELECT'),
          'the tier''s role does not');

-- A tampered total is a problem the balance check reports.
SELECT is_empty('SELECT * FROM corebank.ledger_check_balances()', 'the balance check is clean');
ALTER TABLE corebank.account_day_totals DISABLE TRIGGER account_day_totals_writer;
UPDATE corebank.account_day_totals SET credit_minor = credit_minor + 7
WHERE account_id = (SELECT b FROM acct) AND day = '2026-03-03';
ALTER TABLE corebank.account_day_totals ENABLE TRIGGER account_day_totals_writer;
ALTER TABLE corebank.gl_day_totals DISABLE TRIGGER gl_day_totals_writer;
DELETE FROM corebank.gl_day_totals
WHERE gl_account_id = (SELECT gl_account_id FROM corebank.ledger_accounts WHERE id = (SELECT b FROM acct))
  AND day = '2026-03-06';
ALTER TABLE corebank.gl_day_totals ENABLE TRIGGER gl_day_totals_writer;
SELECT results_eq($$SELECT problem, split_part(subject, ' ', 3), expected_minor, actual_minor
                    FROM corebank.ledger_check_balances() WHERE problem LIKE 'gl_day_%'$$,
                  $$SELECT 'gl_day_debits', '2026-03-06', sum(e.amount_minor)::bigint, 0::bigint
                    FROM corebank.journal_entries e
                    WHERE e.gl_account_id = (SELECT gl_account_id FROM corebank.ledger_accounts
                                             WHERE id = (SELECT b FROM acct))
                      AND e.value_date = '2026-03-06' AND e.side = 'D'$$,
                  'a missing GL day total is reported');

-- A direct INSERT of entries (a superuser in psql: lines of a PENDING
-- transaction) gets its day totals from the trigger: the engine adds its own
-- entries' totals in its write statement (EngineDayTotals) and the trigger
-- skips only that statement, never another INSERT. Last in this file: such
-- lines leave the balances behind the entries (the engine moves balances).
CREATE TEMP TABLE direct AS SELECT '00000000-0000-4000-8000-0000000000d1'::uuid AS id;
INSERT INTO corebank.transactions (id, reference, type, status, value_date, branch_id, channel, operator_id)
SELECT d.id, 'DIRECT', 'ADJUSTMENT', 'PENDING', '2026-03-06', a.branch_id, 'TEST', pg_temp.operator()
FROM direct d, corebank.ledger_accounts a WHERE a.id = (SELECT b FROM acct);
-- (The two totals tampered with above still differ from the journal.)
CREATE TEMP TABLE direct_before AS
    SELECT (SELECT sum(debit_minor) FROM corebank.account_day_totals
            WHERE account_id = (SELECT b FROM acct) AND day = '2026-03-06') AS b_debits,
           pg_temp.totals_differ() AS differing;
INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, ledger_account_id, currency, side,
                                      amount_minor, branch_id, value_date, channel, operator_id)
SELECT (SELECT id FROM direct), l.line_no, a.gl_account_id, a.id, a.currency, l.side, 40, a.branch_id, '2026-03-06',
       'TEST', pg_temp.operator()
FROM (VALUES (1, (SELECT b FROM acct), 'D'), (2, (SELECT a FROM acct), 'C')) AS l(line_no, account, side)
JOIN corebank.ledger_accounts a ON a.id = l.account;
SELECT is(pg_temp.totals_differ(), (SELECT differing FROM direct_before),
          'a direct INSERT of two entries: no total differs from the journal but the two tampered with');
SELECT is((SELECT sum(debit_minor) FROM corebank.account_day_totals
           WHERE account_id = (SELECT b FROM acct) AND day = '2026-03-06'),
          (SELECT coalesce(b_debits, 0) FROM direct_before) + 40, 'the trigger added the direct debit to its day');

SELECT * FROM finish();
ROLLBACK;
