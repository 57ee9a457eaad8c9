CREATE OR REPLACE FUNCTION corebank.core_deposit_products_get_by_code(code text) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.deposit_product_json(
               (SELECT p.id FROM corebank.deposit_products p
                WHERE p.code = upper(btrim(core_deposit_products_get_by_code.code)))),
           'Deposit product not found')
$fn$;
