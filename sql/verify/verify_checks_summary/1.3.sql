-- The per-check summary of the session object: type, status, score or
-- similarity, provider (the report has the full detail).
CREATE FUNCTION corebank_internal.verify_checks_summary(checks jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
               'type', c.value -> 'type', 'status', c.value -> 'status', 'score', c.value -> 'score',
               'similarity', c.value -> 'similarity', 'provider', c.value -> 'provider'))
             ORDER BY c.ordinality), '[]'::jsonb)
    FROM jsonb_array_elements(checks) WITH ORDINALITY AS c(value, ordinality)
$fn$;
