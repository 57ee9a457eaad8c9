-- Whether this server can sign tokens: its root key loads
-- (auth_root_key_problem is NULL). The identity service's GET /health asks
-- it to say DEGRADED when logins cannot be signed; it answers only yes or
-- no, since why the key does not load (a path, an owner) is for the
-- superuser's auth_root_key_problem and ./corebank status, not a public
-- endpoint.
CREATE FUNCTION corebank.auth_can_sign() RETURNS boolean
    LANGUAGE sql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT corebank_internal.auth_root_key_problem() IS NULL
$fn$;
