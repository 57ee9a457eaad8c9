CREATE FUNCTION corebank.core_api_keys_list(service text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF service IS NOT NULL AND service NOT IN ('core', 'events', 'verify') THEN
        PERFORM corebank_internal.fail('CBV00', 'service: must be core, events or verify');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(corebank_internal.api_key_json(k.id) ORDER BY k.created_at, k.id), '[]'::jsonb)
            FROM corebank.api_keys k WHERE service IS NULL OR k.service = service);
END
$fn$;
