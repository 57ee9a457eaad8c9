-- credit_stripes.sql: a hot account's credit stripes (1.8, issue 12 part 3,
-- docs/design/posting-engine.md section 3).
--
-- Goal: only the posting engine and the fold write the stripes; every
-- reader counts them (account_balance, the account and ledger renderers, the
-- balance as of a date, ledger_check_balances); a debit may spend money that
-- is in stripes and no more; a close sees a balance held in stripes; the fold
-- moves the stripes into balance_minor exactly and moves the version; the
-- stripes hold committed credits only (CHECK >= 0). Contention itself (a
-- credit that finds its account held goes into a stripe instead of waiting)
-- needs two sessions: pgtap/concurrency/credit_stripes.sh.
-- Method: an account's credits moved from balance_minor into a stripe with
-- the writer guards disabled (the state a striped credit leaves), rolled back.
BEGIN;
SELECT plan(22);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Tariro', 'N-91') AS id;
CREATE TEMP TABLE acc AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD', 30000) AS id;
CREATE TEMP TABLE other AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;

-- Only the engine writes them.
SELECT throws_ok(format($$INSERT INTO corebank.account_credit_stripes VALUES ('%s', 0, 5)$$, (SELECT id FROM acc)),
                 'CB422', 'account_credit_stripes is maintained by the posting engine only', 'no insert from SQL');
SELECT throws_ok($$TRUNCATE corebank.account_credit_stripes$$,
                 'CB422', 'account_credit_stripes is maintained by the posting engine only', 'no truncate');
SELECT is(corebank_internal.account_balance((SELECT id FROM acc)), 30000::bigint, 'without stripes the balance is balance_minor');
SELECT is(corebank_internal.account_credit_stripes_fold(10), 0, 'nothing to fold');
SELECT throws_ok($$SELECT corebank_internal.account_credit_stripes_fold(0)$$, 'CBV00', 'accounts_max: must be 1 to 10000',
                 'the fold is bounded');

-- The state a striped credit leaves: 250.00 of the 300.00 in two stripes.
ALTER TABLE corebank.ledger_accounts DISABLE TRIGGER ledger_accounts_guard;
ALTER TABLE corebank.account_credit_stripes DISABLE TRIGGER account_credit_stripes_writer;
UPDATE corebank.ledger_accounts SET balance_minor = balance_minor - 25000 WHERE id = (SELECT id FROM acc);
INSERT INTO corebank.account_credit_stripes VALUES ((SELECT id FROM acc), 3, 20000), ((SELECT id FROM acc), 9, 5000);
ALTER TABLE corebank.account_credit_stripes ENABLE TRIGGER account_credit_stripes_writer;
ALTER TABLE corebank.ledger_accounts ENABLE TRIGGER ledger_accounts_guard;

SELECT is(corebank_internal.account_balance((SELECT id FROM acc)), 30000::bigint, 'the balance counts the stripes');
SELECT is((corebank_internal.account_json((SELECT id FROM acc)) ->> 'balanceMinor')::bigint, 30000::bigint,
          'and so does the account as the API shows it');
SELECT is(corebank_internal.account_balance_as_of((SELECT id FROM acc), '2026-03-02'), 30000::bigint,
          'and the balance as of today');
SELECT is_empty($$SELECT * FROM corebank.ledger_check_balances()$$, 'the balance check counts the stripes');
SELECT throws_ok($$SELECT corebank.core_accounts_close((SELECT id FROM acc), '{}', pg_temp.operator())$$,
                 'CB422', 'The balance must be zero to close the account (it is 300.00)', 'a close sees money in stripes');

-- A debit spends what is in the stripes, and no more.
SELECT lives_ok($$SELECT pg_temp.take((SELECT id FROM acc), 29000)$$, 'a withdrawal beyond balance_minor but within the stripes');
SELECT is(corebank_internal.account_balance((SELECT id FROM acc)), 1000::bigint, 'leaves the rest');
SELECT is((SELECT balance_minor FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acc)), -24000::bigint,
          'balance_minor alone may be below zero while stripes cover it');
SELECT throws_ok($$SELECT pg_temp.take((SELECT id FROM acc), 1001)$$, 'CB422',
                 format('insufficient funds in account %s', (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acc))),
                 'one cent more than balance and stripes is refused');
SELECT is_empty($$SELECT * FROM corebank.ledger_check_balances()$$, 'the books still balance');

-- The fold.
CREATE TEMP TABLE before AS SELECT version FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acc);
SELECT is(corebank_internal.account_credit_stripes_fold(10), 1, 'the fold takes the account');
SELECT is((SELECT balance_minor FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acc)), 1000::bigint,
          'balance_minor is the balance again');
SELECT is((SELECT sum(credit_minor) FROM corebank.account_credit_stripes WHERE account_id = (SELECT id FROM acc)), 0::numeric,
          'the stripes are zero (the rows stay for the next credits)');
SELECT is((SELECT version FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acc)), (SELECT version + 1 FROM before),
          'the version moves');
SELECT is_empty($$SELECT * FROM corebank.ledger_check_balances()$$, 'and the books balance');
SELECT is((corebank.core_maintenance() ->> 'creditStripesFolded')::int, 0, 'the maintenance pass folds; nothing is left');

SELECT throws_ok(format($$UPDATE corebank.account_credit_stripes SET credit_minor = 1 WHERE account_id = '%s'$$, (SELECT id FROM acc)),
                 'CB422', 'account_credit_stripes is maintained by the posting engine only', 'no update from SQL');

SELECT * FROM finish();
ROLLBACK;
