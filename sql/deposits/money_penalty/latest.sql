-- Early withdrawal from a fixed deposit: the penalty in minor units.
CREATE FUNCTION corebank_internal.money_penalty(account_type text, maturity date, penalty_bp int, amount bigint)
    RETURNS bigint
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN account_type = 'FIXED_DEPOSIT' AND corebank_internal.business_today() < maturity
                THEN corebank_internal.money_apply_bp(amount, penalty_bp) ELSE 0 END
$fn$;
