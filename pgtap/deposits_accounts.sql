-- deposits_accounts.sql: products, account opening and the lifecycle (issue 4).
--
-- Goal: the 16 products cover the 10 account types and each opens an account
-- on its control GL with a number from the ACCOUNT numbering; the lifecycle
-- follows the state table, enforced by the trigger whoever writes (every
-- other move refused, CLOSED only at zero and terminal, no deletion); the
-- dormancy job marks accounts DORMANT after N days without a
-- customer-initiated posting, and the next one reactivates them while system
-- postings do not. Method: call the API, then UPDATE the status directly.
BEGIN;
SELECT plan(62);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-01-10');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Chipo', 'N-10') AS id;

-- The products.
SELECT is((SELECT count(*) FROM corebank.deposit_products), 16::bigint, '16 products are seeded');
SELECT is((SELECT count(DISTINCT account_type) FROM corebank.deposit_products), 10::bigint, 'covering the 10 account types');
SELECT is((SELECT jsonb_array_length(corebank.core_deposit_products_list(NULL))), 16, 'all 16 are listed');
SELECT is((SELECT corebank.core_deposit_products_get_by_code('sav-tier') -> 'tiers'),
          '[{"from": "0.00", "rateBp": 100, "fromMinor": 0}, {"from": "1000.00", "rateBp": 200, "fromMinor": 100000},
            {"from": "10000.00", "rateBp": 300, "fromMinor": 1000000}]'::jsonb, 'SAV-TIER carries its bands');
SELECT is((SELECT corebank.core_deposit_products_get_by_code('FD-3M') ->> 'termDays'), '90', 'FD-3M has a 90-day term');
SELECT is((SELECT count(*) FROM corebank.deposit_products p
           WHERE NOT EXISTS (SELECT FROM corebank.gl_accounts g WHERE g.code = p.gl_account_code AND g.currency = p.currency)),
          0::bigint, 'every product''s control GL account exists in its currency');
SELECT throws_ok($$SELECT corebank.core_deposit_products_update((SELECT id FROM corebank.deposit_products WHERE code = 'SAV-STD'), '{"tiers": [{"fromMinor": 5, "rateBp": 1}]}', pg_temp.maker())$$,
                 'CBV00', 'tiers[0].fromMinor: the first tier starts at 0 and each starts above the previous', 'tiers start at 0');
SELECT is((SELECT corebank.core_deposit_products_update((SELECT id FROM corebank.deposit_products WHERE code = 'SAV-STD'),
                                                        '{"annualRateBp": 275}', pg_temp.maker()) ->> 'annualRate'),
          '2.75', 'a product''s rate is configurable');

-- Every product opens (internal ones without a customer).
CREATE TEMP TABLE opened AS
SELECT p.code, (corebank.core_accounts_open(
           jsonb_strip_nulls(jsonb_build_object(
               'customerId', CASE WHEN NOT p.internal THEN (SELECT id FROM ids) END, 'productCode', p.code,
               'initialDeposit', CASE WHEN p.minimum_opening_minor > 0
                                      THEN jsonb_build_object('amountMinor', p.minimum_opening_minor) END)),
           pg_temp.operator()) ->> 'id')::uuid AS id
FROM corebank.deposit_products p ORDER BY p.code;
SELECT is((SELECT count(*) FROM opened), 16::bigint, 'an account opens on each of the 16 products');
SELECT is((SELECT count(*) FROM opened o JOIN corebank.ledger_accounts a ON a.id = o.id
           JOIN corebank.deposit_accounts d ON d.id = o.id JOIN corebank.deposit_products p ON p.id = d.product_id
           JOIN corebank.gl_accounts g ON g.id = a.gl_account_id
           WHERE g.code = p.gl_account_code AND a.currency = p.currency AND d.account_type = p.account_type), 16::bigint,
          'each on its product''s control GL, currency and type');
SELECT ok((SELECT bool_and(a.account_number ~ '^AC[0-9]{10}$') FROM opened o JOIN corebank.ledger_accounts a ON a.id = o.id),
          'account numbers come from the ACCOUNT numbering');
