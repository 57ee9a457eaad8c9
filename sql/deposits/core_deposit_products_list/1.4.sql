CREATE FUNCTION corebank.core_deposit_products_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    kind text := corebank_internal.json_enum(f, 'accountType', ARRAY['SAVINGS', 'CURRENT', 'FIXED_DEPOSIT',
        'CALL_DEPOSIT', 'MONEY_MARKET', 'TRUST', 'ESCROW', 'NOSTRO', 'SUSPENSE', 'GL']);
    wanted_currency text := upper(corebank_internal.json_trimmed(f, 'currency', 3));
    is_active bool := corebank_internal.json_bool(f, 'active');
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.deposit_product_json(p.id) ORDER BY p.code), '[]'::jsonb)
            FROM corebank.deposit_products p
            WHERE (kind IS NULL OR p.account_type = kind) AND (wanted_currency IS NULL OR p.currency = wanted_currency)
              AND (is_active IS NULL OR p.active = is_active));
END
$fn$;
