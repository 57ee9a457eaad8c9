-- helpers/scoping.sql: acting as staff of one branch in a pgTAP file (issue 15).
--
-- The branch scope is resolved when an actor is set (pg/branch_scope.cpp), so
-- turn scoping on first, then act. The whole file is one transaction: the
-- scope holds until the next act_as.
--   SELECT pg_temp.scoping_on();
--   SELECT pg_temp.act_as(pg_temp.staff_at('HRE'));   -- a Harare teller
--   SELECT pg_temp.act_as(NULL);                      -- head office
CREATE FUNCTION pg_temp.scoping_on() RETURNS void LANGUAGE sql
    AS $f$ UPDATE corebank.platform_config SET branch_scoping = true $f$;

CREATE FUNCTION pg_temp.scoping_off() RETURNS void LANGUAGE sql
    AS $f$ UPDATE corebank.platform_config SET branch_scoping = false $f$;

-- A staff identity of branch `branch_code` (NULL: head office) holding `roles`;
-- a fresh one on every call (its email is random).
CREATE FUNCTION pg_temp.staff_at(branch_code text, roles text[] DEFAULT '{teller}') RETURNS uuid LANGUAGE sql
    AS $f$
    SELECT corebank.auth_staff_create('staff-' || replace(gen_random_uuid()::text, '-', '') || '@example.com', NULL,
                                      '$argon2id$v=19$m=65536,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$'
                                          || 'MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI',
                                      'Staff', 'Member', roles, branch_code)
    $f$;

-- Every later statement of the file acts as `actor` (NULL: unscoped, as an
-- application key or head office), as the tier's calls do.
CREATE FUNCTION pg_temp.act_as(actor uuid) RETURNS void LANGUAGE sql
    AS $f$ SELECT corebank.actor_scope_set(actor) $f$;
