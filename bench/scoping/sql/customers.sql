-- bench/scoping/sql/customers.sql (pgbench -M prepared): GET
-- /v1/customers?page=0&size=20 as the tier sends it for a staff token.
-- Variable: actor (uuid).
SELECT corebank.core_customers_list('{"page": 0, "size": 20}'::jsonb)::text FROM corebank.actor_scope_set(:actor::uuid);
