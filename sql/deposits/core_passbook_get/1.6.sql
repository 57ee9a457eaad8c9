CREATE OR REPLACE FUNCTION corebank.core_passbook_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.passbook_json(id), 'Passbook not found')
$fn$;