SELECT is((SELECT array_agg(o.code ORDER BY o.code) FROM opened o WHERE pg_temp.status(o.id) = 'PENDING_ACTIVATION'),
          ARRAY['ESCROW-USD', 'TRUST-USD'], 'trust and escrow open PENDING_ACTIVATION');
SELECT is((SELECT pg_temp.bal(id) FROM opened WHERE code = 'FD-3M'), 100000::bigint, 'the opening deposit is posted');
SELECT is((SELECT maturity_date FROM corebank.deposit_accounts WHERE id = (SELECT id FROM opened WHERE code = 'FD-3M')),
          DATE '2026-04-10', 'a fixed deposit matures after its term');
SELECT ok(pg_temp.ledger_healthy(), 'the ledger is healthy after the openings');

-- Opening rules.
SELECT throws_ok($$SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD')$$,
                 'CB422', 'Product SAV-STD needs an initial deposit of at least 10.00', 'the minimum opening deposit');
SELECT throws_ok($$SELECT pg_temp.open((SELECT id FROM ids), 'TRUST-USD', 100)$$,
                 'CB422', 'The account needs activation before it takes a deposit', 'no deposit before activation');
SELECT throws_ok($$SELECT pg_temp.open(NULL, 'CUR-STD')$$, 'CBV00', 'customerId: is required', 'a customer account needs a customer');
SELECT throws_ok($$SELECT pg_temp.open((SELECT id FROM ids), 'NOPE')$$, 'CB404', 'Deposit product not found', 'an unknown product');
SELECT throws_ok($$INSERT INTO corebank.ledger_accounts (account_number, gl_account_id, currency, branch_id, status)
                   VALUES ('X1', pg_temp.gl('2000'), 'USD', pg_temp.branch(), 'FROZEN')$$,
                 'CB422', 'an account opens ACTIVE or PENDING_ACTIVATION', 'an account cannot be created FROZEN');

-- The lifecycle through the API.
CREATE TEMP TABLE a AS SELECT id FROM opened WHERE code = 'CUR-STD';
CREATE TEMP TABLE t AS SELECT id FROM opened WHERE code = 'TRUST-USD';
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM t), 100)$$,
                 'CB422', format('account %s is not activated yet (PENDING_ACTIVATION)',
                                 (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM t))),
                 'a PENDING_ACTIVATION account takes no posting');
SELECT is((SELECT corebank.core_accounts_activate((SELECT id FROM t), NULL, pg_temp.maker()) ->> 'status'), 'ACTIVE', 'activate');
SELECT throws_ok($$SELECT corebank.core_accounts_activate((SELECT id FROM t), NULL, pg_temp.maker())$$,
                 'CB409', 'Cannot activate an account that is ACTIVE', 'activating twice is a conflict');
SELECT throws_ok($$SELECT corebank.core_accounts_activate(NULL, NULL, pg_temp.maker())$$,
                 'CBV00', 'id: is required', 'activating needs an id');
SELECT throws_ok($$SELECT corebank.core_accounts_activate('00000000-0000-4000-8000-00000000dead', NULL, pg_temp.maker())$$,
                 'CB404', 'Account not found', 'an unknown account is not activated');
SELECT throws_ok($$SELECT corebank.core_accounts_activate((SELECT id FROM t), NULL, NULL)$$,
                 'CBV00', 'actor: is required', 'nor without the acting person');
SELECT throws_ok($$SELECT corebank.core_accounts_freeze((SELECT id FROM a), '{}', pg_temp.maker())$$,
                 'CBV00', 'reason: is required', 'freezing needs a reason');
SELECT is((SELECT corebank.core_accounts_freeze((SELECT id FROM a), '{"reason": "court order"}', pg_temp.maker()) ->> 'frozenReason'),
          'court order', 'freeze records the reason');
