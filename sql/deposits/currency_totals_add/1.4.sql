CREATE FUNCTION corebank_internal.currency_totals_add(totals jsonb, more jsonb) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT coalesce(jsonb_object_agg(k, v), '{}'::jsonb)
    FROM (SELECT x.key AS k, sum(x.value::text::bigint) AS v
          FROM (SELECT * FROM jsonb_each(totals) UNION ALL SELECT * FROM jsonb_each(more)) x GROUP BY x.key) s
$fn$;
