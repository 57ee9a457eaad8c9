-- Early withdrawal from a fixed deposit: the penalty in minor units, of one
-- withdrawn amount (corebank.amount_minor).
CREATE FUNCTION corebank_internal.money_penalty(account_type text, maturity date, penalty_bp int,
                                                amount corebank.amount_minor)
    RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN account_type = 'FIXED_DEPOSIT' AND corebank_internal.business_today() < maturity
                THEN corebank_internal.money_apply_bp(amount, penalty_bp) ELSE 0 END
$fn$;
