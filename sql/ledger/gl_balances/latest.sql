-- Current balances from the stripes (cheap), for the reporting roles.
CREATE VIEW corebank.gl_balances AS
SELECT g.id AS gl_account_id, g.code, g.name, g.type, g.currency,
       coalesce(sum(s.debit_minor), 0)::bigint AS debit_minor,
       coalesce(sum(s.credit_minor), 0)::bigint AS credit_minor,
       corebank_internal.normal_balance(g.type, coalesce(sum(s.debit_minor), 0)::bigint,
                                        coalesce(sum(s.credit_minor), 0)::bigint) AS balance_minor
FROM corebank.gl_accounts g
LEFT JOIN corebank.gl_balance_stripes s ON s.gl_account_id = g.id
GROUP BY g.id;
