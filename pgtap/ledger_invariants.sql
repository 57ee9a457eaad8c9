-- ledger_invariants.sql: try to break every ledger invariant with direct SQL.
--
-- Goal: whatever a superuser (this test's role) or the tier's role does
-- without disabling triggers, journal entries are immutable, an unbalanced
-- transaction cannot commit, nothing posts into a closed period, a posted GL
-- account keeps its code and type, balances and chain heads change only by
-- posting, posted transactions are frozen and nobody overdraws past the
-- limit; and what a superuser does WITH triggers disabled shows up in
-- ledger_verify_chain and ledger_check_balances. Method: throws_ok with the
-- SQLSTATE for each attempt. SET CONSTRAINTS ALL IMMEDIATE stands in for
-- COMMIT, firing the deferred balance trigger inside the test transaction.
BEGIN;
SELECT plan(47);
\ir helpers/ledger.sql

UPDATE corebank.platform_config SET today_override = '2024-06-15';
CREATE TEMP TABLE acct AS SELECT pg_temp.open_account('2000', 500) AS id;
CREATE TEMP TABLE t AS SELECT (pg_temp.deposit((SELECT id FROM acct), 10000, 'T-1') ->> 'id')::uuid AS id;
CREATE TEMP TABLE e AS SELECT min(id) AS id FROM corebank.journal_entries WHERE transaction_id = (SELECT id FROM t);
SELECT pg_temp.capture(300);
-- From here on the deferred balance check fires at the end of each
-- statement, as it would at each COMMIT (and TRUNCATE needs no pending events).
SET CONSTRAINTS ALL IMMEDIATE;

-- Journal entries: no UPDATE, DELETE or TRUNCATE, even for a superuser.
SELECT throws_ok('UPDATE corebank.journal_entries SET amount_minor = 1 WHERE id = (SELECT id FROM e)', '42501',
                 'corebank.journal_entries is append-only', 'UPDATE of an entry is refused');
SELECT throws_ok('DELETE FROM corebank.journal_entries WHERE id = (SELECT id FROM e)', '42501',
                 'corebank.journal_entries is append-only', 'DELETE of an entry is refused');
SELECT throws_ok('TRUNCATE corebank.journal_entries CASCADE', '42501',
                 'corebank.journal_entries is append-only', 'TRUNCATE of the journal is refused');
SELECT throws_ok('UPDATE corebank.transaction_lines_proposed SET amount_minor = 1', '42501',
                 'corebank.transaction_lines_proposed is append-only', 'proposed lines are immutable too');

-- An unbalanced set of entries never commits.
INSERT INTO corebank.transactions (id, reference, type, status, value_date, branch_id, channel, operator_id)
VALUES ('00000000-0000-4000-8000-00000000aaaa', 'DIRECT', 'ADJUSTMENT', 'PENDING', '2024-06-15', pg_temp.branch(),
        'TEST', pg_temp.operator());
SELECT throws_ok($$
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ('00000000-0000-4000-8000-00000000aaaa', 1, pg_temp.gl('1000'), 'USD', 'D', 500, pg_temp.branch(), '2024-06-15', 'TEST', pg_temp.operator()),
           ('00000000-0000-4000-8000-00000000aaaa', 2, pg_temp.gl('1900'), 'USD', 'C', 499, pg_temp.branch(), '2024-06-15', 'TEST', pg_temp.operator());
    SET CONSTRAINTS ALL IMMEDIATE$$,
    'CB422', 'transaction is not balanced in USD', 'an unbalanced transaction is refused at commit');
SELECT throws_ok($$
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ('00000000-0000-4000-8000-00000000aaaa', 1, pg_temp.gl('1000'), 'USD', 'D', 500, pg_temp.branch(), '2024-06-15', 'TEST', pg_temp.operator()),
           ('00000000-0000-4000-8000-00000000aaaa', 2, pg_temp.gl('1900'), 'USD', 'C', 500, pg_temp.branch(), '2024-06-15', 'TEST', pg_temp.operator());
    SET CONSTRAINTS ALL IMMEDIATE;
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ('00000000-0000-4000-8000-00000000aaaa', 3, pg_temp.gl('1000', 'ZWG'), 'ZWG', 'D', 7, pg_temp.branch(), '2024-06-15', 'TEST', pg_temp.operator())$$,
    'CB422', 'transaction is not balanced in ZWG', 'a line added after a balanced check is checked again');
SELECT throws_ok($$
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ((SELECT id FROM t), 9, pg_temp.gl('1000'), 'USD', 'D', 1, pg_temp.branch(), '2024-06-15', 'TEST', pg_temp.operator());
    SET CONSTRAINTS ALL IMMEDIATE$$,
    'CB422', 'transaction is not balanced in USD', 'an entry added to a posted transaction is refused at commit');
-- The balance check is deferred again, as in every transaction that has not
-- set it IMMEDIATE: the reference check runs at the end of the INSERT.
SET CONSTRAINTS ALL DEFERRED;
SELECT throws_ok($$
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ((SELECT id FROM t), 9, pg_temp.gl('1000'), 'ZWG', 'D', 1, pg_temp.branch(), '2024-06-15', 'TEST', pg_temp.operator())$$,
    '23503', 'a journal entry refers to a GL account in its currency that does not exist',
    'an entry in another currency than its GL account is refused (journal_references_check)');
SET CONSTRAINTS ALL IMMEDIATE;

-- The transaction type: exactly the spec's 22, from the C++ list
-- (corebank_internal.transaction_type_known), whoever writes.
SELECT is((SELECT array_agg(t ORDER BY t) FROM unnest(ARRAY[
               'DEPOSIT', 'WITHDRAWAL', 'TRANSFER', 'INTEREST_ACCRUAL', 'FEE', 'LOAN_DISBURSEMENT', 'LOAN_REPAYMENT',
               'ADJUSTMENT', 'ZIPIT_SEND', 'ZIPIT_RECEIVE', 'RTGS_SEND', 'RTGS_RECEIVE', 'MOBILE_MONEY_SEND',
               'MOBILE_MONEY_RECEIVE', 'SALARY_PAYMENT', 'BULK_PAYMENT', 'BILL_PAYMENT', 'PAYMENT_REVERSAL',
               'INVESTMENT_PURCHASE', 'INVESTMENT_MATURITY', 'INVESTMENT_SALE', 'INVESTMENT_INTEREST']) t
           WHERE corebank_internal.transaction_type_known(t)),
          (SELECT array_agg(t ORDER BY t) FROM unnest(ARRAY[
               'DEPOSIT', 'WITHDRAWAL', 'TRANSFER', 'INTEREST_ACCRUAL', 'FEE', 'LOAN_DISBURSEMENT', 'LOAN_REPAYMENT',
               'ADJUSTMENT', 'ZIPIT_SEND', 'ZIPIT_RECEIVE', 'RTGS_SEND', 'RTGS_RECEIVE', 'MOBILE_MONEY_SEND',
               'MOBILE_MONEY_RECEIVE', 'SALARY_PAYMENT', 'BULK_PAYMENT', 'BILL_PAYMENT', 'PAYMENT_REVERSAL',
               'INVESTMENT_PURCHASE', 'INVESTMENT_MATURITY', 'INVESTMENT_SALE', 'INVESTMENT_INTEREST']) t),
          'every one of the spec''s 22 transaction types is known');
SELECT is((SELECT count(*)::int FROM unnest(ARRAY['deposit', 'DEPOSIT ', '', 'LOAN', 'CHARGE', 'TRANSFERS']) t
           WHERE corebank_internal.transaction_type_known(t)), 0,
          'nothing else is: case, padding, prefixes and plurals are refused');
SELECT throws_ok($$INSERT INTO corebank.transactions (id, reference, type, status, value_date, branch_id, channel,
                                                     operator_id)
                   VALUES (gen_random_uuid(), 'T-TYPE', 'CHARGE', 'PENDING', '2024-06-15', pg_temp.branch(), 'TEST',
                           pg_temp.operator())$$,
                 '23514', 'new row for relation "transactions" violates check constraint "transactions_type"',
                 'a direct insert of an unknown type is refused by the CHECK transactions_type');

-- Closed periods.
SELECT lives_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)),
                                      'MAY', '{"valueDate": "2024-05-31"}')$$, 'backdating into an open period works');
