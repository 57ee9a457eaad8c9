-- An OAuth client as the admin endpoints show it: never a secret or a hash.
CREATE FUNCTION corebank_internal.auth_client_admin_json(c corebank.auth_oauth_clients) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object(
        'clientId', c.client_id, 'name', c.name, 'status', c.status, 'scopes', to_jsonb(c.scopes),
        'audiences', to_jsonb(c.audiences), 'resetLinkBase', c.reset_link_base, 'appName', c.app_name,
        'createdAt', c.created_at, 'updatedAt', c.updated_at, 'secretRotatedAt', c.secret_rotated_at,
        'previousSecretExpiresAt',
        CASE WHEN c.previous_secret_expires_at > now() THEN c.previous_secret_expires_at END)
$fn$;
