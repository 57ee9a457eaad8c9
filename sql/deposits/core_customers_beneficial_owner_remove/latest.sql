CREATE OR REPLACE FUNCTION corebank.core_customers_beneficial_owner_remove(id uuid, owner_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.beneficial_owner_json(jsonb_populate_record(NULL::corebank.beneficial_owners,
        corebank_internal.customer_record_remove('corebank.beneficial_owners', owner_id, id, actor, 'Beneficial owner not found')))
$fn$;
