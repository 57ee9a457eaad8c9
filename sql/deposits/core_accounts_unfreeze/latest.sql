CREATE FUNCTION corebank.core_accounts_unfreeze(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    RETURN corebank_internal.account_lifecycle(id, ARRAY['FROZEN'], 'ACTIVE',
        coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'unfrozen'), actor, 'unfreeze');
END
$fn$;
