CREATE FUNCTION corebank.core_accounts_activate(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    request := corebank_internal.require_object(coalesce(request, '{}'::jsonb));
    RETURN corebank_internal.account_lifecycle(id, ARRAY['PENDING_ACTIVATION'], 'ACTIVE',
        coalesce(corebank_internal.json_trimmed(request, 'reason', 500), 'activated'), actor, 'activate');
END
$fn$;
