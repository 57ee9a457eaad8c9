-- bench/postings/check.sql: the ledger's invariants after the load, one line.
SELECT format('chain problems %s, balance problems %s, trial balance %s',
  (SELECT count(*) FROM corebank.ledger_verify_chain()),
  (SELECT count(*) FROM corebank.ledger_check_balances()),
  (SELECT CASE WHEN bool_and(d = c) THEN 'balanced' ELSE 'NOT balanced' END
     FROM (SELECT currency, sum(debit_minor) d, sum(credit_minor) c
             FROM corebank.trial_balance_as_of(corebank_internal.business_today()) GROUP BY currency) t));
