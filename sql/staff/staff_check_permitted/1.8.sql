-- The checker's right to decide a parked change: `actor`'s roles, as
-- auth_users holds them now, must include the check permission of the
-- change's operation ("<operation>:check"). A role holding that permission
-- and nothing else may decide (FINERACT-2688). An unknown change passes
-- here and is 404 in parked_change_approve / _reject. An actor who is no
-- identity user is no staff member the tier could have verified: from a
-- superuser's session (a DBA, pgTAP's fixed people) it passes, held by the
-- database's grants; from any other session (the tier's corebank_app) it is
-- refused, so a caller cannot skip the check by naming a made-up checker
-- (docs/core-banking.md).
CREATE FUNCTION corebank_internal.staff_check_permitted(change_id uuid, actor uuid) RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    operation text;
    actor_roles text[];
BEGIN
    SELECT c.operation INTO operation FROM corebank.parked_changes c WHERE c.id = change_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT u.roles INTO actor_roles FROM corebank.auth_users u WHERE u.id = actor;
    IF NOT FOUND THEN
        IF (SELECT r.rolsuper FROM pg_catalog.pg_roles r WHERE r.rolname = session_user) THEN
            RETURN;
        END IF;
        PERFORM corebank_internal.fail('CB403', 'the checker is no staff member');
    END IF;
    IF NOT EXISTS (SELECT FROM corebank.staff_role_permissions rp
                   WHERE rp.role_key = ANY (actor_roles) AND rp.permission_key = operation || ':check') THEN
        PERFORM corebank_internal.fail('CB403', format(
            'deciding a %s needs the permission %s:check (held by the roles: %s)', operation, operation,
            coalesce((SELECT string_agg(rp.role_key, ', ' ORDER BY rp.role_key COLLATE "C")
                      FROM corebank.staff_role_permissions rp WHERE rp.permission_key = operation || ':check'),
                     'none')));
    END IF;
END
$fn$;
