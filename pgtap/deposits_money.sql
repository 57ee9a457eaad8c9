-- deposits_money.sql: deposits, withdrawals, transfers, fees and FX (issue 4).
--
-- Goal: each is one balanced posting with its type, channel, operator and
-- branch; the minimum balance and the state rules hold; idempotency keys
-- post once; fixed deposits take one deposit and charge the early-withdrawal
-- penalty; withdrawal fees ride in the same transaction; a cross-currency
-- transfer converts at the dated rate through the FX position accounts and
-- balances per currency; statement and balance as of a date come from the
-- journal. Method: post through the API and read the journal.
BEGIN;
SELECT plan(61);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Farai', 'N-20') AS id;
CREATE TEMP TABLE sav AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-STD', 10000) AS id;
CREATE TEMP TABLE cur AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-STD') AS id;
CREATE TEMP TABLE num AS SELECT account_number AS n FROM corebank.ledger_accounts WHERE id = (SELECT id FROM sav);

-- A deposit.
CREATE TEMP TABLE dep AS SELECT pg_temp.put((SELECT id FROM sav), 50000, '{"channel": "mobile", "branchCode": "BYO", "description": "cash in"}') AS r;
SELECT is((SELECT r ->> 'type' FROM dep), 'DEPOSIT', 'a deposit is type DEPOSIT');
SELECT is((SELECT r ->> 'channel' FROM dep), 'MOBILE', 'with its channel');
SELECT is((SELECT r ->> 'branchCode' FROM dep), 'BYO', 'its branch');
SELECT is((SELECT r ->> 'operatorId' FROM dep), pg_temp.operator()::text, 'and its operator');
SELECT ok((SELECT r ->> 'reference' FROM dep) ~ '^TX[0-9]{10}$', 'the reference comes from the TRANSACTION numbering');
SELECT is((SELECT r -> 'entries' -> 0 ->> 'glAccountCode' FROM dep), '1000', 'cash is debited');
SELECT is(pg_temp.bal((SELECT id FROM sav)), 60000::bigint, 'the account is credited');
SELECT is((SELECT count(DISTINCT branch_id) FROM corebank.journal_entries WHERE transaction_id = (SELECT (r ->> 'id')::uuid FROM dep)),
          1::bigint, 'every entry carries the branch');
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM sav), 0)$$, 'CBV00', 'amountMinor: must be greater than zero', 'a zero deposit');
SELECT throws_ok($$SELECT corebank.core_deposit('{"amountMinor": 5}', pg_temp.operator())$$, 'CBV00', 'accountId: is required', 'no account');
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM sav), 5, '{"currency": "ZWG"}')$$,
                 'CB422', format('currency: account %s is in USD', (SELECT n FROM num)), 'the wrong currency');
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM sav), 5, '{"sourceGlAccountCode": "4100"}')$$,
                 'CB422', 'sourceGlAccountCode: GL account 4100 (USD) must be an active ASSET account', 'cash comes from an asset');
SELECT throws_ok($$SELECT pg_temp.put('00000000-0000-4000-8000-00000000dead', 5)$$, 'CB404', 'Account not found', 'an unknown account');
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM sav), 5, '{"valueDate": "2026-03-03"}')$$,
                 'CB422', 'valueDate must not be after the business date 2026-03-02', 'no future value date');

-- Withdrawals and the minimum balance (SAV-STD keeps 10.00; 100.00 is left).
SELECT is((SELECT pg_temp.take((SELECT id FROM sav), 50000) ->> 'type'), 'WITHDRAWAL', 'a withdrawal');
SELECT throws_ok($$SELECT pg_temp.take((SELECT id FROM sav), 9001)$$,
                 'CB422', format('the posting would take account %s below its minimum balance of 10.00', (SELECT n FROM num)),
                 'not below the minimum balance');
SELECT is(pg_temp.bal((SELECT id FROM sav)), 10000::bigint, 'the balance stays at the minimum');
SELECT throws_ok($$SELECT pg_temp.take((SELECT id FROM cur), 1)$$,
                 'CB422', format('insufficient funds in account %s', (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM cur))),
                 'a current account without overdraft cannot go negative');

-- A withdrawal fee rides in the same transaction (SAV-PLUS: 1.00).
CREATE TEMP TABLE plus AS SELECT pg_temp.open((SELECT id FROM ids), 'SAV-PLUS', 20000) AS id;
CREATE TEMP TABLE wf AS SELECT pg_temp.take((SELECT id FROM plus), 5000) AS r;
SELECT is((SELECT jsonb_array_length(r -> 'entries') FROM wf), 3, 'account, cash and fee lines');
SELECT is(pg_temp.bal((SELECT id FROM plus)), 14900::bigint, 'the account pays amount and fee');
SELECT is((SELECT (r -> 'totals' -> 0 ->> 'debitMinor')::bigint FROM wf), 5100::bigint, 'balanced: 51.00 both sides');