SELECT lives_ok($$SELECT pg_temp.put((SELECT id FROM a), 700)$$, 'a FROZEN account takes credits');
SELECT throws_ok($$SELECT pg_temp.take((SELECT id FROM a), 100)$$,
                 'CB422', format('account %s is FROZEN: debits are refused',
                                 (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM a))),
                 'but no debits');
SELECT throws_ok($$SELECT corebank.core_accounts_close((SELECT id FROM a), NULL, pg_temp.maker())$$,
                 'CB422', 'The balance must be zero to close the account (it is 7.00)', 'a FROZEN account with money is not closed');
SELECT is((SELECT corebank.core_accounts_unfreeze((SELECT id FROM a), NULL, pg_temp.checker()) ->> 'status'), 'ACTIVE', 'unfreeze');
SELECT is((SELECT corebank.core_accounts_get((SELECT id FROM a)) -> 'frozenReason'), 'null'::jsonb, 'unfreezing clears the reason');
SELECT throws_ok($$SELECT corebank.core_accounts_reactivate((SELECT id FROM a), NULL, pg_temp.maker())$$,
                 'CB409', 'Cannot reactivate an account that is ACTIVE', 'only a DORMANT account is reactivated');
SELECT throws_ok($$SELECT corebank.core_accounts_close((SELECT id FROM a), NULL, pg_temp.maker())$$,
                 'CB422', 'The balance must be zero to close the account (it is 7.00)', 'closing needs a zero balance');
SELECT lives_ok($$SELECT pg_temp.take((SELECT id FROM a), 700)$$, 'empty it');
SELECT is((SELECT corebank.core_accounts_close((SELECT id FROM a), '{"reason": "customer request"}', pg_temp.maker()) ->> 'status'),
          'CLOSED', 'close at zero');
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM a), 100)$$,
                 'CB422', format('account %s is CLOSED', (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM a))),
                 'a CLOSED account takes nothing');
SELECT is((SELECT array_agg(to_status ORDER BY id) FROM corebank.account_status_history WHERE account_id = (SELECT id FROM a)),
          ARRAY['ACTIVE', 'FROZEN', 'ACTIVE', 'CLOSED'], 'every move is in the history');
SELECT is((SELECT jsonb_array_length(corebank.core_accounts_status_history((SELECT id FROM a)))), 4, 'and listed by the API');

-- The trigger: direct SQL cannot leave the state table.
SELECT throws_ok($$UPDATE corebank.ledger_accounts SET status = 'ACTIVE' WHERE id = (SELECT id FROM a)$$,
                 'CB409', 'a CLOSED account is terminal', 'CLOSED is terminal');
CREATE TEMP TABLE b AS SELECT id FROM opened WHERE code = 'SAV-ZWG';
SELECT throws_ok($$UPDATE corebank.ledger_accounts SET status = 'CLOSED' WHERE id = (SELECT id FROM b)$$,
                 'CB422', 'an account is closed only at a zero balance', 'no CLOSED with money in it');
SELECT throws_ok($$UPDATE corebank.ledger_accounts SET status = 'PENDING_ACTIVATION' WHERE id = (SELECT id FROM b)$$,
                 'CB422', 'account status cannot move from ACTIVE to PENDING_ACTIVATION', 'no way back to PENDING_ACTIVATION');
UPDATE corebank.ledger_accounts SET status = 'FROZEN' WHERE id = (SELECT id FROM b);
SELECT throws_ok($$UPDATE corebank.ledger_accounts SET status = 'DORMANT' WHERE id = (SELECT id FROM b)$$,
                 'CB422', 'account status cannot move from FROZEN to DORMANT', 'a FROZEN account does not go DORMANT');
SELECT throws_ok($$UPDATE corebank.ledger_accounts SET status = 'CLOSED' WHERE id = (SELECT id FROM b)$$,
                 'CB422', 'account status cannot move from FROZEN to CLOSED', 'a FROZEN account is not closed');
UPDATE corebank.ledger_accounts SET status = 'ACTIVE' WHERE id = (SELECT id FROM b);
SELECT throws_ok($$DELETE FROM corebank.ledger_accounts WHERE id = (SELECT id FROM b)$$,
                 'CB422', 'accounts cannot be deleted; close them', 'accounts are never deleted');
