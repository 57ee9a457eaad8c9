-- 1.8: trigger function on staff_sql_logins (before an insert or update): a
-- DBA gives a psql login a branch (docs/reporting.md). The login must be a
-- role of this cluster (CB404), and not a member of corebank_auditor, whose
-- members read every branch (CB422; a superuser counts as a member of every
-- role, and bypasses row-level security anyway).
CREATE FUNCTION corebank_internal.staff_sql_login_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles r WHERE r.rolname = NEW.login) THEN
        PERFORM corebank_internal.fail('CB404', format('login: no role named %s', NEW.login));
    END IF;
    IF pg_has_role(NEW.login, 'corebank_auditor', 'MEMBER') THEN
        PERFORM corebank_internal.fail('CB422', format(
            'login: %s is a member of corebank_auditor (or a superuser), who reads every branch', NEW.login));
    END IF;
    RETURN NEW;
END
$fn$;
