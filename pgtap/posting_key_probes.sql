-- posting_key_probes.sql: the posting engine finds its rows by key, whatever
-- the size of the tables (issue 12 part 5; spi::execute_generic,
-- docs/performance.md "Issue 12's goals on 2026-11-28, third session").
--
-- Goal: a posting never reads a whole table of accounts, entries, keys or
-- stripes. These tables are small in a new database (as in this test) and
-- grow or bloat in use; a plan made while they were small that scans them
-- whole goes on doing so at every posting of that connection. Before the
-- engine priced sequential scans out of its key statements, a transfer in a
-- small database scanned the accounts and the deposit accounts whole, and
-- each scanned row parsed the text array of ids as uuids again. Method: the
-- transaction's own scan counts (pg_stat_xact_user_tables) before and after
-- the engine's entry points (a group of two, a single transfer, a batch of
-- two), in a new connection's first calls, when every plan is made.
BEGIN;
SELECT plan(13);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE ids AS SELECT pg_temp.customer('Tariro', 'N-93') AS id;
CREATE TEMP TABLE acc AS
SELECT 'a' AS name, pg_temp.open((SELECT id FROM ids), 'CUR-STD', 100000) AS id
UNION ALL SELECT 'b', pg_temp.open((SELECT id FROM ids), 'CUR-STD', 100000)
UNION ALL SELECT 'c', pg_temp.open((SELECT id FROM ids), 'CUR-STD', 100000);
CREATE FUNCTION pg_temp.acc(name text) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT a.id FROM acc a WHERE a.name = $1 $f$;
CREATE FUNCTION pg_temp.transfer(source text, target text, amount bigint) RETURNS jsonb LANGUAGE sql STABLE
    AS $f$ SELECT jsonb_build_object('fromAccountId', pg_temp.acc(source), 'toAccountId', pg_temp.acc(target),
                                     'amountMinor', amount, 'idempotencyKey', gen_random_uuid()::text) $f$;

-- The statistics the planner works from, made the same wherever this test
-- runs: the tables as ANALYZE finds them in a small database (autovacuum
-- analyzes them soon after the first postings; before that, PostgreSQL
-- assumes ten pages for a table never analyzed, and every plan probes keys
-- anyway), so a statement that is not planned for its keys reads them whole.
-- The accounts alone are grown first to 2,000 rows: every posting here
-- updates rows this transaction made, and PostgreSQL checks the foreign keys
-- of such rows again (deposit_accounts, account_day_totals and
-- account_credit_stripes to ledger_accounts) with plans of its own; on a
-- one-page ledger_accounts those read the page, rightly. In a database whose
-- accounts were opened by earlier transactions, those checks do not run.
INSERT INTO corebank.ledger_accounts (account_number, name, gl_account_id, currency, branch_id)
SELECT 'PKP-' || n, 'padding ' || n, a.gl_account_id, a.currency, a.branch_id
FROM generate_series(1, 2000) n, corebank.ledger_accounts a WHERE a.id = pg_temp.acc('a');
ANALYZE corebank.ledger_accounts, corebank.deposit_accounts, corebank.transactions, corebank.journal_entries,
    corebank.idempotency_keys, corebank.account_credit_stripes, corebank.gl_balance_stripes, corebank.chain_heads,
    corebank.account_day_totals, corebank.gl_day_totals;

-- The engine's tables, and their sequential scans so far in this transaction.
CREATE TEMP TABLE watched(relname text PRIMARY KEY);
INSERT INTO watched VALUES ('ledger_accounts'), ('deposit_accounts'), ('transactions'), ('journal_entries'),
    ('idempotency_keys'), ('account_credit_stripes'), ('gl_balance_stripes'), ('chain_heads'),
    ('account_day_totals'), ('gl_day_totals');
CREATE FUNCTION pg_temp.scans() RETURNS TABLE (relname text, seq_scan bigint) LANGUAGE sql STABLE
    AS $f$ SELECT w.relname, coalesce(s.seq_scan, 0) FROM watched w
           LEFT JOIN pg_stat_xact_user_tables s ON s.schemaname = 'corebank' AND s.relname = w.relname $f$;
