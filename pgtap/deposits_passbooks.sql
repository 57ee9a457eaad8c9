-- deposits_passbooks.sql: passbooks, every rule of the spec (issue 4).
--
-- Goal: a passbook holds no money and stores only how far it is printed; its
-- lines are the account's journal entries (the statement's expression);
-- opening + lines = closing, and a book printed to the end closes at the
-- ledger balance; at most one live book per account; reprint on loss prints
-- everything again; print-confirm names the last line printed, so a posting
-- landing after printing stays unprinted. Method: post, print, confirm,
-- and try to break each rule with direct SQL.
BEGIN;
SELECT plan(33);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-04-01');
CREATE TEMP TABLE acct AS SELECT pg_temp.open(pg_temp.customer('Nyasha', 'N-30'), 'SAV-STD', 10000) AS id;
SELECT pg_temp.put((SELECT id FROM acct), 2500);
SELECT pg_temp.take((SELECT id FROM acct), 1000);

-- No money in the passbook table.
SELECT is((SELECT count(*) FROM information_schema.columns
           WHERE table_schema = 'corebank' AND table_name = 'passbooks'
             AND (column_name LIKE '%balance%' OR column_name LIKE '%amount%' OR column_name LIKE '%minor%')),
          0::bigint, 'the passbooks table has no amount column');

-- Issue: one live book.
CREATE TEMP TABLE book AS SELECT corebank.core_passbook_issue((SELECT id FROM acct), pg_temp.operator()) AS r;
SELECT is((SELECT (r ->> 'bookNumber')::int FROM book), 1, 'book 1 is issued');
SELECT is((SELECT (r ->> 'unprintedLineCount')::int FROM book), 3, 'with the account''s three postings unprinted');
SELECT is((SELECT (r ->> 'openingBalanceCents')::bigint FROM book), 0::bigint, 'the first book opens at zero');
SELECT throws_ok($$SELECT corebank.core_passbook_issue((SELECT id FROM acct), pg_temp.operator())$$,
                 'CB409', 'The account already has a live passbook (book 1)', 'at most one live book per account');
SELECT throws_ok($$INSERT INTO corebank.passbooks (account_id, book_number, issued_by) VALUES ((SELECT id FROM acct), 9, pg_temp.operator())$$,
                 '23505', NULL, 'not even by direct SQL (unique index)');

-- Unprinted lines: the statement's postings, opening + lines = closing.
CREATE TEMP TABLE u AS SELECT corebank.core_passbook_unprinted((SELECT (r ->> 'id')::uuid FROM book), NULL) AS r;
SELECT is((SELECT jsonb_array_length(r -> 'lines') FROM u), 3, 'three lines');
SELECT is((SELECT array_agg((l ->> 'entryId')::bigint ORDER BY (l ->> 'lineNo')::int) FROM u, jsonb_array_elements(r -> 'lines') l),
          (SELECT array_agg(x.entry_id ORDER BY x.entry_id) FROM corebank_internal.account_entries((SELECT id FROM acct)) x),
          'the lines are the account''s journal entries');
SELECT is((SELECT (r ->> 'openingBalanceCents')::bigint
                  + (SELECT sum(coalesce((l ->> 'creditCents')::bigint, 0) - coalesce((l ->> 'debitCents')::bigint, 0))::bigint
                     FROM jsonb_array_elements(r -> 'lines') l) FROM u),
          (SELECT (r ->> 'closingBalanceCents')::bigint FROM u), 'opening + lines = closing');
SELECT is((SELECT (r ->> 'closingBalanceCents')::bigint FROM u), pg_temp.bal((SELECT id FROM acct)),
          'all lines unprinted: the closing is the ledger balance');
SELECT is((SELECT (corebank.core_statement((SELECT id FROM acct), '2026-04-01', '2026-04-01') ->> 'closingBalanceMinor')::bigint),
          (SELECT (r ->> 'closingBalanceCents')::bigint FROM u), 'and the statement''s closing balance');

-- Print two lines; a posting lands after printing.
CREATE TEMP TABLE second AS SELECT (r -> 'lines' -> 1 ->> 'entryId')::bigint AS entry FROM u;
SELECT pg_temp.put((SELECT id FROM acct), 777);
CREATE TEMP TABLE printed AS SELECT corebank.core_passbook_print_confirm((SELECT (r ->> 'id')::uuid FROM book),
    jsonb_build_object('lastEntryId', (SELECT entry FROM second)), pg_temp.operator()) AS r;
