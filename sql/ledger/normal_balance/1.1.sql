-- Balance in the account's normal direction: ASSET and EXPENSE are
-- debit-normal, the others credit-normal.
CREATE FUNCTION corebank_internal.normal_balance(type text, debit_minor bigint, credit_minor bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT CASE WHEN type IN ('ASSET', 'EXPENSE') THEN debit_minor - credit_minor ELSE credit_minor - debit_minor END
$fn$;
