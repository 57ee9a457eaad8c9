-- Trial balance as of a value date: each GL account's net in its debit or
-- credit column; per currency the columns sum to the same total. The totals
-- are gl_balances_as_of's, for the accounts posted to by then (an entry is
-- never zero, so posted means a debit or a credit).
CREATE OR REPLACE FUNCTION corebank.trial_balance_as_of(as_of date)
    RETURNS TABLE (gl_account_id uuid, code text, name text, type text, currency text,
                   debit_minor bigint, credit_minor bigint)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT b.gl_account_id, b.code, b.name, b.type, b.currency,
           greatest(b.debit_minor - b.credit_minor, 0), greatest(b.credit_minor - b.debit_minor, 0)
    FROM corebank.gl_balances_as_of(as_of) b
    WHERE b.debit_minor > 0 OR b.credit_minor > 0
    ORDER BY b.currency, b.code
$fn$;
