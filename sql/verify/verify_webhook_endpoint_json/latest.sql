-- An endpoint as the API shows it (never a secret). previousSecretExpiresAt
-- is set while a rotation's overlap lasts: until then deliveries are signed
-- with the old secret as well as the new one.
CREATE FUNCTION corebank_internal.verify_webhook_endpoint_json(endpoint_id uuid) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT jsonb_build_object(
               'id', e.id, 'url', e.url, 'description', e.description, 'events', to_jsonb(e.events),
               'status', e.status,
               'createdAt', corebank_internal.verify_iso_utc(e.created_at),
               'disabledAt', corebank_internal.verify_iso_utc(e.disabled_at),
               'secretRotatedAt', corebank_internal.verify_iso_utc(e.secret_rotated_at),
               'previousSecretExpiresAt',
               CASE WHEN e.previous_secret_expires_at > now()
                    THEN corebank_internal.verify_iso_utc(e.previous_secret_expires_at) END)
    FROM corebank.verify_webhook_endpoints e
    WHERE e.id = endpoint_id
$fn$;
