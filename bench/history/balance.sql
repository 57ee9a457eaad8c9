-- bench/history/balance.sql (pgbench -M prepared): the as-of balance of one
-- account, the statement GET /v1/accounts/{id}/balance?asOf= runs.
-- Variables (pgbench -D): acct (uuid), asof (date).
SELECT corebank.core_accounts_balance(:acct::uuid, :asof::date)::text;
