CREATE FUNCTION corebank.auth_me(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    me jsonb;
BEGIN
    SELECT corebank_internal.user_object(u.id)
           || jsonb_build_object('status', u.status, 'createdAt', u.created_at, 'branchCode', u.branch_code)
    INTO me
    FROM corebank.auth_users u
    WHERE u.id = user_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'User not found');
    END IF;
    RETURN me;
END
$fn$;
