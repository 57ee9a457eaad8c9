-- UpdateBranchRequest: {name?, city?, address?, phone?, active?}. The code
-- is the branch's identity (staff records carry it) and cannot change; the
-- head office cannot be deactivated.
CREATE OR REPLACE FUNCTION corebank.core_branch_update(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    b corebank.branches;
    new_code text;
    new_name text;
    is_active bool;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.required_id(id);
    PERFORM corebank_internal.require_object(request);
    new_code := upper(corebank_internal.json_text(request, 'code', 10));
    new_name := btrim(corebank_internal.json_text(request, 'name', 100));
    is_active := corebank_internal.json_bool(request, 'active');
    IF new_name = '' THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must not be blank');
    END IF;
    SELECT * INTO b FROM corebank.branches x WHERE x.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Branch not found');
    END IF;
    IF new_code IS NOT NULL AND new_code <> b.code THEN
        PERFORM corebank_internal.fail('CB422', 'A branch code cannot be changed');
    END IF;
    IF b.is_head_office AND is_active IS FALSE THEN
        PERFORM corebank_internal.fail('CB422', 'The head office cannot be deactivated');
    END IF;
    UPDATE corebank.branches x
    SET name = coalesce(new_name, x.name),
        city = CASE WHEN request ? 'city' THEN corebank_internal.json_text(request, 'city', 100) ELSE x.city END,
        address = CASE WHEN request ? 'address' THEN corebank_internal.json_text(request, 'address', 300) ELSE x.address END,
        phone = CASE WHEN request ? 'phone' THEN corebank_internal.json_text(request, 'phone', 32) ELSE x.phone END,
        active = coalesce(is_active, x.active),
        updated_at = now(), updated_by = actor
    WHERE x.id = id;
    RETURN corebank_internal.branch_json(id);
END
$fn$;
