-- statement_paging.sql: the keyset-paged statement (1.8, issue 12 part 4,
-- docs/design/posting-engine.md section 4, docs/deposits.md "Statements and
-- their paging") and the DBA's account_statement on the day totals.
--
-- Goal: the pages of corebank.core_statement, followed forward by nextCursor
-- and backward by previousCursor, concatenate to exactly the lines and
-- running balances of the whole range (equal to a window sum over the
-- journal), page for page the same in both directions, at several limits;
-- the page and range members are right (first page opens at the range's
-- opening, last page closes at its closing; totals equal sums of entries);
-- limit and cursor arguments are bounded; a posting back-dated into the
-- range shows on the right page with every later balance moved by it; the
-- old three-argument call is the first page of 100; account_statement equals
-- its old definition (opening = the sum of every earlier entry).
-- Method: 28 postings inside the range and some outside, through the API;
-- walks in pl/pgSQL; comparisons with aggregates of journal_entries.
BEGIN;
SELECT plan(42);
\ir helpers/deposits.sql

-- One page: the cursor as the database returns it (NULL: the first page).
CREATE FUNCTION pg_temp.page(account uuid, from_date date, to_date date, page_limit int, cursor jsonb) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $f$
    SELECT corebank.core_statement(account, from_date, to_date, page_limit, cursor ->> 'direction',
                                   (cursor ->> 'valueDate')::date, (cursor ->> 'entryId')::bigint,
                                   (cursor ->> 'balanceMinor')::bigint)
$f$;

-- Every page of a range in walking order: forward from the first page by
-- nextCursor, or backward from the last page (reached forward) by
-- previousCursor. At most 1,000 pages.
CREATE FUNCTION pg_temp.walk(account uuid, from_date date, to_date date, page_limit int, backward boolean)
    RETURNS TABLE (step int, page jsonb)
    LANGUAGE plpgsql STABLE
    AS $f$
DECLARE
    p jsonb := pg_temp.page(account, from_date, to_date, page_limit, NULL);
    toward text := CASE WHEN backward THEN 'previousCursor' ELSE 'nextCursor' END;
BEGIN
    IF backward THEN
        FOR i IN 1..1000 LOOP
            EXIT WHEN jsonb_typeof(p -> 'nextCursor') = 'null';
            p := pg_temp.page(account, from_date, to_date, page_limit, p -> 'nextCursor');
        END LOOP;
    END IF;
    FOR i IN 1..1000 LOOP
        step := i;
        page := p;
        RETURN NEXT;
        EXIT WHEN jsonb_typeof(p -> toward) = 'null';
        p := pg_temp.page(account, from_date, to_date, page_limit, p -> toward);
    END LOOP;
END
$f$;

-- The lines of a walk in date order, with the number of their page counted
-- from the first page.
CREATE FUNCTION pg_temp.walk_lines(account uuid, from_date date, to_date date, page_limit int, backward boolean)
    RETURNS TABLE (page_no bigint, entry_id bigint, balance bigint)
    LANGUAGE sql STABLE
    AS $f$
    WITH w AS (SELECT w.step, w.page, count(*) OVER () AS pages FROM pg_temp.walk(account, from_date, to_date, page_limit, backward) w)
    SELECT CASE WHEN backward THEN w.pages - w.step + 1 ELSE w.step END, (l ->> 'entryId')::bigint,
           (l ->> 'balanceMinor')::bigint
    FROM w, jsonb_array_elements(w.page -> 'lines') WITH ORDINALITY AS x(l, n)
    ORDER BY 1, x.n
$f$;

-- The range's lines by definition: a window sum over every entry of the account up to `to`.
CREATE FUNCTION pg_temp.journal_lines(account uuid, from_date date, to_date date)
    RETURNS TABLE (entry_id bigint, balance bigint)
    LANGUAGE sql STABLE
    AS $f$
    SELECT x.id, x.running FROM (
        SELECT e.id, e.value_date,
               sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END)
                   OVER (ORDER BY e.value_date, e.id)::bigint AS running
        FROM corebank.journal_entries e WHERE e.ledger_account_id = account AND e.value_date <= to_date) x
    WHERE x.value_date >= from_date
    ORDER BY x.value_date, x.id