-- Transfers.
CREATE TEMP TABLE tr AS SELECT pg_temp.move((SELECT id FROM plus), (SELECT id FROM cur), 1000, '{"idempotencyKey": "t-1"}') AS r;
SELECT is((SELECT r ->> 'type' FROM tr), 'TRANSFER', 'a transfer');
SELECT is(pg_temp.bal((SELECT id FROM cur)), 1000::bigint, 'the target is credited');
SELECT is((SELECT pg_temp.move((SELECT id FROM plus), (SELECT id FROM cur), 1000, '{"idempotencyKey": "t-1"}') ->> 'id'),
          (SELECT r ->> 'id' FROM tr), 'the same key and request return the first transfer');
SELECT is(pg_temp.bal((SELECT id FROM cur)), 1000::bigint, 'and post nothing');
SELECT throws_ok($$SELECT pg_temp.move((SELECT id FROM plus), (SELECT id FROM cur), 2000, '{"idempotencyKey": "t-1"}')$$,
                 'CB409', 'idempotencyKey was already used for a different request', 'another request under the key');
SELECT throws_ok($$SELECT pg_temp.take((SELECT id FROM plus), 1000, '{"idempotencyKey": "t-1"}')$$,
                 'CB409', 'idempotencyKey was already used for a different request', 'another operation under the key');
SELECT throws_ok($$SELECT pg_temp.move((SELECT id FROM plus), (SELECT id FROM plus), 1)$$,
                 'CBV00', 'toAccountId: must differ from fromAccountId', 'not to itself');
SELECT throws_ok($$SELECT pg_temp.move((SELECT id FROM plus), (SELECT id FROM cur), 1000000)$$,
                 'CB422', format('the posting would take account %s below its minimum balance of 50.00',
                                 (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM plus))),
                 'a transfer keeps the source''s minimum balance');

-- Fees.
CREATE TEMP TABLE fee AS SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM cur), 'amountMinor', 250,
                                                  'description', 'card replacement'), pg_temp.operator()) AS r;
SELECT is((SELECT r ->> 'type' || ' ' || (r -> 'entries' -> 1 ->> 'glAccountCode') FROM fee), 'FEE 4100', 'a fee credits fee income');
SELECT throws_ok($$SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM cur), 'amountMinor', 1), pg_temp.operator())$$,
                 'CBV00', 'description: is required', 'a fee says what it is for');
SELECT throws_ok($$SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM cur), 'amountMinor', 1, 'description', 'x', 'incomeGlAccountCode', '1000'), pg_temp.operator())$$,
                 'CB422', 'incomeGlAccountCode: GL account 1000 (USD) must be an active INCOME account', 'fees go to income');

-- Fixed deposits: one deposit; the penalty before maturity.
CREATE TEMP TABLE fd AS SELECT pg_temp.open((SELECT id FROM ids), 'FD-3M', 100000) AS id;
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM fd), 100)$$,
                 'CB422', format('Fixed deposit %s takes a single deposit', (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM fd))),
                 'no top-up of a fixed deposit');
CREATE TEMP TABLE early AS SELECT pg_temp.take((SELECT id FROM fd), 50000) AS r;
SELECT is((SELECT (r -> 'entries' -> 2 ->> 'amountMinor')::bigint FROM early), 1000::bigint,
          'early withdrawal: 2% penalty on 500.00 is 10.00');
SELECT is((SELECT r -> 'entries' -> 2 ->> 'narrative' FROM early), 'Early withdrawal penalty', 'named as the penalty');
SELECT is(pg_temp.bal((SELECT id FROM fd)), 49000::bigint, 'the deposit pays amount and penalty');
SELECT pg_temp.today('2026-05-31');
SELECT is((SELECT jsonb_array_length(pg_temp.take((SELECT id FROM fd), 1000) -> 'entries')), 2, 'no penalty after maturity');
SELECT pg_temp.today('2026-03-02');

-- Internal accounts move money by transfer only.
CREATE TEMP TABLE susp AS SELECT (corebank.core_accounts_open('{"productCode": "SUSP-USD"}', pg_temp.operator()) ->> 'id')::uuid AS id;
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM susp), 100)$$,
                 'CB422', 'Internal accounts move money by transfer only', 'no cash into an internal account');
SELECT throws_ok($$SELECT pg_temp.take((SELECT id FROM susp), 100)$$,
                 'CB422', 'Internal accounts move money by transfer only', 'no cash out of one');
SELECT throws_ok($$SELECT corebank.core_fee(jsonb_build_object('accountId', (SELECT id FROM susp), 'amountMinor', 100, 'description', 'x'),
                                            pg_temp.operator())$$,
                 'CB422', 'Internal accounts move money by transfer only', 'no fee on one');
SELECT throws_ok($$SELECT pg_temp.put((SELECT id FROM susp), 100, '{"currency": "ZWG"}')$$,
                 'CB422', format('currency: account %s is in USD', (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM susp))),
                 'the currency is checked before the account kind');
