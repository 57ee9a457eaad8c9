-- Trigger function on parked_changes (before insert): a change may be
-- parked only when its operation has both a make and a check permission,
-- so no operation can wait for a checker nobody may be (FINERACT-2455).
CREATE FUNCTION corebank_internal.staff_parked_guard() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF (SELECT count(*) FROM corebank.staff_permissions p WHERE p.parked_operation = NEW.operation) <> 2 THEN
        RAISE EXCEPTION 'parked operation % has no make and check permissions in corebank.staff_permissions',
            NEW.operation;
    END IF;
    RETURN NEW;
END
$fn$;
