-- Statement: the entries with value dates in [from, to], ordered by value
-- date and entry, with the opening balance of everything before.
CREATE FUNCTION corebank.core_statement(account_id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    first_day date := coalesce(from_date, date_trunc('month', today)::date);
    last_day date := coalesce(to_date, today);
    a corebank.ledger_accounts;
    opening bigint;
    lines jsonb;
    debits bigint;
    credits bigint;
BEGIN
    IF last_day < first_day OR last_day - first_day > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
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
