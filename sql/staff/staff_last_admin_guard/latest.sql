-- Trigger function on auth_users (before an update that takes the last
-- active admin away: disabled, suspended, deactivated or demoted): refused
-- (CB422) unless another active admin stays. Every such update, whoever
-- makes it (PUT /v1/staff/identities, the identity service's suspension and
-- deactivation, a DBA in psql), takes one advisory lock first and counts
-- after it, so two concurrent demotions of the last two admins cannot both
-- pass: the second counts after the first has committed (a trigger's
-- queries take a fresh snapshot).
CREATE FUNCTION corebank_internal.staff_last_admin_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('corebank.staff_last_admin'));
    IF NOT EXISTS (SELECT FROM corebank.auth_users u
                   WHERE u.status = 'ACTIVE' AND 'admin' = ANY (u.roles) AND u.id <> NEW.id) THEN
        PERFORM corebank_internal.fail('CB422', 'The last active admin cannot be disabled or demoted');
    END IF;
    RETURN NEW;
END
$fn$;
