-- Filter: {type?, currency?, active?, code?}; ordered by code, currency; at
-- most 1000 accounts (a chart of accounts is far smaller).
CREATE OR REPLACE FUNCTION corebank.core_gl_accounts_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    type_filter text;
    currency_filter text;
    active_filter bool;
    code_filter text;
BEGIN
    type_filter := upper(corebank_internal.json_text(f, 'type', 16));
    currency_filter := upper(corebank_internal.json_text(f, 'currency', 3));
    active_filter := corebank_internal.json_bool(f, 'active');
    code_filter := corebank_internal.json_text(f, 'code', 20);
    IF type_filter NOT IN ('ASSET', 'LIABILITY', 'EQUITY', 'INCOME', 'EXPENSE') THEN
        PERFORM corebank_internal.fail('CBV00', 'type: must be ASSET, LIABILITY, EQUITY, INCOME or EXPENSE');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.gl_account_json(g.id) ORDER BY g.code, g.currency), '[]'::jsonb)
            FROM (SELECT x.id, x.code, x.currency FROM corebank.gl_accounts x
                  WHERE (type_filter IS NULL OR x.type = type_filter)
                    AND (currency_filter IS NULL OR x.currency = currency_filter)
                    AND (active_filter IS NULL OR x.active = active_filter)
                    AND (code_filter IS NULL OR x.code = code_filter)
                  ORDER BY x.code, x.currency
                  LIMIT 1000) g);
END
$fn$;
