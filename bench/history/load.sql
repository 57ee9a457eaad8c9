-- bench/history/load.sql: one batch of :n transfers between the account :big
-- and the accounts of :peers (a text[] literal), through the real posting path
-- (corebank.core_transfer_batch, the function POST /v1/transfers/batch calls),
-- as the staff member :actor. Amount 1 each; the direction alternates every
-- peer round so that no account drifts far. Prints "posted failed".
SELECT r ->> 'postedCount', r ->> 'failedCount'
FROM (SELECT corebank.core_transfer_batch(
                 jsonb_build_object('transfers', jsonb_agg(jsonb_build_object(
                     'fromAccountId', CASE WHEN (g / p.n) % 2 = 0 THEN :'big' ELSE p.ids[1 + g % p.n] END,
                     'toAccountId', CASE WHEN (g / p.n) % 2 = 0 THEN p.ids[1 + g % p.n] ELSE :'big' END,
                     'amountMinor', 1) ORDER BY g)),
                 :'actor'::uuid) AS r
      FROM generate_series(0, :n - 1) AS g,
           (SELECT :'peers'::text[] AS ids, cardinality(:'peers'::text[]) AS n) AS p) AS batch;
