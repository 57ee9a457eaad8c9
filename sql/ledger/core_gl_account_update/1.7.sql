-- UpdateGlAccountRequest: {code?, name?, type?, allowManualPosting?, active?}.
-- Code and type are frozen once posted to (trigger, CB422); a ZWG mirror
-- takes code, name, type and active from its USD account.
CREATE OR REPLACE FUNCTION corebank.core_gl_account_update(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    g corebank.gl_accounts;
    new_code text;
    new_name text;
    new_type text;
    manual bool;
    is_active bool;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.required_id(id);
    PERFORM corebank_internal.require_object(request);
    new_code := corebank_internal.json_text(request, 'code', 20);
    new_name := btrim(corebank_internal.json_text(request, 'name', 200));
    new_type := upper(corebank_internal.json_text(request, 'type', 16));
    manual := corebank_internal.json_bool(request, 'allowManualPosting');
    is_active := corebank_internal.json_bool(request, 'active');
    PERFORM corebank_internal.gl_account_check(new_code, new_name, new_type, 'name: must not be blank');
    SELECT * INTO g FROM corebank.gl_accounts x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'GL account not found');
    END IF;
    IF g.mirror_of IS NOT NULL
       AND (new_code IS DISTINCT FROM NULL AND new_code <> g.code
            OR new_name IS DISTINCT FROM NULL AND new_name <> g.name
            OR new_type IS DISTINCT FROM NULL AND new_type <> g.type
            OR is_active IS DISTINCT FROM NULL AND is_active <> g.active) THEN
        PERFORM corebank_internal.fail('CB422', 'A ZWG mirror follows its USD account; change the USD account');
    END IF;
    IF g.first_posted_at IS NOT NULL
       AND (new_code IS DISTINCT FROM NULL AND new_code <> g.code OR new_type IS DISTINCT FROM NULL AND new_type <> g.type) THEN
        PERFORM corebank_internal.fail('CB422', 'GL account code and type are frozen once posted to');
    END IF;
    BEGIN
        UPDATE corebank.gl_accounts x
        SET code = coalesce(new_code, x.code), name = coalesce(new_name, x.name), type = coalesce(new_type, x.type),
            allow_manual = coalesce(manual, x.allow_manual), active = coalesce(is_active, x.active),
            updated_at = now(), updated_by = actor
        WHERE x.id = id;
    EXCEPTION WHEN unique_violation THEN
        PERFORM corebank_internal.fail('CB409', format('A GL account with code %s already exists in %s', new_code, g.currency));
    END;
    RETURN corebank_internal.gl_account_json(id);
END
$fn$;
