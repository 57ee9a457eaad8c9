-- bench/history/statement.sql (pgbench -M prepared): the first page of an
-- account's statement with the default period (the business month so far)
-- and the default limit (100 lines), the call GET /v1/accounts/{id}/statement
-- makes. Variable (pgbench -D): acct (uuid).
SELECT corebank.core_statement(:acct::uuid, NULL::date, NULL::date, NULL::integer,
                               NULL::text, NULL::date, NULL::bigint, NULL::bigint)::text;