INSERT INTO corebank.accounting_periods (period, status, closed_at) VALUES ('2024-05', 'CLOSED', now())
ON CONFLICT (period) DO UPDATE SET status = 'CLOSED', closed_at = now();
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 1), pg_temp.gl_line('1900', 'C', 1)),
                                       'MAY', '{"valueDate": "2024-05-31"}')$$,
                 'CB422', 'accounting period 2024-05 is closed', 'ledger_post refuses a closed period');
SELECT throws_ok($$
    INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side, amount_minor,
                                          branch_id, value_date, channel, operator_id)
    VALUES ('00000000-0000-4000-8000-00000000aaaa', 1, pg_temp.gl('1000'), 'USD', 'D', 5, pg_temp.branch(), '2024-05-02', 'TEST', pg_temp.operator())$$,
    'CB422', 'accounting period 2024-05 is closed', 'a direct insert into a closed period is refused');

-- GL accounts: code and type frozen once posted; never the currency.
SELECT throws_ok($$UPDATE corebank.gl_accounts SET code = '1001' WHERE id = pg_temp.gl('1000')$$, 'CB422',
                 'GL account code and type are frozen once posted to', 'a posted GL account keeps its code');
SELECT throws_ok($$UPDATE corebank.gl_accounts SET type = 'LIABILITY' WHERE id = pg_temp.gl('1000')$$, 'CB422',
                 'GL account code and type are frozen once posted to', 'a posted GL account keeps its type');
