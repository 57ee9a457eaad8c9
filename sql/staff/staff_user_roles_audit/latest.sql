-- Trigger function on auth_users (after an update of roles): a user's roles
-- changed, whoever changed them (./corebank staff create, a DBA in psql, the
-- staff identities to come), is a staff change: one staff_audit row with the
-- roles before and after; the database login is its who (actor_id is NULL:
-- no staff token names a person here).
CREATE FUNCTION corebank_internal.staff_user_roles_audit() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM corebank_internal.staff_audit_record(NULL, 'user.roles', NEW.id::text,
                                                 jsonb_build_object('roles', to_jsonb(OLD.roles)),
                                                 jsonb_build_object('roles', to_jsonb(NEW.roles)));
    RETURN NULL;
END
$fn$;
