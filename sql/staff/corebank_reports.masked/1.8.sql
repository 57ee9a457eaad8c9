-- 1.8: what the reporting views show of an identifying number, email or
-- phone (docs/reporting.md): four stars and at most its last 4 characters,
-- never more than half of it, so a short value is not shown whole and the
-- stars do not tell its length. NULL stays NULL.
CREATE FUNCTION corebank_reports.masked(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT CASE WHEN value IS NULL THEN NULL ELSE '****' || right(value, least(4, length(value) / 2)) END
$fn$;
