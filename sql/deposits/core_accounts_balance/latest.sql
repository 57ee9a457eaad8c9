-- Balance as of a date, from the ledger expression.
CREATE FUNCTION corebank.core_accounts_balance(id uuid, as_of date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    on_date date := coalesce(as_of, today);
    account jsonb;
    balance bigint;
BEGIN
    IF on_date > today THEN
        PERFORM corebank_internal.fail('CBV00', format('asOf: must not be after the business date %s', today));
    END IF;
    account := corebank.core_accounts_get(id);
    balance := corebank_internal.account_balance_as_of(id, on_date);
    RETURN jsonb_build_object(
        'accountId', id, 'accountNumber', account ->> 'accountNumber', 'currency', account ->> 'currency',
        'asOf', on_date, 'balanceMinor', balance,
        'balance', corebank_internal.money_text(balance, account ->> 'currency'),
        'currentBalanceMinor', account -> 'balanceMinor', 'currentBalance', account -> 'balance',
        'availableBalanceMinor', account -> 'availableBalanceMinor', 'availableBalance', account -> 'availableBalance',
        'accruedInterestMinor', account -> 'accruedInterestMinor', 'accruedInterest', account -> 'accruedInterest');
END
$fn$;
