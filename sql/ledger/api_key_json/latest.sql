-- status is EXPIRED once expires_at has passed (the row stays ACTIVE: an
-- expiry is a time, not a move); rotatedFrom names the key it replaced.
CREATE OR REPLACE FUNCTION corebank_internal.api_key_json(api_key_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', k.id, 'service', k.service, 'name', k.name, 'prefix', k.key_prefix,
                'scopes', to_jsonb(k.scopes), 'callerId', k.caller_id,
                'rateLimitPerMinute', k.rate_limit_per_minute,
                'status', CASE WHEN k.status = 'ACTIVE' AND k.expires_at <= now() THEN 'EXPIRED' ELSE k.status END,
                'createdAt', corebank_internal.iso_utc(k.created_at), 'createdBy', k.created_by,
                'lastUsedAt', corebank_internal.iso_utc(k.last_used_at),
                'revokedAt', corebank_internal.iso_utc(k.revoked_at),
                'expiresAt', corebank_internal.iso_utc(k.expires_at), 'rotatedFrom', k.rotated_from)
            FROM corebank.api_keys k WHERE k.id = api_key_json.api_key_id);
END
$fn$;
