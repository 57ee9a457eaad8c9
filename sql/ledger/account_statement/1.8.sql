-- RETURN QUERY needs each column's declared type exactly: the journal's
-- amount is a corebank.amount_minor, the result column a bigint.
-- A customer account's entries with value dates in [from_date, to_date],
-- with the running balance (credits - debits) from the opening balance of
-- everything before from_date (the balance as of the day before, from the
-- day totals). At most 366 days per call.
CREATE OR REPLACE FUNCTION corebank.account_statement(account uuid, from_date date, to_date date)
    RETURNS TABLE (entry_id bigint, transaction_id uuid, reference text, type text, value_date date,
                   posted_at timestamptz, side text, amount_minor bigint, narrative text,
                   opening_balance_minor bigint, balance_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
DECLARE
    opening bigint;
BEGIN
    IF account IS NULL OR from_date IS NULL OR to_date IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'account, from, to: are required');
    END IF;
    IF to_date < from_date OR to_date - from_date > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
    IF NOT EXISTS (SELECT FROM corebank.ledger_accounts a WHERE a.id = account) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    -- From the stored day totals (1.8): the cost does not grow with the
    -- entries before from_date.
    opening := corebank_internal.account_balance_as_of(account, from_date - 1);

    RETURN QUERY
    SELECT x.id, x.transaction_id, t.reference, t.type, x.value_date, t.posted_at,
           CASE x.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END, x.amount_minor::bigint, x.narrative, opening,
           (opening + sum(CASE WHEN x.side = 'C' THEN x.amount_minor ELSE -x.amount_minor END)
                          OVER (ORDER BY x.value_date, x.id))::bigint
    FROM corebank.journal_entries x
    JOIN corebank.transactions t ON t.id = x.transaction_id
    WHERE x.ledger_account_id = account AND x.value_date BETWEEN from_date AND to_date
    ORDER BY x.value_date, x.id;
END
$fn$;
