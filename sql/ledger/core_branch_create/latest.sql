-- {code, name, city?, address?, phone?}: branches beyond the six seeded.
CREATE OR REPLACE FUNCTION corebank.core_branch_create(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_code text;
    new_name text;
    new_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    new_code := upper(corebank_internal.json_text(request, 'code', 10));
    new_name := btrim(corebank_internal.json_text(request, 'name', 100));
    IF new_code IS NULL OR new_code !~ '^[A-Z0-9]{2,10}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'code: must be 2 to 10 of A-Z 0-9');
    END IF;
    IF new_name IS NULL OR new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: is required');
    END IF;
    INSERT INTO corebank.branches AS b (code, name, city, address, phone, updated_by)
    VALUES (new_code, new_name, corebank_internal.json_text(request, 'city', 100),
            corebank_internal.json_text(request, 'address', 300), corebank_internal.json_text(request, 'phone', 32),
            actor)
    ON CONFLICT DO NOTHING
    RETURNING b.id INTO new_id;
    IF new_id IS NULL THEN
        PERFORM corebank_internal.fail('CB409', format('A branch with code %s already exists', new_code));
    END IF;
    RETURN corebank_internal.branch_json(new_id);
END
$fn$;
