-- staff_permissions_catalogue.sql: every maker-checker operation walked
-- against Fineract's three permission bugs (issue 15).
--
-- Goal, for every operation of the catalogue (staff_permissions.parked_operation):
--   FINERACT-2455  it has one make and one check permission, each held by a
--                  seeded role, and nothing can be parked without both;
--   FINERACT-2688  a role holding only its check permission can approve
--                  and reject it;
--   FINERACT-2762  approval has one path: /v1/approvals' functions
--                  (core_approval_approve / _reject) check that permission
--                  for every operation, and refuse a checker without it.
-- Method: per operation, a change parked by direct INSERT (the catalogue
-- walk needs no valid target: rejecting applies nothing, and the approval's
-- permission check runs before the change is applied), a checker whose only
-- role holds only the check permission, and one who holds every other
-- permission. Each rule is one assertion naming the operations that break it.
BEGIN;
SELECT plan(16);

CREATE TEMP TABLE catalogue AS
SELECT DISTINCT parked_operation AS operation FROM corebank.staff_permissions WHERE parked_operation IS NOT NULL;

-- The catalogue is the extension's own list of maker-checker operations:
-- each is known to parked_change_create (a wrong entity type is refused by
-- name, not as an unknown operation).
SELECT ok((SELECT count(*) FROM catalogue) >= 6, 'the catalogue lists the maker-checker operations');
CREATE FUNCTION pg_temp.known_to_the_engine(operation text) RETURNS bool LANGUAGE plpgsql AS $f$
BEGIN
    PERFORM corebank.parked_change_create(operation, 'no_such_entity', 'x', '{}', 's',
                                          '00000000-0000-4000-8000-000000000001');
    RETURN true;
EXCEPTION WHEN SQLSTATE 'CBV00' THEN
    RETURN SQLERRM LIKE 'entity_type: must be %';
END
$f$;
SELECT is((SELECT array_agg(operation ORDER BY operation) FROM catalogue WHERE NOT pg_temp.known_to_the_engine(operation)),
          NULL, 'every catalogued operation is one parked_change_create knows');

-- FINERACT-2455: a make and a check permission per operation, each held by a seeded role.
SELECT is((SELECT array_agg(c.operation ORDER BY c.operation) FROM catalogue c
           WHERE (SELECT array_agg(p.verb ORDER BY p.verb) FROM corebank.staff_permissions p
                  WHERE p.parked_operation = c.operation) IS DISTINCT FROM ARRAY['check', 'make']),
          NULL, 'FINERACT-2455: every operation has exactly a make and a check permission');
SELECT is((SELECT array_agg(p.key ORDER BY p.key) FROM corebank.staff_permissions p
           WHERE p.parked_operation IS NOT NULL
             AND NOT EXISTS (SELECT FROM corebank.staff_role_permissions rp WHERE rp.permission_key = p.key)),
          NULL, 'FINERACT-2455: every make and check permission is held by a seeded role');
SELECT is((SELECT array_agg(p.key ORDER BY p.key) FROM corebank.staff_permissions p
           WHERE p.verb = 'check'
             AND NOT EXISTS (SELECT FROM corebank.staff_role_permissions rp
                             WHERE rp.permission_key = p.key AND rp.role_key = 'supervisor')),
          NULL, 'FINERACT-2455: a supervisor, not only an admin, can check every operation');
SELECT throws_ok($$INSERT INTO corebank.parked_changes (operation, entity_type, entity_id, payload, summary, maker_id, expires_at)
                   VALUES ('payroll.run', 'platform', 'x', '{}', 's', '00000000-0000-4000-8000-000000000001', now() + interval '1 hour')$$,
                 '23503', NULL, 'FINERACT-2455: nothing is parked without both permissions, whoever writes');
SELECT throws_ok($$DELETE FROM corebank.staff_permissions WHERE key = 'period.close:check'$$, '23503', NULL,
                 'FINERACT-2455: nor can a check permission be dropped while its operation exists');
SELECT set_eq($$SELECT operation FROM corebank.staff_parked_operations$$, $$SELECT operation FROM catalogue$$,
              'the catalogue is the table parked_changes names its operations from');

