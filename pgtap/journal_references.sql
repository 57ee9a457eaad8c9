-- journal_references.sql: the journal's references (1.8: one check per
-- INSERT statement, journal_references_check, instead of four row-level
-- foreign keys) and the guards that keep the referenced rows in place.
--
-- Goal: whatever a superuser (this test's role) writes with direct SQL, no
-- journal entry refers to a transaction, GL account (in the entry's
-- currency), branch or customer account (on the entry's GL account and
-- currency) that does not exist, and none of those rows can be deleted or
-- re-keyed afterwards. Method: throws_ok with the SQLSTATE and message for
-- each attempt, and counts that show a refused statement wrote nothing.
BEGIN;
SELECT plan(28);
\ir helpers/ledger.sql

UPDATE corebank.platform_config SET today_override = '2024-06-15';
CREATE TEMP TABLE acct AS SELECT pg_temp.open_account('2000', 500) AS id;
CREATE TEMP TABLE spare AS SELECT pg_temp.open_account('2000', 0) AS id;
CREATE TEMP TABLE t AS SELECT (pg_temp.deposit((SELECT id FROM acct), 10000, 'T-1') ->> 'id')::uuid AS id;

-- An entry of transaction t, with each reference replaceable.
CREATE FUNCTION pg_temp.entry(transaction_id uuid DEFAULT NULL, gl_account_id uuid DEFAULT NULL,
                              currency text DEFAULT 'USD', branch_id uuid DEFAULT NULL,
                              ledger_account_id uuid DEFAULT NULL, line_no int DEFAULT 9) RETURNS text
    LANGUAGE sql STABLE AS $f$
    SELECT format('INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, ledger_account_id, '
                  'currency, side, amount_minor, branch_id, value_date, channel, operator_id) '
                  'VALUES (%L, %s, %L, %L, %L, ''D'', 1, %L, ''2024-06-15'', ''TEST'', %L)',
                  coalesce(transaction_id, (SELECT id FROM t)), line_no, coalesce(gl_account_id, pg_temp.gl('1000')),
                  ledger_account_id, currency, coalesce(branch_id, pg_temp.branch()), pg_temp.operator())
$f$;

-- The check and the guards are in place, the foreign keys they replace are not.
SELECT trigger_is('corebank', 'journal_entries', 'journal_entries_check_references', 'corebank_internal',
                  'journal_references_check', 'the journal checks its references per statement');
SELECT is((SELECT count(*)::int FROM pg_constraint
           WHERE conrelid = 'corebank.journal_entries'::regclass AND contype = 'f'), 0,
          'the journal has no row-level foreign keys left');
SELECT ok((SELECT array_agg(tgname::text ORDER BY tgname) FROM pg_trigger
           WHERE tgrelid = 'corebank.journal_entries'::regclass AND NOT tgisinternal
             AND tgtype & 1 = 0 AND tgtype & 4 <> 0) @>
          ARRAY['journal_entries_check_references', 'journal_entries_day_totals'] AND
          'journal_entries_check_references' < 'journal_entries_day_totals',
          'the reference check fires before the day totals (name order)');

-- A direct INSERT with a missing reference: 23503, whoever writes.
SELECT throws_ok(pg_temp.entry(transaction_id => gen_random_uuid()), '23503',
                 'a journal entry refers to a transaction that does not exist', 'an unknown transaction is refused');
SELECT throws_ok(pg_temp.entry(gl_account_id => gen_random_uuid()), '23503',
                 'a journal entry refers to a GL account in its currency that does not exist',
                 'an unknown GL account is refused');
SELECT throws_ok(pg_temp.entry(gl_account_id => pg_temp.gl('1000'), currency => 'ZWG'), '23503',
                 'a journal entry refers to a GL account in its currency that does not exist',
                 'a GL account in another currency than the entry is refused');
SELECT throws_ok(pg_temp.entry(branch_id => gen_random_uuid()), '23503',
                 'a journal entry refers to a branch that does not exist', 'an unknown branch is refused');
SELECT throws_ok(pg_temp.entry(gl_account_id => pg_temp.gl('2000'), ledger_account_id => gen_random_uuid()), '23503',
                 'a journal entry refers to a customer account on its GL account in its currency that does not exist',
                 'an unknown customer account is refused');
SELECT throws_ok(pg_temp.entry(gl_account_id => pg_temp.gl('2100'), ledger_account_id => (SELECT id FROM acct)),
                 '23503',
                 'a journal entry refers to a customer account on its GL account in its currency that does not exist',
                 'a customer account on another GL account than the entry is refused');
SELECT throws_ok(pg_temp.entry(gl_account_id => pg_temp.gl('2000', 'ZWG'), currency => 'ZWG',
                               ledger_account_id => (SELECT id FROM acct)),
                 '23503',
                 'a journal entry refers to a customer account on its GL account in its currency that does not exist',
                 'a customer account in another currency than the entry is refused');

-- The detail names the entry; one bad row refuses the whole statement.
CREATE TEMP TABLE before AS SELECT count(*) AS entries FROM corebank.journal_entries;
SELECT is(pg_temp.refusal(
              format($$INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id, currency, side,
                                                             amount_minor, branch_id, value_date, channel, operator_id)
                       VALUES (%1$L, 11, %2$L, 'USD', 'D', 1, %3$L, '2024-06-15', 'TEST', %4$L),
                              (%1$L, 12, %2$L, 'USD', 'C', 1, %5$L, '2024-06-15', 'TEST', %4$L)$$,
                     (SELECT id FROM t), pg_temp.gl('1000'), pg_temp.branch(), pg_temp.operator(),
                     '00000000-0000-4000-8000-0000000000bb')),
          '23503: a journal entry refers to a branch that does not exist / transaction ' || (SELECT id FROM t) ||
          ', line 12',
          'a statement whose second row is bad is refused, and the detail names that entry');
