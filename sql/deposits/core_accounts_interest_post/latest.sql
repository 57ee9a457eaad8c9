-- Posts one account's accrued interest now (before closing it).
CREATE FUNCTION corebank.core_accounts_interest_post(id uuid, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    a record;
    d corebank.deposit_accounts;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    SELECT * INTO a FROM corebank_internal.deposit_account_row(id, 'id', true);
    SELECT * INTO d FROM corebank.deposit_accounts x WHERE x.id = id FOR UPDATE;
    IF d.accrued_minor > 0 THEN
        PERFORM corebank_internal.account_post(jsonb_build_object(
            'type', 'INTEREST_ACCRUAL', 'reference', format('INT-%s-%s', to_char(corebank_internal.business_today(), 'YYYYMMDD'),
                                                            a.account_number),
            'description', 'Accrued interest posted on request', 'branchId', a.branch_id, 'channel', 'SYSTEM',
            'operatorId', actor, 'makerId', actor,
            'lines', jsonb_build_array(
                jsonb_build_object('glAccountId', corebank_internal.gl_id('2100', a.currency), 'side', 'D',
                                   'amountMinor', d.accrued_minor, 'currency', a.currency),
                jsonb_build_object('accountId', id, 'side', 'C', 'amountMinor', d.accrued_minor, 'currency', a.currency,
                                   'narrative', 'Accrued interest'))),
            '{}'::jsonb);
    END IF;
    UPDATE corebank.deposit_accounts x SET accrued_micro = 0, accrued_minor = 0, updated_at = now()
    WHERE x.id = id AND x.accrued_micro <> 0;
    RETURN corebank_internal.account_json(id);
END
$fn$;
