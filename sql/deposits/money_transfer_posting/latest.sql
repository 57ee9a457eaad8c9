CREATE FUNCTION corebank_internal.money_transfer_posting(request jsonb, actor uuid, customer_initiated bool) RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    amount bigint := corebank_internal.json_positive_amount(request);
    from_id uuid := corebank_internal.json_uuid(request, 'fromAccountId');
    to_id uuid := corebank_internal.json_uuid(request, 'toAccountId');
    source record;
    target record;
    header jsonb;
    value_date date;
    fx record;
    converted bigint;
    penalty bigint;
    lines jsonb;
    customer_lines jsonb := '[]'::jsonb;
    narrative text := corebank_internal.json_trimmed(request, 'narrative', 400);
BEGIN
    IF from_id IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'fromAccountId: is required'); END IF;
    IF to_id IS NULL THEN PERFORM corebank_internal.fail('CBV00', 'toAccountId: is required'); END IF;
    IF from_id = to_id THEN
        PERFORM corebank_internal.fail('CBV00', 'toAccountId: must differ from fromAccountId');
    END IF;
    -- Both ledger rows, in id order (the posting engine's order).
    PERFORM FROM corebank.ledger_accounts a WHERE a.id IN (from_id, to_id) ORDER BY a.id FOR UPDATE;
    SELECT * INTO source FROM corebank_internal.deposit_account_row(from_id, 'fromAccountId');
    SELECT * INTO target FROM corebank_internal.deposit_account_row(to_id, 'toAccountId');
    PERFORM corebank_internal.money_currency_check(request, source.currency, source.account_number);
    PERFORM corebank_internal.money_fixed_deposit_check(target.account_id, target.account_type, target.account_number);
    header := corebank_internal.money_header(request, 'TRANSFER', actor, source.branch_id);
    value_date := coalesce((header ->> 'valueDate')::date, corebank_internal.business_today());
    penalty := corebank_internal.money_penalty(source.account_type, source.maturity_date, source.penalty_bp, amount);
    narrative := coalesce(narrative, format('Transfer %s to %s', source.account_number, target.account_number));

    IF source.currency = target.currency THEN
        lines := jsonb_build_array(
            jsonb_build_object('accountId', from_id, 'side', 'D', 'amountMinor', amount + penalty,
                               'currency', source.currency, 'narrative', narrative),
            jsonb_build_object('accountId', to_id, 'side', 'C', 'amountMinor', amount, 'currency', target.currency,
                               'narrative', narrative));
    ELSE
        SELECT * INTO fx FROM corebank_internal.fx_rate_in_force(source.currency, target.currency, value_date);
        IF fx.rate IS NULL THEN
            PERFORM corebank_internal.fail('CB422', format('No exchange rate from %s to %s on %s', source.currency,
                                                           target.currency, value_date));
        END IF;
        converted := corebank_internal.fx_convert(amount, fx.rate::text);
        IF converted IS NULL OR converted <= 0 THEN
            PERFORM corebank_internal.fail('CB422', 'The converted amount is zero or too large');
        END IF;
        narrative := narrative || format(' at %s %s/%s', rtrim(rtrim(fx.rate::text, '0'), '.'), target.currency, source.currency);
        lines := jsonb_build_array(
            jsonb_build_object('accountId', from_id, 'side', 'D', 'amountMinor', amount + penalty,
                               'currency', source.currency, 'narrative', narrative),
            jsonb_build_object('glAccountId', corebank_internal.gl_id('2900', source.currency), 'side', 'C',
                               'amountMinor', amount, 'currency', source.currency, 'narrative', narrative),
            jsonb_build_object('glAccountId', corebank_internal.gl_id('2900', target.currency), 'side', 'D',
                               'amountMinor', converted, 'currency', target.currency, 'narrative', narrative),
            jsonb_build_object('accountId', to_id, 'side', 'C', 'amountMinor', converted, 'currency', target.currency,
                               'narrative', narrative));
    END IF;
    IF penalty > 0 THEN
        lines := lines || jsonb_build_object('glAccountId', corebank_internal.gl_id('4100', source.currency), 'side', 'C',
                                             'amountMinor', penalty, 'currency', source.currency,
                                             'narrative', 'Early withdrawal penalty');
    END IF;
    IF customer_initiated THEN
        customer_lines := jsonb_build_array(from_id);
        -- Between two accounts of one customer, both ends are the customer's doing.
        IF source.customer_id IS NOT NULL AND source.customer_id = target.customer_id THEN
            customer_lines := customer_lines || jsonb_build_array(to_id);
        END IF;
    END IF;
    RETURN corebank_internal.account_post(header || jsonb_build_object('lines', lines),
            jsonb_build_object('customer', customer_lines,
                               'minimumBalance', CASE WHEN source.internal THEN '[]'::jsonb
                                                      ELSE jsonb_build_array(from_id) END));
END
$fn$;
