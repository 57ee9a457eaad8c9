CREATE FUNCTION corebank.core_customers_beneficiary_remove(id uuid, beneficiary_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.beneficiaries;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    UPDATE corebank.beneficiaries x SET active = false, removed_at = now(), removed_by = actor
    WHERE x.id = beneficiary_id AND x.customer_id = id AND x.active
    RETURNING x.* INTO b;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Beneficiary not found');
    END IF;
    RETURN corebank_internal.beneficiary_json(b);
END
$fn$;
