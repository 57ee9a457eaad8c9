CREATE FUNCTION corebank.core_deposit_products_get(id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    rendered jsonb := corebank_internal.deposit_product_json(id);
BEGIN
    IF rendered IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'Deposit product not found');
    END IF;
    RETURN rendered;
END
$fn$;
