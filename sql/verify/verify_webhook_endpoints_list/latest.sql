CREATE FUNCTION corebank.verify_webhook_endpoints_list() RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'id', e.id, 'url', e.url, 'status', e.status,
                       'createdAt', corebank_internal.verify_iso_utc(e.created_at),
                       'disabledAt', corebank_internal.verify_iso_utc(e.disabled_at))
                   ORDER BY e.created_at, e.id), '[]'::jsonb)
            FROM corebank.verify_webhook_endpoints e);
END
$fn$;
