-- A staff token's session answer (auth_authenticate) with what the core
-- tier judges it by: the user's roles as auth_users holds them now and those
-- roles' permissions. Read on every cache miss, so a role granted or
-- withdrawn, or a role's permissions amended, act on the next request
-- (docs/core-banking.md, "Staff roles and permissions").
CREATE FUNCTION corebank_internal.staff_session(session jsonb) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    user_roles text[];
BEGIN
    IF session IS NULL OR session -> 'active' IS DISTINCT FROM 'true'::jsonb THEN
        RETURN session;
    END IF;
    SELECT u.roles INTO user_roles FROM corebank.auth_users u WHERE u.id = (session ->> 'userId')::uuid;
    user_roles := coalesce(user_roles, '{}');
    RETURN session || jsonb_build_object('roles', to_jsonb(user_roles),
                                         'permissions', to_jsonb(corebank_internal.staff_permissions_of(user_roles)));
END
$fn$;
