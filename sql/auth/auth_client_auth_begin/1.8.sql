-- The first half of an OAuth client's authentication (/oauth/token and
-- /oauth/introspect): {"outcome":"locked"} while the client id is locked by
-- failed authentications, else {"outcome":"proceed"} with the stored
-- secretHash, status and scopes (none for an id no client has).
CREATE FUNCTION corebank.auth_client_auth_begin(client_id text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_client_auth_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