$f$;

CREATE FUNCTION pg_temp.entries_sum(account uuid, from_date date, to_date date, wanted_side text) RETURNS bigint
    LANGUAGE sql STABLE
    AS $f$
    SELECT coalesce(sum(e.amount_minor), 0)::bigint FROM corebank.journal_entries e
    WHERE e.ledger_account_id = account AND e.value_date BETWEEN from_date AND to_date AND e.side = wanted_side
$f$;

-- Ten business days, four postings each (credits and debits of varied sizes);
-- the statement's range is 2026-03-03 to 2026-03-09, 28 of the lines.
SELECT pg_temp.today('2026-03-01');
CREATE TEMP TABLE acct AS SELECT pg_temp.open(pg_temp.customer('Pages', 'N-77'), 'CUR-STD', 500000) AS a;
DO $$
DECLARE
    account uuid := (SELECT a FROM acct);
BEGIN
    FOR d IN 0..9 LOOP
        PERFORM pg_temp.today(DATE '2026-03-01' + d);
        FOR k IN 1..4 LOOP
            IF k % 2 = 0 THEN
                PERFORM pg_temp.take(account, 100 * d + 7 * k + 1);
            ELSE
                PERFORM pg_temp.put(account, 1000 * (d + 1) + 13 * k);
            END IF;
        END LOOP;
    END LOOP;
END
$$;
CREATE TEMP TABLE r AS SELECT (SELECT a FROM acct) AS a, DATE '2026-03-03' AS f, DATE '2026-03-09' AS t;

SELECT is((SELECT count(*) FROM pg_temp.journal_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r))),
          28::bigint, 'the range holds 28 lines');

-- Forward and backward, at limits that do and do not divide 28.
SELECT results_eq($$SELECT entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, false)$$,
                  $$SELECT * FROM pg_temp.journal_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r))$$,
                  'limit 5 forward: the pages concatenate to the range''s lines and running balances');
SELECT results_eq($$SELECT page_no, entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, true)$$,
                  $$SELECT page_no, entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, false)$$,
                  'limit 5 backward: page for page the same lines and balances as forward');
SELECT results_eq($$SELECT entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 7, false)$$,
                  $$SELECT * FROM pg_temp.journal_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r))$$,
                  'limit 7 (divides 28) forward: the range''s lines');
SELECT results_eq($$SELECT page_no, entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 7, true)$$,
                  $$SELECT page_no, entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 7, false)$$,
                  'limit 7 backward: the same pages');
SELECT results_eq($$SELECT entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 1, true)$$,
                  $$SELECT * FROM pg_temp.journal_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r))$$,
                  'limit 1 backward from the last line: the range''s lines');