SELECT throws_ok($$SELECT pg_temp.take((SELECT id FROM sav), 5, '{"currency": "ZWG"}')$$,
                 'CB422', format('currency: account %s is in USD', (SELECT n FROM num)), 'a withdrawal checks the currency too');
SELECT lives_ok($$SELECT pg_temp.move((SELECT id FROM susp), (SELECT id FROM cur), 700)$$, 'an internal account transfers out');
SELECT is(pg_temp.bal((SELECT id FROM susp)), -700::bigint, 'and may run negative (unlimited overdraft)');

-- Cross-currency transfers through the FX position accounts.
SELECT is((SELECT corebank.core_fx_rates_set('{"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "26.5", "effectiveDate": "2026-03-01"}',
                                             pg_temp.maker()) ->> 'rate'), '26.5000000000', 'a dated rate is set');
SELECT throws_ok($$SELECT corebank.core_fx_rates_set('{"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "27", "effectiveDate": "2026-03-01"}', pg_temp.maker())$$,
                 'CB409', 'A USD to ZWG rate for 2026-03-01 is already set; rates are immutable', 'one rate per pair and date');
SELECT throws_ok($$SELECT corebank.core_fx_rates_set('{"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "-1"}', pg_temp.maker())$$,
                 'CBV00', 'rate: must be a positive decimal with at most 10 decimals', 'a negative rate');
SELECT throws_ok($$UPDATE corebank.exchange_rates SET rate = 30$$, '42501', 'corebank.exchange_rates is append-only', 'rates are immutable');
SELECT is((SELECT corebank.core_fx_rates_get('ZWG', 'USD', '2026-03-02') ->> 'derived'), 'true', 'the inverse is derived');
SELECT throws_ok($$SELECT corebank.core_fx_rates_get('USD', 'ZWG', '2026-02-28')$$,
                 'CB422', 'No exchange rate from USD to ZWG on 2026-02-28', 'no rate before its date');
CREATE TEMP TABLE zwg AS SELECT pg_temp.open((SELECT id FROM ids), 'CUR-ZWG') AS id;
CREATE TEMP TABLE fx AS SELECT pg_temp.move((SELECT id FROM cur), (SELECT id FROM zwg), 1000) AS r;
SELECT is(pg_temp.bal((SELECT id FROM zwg)), 26500::bigint, '10.00 USD becomes 265.00 ZWG');
SELECT is((SELECT r -> 'totals' FROM fx),
          '[{"debit": "10.00", "credit": "10.00", "currency": "USD", "debitMinor": 1000, "creditMinor": 1000},
            {"debit": "265.00", "credit": "265.00", "currency": "ZWG", "debitMinor": 26500, "creditMinor": 26500}]'::jsonb,
          'balanced per currency');
SELECT is((SELECT array_agg(e ->> 'glAccountCode' ORDER BY (e ->> 'lineNo')::int) FROM fx, jsonb_array_elements(r -> 'entries') e),
          ARRAY['2010', '2900', '2900', '2010'], 'through the FX position accounts');
SELECT ok((SELECT r -> 'entries' -> 0 ->> 'narrative' FROM fx) LIKE '% at 26.5 ZWG/USD', 'the narrative carries the rate');

-- Statement and balance as of a date: the same journal.
SELECT pg_temp.today('2026-03-05');
SELECT pg_temp.put((SELECT id FROM cur), 3000);
SELECT pg_temp.put((SELECT id FROM cur), 400, '{"valueDate": "2026-03-03"}');
SELECT is((SELECT corebank.core_accounts_balance((SELECT id FROM cur), '2026-03-02') ->> 'balanceMinor'), '450',
          'the balance as of 2 March');
SELECT is((SELECT corebank.core_accounts_balance((SELECT id FROM cur), '2026-03-03') ->> 'balanceMinor'), '850',
          'a back-valued deposit counts from its value date');
CREATE TEMP TABLE st AS SELECT corebank.core_statement((SELECT id FROM cur), '2026-03-03', '2026-03-05') AS r;
SELECT is((SELECT (r ->> 'openingBalanceMinor')::bigint + (r ->> 'totalCreditsMinor')::bigint - (r ->> 'totalDebitsMinor')::bigint
           FROM st), (SELECT (r ->> 'closingBalanceMinor')::bigint FROM st), 'opening + credits - debits = closing');
SELECT is((SELECT (r ->> 'closingBalanceMinor')::bigint FROM st), pg_temp.bal((SELECT id FROM cur)),
          'the closing balance is the ledger balance');
SELECT is((SELECT (r -> 'lines' -> -1 ->> 'balanceMinor')::bigint FROM st), pg_temp.bal((SELECT id FROM cur)),
          'the last line''s running balance too');
SELECT throws_ok($$SELECT corebank.core_statement((SELECT id FROM cur), '2025-01-01', '2026-03-05')$$,
                 'CBV00', 'to: must be on or after from and at most 366 days later', 'at most 366 days');
SELECT ok(pg_temp.ledger_healthy(), 'every posting balanced, every balance matches the journal');

SELECT * FROM finish();
ROLLBACK;