SELECT throws_ok($$UPDATE corebank.gl_accounts SET first_posted_at = NULL WHERE id = pg_temp.gl('1000')$$, 'CB422',
                 NULL, 'the first posting cannot be erased');
SELECT throws_ok($$UPDATE corebank.gl_accounts SET currency = 'ZWG' WHERE id = pg_temp.gl('3000')$$, 'CB422',
                 NULL, 'a GL account never changes currency');
SELECT lives_ok($$UPDATE corebank.gl_accounts SET name = 'Cash in tills' WHERE id = pg_temp.gl('1000')$$,
                'a posted GL account may be renamed');
SELECT is((SELECT name FROM corebank.gl_accounts WHERE id = pg_temp.gl('1000', 'ZWG')), 'Cash in tills',
          'the rename reached the ZWG mirror');
SELECT lives_ok($$UPDATE corebank.gl_accounts SET code = '3001' WHERE id = pg_temp.gl('3000')$$,
                'an unposted GL account may change its code');
SELECT is((SELECT count(*) FROM corebank.gl_accounts WHERE code = '3001'), 2::bigint, 'its mirror followed');

-- Overdraft limit (500): a withdrawal may take the balance to -500, not beyond.
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.account_line((SELECT id FROM acct), 'D', 10501),
                                                         pg_temp.gl_line('1000', 'C', 10501)))$$,
                 'CB422', 'insufficient funds in account ' || (SELECT account_number FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acct)),
                 'overdrawing past the limit is refused');
SELECT lives_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.account_line((SELECT id FROM acct), 'D', 10500),
                                                        pg_temp.gl_line('1000', 'C', 10500)))$$,
                'overdrawing up to the limit is allowed');
SELECT is(pg_temp.balance((SELECT id FROM acct)), -500::bigint, 'the balance is at the limit');
UPDATE corebank.ledger_accounts SET allow_overdraft_minor = 0 WHERE id = (SELECT id FROM acct);
SELECT lives_ok($$SELECT pg_temp.deposit((SELECT id FROM acct), 100)$$,
                'a deposit into an account past a lowered limit is accepted');

-- Derived state changes only by posting.
SELECT throws_ok($$UPDATE corebank.ledger_accounts SET balance_minor = 1000000 WHERE id = (SELECT id FROM acct)$$,
                 'CB422', 'account balances change only by posting', 'a balance cannot be set directly');
SELECT throws_ok($$INSERT INTO corebank.ledger_accounts (account_number, gl_account_id, currency, branch_id, balance_minor)
                   VALUES ('X-1', pg_temp.gl('2000'), 'USD', pg_temp.branch(), 99)$$,
                 'CB422', NULL, 'an account cannot start with money');
SELECT throws_ok($$UPDATE corebank.gl_balance_stripes SET debit_minor = debit_minor + 1$$, 'CB422',
                 'gl_balance_stripes is maintained by the posting engine only', 'GL stripes cannot be edited');
SELECT throws_ok($$UPDATE corebank.chain_heads SET seq = seq + 1$$, 'CB422',
                 'chain_heads is maintained by the posting engine only', 'chain heads cannot be edited');
SELECT throws_ok($$TRUNCATE corebank.chain_heads$$, 'CB422', NULL, 'chain heads cannot be truncated');

-- Posted transactions are frozen; only the status moves of the contract.
SELECT throws_ok($$UPDATE corebank.transactions SET reference = 'X' WHERE id = (SELECT id FROM t)$$, 'CB422',
                 'posted transactions are immutable; correct them with a reversal', 'a posted reference is frozen');
SELECT throws_ok($$UPDATE corebank.transactions SET status = 'CANCELLED' WHERE id = (SELECT id FROM t)$$, 'CB422',
                 'transaction status cannot move from POSTED to CANCELLED', 'POSTED cannot become CANCELLED');
SELECT throws_ok($$UPDATE corebank.transactions SET status = 'REVERSED', reversed_by_id = '00000000-0000-4000-8000-00000000aaaa'
                   WHERE id = (SELECT id FROM t)$$, 'CB422',
                 'a transaction is reversed only by a posted reversal of it', 'REVERSED needs a real reversal');
