-- The tier's cache miss in one round trip (docs/design/hot-path.md): the API
-- key's verification (core_api_key_verify, uncounted) when key_hash is given,
-- and the staff token's session (auth_authenticate) with the user's current
-- roles and their permissions (staff_session) when jti is given. Either
-- may be NULL: the tier asks only for what its cache lacks. A request whose
-- key and token are both cached makes no call at all.
CREATE FUNCTION corebank.core_authorize_lookup(key_hash bytea, service text, jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN jsonb_build_object('key', CASE WHEN core_authorize_lookup.key_hash IS NULL THEN NULL
                                          ELSE corebank.core_api_key_verify(core_authorize_lookup.key_hash,
                                                                            core_authorize_lookup.service) END,
                              'staff', CASE WHEN core_authorize_lookup.jti IS NULL THEN NULL
                                            ELSE corebank_internal.staff_session(
                                                     corebank.auth_authenticate(core_authorize_lookup.jti)) END);
END
$fn$;