SELECT is((SELECT count(*) FROM corebank.journal_entries), (SELECT entries FROM before),
          'the refused statements wrote no entry');

-- A statement whose references all exist passes the check (its balance is
-- checked at commit, as for every statement).
SELECT lives_ok(format($$INSERT INTO corebank.journal_entries (transaction_id, line_no, gl_account_id,
                            ledger_account_id, currency, side, amount_minor, branch_id, value_date, channel, operator_id)
                         VALUES (%1$L, 21, %2$L, %3$L, 'USD', 'D', 1, %4$L, '2024-06-15', 'TEST', %5$L),
                                (%1$L, 22, %6$L, NULL, 'USD', 'C', 1, %7$L, '2024-06-15', 'TEST', %5$L)$$,
                       (SELECT id FROM t), pg_temp.gl('2000'), (SELECT id FROM acct), pg_temp.branch(),
                       pg_temp.operator(), pg_temp.gl('1000'), pg_temp.branch('HRE')),
                'entries whose transaction, GL accounts, branches and account exist are accepted');
SELECT is((SELECT count(*) FROM corebank.journal_entries), (SELECT entries FROM before) + 2,
          'the two entries are written');

-- The posting engine's entries pass the same check.
SELECT lives_ok($$SELECT pg_temp.deposit((SELECT id FROM spare), 700, 'T-2')$$,
                'a posting through the engine passes the reference check');

-- The engine does not query its own entries' references again: it read and
-- locked them in the same transaction (EngineCheckedReferences). They exist,
-- and the promise ends with the engine's statement: a direct INSERT after it,
-- in the same transaction, is checked again.
CREATE TEMP TABLE t3 AS SELECT (pg_temp.deposit((SELECT id FROM spare), 300, 'T-3') ->> 'id')::uuid AS id;
SELECT is((SELECT count(*)::int FROM corebank.journal_entries e
           JOIN corebank.transactions x ON x.id = e.transaction_id
           JOIN corebank.gl_accounts g ON g.id = e.gl_account_id AND g.currency = e.currency
           JOIN corebank.branches b ON b.id = e.branch_id
           LEFT JOIN corebank.ledger_accounts a
                  ON a.id = e.ledger_account_id AND a.gl_account_id = e.gl_account_id AND a.currency = e.currency
           WHERE e.transaction_id = (SELECT id FROM t3) AND (e.ledger_account_id IS NULL OR a.id IS NOT NULL)),
          2, 'both entries of an engine posting refer to rows that exist');
SELECT throws_ok(pg_temp.entry(transaction_id => (SELECT id FROM t3), branch_id => gen_random_uuid()), '23503',
                 'a journal entry refers to a branch that does not exist',
                 'after an engine posting, a direct INSERT in the same transaction is checked again');

-- The rows entries refer to stay: GL accounts and branches are never
-- deleted or truncated, and a branch's id never changes.
SELECT throws_ok($$DELETE FROM corebank.gl_accounts WHERE id = pg_temp.gl('5300')$$, 'CB422',
                 'GL accounts are never deleted; deactivate the GL account instead', 'a GL account cannot be deleted');
SELECT throws_ok($$TRUNCATE corebank.gl_accounts CASCADE$$, 'CB422',
                 'GL accounts are never deleted; deactivate the GL account instead', 'nor truncated');
SELECT throws_ok($$DELETE FROM corebank.branches WHERE code = 'MSV'$$, 'CB422',
                 'branches are never deleted; deactivate the branch instead', 'a branch cannot be deleted');
SELECT throws_ok($$TRUNCATE corebank.branches CASCADE$$, 'CB422',
                 'branches are never deleted; deactivate the branch instead', 'nor truncated');
SELECT throws_ok($$UPDATE corebank.branches SET id = gen_random_uuid() WHERE code = 'HO'$$, 'CB422',
                 NULL, 'a branch''s id never changes');
SELECT lives_ok($$UPDATE corebank.branches SET name = 'Masvingo Central' WHERE code = 'MSV'$$,
                'a branch''s other columns still change');
SELECT throws_ok($$UPDATE corebank.gl_accounts SET currency = 'ZWG' WHERE id = pg_temp.gl('1000')$$, 'CB422', NULL,
                 'a GL account''s currency never changes');

-- A customer account's GL account is frozen once it has entries, not before.
SELECT throws_ok($$UPDATE corebank.ledger_accounts SET gl_account_id = pg_temp.gl('2100') WHERE id = (SELECT id FROM acct)$$,
                 'CB422', 'an account''s GL account cannot change once it has entries',
                 'the GL account of an account with entries cannot change');
CREATE TEMP TABLE fresh AS SELECT pg_temp.open_account('2000', 0) AS id;
SELECT lives_ok($$UPDATE corebank.ledger_accounts SET gl_account_id = pg_temp.gl('2100') WHERE id = (SELECT id FROM fresh)$$,
                'the GL account of an account without entries can change');
SELECT throws_ok($$DELETE FROM corebank.ledger_accounts WHERE id = (SELECT id FROM acct)$$, 'CB422', NULL,
                 'a customer account cannot be deleted');
SELECT throws_ok($$DELETE FROM corebank.transactions WHERE id = (SELECT id FROM t)$$, 'CB422',
                 'transactions cannot be deleted; reverse a posted transaction instead', 'nor a transaction');

SELECT * FROM finish();
ROLLBACK;
