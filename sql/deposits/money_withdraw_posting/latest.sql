CREATE OR REPLACE FUNCTION corebank_internal.money_withdraw_posting(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    a record;
    destination uuid;
    fee_gl uuid;
    penalty bigint;
    header jsonb;
    lines jsonb;
BEGIN
    SELECT * INTO a FROM corebank_internal.deposit_account_row(corebank_internal.json_uuid(request, 'accountId'), 'accountId', true);
    PERFORM corebank_internal.money_account_check(request, a.currency, a.account_number, a.internal);
    destination := corebank_internal.money_gl(
        coalesce(corebank_internal.json_trimmed(request, 'destinationGlAccountCode', 20), '1000'),
        a.currency, 'ASSET', 'destinationGlAccountCode');
    penalty := corebank_internal.money_penalty(a.account_type, a.maturity_date, a.penalty_bp, amount);
    fee_gl := corebank_internal.gl_id('4100', a.currency);
    lines := jsonb_build_array(
        jsonb_build_object('accountId', a.account_id, 'side', 'D', 'amountMinor', amount + a.withdrawal_fee_minor + penalty,
                           'currency', a.currency,
                           'narrative', coalesce(corebank_internal.json_trimmed(request, 'narrative', 500), 'Withdrawal')),
        jsonb_build_object('glAccountId', destination, 'side', 'C', 'amountMinor', amount, 'currency', a.currency));
    IF a.withdrawal_fee_minor > 0 THEN
        lines := lines || jsonb_build_object('glAccountId', fee_gl, 'side', 'C', 'amountMinor', a.withdrawal_fee_minor,
                                             'currency', a.currency, 'narrative', 'Withdrawal fee');
    END IF;
    IF penalty > 0 THEN
        lines := lines || jsonb_build_object('glAccountId', fee_gl, 'side', 'C', 'amountMinor', penalty,
                                             'currency', a.currency, 'narrative', 'Early withdrawal penalty');
    END IF;
    header := corebank_internal.money_header(request, 'WITHDRAWAL', actor, a.branch_id);
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', lines),
            jsonb_build_object('customer', jsonb_build_array(a.account_id),
                               'minimumBalance', jsonb_build_array(a.account_id)));
END
$fn$;
