-- ledger_check_constraints.sql: the corebank tables' CHECK constraints,
-- planned once per backend instead of once per writing statement (issue 12
-- part 5; extension/pg/check_constraints.hpp).
--
-- Goal: with the cache in use, every CHECK constraint still runs on every
-- write, in PostgreSQL's order and with PostgreSQL's error; a constraint
-- added or dropped in this session counts from the next statement on; and
-- the engine's writes fill the cache (so the test fails if the hook is not
-- installed). Method: writes to corebank.ledger_accounts by direct SQL
-- (its name and number CHECKs) before and after a posting has warmed the
-- cache, then ALTER TABLE in this transaction.
BEGIN;
SELECT plan(12);
\ir helpers/deposits.sql

SELECT pg_temp.today('2026-03-02');
CREATE TEMP TABLE acc AS
SELECT pg_temp.open(pg_temp.customer('Rudo', 'N-71'), 'CUR-STD', 50000) AS a,
       pg_temp.open(pg_temp.customer('Farai', 'N-72'), 'CUR-STD', 50000) AS b;
CREATE FUNCTION pg_temp.rename(new_name text) RETURNS void LANGUAGE sql
    AS $f$ UPDATE corebank.ledger_accounts SET name = new_name WHERE id = (SELECT a FROM acc) $f$;
CREATE FUNCTION pg_temp.renumber(new_name text, new_number text) RETURNS void LANGUAGE sql
    AS $f$ UPDATE corebank.ledger_accounts SET name = new_name, account_number = new_number
           WHERE id = (SELECT a FROM acc) $f$;

-- Creating the helpers above changed functions and types, which empties the
-- cache; a posting now writes the journal's tables and fills it.
SELECT is(corebank.core_transfer(jsonb_build_object('fromAccountId', (SELECT a FROM acc), 'toAccountId',
                                                    (SELECT b FROM acc), 'amountMinor', 700),
                                 pg_temp.operator()) ->> 'status', 'POSTED', 'a transfer posts');
SELECT cmp_ok(corebank_internal.check_constraints_cached(), '>=', 4,
              'the posting left the CHECKs of the tables it wrote planned in this backend');

-- The constraints still run, twice in a row (the second time from the cache).
SELECT throws_ok($$SELECT pg_temp.rename(repeat('x', 201))$$, '23514',
                 'new row for relation "ledger_accounts" violates check constraint "ledger_accounts_name"',
                 'a name of 201 characters is refused by ledger_accounts_name');
SELECT throws_ok($$SELECT pg_temp.rename(repeat('y', 201))$$, '23514',
                 'new row for relation "ledger_accounts" violates check constraint "ledger_accounts_name"',
                 'and again, from the kept plan');
SELECT lives_ok($$SELECT pg_temp.rename(repeat('z', 20))$$, 'a name of 20 characters is accepted');
-- Two constraints broken at once: PostgreSQL's order (by name) decides which one is reported.
SELECT throws_ok($$SELECT pg_temp.renumber(repeat('x', 201), 'not a number!')$$, '23514',
                 'new row for relation "ledger_accounts" violates check constraint "ledger_accounts_name"',
                 'two broken constraints: the first by name is reported, as without the cache');
SELECT throws_ok($$SELECT pg_temp.renumber('Rudo', 'not a number!')$$, '23514',
                 'new row for relation "ledger_accounts" violates check constraint "ledger_accounts_number"',
                 'the number alone: ledger_accounts_number');

-- A constraint added in this session holds from the next statement on ...
ALTER TABLE corebank.ledger_accounts ADD CONSTRAINT check_cache_probe CHECK (length(name) <= 10) NOT VALID;
SELECT throws_ok($$SELECT pg_temp.rename(repeat('z', 20))$$, '23514',
                 'new row for relation "ledger_accounts" violates check constraint "check_cache_probe"',
                 'a CHECK added in this session refuses the 20-character name at once');
SELECT lives_ok($$SELECT pg_temp.rename('short')$$, 'a name it allows is accepted');
-- ... and one dropped no longer does.
ALTER TABLE corebank.ledger_accounts DROP CONSTRAINT check_cache_probe;
SELECT lives_ok($$SELECT pg_temp.rename(repeat('z', 20))$$, 'once dropped, the 20-character name is accepted again');

-- The engine's own writes after the invalidations: still checked, still posting.
SELECT is(corebank.core_transfer(jsonb_build_object('fromAccountId', (SELECT b FROM acc), 'toAccountId',
                                                    (SELECT a FROM acc), 'amountMinor', 300),
                                 pg_temp.operator()) ->> 'status', 'POSTED', 'a transfer posts after the changes');
SELECT is(pg_temp.balance((SELECT a FROM acc)), 50000 - 700 + 300::bigint, 'and the balance is what the two make it');

SELECT * FROM finish();
ROLLBACK;
