-- Filter: {customerId?, status?, accountType?, productCode?, currency?, page?, size?}.
-- 1.8 (issue 15, branch scoping): accounts of branches the transaction cannot
-- see are left out, of the page and of its totals.
CREATE OR REPLACE FUNCTION corebank.core_accounts_list(filter jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    f jsonb := corebank_internal.require_object(coalesce(filter, '{}'::jsonb), 'filter');
    customer uuid := corebank_internal.json_uuid(f, 'customerId');
    wanted_status text := corebank_internal.json_enum(f, 'status',
        ARRAY['PENDING_ACTIVATION', 'ACTIVE', 'FROZEN', 'DORMANT', 'CLOSED']);
    kind text := corebank_internal.json_enum(f, 'accountType', ARRAY['SAVINGS', 'CURRENT', 'FIXED_DEPOSIT',
        'CALL_DEPOSIT', 'MONEY_MARKET', 'TRUST', 'ESCROW', 'NOSTRO', 'SUSPENSE', 'GL']);
    product_code text := upper(corebank_internal.json_trimmed(f, 'productCode', 20));
    wanted_currency text := upper(corebank_internal.json_trimmed(f, 'currency', 3));
    bounds int[] := corebank_internal.json_page_bounds(f);
    total bigint;
    content jsonb;
BEGIN
    WITH hits AS MATERIALIZED (
        SELECT a.id, a.account_number FROM corebank.deposit_accounts d
        JOIN corebank.ledger_accounts a ON a.id = d.id
        JOIN corebank.deposit_products p ON p.id = d.product_id
        WHERE (customer IS NULL OR d.customer_id = customer) AND (wanted_status IS NULL OR a.status = wanted_status)
          AND (kind IS NULL OR d.account_type = kind) AND (product_code IS NULL OR p.code = product_code)
          AND (wanted_currency IS NULL OR a.currency = wanted_currency)
          AND corebank.branch_visible(a.branch_id)
    ), chosen AS (
        SELECT h.id, h.account_number FROM hits h ORDER BY h.account_number
        LIMIT bounds[2] OFFSET bounds[1]::bigint * bounds[2]
    )
    SELECT (SELECT count(*) FROM hits),
           (SELECT jsonb_agg(corebank_internal.account_json(x.id) ORDER BY x.account_number) FROM chosen x)
    INTO total, content;
    RETURN corebank_internal.page_json(content, bounds[1], bounds[2], total);
END
$fn$;
