CREATE OR REPLACE FUNCTION corebank_internal.money_fee_posting(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    description text := corebank_internal.json_trimmed(request, 'description', 500);
    a record;
    income uuid;
    header jsonb;
BEGIN
    IF description IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'description: is required');
    END IF;
    SELECT * INTO a FROM corebank_internal.deposit_account_row(corebank_internal.json_uuid(request, 'accountId'), 'accountId', true);
    PERFORM corebank_internal.money_account_check(request, a.currency, a.account_number, a.internal);
    income := corebank_internal.money_gl(coalesce(corebank_internal.json_trimmed(request, 'incomeGlAccountCode', 20), '4100'),
                                         a.currency, 'INCOME', 'incomeGlAccountCode');
    header := corebank_internal.money_header(request, 'FEE', actor, a.branch_id);
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', jsonb_build_array(
                jsonb_build_object('accountId', a.account_id, 'side', 'D', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', description),
                jsonb_build_object('glAccountId', income, 'side', 'C', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', description))),
            '{"customer": [], "minimumBalance": []}'::jsonb);
END
$fn$;