CREATE TEMP TABLE before AS SELECT * FROM pg_temp.scans();
CREATE FUNCTION pg_temp.scanned() RETURNS text[] LANGUAGE sql STABLE
    AS $f$ SELECT coalesce(array_agg(n.relname || ' ' || (n.seq_scan - b.seq_scan) ORDER BY n.relname), '{}')
           FROM pg_temp.scans() n JOIN before b USING (relname) WHERE n.seq_scan > b.seq_scan $f$;
CREATE FUNCTION pg_temp.reset() RETURNS void LANGUAGE sql
    AS $f$ DELETE FROM before; INSERT INTO before SELECT * FROM pg_temp.scans() $f$;

SELECT is((SELECT count(*)::int FROM pg_temp.scans()), 10, 'the ten tables of the engine are watched');

-- A group of two (what the tier calls for concurrent transfers).
SELECT pg_temp.reset();
SELECT is((SELECT array_agg(e ->> 'status') FROM jsonb_array_elements(corebank.core_postings(
              jsonb_build_array(jsonb_build_object('operation', 'transfer', 'request', pg_temp.transfer('a', 'b', 100)),
                                jsonb_build_object('operation', 'transfer', 'request', pg_temp.transfer('b', 'c', 50))),
              ARRAY[pg_temp.operator(), pg_temp.operator()])) e),
          ARRAY['POSTED', 'POSTED'], 'a group of two posts both');
SELECT is(pg_temp.scanned(), '{}'::text[], 'a group scans none of the engine''s tables whole');

-- A single transfer (core_transfer: the single path's statements).
SELECT pg_temp.reset();
SELECT is(corebank.core_transfer(pg_temp.transfer('c', 'a', 25), pg_temp.operator()) ->> 'status', 'POSTED',
          'a single transfer posts');
SELECT is(pg_temp.scanned(), '{}'::text[], 'a single transfer scans none of the engine''s tables whole');

-- A batch of two.
SELECT pg_temp.reset();
SELECT is(corebank.core_transfer_batch(jsonb_build_object('transfers', jsonb_build_array(
              jsonb_build_object('fromAccountId', pg_temp.acc('a'), 'toAccountId', pg_temp.acc('c'), 'amountMinor', 10),
              jsonb_build_object('fromAccountId', pg_temp.acc('b'), 'toAccountId', pg_temp.acc('a'), 'amountMinor', 20))),
          pg_temp.operator()) -> 'results' -> 1 ->> 'status', 'POSTED', 'a batch of two posts');
SELECT is(pg_temp.scanned(), '{}'::text[], 'a batch scans none of the engine''s tables whole');

-- The same again, now that every plan is made and kept.
SELECT pg_temp.reset();
SELECT is((SELECT count(*)::int FROM jsonb_array_elements(corebank.core_postings(
              jsonb_build_array(jsonb_build_object('operation', 'transfer', 'request', pg_temp.transfer('c', 'b', 5)),
                                jsonb_build_object('operation', 'transfer', 'request', pg_temp.transfer('a', 'b', 5))),
              ARRAY[pg_temp.operator(), pg_temp.operator()])) e WHERE e ->> 'status' = 'POSTED'),
          2, 'a second group posts both');
SELECT is(corebank.core_transfer(pg_temp.transfer('b', 'c', 5), pg_temp.operator()) ->> 'status', 'POSTED',
          'a second single transfer posts');
SELECT is(pg_temp.scanned(), '{}'::text[], 'nor do the second group and transfer, on kept plans');

-- The balances are what the five postings of a, b and c make them.
SELECT is(pg_temp.balance(pg_temp.acc('a')), 100000 - 100 + 25 - 10 + 20 - 5::bigint, 'a''s balance');
SELECT is(pg_temp.balance(pg_temp.acc('b')), 100000 + 100 - 50 - 20 + 5 + 5 - 5::bigint, 'b''s balance');
SELECT is(pg_temp.balance(pg_temp.acc('c')), 100000 + 50 - 25 + 10 - 5 + 5::bigint, 'c''s balance');

SELECT * FROM finish();
ROLLBACK;
