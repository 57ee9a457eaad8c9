CREATE FUNCTION corebank.core_interest_accruals_list(account_id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    today date := corebank_internal.business_today();
    first_day date := coalesce(from_date, date_trunc('month', today)::date);
    last_day date := coalesce(to_date, today);
BEGIN
    IF NOT EXISTS (SELECT FROM corebank.deposit_accounts d WHERE d.id = account_id) THEN
        PERFORM corebank_internal.fail('CB404', 'Account not found');
    END IF;
    IF last_day < first_day OR last_day - first_day > 366 THEN
        PERFORM corebank_internal.fail('CBV00', 'to: must be on or after from and at most 366 days later');
    END IF;
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'date', i.accrual_date, 'balanceMinor', i.balance_minor, 'rateBp', i.rate_bp,
                       'accrualMicro', i.accrual_micro::text, 'cumulativeMicro', i.cumulative_micro::text,
                       'journalMinor', i.journal_minor) ORDER BY i.accrual_date), '[]'::jsonb)
            FROM corebank.interest_accruals i
            WHERE i.account_id = account_id AND i.accrual_date BETWEEN first_day AND last_day);
END
$fn$;
