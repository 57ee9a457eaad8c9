/* sql/corebank--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.6'" to load this file. \quit

-- corebank 1.6: one place for every rule (issue 11).
--   Each section below belongs to one part of the issue; the sections are
--   independent of each other.

-- == section: limits and the money domain (issue 11, part 2) ==

-- == section: one append-only trigger (issue 11, part 3) ==

-- == section: institution data migrations and reference tables (issue 11, part 5) ==

-- == section: surfaces that tell the truth (issue 11, part 6) ==
-- Branch scoping is not enforced yet: no read or write is limited to the
-- caller's branch (a later issue builds that). Until then the flag must not
-- claim otherwise, so turning it on is refused wherever it could happen:
-- parking the change (PUT /v1/platform/branch-scoping, or
-- parked_change_create from psql) and applying it (approving a change parked
-- before 1.6, or an UPDATE from psql). Turning it off stays allowed.
CREATE FUNCTION corebank_internal.branch_scoping_on_refused() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'CB422', MESSAGE = 'Branch scoping cannot be turned on: it is not enforced yet';
END
$fn$;
REVOKE ALL ON FUNCTION corebank_internal.branch_scoping_on_refused() FROM PUBLIC;

CREATE TRIGGER parked_changes_branch_scoping_on
    BEFORE INSERT ON corebank.parked_changes
    FOR EACH ROW WHEN (NEW.operation = 'branch_scoping.update' AND NEW.payload @> '{"enabled": true}')
    EXECUTE FUNCTION corebank_internal.branch_scoping_on_refused();

CREATE TRIGGER platform_config_branch_scoping_on
    BEFORE UPDATE OF branch_scoping ON corebank.platform_config
    FOR EACH ROW WHEN (NEW.branch_scoping AND NOT OLD.branch_scoping)
    EXECUTE FUNCTION corebank_internal.branch_scoping_on_refused();