SELECT throws_ok($$DELETE FROM corebank.transactions WHERE id = (SELECT id FROM t)$$, 'CB422', NULL,
                 'a transaction cannot be deleted');

-- The tier's role touches no table at all.
SET ROLE corebank_app;
SELECT throws_ok('SELECT * FROM corebank.journal_entries', '42501', NULL, 'corebank_app cannot read the journal');
SELECT throws_ok('UPDATE corebank.ledger_accounts SET balance_minor = 0', '42501', NULL, 'corebank_app cannot write balances');
SELECT throws_ok('DELETE FROM corebank.transactions', '42501', NULL, 'corebank_app cannot delete transactions');
RESET ROLE;

-- Idempotency: a repeat posts nothing new; another request under the key is refused.
CREATE TEMP TABLE first AS
    SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 77), pg_temp.gl_line('1900', 'C', 77)),
                        'IDEM', '{"idempotencyKey": "key-1"}') AS r;
CREATE TEMP TABLE counted AS SELECT count(*) AS n FROM corebank.journal_entries;
SELECT is(pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 77), pg_temp.gl_line('1900', 'C', 77)),
                       'IDEM', '{"idempotencyKey": "key-1"}'),
          (SELECT r FROM first), 'a repeat returns the stored response');
SELECT is((SELECT count(*) FROM corebank.journal_entries), (SELECT n FROM counted), 'a repeat posts nothing');
SELECT throws_ok($$SELECT pg_temp.post(jsonb_build_array(pg_temp.gl_line('1000', 'D', 78), pg_temp.gl_line('1900', 'C', 78)),
                                       'IDEM', '{"idempotencyKey": "key-1"}')$$,
                 'CB409', 'idempotencyKey was already used for a different request', 'another request under the key');

-- Everything so far is consistent.
SELECT is_empty('SELECT * FROM corebank.ledger_verify_chain()', 'the chains verify');
SELECT is_empty('SELECT * FROM corebank.ledger_check_balances()', 'the balances check');

-- Tampering with triggers disabled is detected.
ALTER TABLE corebank.journal_entries DISABLE TRIGGER journal_entries_immutable;
UPDATE corebank.journal_entries SET amount_minor = amount_minor + 1 WHERE id = (SELECT id FROM e);
ALTER TABLE corebank.journal_entries ENABLE TRIGGER journal_entries_immutable;
SELECT results_eq($$SELECT transaction_id, problem FROM corebank.ledger_verify_chain()$$,
                  $$VALUES ((SELECT id FROM t), 'hash mismatch: the transaction or its entries were changed')$$,
                  'ledger_verify_chain reports the altered entry');
SELECT ok(EXISTS (SELECT FROM corebank.ledger_check_balances() WHERE problem = 'trial_balance'),
          'ledger_check_balances reports the broken trial balance');

-- A rewritten chain head (here of an empty chain) is detected too.
CREATE TEMP TABLE other AS
    SELECT ((SELECT chain_stripe FROM corebank.transactions WHERE id = (SELECT id FROM t)) + 1) % 16 AS stripe;
ALTER TABLE corebank.chain_heads DISABLE TRIGGER chain_heads_writer;
UPDATE corebank.chain_heads SET seq = 1 WHERE stripe = (SELECT stripe FROM other);
ALTER TABLE corebank.chain_heads ENABLE TRIGGER chain_heads_writer;
SELECT is((SELECT count(*) FROM corebank.ledger_verify_chain() v
           WHERE v.stripe = (SELECT stripe FROM other) AND v.problem LIKE 'chain head does not match%'), 1::bigint,
          'ledger_verify_chain reports a rewritten chain head');

-- A transaction removed from the middle of its chain is a sequence gap.
ALTER TABLE corebank.journal_entries DISABLE TRIGGER USER;
ALTER TABLE corebank.transactions DISABLE TRIGGER USER;
DELETE FROM corebank.journal_entries WHERE transaction_id = (SELECT id FROM t);
DELETE FROM corebank.transactions WHERE id = (SELECT id FROM t);
ALTER TABLE corebank.journal_entries ENABLE TRIGGER USER;
ALTER TABLE corebank.transactions ENABLE TRIGGER USER;
SELECT ok((SELECT problem FROM corebank.ledger_verify_chain()
           WHERE stripe = (SELECT (stripe + 15) % 16 FROM other)) LIKE 'sequence gap: expected 1%',
          'ledger_verify_chain reports a deleted transaction');

SELECT * FROM finish();
ROLLBACK;
