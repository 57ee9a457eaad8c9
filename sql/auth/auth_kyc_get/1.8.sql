-- GET /auth/kyc for the signed-in user (auth_kyc_json).
CREATE FUNCTION corebank.auth_kyc_get(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN corebank_internal.auth_kyc_json(corebank_internal.require_present(auth_kyc_get.user_id, 'user_id'));
END
$fn$;
