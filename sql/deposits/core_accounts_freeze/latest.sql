CREATE FUNCTION corebank.core_accounts_freeze(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    reason text;
BEGIN
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    reason := corebank_internal.json_trimmed(request, 'reason', 500);
    IF reason IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'reason: is required');
    END IF;
    RETURN corebank_internal.account_lifecycle(id, ARRAY['ACTIVE', 'DORMANT'], 'FROZEN', reason, actor, 'freeze');
END
$fn$;
