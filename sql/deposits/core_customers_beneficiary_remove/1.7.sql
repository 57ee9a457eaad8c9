CREATE OR REPLACE FUNCTION corebank.core_customers_beneficiary_remove(id uuid, beneficiary_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.beneficiary_json(jsonb_populate_record(NULL::corebank.beneficiaries,
        corebank_internal.customer_record_remove('corebank.beneficiaries', beneficiary_id, id, actor, 'Beneficiary not found')))
$fn$;
