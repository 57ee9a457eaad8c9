-- bench/scoping/sql/statement.sql (pgbench -M prepared): the first page of
-- GET /v1/accounts/{id}/statement (default period and limit) as the tier
-- sends it for a staff token. Variables: ids, n, actor (see account.sql).
\set i random(1, :n)
SELECT corebank.core_statement((:ids::uuid[])[:i], NULL::date, NULL::date, NULL::integer,
                               NULL::text, NULL::date, NULL::bigint, NULL::bigint)::text
  FROM corebank.actor_scope_set(:actor::uuid);
