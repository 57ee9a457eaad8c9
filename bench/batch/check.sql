-- bench/batch/check.sql: the ledger's invariants after the load (those of
-- bench/postings/check.sql: hash chain, balances against entries, trial
-- balance), each timed, and the TRANSFER transactions and their entries; one line.
\set QUIET on
SELECT clock_timestamp() AS t0 \gset
SELECT count(*) AS chain FROM corebank.ledger_verify_chain() \gset
SELECT clock_timestamp() AS t1 \gset
SELECT count(*) AS balances FROM corebank.ledger_check_balances() \gset
SELECT clock_timestamp() AS t2 \gset
SELECT CASE WHEN bool_and(d = c) THEN 'balanced' ELSE 'NOT balanced' END AS trial
  FROM (SELECT currency, sum(debit_minor) d, sum(credit_minor) c
          FROM corebank.trial_balance_as_of(corebank_internal.business_today()) GROUP BY currency) t \gset
SELECT clock_timestamp() AS t3 \gset
SELECT count(*) AS transfers,
       (SELECT count(*) FROM corebank.journal_entries e JOIN corebank.transactions t
           ON t.id = e.transaction_id WHERE t.type = 'TRANSFER') AS entries
  FROM corebank.transactions WHERE type = 'TRANSFER' \gset
SELECT clock_timestamp() AS t4 \gset
SELECT format('chain problems %s, balance problems %s, trial balance %s|%s|%s|'
              'chain %s s, balances %s s, trial balance %s s, counts %s s',
  :'chain', :'balances', :'trial', :'transfers', :'entries',
  round(extract(epoch FROM :'t1'::timestamptz - :'t0'::timestamptz), 1),
  round(extract(epoch FROM :'t2'::timestamptz - :'t1'::timestamptz), 1),
  round(extract(epoch FROM :'t3'::timestamptz - :'t2'::timestamptz), 1),
  round(extract(epoch FROM :'t4'::timestamptz - :'t3'::timestamptz), 1));