-- People: a maker, a checker per operation whose one role holds only that
-- operation's check permission, and a checker holding every permission but it.
CREATE FUNCTION pg_temp.person(email text, roles text[]) RETURNS uuid LANGUAGE sql AS $f$
    INSERT INTO corebank.auth_users (email, password_hash, first_name, last_name, roles)
    VALUES (email, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g', 'A', 'B', roles)
    RETURNING id
$f$;
CREATE TEMP TABLE walk AS
SELECT c.operation, row_number() OVER (ORDER BY c.operation) AS n FROM catalogue c;
INSERT INTO corebank.staff_roles (key, name)
SELECT 'only_check_' || w.n, 'Checks ' || w.operation FROM walk w
UNION ALL
SELECT 'all_but_check_' || w.n, 'All but ' || w.operation FROM walk w;
INSERT INTO corebank.staff_role_permissions (role_key, permission_key)
SELECT 'only_check_' || w.n, w.operation || ':check' FROM walk w
UNION ALL
SELECT 'all_but_check_' || w.n, p.key FROM walk w CROSS JOIN corebank.staff_permissions p
WHERE p.key <> w.operation || ':check';
ALTER TABLE walk ADD COLUMN checker uuid, ADD COLUMN outsider uuid, ADD COLUMN to_approve uuid, ADD COLUMN to_reject uuid;
UPDATE walk SET checker = pg_temp.person('checker' || n || '@example.com', ARRAY['only_check_' || n]),
                outsider = pg_temp.person('outsider' || n || '@example.com', ARRAY['all_but_check_' || n]);
CREATE TEMP TABLE maker AS SELECT pg_temp.person('maker@example.com', '{teller}') AS id;
CREATE FUNCTION pg_temp.park(operation text, tag text) RETURNS uuid LANGUAGE sql AS $f$
    INSERT INTO corebank.parked_changes (operation, entity_type, entity_id, payload, summary, maker_id, expires_at)
    VALUES (operation, 'walk', tag, '{}', 'catalogue walk', (SELECT id FROM maker), now() + interval '1 hour')
    RETURNING id
$f$;
UPDATE walk SET to_approve = pg_temp.park(operation, 'approve'), to_reject = pg_temp.park(operation, 'reject');

-- The permission check of one decision: '' when it passes, else the refusal's SQLSTATE.
CREATE FUNCTION pg_temp.refusal(change uuid, actor uuid) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    PERFORM corebank_internal.staff_check_permitted(change, actor);
    RETURN '';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END
$f$;
-- A decision through /v1/approvals' function: its status, or the refusal's SQLSTATE.
CREATE FUNCTION pg_temp.reject(change uuid, actor uuid) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    RETURN corebank.core_approval_reject(change, actor, 'catalogue walk') ->> 'status';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END
$f$;
CREATE FUNCTION pg_temp.approve(change uuid, actor uuid) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    RETURN corebank.core_approval_approve(change, actor, 'catalogue walk') ->> 'status';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ' ' || SQLERRM;
END
$f$;

-- FINERACT-2762: the one path refuses, for every operation, a checker without its check permission.
SELECT is((SELECT array_agg(operation ORDER BY operation) FROM walk
           WHERE pg_temp.approve(to_approve, outsider) NOT LIKE 'CB403 deciding a % needs the permission %:check (held by the roles: %)'),
          NULL, 'FINERACT-2762: core_approval_approve refuses a checker without the check permission, for every operation');
SELECT is((SELECT array_agg(operation ORDER BY operation) FROM walk WHERE pg_temp.reject(to_reject, outsider) <> 'CB403'),
          NULL, 'FINERACT-2762: core_approval_reject refuses a checker without the check permission, for every operation');
SELECT is((SELECT array_agg(p.oid::regprocedure::text ORDER BY 1) FROM pg_proc p
           WHERE p.pronamespace = 'corebank'::regnamespace AND p.proname ~ '(approve|reject)'
             AND p.proname NOT LIKE 'parked_change_%'
             AND p.prosrc NOT LIKE '%staff_check_permitted%'),
          NULL, 'FINERACT-2762: every API function that decides a change checks the permission');

-- A made-up checker is no way around the check: from the tier's session
-- (corebank_app) a checker id that is no identity user is refused; only a
-- superuser's session (a DBA) is held by the grants instead.
SELECT to_approve AS pending_change FROM walk ORDER BY operation LIMIT 1 \gset
SET SESSION AUTHORIZATION corebank_app;
SELECT throws_ok(format('SELECT corebank.core_approval_approve(%L, %L, NULL)', :'pending_change', gen_random_uuid()),
                 'CB403', 'the checker is no staff member',
                 'from corebank_app, approving with a checker id that is no identity user is refused');
SELECT throws_ok(format('SELECT corebank.core_approval_reject(%L, %L, %L)', :'pending_change', gen_random_uuid(), 'no'),
                 'CB403', 'the checker is no staff member',
                 'from corebank_app, rejecting with a checker id that is no identity user is refused');
RESET SESSION AUTHORIZATION;

-- FINERACT-2688: only the check permission, and the checker decides.
SELECT is((SELECT array_agg(operation ORDER BY operation) FROM walk WHERE pg_temp.refusal(to_approve, checker) <> ''),
          NULL, 'FINERACT-2688: a role holding only the check permission passes the approval''s check, for every operation');
SELECT is((SELECT array_agg(operation ORDER BY operation) FROM walk WHERE pg_temp.reject(to_reject, checker) <> 'REJECTED'),
          NULL, 'FINERACT-2688: and rejects the change, for every operation');
SELECT is((SELECT array_agg(operation ORDER BY operation) FROM walk
           WHERE pg_temp.approve(to_approve, checker) LIKE 'CB403 deciding%'),
          NULL, 'FINERACT-2688: and is not refused for want of a permission when approving, for every operation');

SELECT * FROM finish();
ROLLBACK;
