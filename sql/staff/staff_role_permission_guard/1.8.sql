-- Trigger function on staff_role_permissions: a read-only role (auditor)
-- holds read permissions only, whoever writes the row (CB422).
CREATE FUNCTION corebank_internal.staff_role_permission_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF EXISTS (SELECT FROM corebank.staff_roles r JOIN corebank.staff_permissions p ON p.key = NEW.permission_key
               WHERE r.key = NEW.role_key AND r.read_only AND p.access = 'write') THEN
        PERFORM corebank_internal.fail('CB422', format('role %s is read-only: it cannot hold the write permission %s',
                                                       NEW.role_key, NEW.permission_key));
    END IF;
    RETURN NEW;
END
$fn$;
