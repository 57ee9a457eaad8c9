CREATE FUNCTION corebank_internal.deposit_product_json(product uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', p.id, 'code', p.code, 'name', p.name, 'accountType', p.account_type, 'currency', p.currency,
                'interestMethod', p.interest_method, 'annualRateBp', p.annual_rate_bp,
                'annualRate', corebank_internal.amount_text(p.annual_rate_bp::bigint, 2::smallint),
                'tiers', (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                     'fromMinor', t.from_minor,
                                     'from', corebank_internal.money_text(t.from_minor, p.currency),
                                     'rateBp', t.rate_bp) ORDER BY t.from_minor), '[]'::jsonb)
                          FROM corebank.deposit_product_tiers t WHERE t.product_id = p.id),
                'dayCount', 'ACTUAL_365', 'interestPosting', 'MONTH_END', 'rounding', 'HALF_EVEN',
                'minimumBalanceMinor', p.minimum_balance_minor,
                'minimumBalance', corebank_internal.money_text(p.minimum_balance_minor, p.currency),
                'minimumOpeningMinor', p.minimum_opening_minor,
                'minimumOpening', corebank_internal.money_text(p.minimum_opening_minor, p.currency),
                'monthlyFeeMinor', p.monthly_fee_minor,
                'monthlyFee', corebank_internal.money_text(p.monthly_fee_minor, p.currency),
                'withdrawalFeeMinor', p.withdrawal_fee_minor,
                'withdrawalFee', corebank_internal.money_text(p.withdrawal_fee_minor, p.currency),
                'termDays', p.term_days, 'earlyWithdrawalPenaltyBp', p.early_withdrawal_penalty_bp,
                'dormancyDays', p.dormancy_days, 'requiresActivation', p.requires_activation,
                'internal', p.internal, 'glAccountCode', p.gl_account_code, 'active', p.active,
                'createdAt', corebank_internal.iso_utc(p.created_at), 'updatedAt', corebank_internal.iso_utc(p.updated_at))
            FROM corebank.deposit_products p WHERE p.id = product);
END
$fn$;
