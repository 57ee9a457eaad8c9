-- 1.8 (issue 15, branch scoping): not found for an account of a branch the
-- transaction cannot see.
CREATE OR REPLACE FUNCTION corebank.core_interest_accruals_list(account_id uuid, from_date date, to_date date) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    first_day date;
    last_day date;
BEGIN
    PERFORM corebank_internal.require_deposit_account(account_id);
    SELECT p.first_day, p.last_day INTO first_day, last_day FROM corebank_internal.deposit_period(from_date, to_date) p;
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'date', i.accrual_date, 'balanceMinor', i.balance_minor, 'rateBp', i.rate_bp,
                       'accrualMicro', i.accrual_micro::text, 'cumulativeMicro', i.cumulative_micro::text,
                       'journalMinor', i.journal_minor) ORDER BY i.accrual_date), '[]'::jsonb)
            FROM corebank.interest_accruals i
            WHERE i.account_id = account_id AND i.accrual_date BETWEEN first_day AND last_day);
END
$fn$;
