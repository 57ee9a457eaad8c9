CREATE FUNCTION corebank.core_customers_beneficial_owner_remove(id uuid, owner_id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    o corebank.beneficial_owners;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    UPDATE corebank.beneficial_owners x SET active = false, removed_at = now(), removed_by = actor
    WHERE x.id = owner_id AND x.customer_id = id AND x.active
    RETURNING x.* INTO o;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Beneficial owner not found');
    END IF;
    RETURN corebank_internal.beneficial_owner_json(o);
END
$fn$;
