-- Revokes a key at once. Refused: unknown 404, already revoked 409, the last
-- valid core admin-scope key 422 (api_key_last_admin_guard: the institution
-- would lock itself out of its own API). Audited (REVOKED).
CREATE OR REPLACE FUNCTION corebank.core_api_key_revoke(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_status text;
    before jsonb;
BEGIN
    PERFORM corebank_internal.require_present(id, 'id');
    SELECT k.status INTO current_status FROM corebank.api_keys k WHERE k.id = id FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'API key not found');
    END IF;
    IF current_status = 'REVOKED' THEN
        PERFORM corebank_internal.fail('CB409', 'API key is already revoked');
    END IF;
    PERFORM corebank_internal.api_key_last_admin_guard(id, now());
    before := corebank_internal.api_key_json(id);
    UPDATE corebank.api_keys k SET status = 'REVOKED', revoked_at = now(), revoked_by = actor WHERE k.id = id;
    PERFORM corebank_internal.api_key_event_record(id, 'REVOKED', actor, before, corebank_internal.api_key_json(id));
    RETURN corebank_internal.api_key_json(id);
END
$fn$;
