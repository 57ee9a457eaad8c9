CREATE OR REPLACE FUNCTION corebank_internal.money_deposit_posting(request jsonb, actor uuid, customer_initiated bool) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    a record;
    source uuid;
    header jsonb;
BEGIN
    SELECT * INTO a FROM corebank_internal.deposit_account_row(corebank_internal.json_uuid(request, 'accountId'), 'accountId', true);
    PERFORM corebank_internal.money_account_check(request, a.currency, a.account_number, a.internal);
    PERFORM corebank_internal.money_fixed_deposit_check(a.account_id, a.account_type, a.account_number);
    source := corebank_internal.money_gl(coalesce(corebank_internal.json_trimmed(request, 'sourceGlAccountCode', 20), '1000'),
                                         a.currency, 'ASSET', 'sourceGlAccountCode');
    header := corebank_internal.money_header(request, 'DEPOSIT', actor, a.branch_id);
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', jsonb_build_array(
                jsonb_build_object('glAccountId', source, 'side', 'D', 'amountMinor', amount, 'currency', a.currency),
                jsonb_build_object('accountId', a.account_id, 'side', 'C', 'amountMinor', amount, 'currency', a.currency,
                                   'narrative', coalesce(corebank_internal.json_trimmed(request, 'narrative', 500), 'Deposit')))),
            jsonb_build_object('customer', CASE WHEN customer_initiated THEN jsonb_build_array(a.account_id)
                                                ELSE '[]'::jsonb END,
                               'minimumBalance', '[]'::jsonb));
END
$fn$;