SELECT is((SELECT array_agg(jsonb_array_length(page -> 'lines') ORDER BY step)
           FROM pg_temp.walk((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, false)),
          ARRAY[5, 5, 5, 5, 5, 3], 'limit 5: six pages of 5, 5, 5, 5, 5 and 3 lines');
SELECT is((SELECT array_agg(jsonb_array_length(page -> 'lines') ORDER BY step)
           FROM pg_temp.walk((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 7, false)),
          ARRAY[7, 7, 7, 7], 'limit 7: four full pages and no empty fifth');

-- The members of the pages.
CREATE TEMP TABLE pages AS SELECT * FROM pg_temp.walk((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, false);
SELECT is((SELECT count(*) FROM pages WHERE jsonb_typeof(page -> 'previousCursor') = 'null'), 1::bigint,
          'one page has no previousCursor ...');
SELECT is((SELECT step FROM pages WHERE jsonb_typeof(page -> 'previousCursor') = 'null'), 1, '... the first');
SELECT is((SELECT array_agg(step) FROM pages WHERE jsonb_typeof(page -> 'nextCursor') = 'null'), ARRAY[6],
          'only the last page has no nextCursor');
SELECT is((SELECT count(*) FROM pages
           WHERE (page ->> 'limit')::int <> 5
              OR page -> 'openingBalanceMinor' <> (SELECT page -> 'openingBalanceMinor' FROM pages WHERE step = 1)
              OR page -> 'closingBalanceMinor' <> (SELECT page -> 'closingBalanceMinor' FROM pages WHERE step = 1)
              OR page -> 'totalDebitsMinor' <> (SELECT page -> 'totalDebitsMinor' FROM pages WHERE step = 1)
              OR page -> 'totalCreditsMinor' <> (SELECT page -> 'totalCreditsMinor' FROM pages WHERE step = 1)
              OR page ->> 'from' <> '2026-03-03' OR page ->> 'to' <> '2026-03-09'),
          0::bigint, 'every page carries the limit and the same range members');
SELECT is((SELECT (page ->> 'openingBalanceMinor')::bigint FROM pages WHERE step = 1),
          corebank_internal.account_balance_as_of((SELECT a FROM r), '2026-03-02'), 'the range opens at the balance of the day before');
SELECT is((SELECT (page ->> 'openingBalanceMinor')::bigint FROM pages WHERE step = 1),
          (SELECT coalesce(sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END), 0)::bigint
           FROM corebank.journal_entries e WHERE e.ledger_account_id = (SELECT a FROM r) AND e.value_date < '2026-03-03'),
          '... which is the sum of every earlier entry');
SELECT is((SELECT ((page ->> 'totalDebitsMinor')::bigint, (page ->> 'totalCreditsMinor')::bigint)::text FROM pages WHERE step = 1),
          (pg_temp.entries_sum((SELECT a FROM r), '2026-03-03', '2026-03-09', 'D'),
           pg_temp.entries_sum((SELECT a FROM r), '2026-03-03', '2026-03-09', 'C'))::text,
          'the range''s totals (from the day totals) equal the sums of its entries');
SELECT is((SELECT (page ->> 'closingBalanceMinor')::bigint FROM pages WHERE step = 1),
          (SELECT balance FROM pg_temp.journal_lines((SELECT a FROM r), '2026-03-03', '2026-03-09') ORDER BY entry_id DESC LIMIT 1),
          'the range closes at the running balance of its last line');
SELECT is((SELECT count(*) FROM pages p
           WHERE (p.page ->> 'pageClosingBalanceMinor')::bigint <> (p.page -> 'lines' -> -1 ->> 'balanceMinor')::bigint
              OR (p.page ->> 'pageOpeningBalanceMinor')::bigint
                 <> (p.page -> 'lines' -> 0 ->> 'balanceMinor')::bigint
                    - CASE WHEN p.page -> 'lines' -> 0 ->> 'side' = 'CREDIT' THEN 1 ELSE -1 END
                      * (p.page -> 'lines' -> 0 ->> 'amountMinor')::bigint),
          0::bigint, 'each page opens before its first line and closes at its last');
SELECT is((SELECT count(*) FROM pages p JOIN pages q ON q.step = p.step + 1
           WHERE p.page -> 'pageClosingBalanceMinor' <> q.page -> 'pageOpeningBalanceMinor'),
          0::bigint, 'each page opens where the one before closed');
SELECT is((SELECT page -> 'pageOpeningBalanceMinor' FROM pages WHERE step = 1),
          (SELECT page -> 'openingBalanceMinor' FROM pages WHERE step = 1), 'the first page opens at the range''s opening balance');
SELECT is((SELECT page -> 'pageClosingBalanceMinor' FROM pages WHERE step = 6),
          (SELECT page -> 'closingBalanceMinor' FROM pages WHERE step = 6), 'the last page closes at the range''s closing balance');
SELECT is((SELECT page -> 'nextCursor' FROM pages WHERE step = 1),
          jsonb_build_object('direction', 'next', 'valueDate', (SELECT page -> 'lines' -> 4 -> 'valueDate' FROM pages WHERE step = 1),
                             'entryId', (SELECT page -> 'lines' -> 4 -> 'entryId' FROM pages WHERE step = 1),
                             'balanceMinor', (SELECT page -> 'lines' -> 4 -> 'balanceMinor' FROM pages WHERE step = 1)),
          'nextCursor is the last line''s key and running balance');

-- Limits.
SELECT is((pg_temp.page((SELECT a FROM r), '2026-03-03', '2026-03-09', 1000, NULL) -> 'lines'),
          (SELECT jsonb_agg(l ORDER BY step, n) FROM pages, jsonb_array_elements(page -> 'lines') WITH ORDINALITY x(l, n)),
          'limit 1000: one page of every line, the same lines as the pages');
SELECT is((pg_temp.page((SELECT a FROM r), '2026-03-03', '2026-03-09', 1000, NULL) -> 'nextCursor'), 'null'::jsonb,
          'limit 1000: no nextCursor');
SELECT is((pg_temp.page((SELECT a FROM r), '2026-03-03', '2026-03-09', NULL, NULL) ->> 'limit'), '100', 'limit NULL: 100');
SELECT throws_ok($$SELECT pg_temp.page((SELECT a FROM r), '2026-03-03', '2026-03-09', 0, NULL)$$,
                 'CBV00', 'limit: must be an integer from 1 to 1000', 'limit 0 is refused');
SELECT throws_ok($$SELECT pg_temp.page((SELECT a FROM r), '2026-03-03', '2026-03-09', 1001, NULL)$$,
                 'CBV00', 'limit: must be an integer from 1 to 1000', 'limit 1001 is refused');

-- The cursor's arguments.
SELECT throws_ok($$SELECT corebank.core_statement((SELECT a FROM r), '2026-03-03', '2026-03-09', 5, 'sideways', '2026-03-04', 1, 0)$$,
                 'CBV00', 'cursor: direction must be next or previous', 'an unknown direction is refused');
SELECT throws_ok($$SELECT corebank.core_statement((SELECT a FROM r), '2026-03-03', '2026-03-09', 5, 'next', '2026-03-04', NULL, 0)$$,
                 'CBV00', 'cursor: direction, value date, entry id and balance go together', 'a partial cursor is refused');
SELECT throws_ok($$SELECT corebank.core_statement((SELECT a FROM r), '2026-03-03', '2026-03-09', 5, 'next', '2026-03-10', 1, 0)$$,
                 'CBV00', 'cursor: must be a line of the period', 'a cursor outside the range is refused');
SELECT is((SELECT (corebank.core_statement((SELECT a FROM r), '2026-03-03', '2026-03-09', 5, 'next',
                                           (c ->> 'valueDate')::date, (c ->> 'entryId')::bigint, 1000000000)
                   -> 'lines' -> 0 ->> 'balanceMinor')::bigint
                  - (SELECT (page -> 'lines' -> 0 ->> 'balanceMinor')::bigint FROM pages WHERE step = 2)
           FROM (SELECT page -> 'nextCursor' AS c FROM pages WHERE step = 1) x),
          1000000000 - (SELECT (page ->> 'pageClosingBalanceMinor')::bigint FROM pages WHERE step = 1),
          'a psql caller''s own balance moves the displayed running balances by the difference, nothing else');
SELECT throws_ok($$SELECT corebank.core_statement('00000000-0000-4000-8000-0000000000ff', '2026-03-03', '2026-03-09', 5, NULL, NULL, NULL, NULL)$$,
                 'CB404', 'Account not found', 'an unknown account is 404');

-- An empty range: no lines, no cursors, the page is the range's balance.
SELECT is((SELECT (s -> 'lines', s -> 'nextCursor', s -> 'previousCursor', s -> 'pageOpeningBalanceMinor' = s -> 'openingBalanceMinor',
                   s -> 'pageClosingBalanceMinor' = s -> 'closingBalanceMinor')::text
           FROM (SELECT pg_temp.page((SELECT a FROM r), '2026-03-20', '2026-03-25', 5, NULL) AS s) x),
          ('[]'::jsonb, 'null'::jsonb, 'null'::jsonb, true, true)::text, 'an empty range: no lines and no cursors');

-- The three-argument call of earlier releases: the first page of 100.
SELECT is(corebank.core_statement((SELECT a FROM r), '2026-03-03', '2026-03-09'),
          pg_temp.page((SELECT a FROM r), '2026-03-03', '2026-03-09', 100, NULL), 'core_statement(uuid, date, date) is the first page of 100');

-- A posting back-dated into the range (its period is open): it shows on its
-- page in (value date, entry id) order, and every later line's balance moves by it.
CREATE TEMP TABLE before_lines AS SELECT * FROM pg_temp.journal_lines((SELECT a FROM r), '2026-03-03', '2026-03-09');
SELECT pg_temp.today('2026-03-12');
CREATE TEMP TABLE late_tx AS SELECT pg_temp.put((SELECT a FROM r), 777, '{"valueDate": "2026-03-05"}') AS tx;
CREATE TEMP TABLE late AS
    SELECT e.id FROM corebank.journal_entries e
    WHERE e.transaction_id = (SELECT (tx ->> 'id')::uuid FROM late_tx) AND e.ledger_account_id = (SELECT a FROM r);
SELECT results_eq($$SELECT entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, false)$$,
                  $$SELECT * FROM pg_temp.journal_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r))$$,
                  'after a back-dated posting, forward: the range''s lines and balances');
