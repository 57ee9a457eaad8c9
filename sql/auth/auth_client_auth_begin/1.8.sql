-- The first half of an OAuth client's authentication (/oauth/token and
-- /oauth/introspect): {"outcome":"locked"} while the client id is locked by
-- failed authentications, else {"outcome":"proceed"} with the status, scopes
-- and "argon2" (the stored secret hash's parameters and salt, never the
-- hash); an id no client has gets only "argon2", with a salt of its own.
CREATE FUNCTION corebank.auth_client_auth_begin(client_id text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_client_auth_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
