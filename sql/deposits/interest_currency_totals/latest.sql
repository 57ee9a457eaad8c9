-- The per-currency totals of one member ({currency: minor}) of a run's daily
-- results, summed over the days: [{currency, amountMinor}] in currency order.
CREATE FUNCTION corebank_internal.interest_currency_totals(days jsonb, member text) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT coalesce(jsonb_agg(jsonb_build_object('currency', t.currency, 'amountMinor', t.amount) ORDER BY t.currency),
                    '[]'::jsonb)
    FROM (SELECT x.key AS currency, sum(x.value::text::bigint)::bigint AS amount
          FROM jsonb_array_elements(days) d, jsonb_each(d -> member) x
          GROUP BY x.key) t
$fn$;