SELECT throws_ok($$UPDATE corebank.deposit_accounts SET product_id = (SELECT id FROM corebank.deposit_products WHERE code = 'SAV-STD') WHERE id = (SELECT id FROM b)$$,
                 'CB422', 'an account''s product_id cannot change', 'an account keeps its product');
SELECT throws_ok($$UPDATE corebank.deposit_products SET currency = 'USD' WHERE code = 'SAV-ZWG'$$,
                 'CB422', 'a deposit product''s code, type, currency, control GL and internal flag are frozen once an account uses it',
                 'a used product keeps its identity');

-- Dormancy: CUR-STD (180 days) after its last customer-initiated posting.
CREATE TEMP TABLE d AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
SELECT pg_temp.put((SELECT id FROM d), 50000);
SELECT pg_temp.today('2026-07-08');
SELECT is((SELECT corebank.core_dormancy_run('2026-07-08', NULL) -> 'accounts' @> jsonb_build_array(jsonb_build_object('accountId', (SELECT id FROM d)))),
          false, 'not dormant after 179 days');
SELECT pg_temp.today('2026-07-09');
SELECT is((SELECT corebank.core_dormancy_run('2026-07-09', NULL) -> 'accounts' @> jsonb_build_array(jsonb_build_object('accountId', (SELECT id FROM d)))),
          true, 'DORMANT after 180 days without a customer-initiated posting');
SELECT is(pg_temp.status((SELECT id FROM d)), 'DORMANT', 'the account is DORMANT');
SELECT is((SELECT dormant_since FROM corebank.deposit_accounts WHERE id = (SELECT id FROM d)), DATE '2026-07-09', 'since the run');
SELECT is((SELECT jsonb_array_length(corebank.core_dormancy_run('2026-07-09', NULL) -> 'accounts')), 0, 'the job marks an account once');
-- A system posting neither debits it nor wakes it.
SELECT throws_ok($$SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM d), 'amountMinor', 100, 'description', 'ledger fee'), pg_temp.operator())$$,
                 'CB422', format('account %s is DORMANT: only a customer-initiated posting reactivates it',
                                 (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM d))),
                 'a fee on a DORMANT account is refused');
CREATE TEMP TABLE other AS SELECT pg_temp.open(pg_temp.customer('Other', 'N-11'), 'CUR-STD') AS id;
SELECT pg_temp.put((SELECT id FROM other), 1000);
SELECT lives_ok($$SELECT pg_temp.move((SELECT id FROM other), (SELECT id FROM d), 100)$$,
                'another customer''s transfer still credits it');
SELECT is(pg_temp.status((SELECT id FROM d)), 'DORMANT', 'and does not reactivate it');
-- The customer's own withdrawal reactivates it, in the same transaction.
SELECT is((SELECT pg_temp.take((SELECT id FROM d), 100) ->> 'status'), 'POSTED', 'a customer withdrawal posts');
SELECT is(pg_temp.status((SELECT id FROM d)), 'ACTIVE', 'and reactivates the account');
SELECT is((SELECT reason FROM corebank.account_status_history WHERE account_id = (SELECT id FROM d) ORDER BY id DESC LIMIT 1),
          'reactivated by a customer-initiated posting', 'the reactivation is recorded');
SELECT is((SELECT last_customer_activity_on FROM corebank.deposit_accounts WHERE id = (SELECT id FROM d)), DATE '2026-07-09',
          'and restarts the dormancy clock');
-- Explicit reactivation.
UPDATE corebank.ledger_accounts SET status = 'DORMANT' WHERE id = (SELECT id FROM other);
SELECT is((SELECT corebank.core_accounts_reactivate((SELECT id FROM other), NULL, pg_temp.maker()) ->> 'status'), 'ACTIVE',
          'reactivate explicitly');
SELECT ok(pg_temp.ledger_healthy(), 'the ledger is healthy at the end');

SELECT * FROM finish();
ROLLBACK;
