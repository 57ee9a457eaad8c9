CREATE OR REPLACE FUNCTION corebank.core_accounts_activate(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.account_lifecycle(id, ARRAY['PENDING_ACTIVATION'], 'ACTIVE',
        coalesce(corebank_internal.deposit_account_reason(request), 'activated'), actor, 'activate')
$fn$;
