-- 1.8: trigger function on staff_sql_logins (after each insert, update or
-- delete): a psql login's branch is a staff change, one staff_audit row
-- (login.branch) with the login and branch before and after (NULL: none);
-- the database login that made it is its who (db_user).
CREATE FUNCTION corebank_internal.staff_sql_login_audit() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.staff_audit_record(
        NULL, 'login.branch', CASE WHEN TG_OP = 'DELETE' THEN OLD.login ELSE NEW.login END::text,
        CASE WHEN TG_OP <> 'INSERT' THEN jsonb_build_object('login', OLD.login, 'branchId', OLD.branch_id) END,
        CASE WHEN TG_OP <> 'DELETE' THEN jsonb_build_object('login', NEW.login, 'branchId', NEW.branch_id) END);
    RETURN NULL;
END
$fn$;
