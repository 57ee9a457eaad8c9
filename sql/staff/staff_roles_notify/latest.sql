-- Trigger function on staff_roles and staff_role_permissions: a role's
-- permissions changed, so every corebankd process forgets the staff answers
-- it cached (a payload it does not know empties its caches,
-- docs/design/hot-path.md).
CREATE FUNCTION corebank_internal.staff_roles_notify() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM pg_notify('corebank_hot_path', 'staff_roles');
    RETURN NULL;
END
$fn$;
