-- 1.8: a person's name as the reporting views show it (docs/reporting.md):
-- the upper-case first letter of each of its first 3 words ("Tendai Moyo"
-- is "TM"). NULL or blank: NULL.
CREATE FUNCTION corebank_reports.initials(name text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT nullif(upper(string_agg(left(w.word, 1), '' ORDER BY w.n)), '')
    FROM regexp_split_to_table(btrim(name), '\s+') WITH ORDINALITY AS w(word, n)
    WHERE w.n <= 3 AND w.word <> ''
$fn$;
