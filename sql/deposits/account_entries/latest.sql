-- The ledger expression every view of an account reads (statement, balance
-- as of a date, passbook lines, interest): its posted journal entries, with
-- the customer-side signed amount (credits raise the balance).
CREATE FUNCTION corebank_internal.account_entries(account uuid)
    RETURNS TABLE (entry_id bigint, transaction_id uuid, value_date date, side char(1), amount_minor bigint,
                   signed_minor bigint, narrative text)
    LANGUAGE sql STABLE
    AS $fn$
    SELECT e.id, e.transaction_id, e.value_date, e.side, e.amount_minor,
           CASE WHEN e.side = 'C' THEN e.amount_minor ELSE -e.amount_minor END, e.narrative
    FROM corebank.journal_entries e
    WHERE e.ledger_account_id = account
$fn$;
