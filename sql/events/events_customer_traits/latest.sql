-- Read-time traits: sums of stored money strings, per currency, nothing
-- else. totalPaid adds order.paid.total, payment.completed.amount and
-- billpay.completed.total; sums has every money field on its own.
CREATE FUNCTION corebank.events_customer_traits(customer_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    customer uuid := corebank_internal.events_canonical(customer_id);
    members uuid[];
    sums jsonb;
    total_paid jsonb;
BEGIN
    IF customer IS NULL THEN
        RETURN NULL;
    END IF;
    members := corebank_internal.events_members(customer);
    WITH amounts AS (
        SELECT f.type || '.' || f.field AS key, e.payload ->> 'currency' AS currency,
               (e.payload ->> f.field)::numeric AS amount
        FROM corebank.events e
        JOIN corebank_internal.events_money_fields() f ON f.type = e.type
        WHERE e.customer_id = ANY (members) AND e.payload ->> 'currency' IS NOT NULL
    ), per_field AS (
        SELECT a.key, a.currency, sum(a.amount) AS total FROM amounts a GROUP BY a.key, a.currency
    ), per_key AS (
        SELECT p.key, jsonb_object_agg(p.currency, p.total::text ORDER BY p.currency) AS totals
        FROM per_field p GROUP BY p.key
    )
    SELECT coalesce(jsonb_object_agg(k.key, k.totals ORDER BY k.key), '{}'::jsonb) INTO sums FROM per_key k;
    WITH paid AS (
        SELECT e.payload ->> 'currency' AS currency, sum((e.payload ->> f.field)::numeric) AS total
        FROM corebank.events e
        JOIN (VALUES ('order.paid', 'total'), ('payment.completed', 'amount'), ('billpay.completed', 'total'))
             AS f(type, field) ON f.type = e.type
        WHERE e.customer_id = ANY (members) AND e.payload ->> 'currency' IS NOT NULL
        GROUP BY 1
    )
    SELECT coalesce(jsonb_object_agg(p.currency, p.total::text ORDER BY p.currency), '{}'::jsonb)
    INTO total_paid FROM paid p;
    RETURN jsonb_build_object('customerId', (SELECT c.public_id FROM corebank.customers_graph c WHERE c.id = customer),
                              'totalPaid', total_paid, 'sums', sums);
END
$fn$;
