-- Filter: {type?, status?, riskCategory?, q? (name or number contains), page?, size?}.
CREATE OR REPLACE FUNCTION corebank.core_customers_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    kind text := corebank_internal.json_enum(f, 'type', ARRAY['INDIVIDUAL', 'CORPORATE']);
    wanted_status text := corebank_internal.json_enum(f, 'status', ARRAY['ACTIVE', 'INACTIVE']);
    risk text := corebank_internal.json_enum(f, 'riskCategory', ARRAY['LOW', 'MEDIUM', 'HIGH', 'PROHIBITED']);
    q text := corebank_internal.json_trimmed(f, 'q', 100);
    bounds int[] := corebank_internal.json_page_bounds(f);
    pattern text;
    total bigint;
    content jsonb;
BEGIN
    pattern := '%' || replace(replace(replace(lower(q), '\', '\\'), '%', '\%'), '_', '\_') || '%';
    WITH hits AS MATERIALIZED (
        SELECT c.id, c.customer_number FROM corebank.customers c
        WHERE (kind IS NULL OR c.type = kind) AND (wanted_status IS NULL OR c.status = wanted_status)
          AND (risk IS NULL OR c.risk_category = risk) AND corebank.branch_visible(c.branch_id)
          AND (q IS NULL OR lower(concat_ws(' ', c.customer_number, c.first_name, c.middle_name, c.last_name,
                                            c.legal_name, c.trading_name)) LIKE pattern)
    ), chosen AS (
        SELECT h.id, h.customer_number FROM hits h ORDER BY h.customer_number
        LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.customer_json(x.id) ORDER BY x.customer_number) FROM chosen x)
    INTO total, content;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;
