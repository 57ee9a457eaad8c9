CREATE OR REPLACE FUNCTION corebank.core_gl_account_get(id uuid) RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.found_or_404(corebank_internal.gl_account_json(corebank_internal.required_id(id)),
                                          'GL account not found')
$fn$;