SELECT results_eq($$SELECT page_no, entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, true)$$,
                  $$SELECT page_no, entry_id, balance FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, false)$$,
                  'after a back-dated posting, backward: the same pages');
SELECT is((SELECT count(*) FROM late), 1::bigint, 'the back-dated deposit has one line on the account');
SELECT is((SELECT page_no FROM pg_temp.walk_lines((SELECT a FROM r), (SELECT f FROM r), (SELECT t FROM r), 5, false)
           WHERE entry_id = (SELECT id FROM late)),
          (SELECT (n - 1) / 5 + 1 FROM (SELECT entry_id, row_number() OVER () AS n
                                        FROM pg_temp.journal_lines((SELECT a FROM r), '2026-03-03', '2026-03-09')) x
           WHERE entry_id = (SELECT id FROM late)),
          'the back-dated line is on the page of its place');
SELECT is((SELECT (min(n), max(n))::text FROM (SELECT row_number() OVER () AS n, entry_id
                                                FROM pg_temp.journal_lines((SELECT a FROM r), '2026-03-03', '2026-03-09')) x
           WHERE entry_id = (SELECT id FROM late)), '(13,13)',
          'it is the 13th line: after the 4 lines of each of 2026-03-03 and 03-04 and the 4 of 03-05 posted before it');
