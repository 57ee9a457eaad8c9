-- branch_scope_mechanism.sql: the transaction's branch scope (issue 15;
-- docs/core-banking.md "Branch scoping"; extension/pg/branch_scope.cpp).
--
-- Goal: corebank.actor_scope_set scopes a transaction to the acting staff
-- member's branch only while branch scoping is on and only for a member with
-- a branch and without the auditor role; corebank.branch_visible answers the
-- one rule; a psql login is scoped by its corebank.staff_sql_logins row; the
-- scope never outlives its transaction and is no setting anyone can SET; only
-- the tier's role may set it.
-- Method: two transactions, both rolled back (the second proves the first's
-- scope did not leak into it), acting as staff made by helpers/scoping.sql.
\ir helpers/scoping.sql
SELECT plan(27);

CREATE FUNCTION pg_temp.branch_id(code text) RETURNS uuid LANGUAGE sql STABLE
    AS $f$ SELECT id FROM corebank.branches WHERE branches.code = branch_id.code $f$;

BEGIN;
SELECT pg_temp.scoping_on();
CREATE TEMP TABLE staff AS
    SELECT pg_temp.staff_at('HRE') AS hre, pg_temp.staff_at(NULL) AS head_office,
           pg_temp.staff_at('HRE', '{auditor}') AS auditor;

SELECT is(corebank.scope_branch(), NULL, 'a superuser psql session with no login row is unscoped');
SELECT pg_temp.act_as((SELECT hre FROM staff));
SELECT is(corebank.scope_branch(), pg_temp.branch_id('HRE'), 'a Harare teller is scoped to Harare');
SELECT ok(corebank.branch_visible(pg_temp.branch_id('HRE')), 'and sees a Harare record');
SELECT ok(NOT corebank.branch_visible(pg_temp.branch_id('BYO')), 'but not a Bulawayo record');
SELECT ok(NOT corebank.branch_visible(NULL), 'nor a record of head office (no branch)');

-- The branch is read when the actor is set: a move takes effect at the next call.
UPDATE corebank.auth_users SET branch_code = 'BYO' WHERE id = (SELECT hre FROM staff);
SELECT is(corebank.scope_branch(), pg_temp.branch_id('HRE'), 'a branch move does not change a call already scoped');
SELECT pg_temp.act_as((SELECT hre FROM staff));
SELECT is(corebank.scope_branch(), pg_temp.branch_id('BYO'), 'the next call is scoped to the new branch');
UPDATE corebank.auth_users SET branch_code = 'HRE' WHERE id = (SELECT hre FROM staff);

SELECT pg_temp.act_as((SELECT head_office FROM staff));
SELECT is(corebank.scope_branch(), NULL, 'head office (no branch) is unscoped');
SELECT ok(corebank.branch_visible(pg_temp.branch_id('BYO')) AND corebank.branch_visible(NULL),
          'and sees every branch and head office');
SELECT pg_temp.act_as((SELECT auditor FROM staff));
SELECT is(corebank.scope_branch(), NULL, 'a staff auditor is unscoped even with a branch');
SELECT pg_temp.act_as(gen_random_uuid());
SELECT is(corebank.scope_branch(), NULL, 'an id that is no staff member is unscoped');
SELECT pg_temp.act_as(NULL);
SELECT is(corebank.scope_branch(), NULL, 'an application key without a staff token is unscoped');

SELECT pg_temp.scoping_off();
SELECT pg_temp.act_as((SELECT hre FROM staff));
SELECT is(corebank.scope_branch(), NULL, 'with scoping off, the Harare teller is unscoped');
SELECT ok(corebank.branch_visible(pg_temp.branch_id('BYO')), 'and sees Bulawayo');

-- Leave a scoped actor behind: the next transaction must not see it.
SELECT pg_temp.scoping_on();
SELECT pg_temp.act_as((SELECT hre FROM staff));
SELECT is(corebank.scope_branch(), pg_temp.branch_id('HRE'), 'the Harare teller again, before the transaction ends');
ROLLBACK;

BEGIN;
SELECT pg_temp.scoping_on();
SELECT is(corebank.scope_branch(), NULL, 'the next transaction does not inherit the scope');
ROLLBACK;

-- A psql login with a row in staff_sql_logins (a reporting login of Bulawayo).
BEGIN;
SELECT pg_temp.scoping_on();
CREATE ROLE branch_scope_test_login LOGIN IN ROLE corebank_reporting;
INSERT INTO corebank.staff_sql_logins (login, branch_id) VALUES ('branch_scope_test_login', pg_temp.branch_id('BYO'));
SET SESSION AUTHORIZATION branch_scope_test_login;
SELECT is(corebank.scope_branch(), pg_temp.branch_id('BYO'), 'a login with a branch row is scoped to that branch');
SELECT ok(NOT corebank.branch_visible(pg_temp.branch_id('HRE')), 'and does not see Harare');
RESET SESSION AUTHORIZATION;
SELECT is(corebank.scope_branch(), NULL, 'the scope follows the session user: back as the superuser, unscoped');
-- Made an auditor after its row was written (a GRANT fires no trigger): it reads everything.
GRANT corebank_auditor TO branch_scope_test_login;
SET SESSION AUTHORIZATION branch_scope_test_login;
SELECT is(corebank.scope_branch(), NULL, 'a scoped login made an auditor later is unscoped');
RESET SESSION AUTHORIZATION;
ROLLBACK;

-- Who may set it; what it is not.
SELECT ok(has_function_privilege('corebank_app', 'corebank.actor_scope_set(uuid)', 'EXECUTE'),
          'the tier''s role may set the actor');
SELECT ok(NOT has_function_privilege('corebank_reporting', 'corebank.actor_scope_set(uuid)', 'EXECUTE'),
          'a reporting login may not');
SELECT ok(NOT has_function_privilege('corebank_auditor', 'corebank.actor_scope_set(uuid)', 'EXECUTE'),
          'an auditor login may not');
SELECT ok(has_function_privilege('corebank_reporting', 'corebank.branch_visible(uuid)', 'EXECUTE'),
          'a reporting login may evaluate the predicate (its row-level security policies call it as the reader)');
SELECT is((SELECT count(*) FROM pg_settings WHERE name LIKE 'corebank.%' AND (name LIKE '%scope%' OR name LIKE '%branch%')),
          0::bigint, 'the scope is no setting a client could SET');
SELECT is((SELECT array_agg(DISTINCT proparallel) FROM pg_proc
           WHERE oid IN ('corebank.actor_scope_set(uuid)'::regprocedure, 'corebank.scope_branch()'::regprocedure,
                         'corebank.branch_visible(uuid)'::regprocedure)),
          ARRAY['r']::"char"[], 'PARALLEL RESTRICTED: a parallel worker does not share the leader''s memory');
SELECT is((SELECT provolatile FROM pg_proc WHERE oid = 'corebank.branch_visible(uuid)'::regprocedure), 's'::"char",
          'the predicate is STABLE: one scope for a whole statement');

SELECT * FROM finish();
