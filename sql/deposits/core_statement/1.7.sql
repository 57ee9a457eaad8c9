-- Statement: the entries with value dates in [from, to], ordered by value
-- date and entry, with the opening balance of everything before.
CREATE OR REPLACE FUNCTION corebank.core_statement(account_id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    first_day date;
    last_day date;
    a corebank.ledger_accounts;
    opening bigint;
    lines jsonb;
    debits bigint;
    credits bigint;
BEGIN
    SELECT p.first_day, p.last_day INTO first_day, last_day FROM corebank_internal.deposit_period(from_date, to_date) p;
    SELECT x.* INTO a FROM corebank.ledger_accounts x JOIN corebank.deposit_accounts d ON d.id = x.id
    WHERE x.id = account_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    opening := corebank_internal.account_balance_as_of(account_id, first_day - 1);
    WITH e AS (
        SELECT x.*, opening + sum(x.signed_minor) OVER (ORDER BY x.value_date, x.entry_id) AS running
        FROM corebank_internal.account_entries(account_id) x
        WHERE x.value_date BETWEEN first_day AND last_day
    )
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'entryId', e.entry_id, 'transactionId', e.transaction_id, 'reference', t.reference, 'type', t.type,
               'valueDate', e.value_date, 'postedAt', corebank_internal.iso_utc(t.posted_at),
               'description', t.description, 'narrative', e.narrative,
               'side', CASE e.side WHEN 'D' THEN 'DEBIT' ELSE 'CREDIT' END, 'amountMinor', e.amount_minor,
               'amount', corebank_internal.money_text(e.amount_minor, a.currency),
               'balanceMinor', e.running, 'balance', corebank_internal.money_text(e.running::bigint, a.currency))
               ORDER BY e.value_date, e.entry_id), '[]'::jsonb),
           coalesce(sum(e.amount_minor) FILTER (WHERE e.side = 'D'), 0)::bigint,
           coalesce(sum(e.amount_minor) FILTER (WHERE e.side = 'C'), 0)::bigint
    INTO lines, debits, credits
    FROM e JOIN corebank.transactions t ON t.id = e.transaction_id;
    RETURN jsonb_build_object(
        'accountId', a.id, 'accountNumber', a.account_number, 'currency', a.currency, 'from', first_day,
        'to', last_day, 'openingBalanceMinor', opening, 'openingBalance', corebank_internal.money_text(opening, a.currency),
        'closingBalanceMinor', opening + credits - debits,
        'closingBalance', corebank_internal.money_text(opening + credits - debits, a.currency),
        'totalDebitsMinor', debits, 'totalCreditsMinor', credits, 'lines', lines);
END
$fn$;
