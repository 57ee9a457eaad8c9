-- helpers/sequences.sql: put every corebank sequence back at the end of a file.
--
-- Sequences do not roll back with the file's transaction, and files that run
-- later read numbers (core_transactions.sql expects TX0000000001), so a file
-- that takes numbers (a deposit, a captured journal) and runs before them
-- includes this helper at its start and ends with one test:
--   SELECT pg_temp.sequences_put_back();
CREATE TEMP TABLE sequences_before AS
SELECT format('%I.%I', s.schemaname, s.sequencename) AS name, s.start_value, s.last_value
FROM pg_sequences s WHERE s.schemaname IN ('corebank', 'corebank_internal');

-- Restores each sequence as it was (never used: its start, not yet called)
-- and tests that every one is back: one pgTAP test.
CREATE FUNCTION pg_temp.sequences_put_back() RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    PERFORM setval(b.name, coalesce(b.last_value, b.start_value), b.last_value IS NOT NULL) FROM sequences_before b;
    RETURN is_empty($$SELECT format('%I.%I', s.schemaname, s.sequencename), s.last_value FROM pg_sequences s
                      WHERE s.schemaname IN ('corebank', 'corebank_internal')
                      EXCEPT SELECT name, last_value FROM sequences_before$$,
                    'every sequence is back where the test found it');
END
$f$;