SELECT is((SELECT count(*) FROM before_lines b
           JOIN pg_temp.journal_lines((SELECT a FROM r), '2026-03-03', '2026-03-09') n USING (entry_id)
           WHERE n.balance - b.balance <> CASE WHEN (SELECT e.value_date FROM corebank.journal_entries e
                                                     WHERE e.id = b.entry_id) > '2026-03-05' THEN 777 ELSE 0 END),
          0::bigint, 'lines after it move by 777, lines before it do not');

-- account_statement (DBA): the same lines and the old opening balance.
SELECT results_eq($$SELECT entry_id, balance_minor FROM corebank.account_statement((SELECT a FROM r), '2026-03-03', '2026-03-09')$$,
                  $$SELECT * FROM pg_temp.journal_lines((SELECT a FROM r), '2026-03-03', '2026-03-09')$$,
                  'account_statement: the range''s lines and running balances');
SELECT is((SELECT count(*) FROM generate_series('2026-02-27'::date, '2026-03-12'::date, '1 day') d
           WHERE (SELECT DISTINCT s.opening_balance_minor FROM corebank.account_statement((SELECT a FROM r), d::date, '2026-03-12') s)
                 IS DISTINCT FROM
                 (SELECT coalesce(sum(CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END), 0)::bigint
                  FROM corebank.journal_entries e WHERE e.ledger_account_id = (SELECT a FROM r) AND e.value_date < d::date)
             AND EXISTS (SELECT FROM corebank.account_statement((SELECT a FROM r), d::date, '2026-03-12'))),
          0::bigint, 'account_statement''s opening balance from every start date equals the sum of every earlier entry');
SELECT ok(pg_temp.ledger_healthy(), 'the ledger is healthy');

SELECT * FROM finish();
ROLLBACK;
