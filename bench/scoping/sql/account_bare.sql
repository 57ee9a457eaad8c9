-- bench/scoping/sql/account_bare.sql (pgbench -M prepared): the control.
-- GET /v1/accounts/{id}'s function called as the tier called it before issue
-- 15, without actor_scope_set: the flag cannot change it, so its on/off ratio
-- is the run's noise, and its throughput against sql-account's is what the
-- scope's lookup costs on and off alike. Variables: ids, n (see account.sql).
\set i random(1, :n)
SELECT corebank.core_accounts_get((:ids::uuid[])[:i])::text;
