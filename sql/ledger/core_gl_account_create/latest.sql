-- {code, name, type, currency? (USD), allowManualPosting? (true), active? (true)}.
-- A USD account gets its ZWG mirror from the trigger in the same statement.
CREATE OR REPLACE FUNCTION corebank.core_gl_account_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_code text;
    new_name text;
    new_type text;
    new_currency text;
    manual bool;
    is_active bool;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    new_code := corebank_internal.json_text(request, 'code', 20);
    new_name := btrim(corebank_internal.json_text(request, 'name', 200));
    new_type := upper(corebank_internal.json_text(request, 'type', 16));
    new_currency := upper(coalesce(corebank_internal.json_text(request, 'currency', 3), 'USD'));
    manual := coalesce(corebank_internal.json_bool(request, 'allowManualPosting'), true);
    is_active := coalesce(corebank_internal.json_bool(request, 'active'), true);
    PERFORM corebank_internal.gl_account_check(coalesce(new_code, ''), coalesce(new_name, ''), coalesce(new_type, ''),
                                               'name: is required');
    IF NOT EXISTS (SELECT FROM corebank.currencies c WHERE c.code = new_currency AND c.active) THEN
        PERFORM corebank_internal.fail('CBV00', 'currency: must be USD or ZWG');
    END IF;
    INSERT INTO corebank.gl_accounts AS g (code, name, type, currency, allow_manual, active, created_by, updated_by)
    VALUES (new_code, new_name, new_type, new_currency, manual, is_active, actor, actor)
    ON CONFLICT DO NOTHING
    RETURNING g.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', format('A GL account with code %s already exists in %s', new_code, new_currency));
    END IF;
    RETURN corebank_internal.gl_account_json(new_id);
END
$fn$;