SELECT is((SELECT (r ->> 'printedLineCount')::int FROM printed), 2, 'two lines are printed');
SELECT is((SELECT (r ->> 'unprintedLineCount')::int FROM printed), 2, 'the third and the late posting are not');
SELECT is((SELECT (r ->> 'closingBalanceCents')::bigint FROM printed), 12500::bigint, 'the book closes after its last printed line');
CREATE TEMP TABLE u2 AS SELECT corebank.core_passbook_unprinted((SELECT (r ->> 'id')::uuid FROM book), NULL) AS r;
SELECT is((SELECT (r ->> 'openingBalanceCents')::bigint FROM u2), 12500::bigint, 'the unprinted lines open where printing stopped');
SELECT is((SELECT (r -> 'lines' -> 0 ->> 'lineNo')::int FROM u2), 3, 'and continue the book''s line numbers');
SELECT is((SELECT (r -> 'lines' -> -1 ->> 'creditCents')::bigint FROM u2), 777::bigint, 'the late posting is unprinted');
SELECT lives_ok($$SELECT corebank.core_passbook_print_confirm((SELECT (r ->> 'id')::uuid FROM book), jsonb_build_object('lastEntryId', (SELECT entry FROM second)), pg_temp.operator())$$,
                'confirming the same line again changes nothing');
SELECT throws_ok($$SELECT corebank.core_passbook_print_confirm((SELECT (r ->> 'id')::uuid FROM book), jsonb_build_object('lastEntryId', (SELECT (r -> 'lines' -> 0 ->> 'entryId')::bigint FROM u)), pg_temp.operator())$$,
                 'CB409', format('Lines up to entry %s are already printed', (SELECT entry FROM second)), 'printing never goes back');
SELECT throws_ok($$UPDATE corebank.passbooks SET printed_through_entry_id = NULL$$,
                 'CB422', 'a passbook''s printing only moves forward', 'not even by direct SQL');
SELECT throws_ok($$SELECT corebank.core_passbook_print_confirm((SELECT (r ->> 'id')::uuid FROM book), jsonb_build_object('lastEntryId', (SELECT min(id) FROM corebank.journal_entries WHERE ledger_account_id IS DISTINCT FROM (SELECT id FROM acct))), pg_temp.operator())$$,
                 'CB422', 'lastEntryId: is not a line of this passbook', 'another account''s entry is not a line');

-- Printed to the end: the book closes at the ledger balance.
CREATE TEMP TABLE done AS SELECT corebank.core_passbook_print_confirm((SELECT (r ->> 'id')::uuid FROM book),
    jsonb_build_object('lastEntryId', (SELECT (r -> 'lines' -> -1 ->> 'entryId')::bigint FROM u2)), pg_temp.operator()) AS r;
SELECT is((SELECT (r ->> 'closingBalanceCents')::bigint FROM done), pg_temp.bal((SELECT id FROM acct)),
          'a book printed to the end closes at the ledger balance');
SELECT is((SELECT (r ->> 'unprintedLineCount')::int FROM done), 0, 'nothing is left to print');

-- Reprint on loss.
CREATE TEMP TABLE re AS SELECT corebank.core_passbook_reprint((SELECT (r ->> 'id')::uuid FROM book), '{"reason": "stolen"}',
                                                              pg_temp.operator()) AS r;
SELECT is((SELECT (r ->> 'bookNumber')::int || ' ' || (r ->> 'replacesId') FROM re), '2 ' || (SELECT r ->> 'id' FROM book),
          'the replacement is book 2, replacing book 1');
SELECT is((SELECT (r ->> 'unprintedLineCount')::int FROM re), 4, 'every line of the lost book prints again');
SELECT is((SELECT status FROM corebank.passbooks WHERE id = (SELECT (r ->> 'id')::uuid FROM book)), 'LOST', 'the old book is LOST');
SELECT throws_ok($$SELECT corebank.core_passbook_reprint((SELECT (r ->> 'id')::uuid FROM book), NULL, pg_temp.operator())$$,
                 'CB409', 'Only the live passbook can be reprinted (this one is LOST)', 'a lost book is not reprinted again');
SELECT throws_ok($$SELECT corebank.core_passbook_print_confirm((SELECT (r ->> 'id')::uuid FROM book), '{"lastEntryId": 1}', pg_temp.operator())$$,
                 'CB409', 'The passbook is LOST', 'a lost book is not printed on');
SELECT throws_ok($$SELECT corebank.core_passbook_print_confirm('00000000-0000-4000-8000-00000000dead', '{"lastEntryId": 1}', pg_temp.operator())$$,
                 'CB404', 'Passbook not found', 'an unknown book is not printed on');
SELECT throws_ok($$SELECT corebank.core_passbook_reprint('00000000-0000-4000-8000-00000000dead', NULL, pg_temp.operator())$$,
                 'CB404', 'Passbook not found', 'nor reprinted');
SELECT throws_ok($$UPDATE corebank.passbooks SET status = 'ACTIVE', lost_at = NULL WHERE id = (SELECT (r ->> 'id')::uuid FROM book)$$,
                 'CB409', 'a LOST passbook cannot change', 'a lost book stays lost');
SELECT throws_ok($$DELETE FROM corebank.passbooks$$, 'CB422', 'passbooks cannot be deleted', 'books are never deleted');
SELECT throws_ok($$UPDATE corebank.passbooks SET starts_after_entry_id = 1 WHERE status = 'ACTIVE'$$,
                 'CB422', 'a passbook''s starts_after_entry_id cannot change', 'where a book starts is frozen');

SELECT * FROM finish();
ROLLBACK;
