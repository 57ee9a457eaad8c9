-- bench/scoping/sql/account.sql (pgbench -M prepared): GET /v1/accounts/{id}
-- as the tier sends it for a staff token (httpd/src/db.cpp branch_scoped_sql).
-- Variables (pgbench -D): ids (uuid array literal), n (its length), actor (uuid).
\set i random(1, :n)
SELECT corebank.core_accounts_get((:ids::uuid[])[:i])::text FROM corebank.actor_scope_set(:actor::uuid);
