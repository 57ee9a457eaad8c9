-- The customer account of a deposit, a withdrawal or a fee, once its row is
-- read and locked: in the request's currency (money_currency_check), and not
-- an internal account (CB422: those move money by transfer only).
CREATE FUNCTION corebank_internal.money_account_check(request jsonb, currency text, account_number text, internal bool)
    RETURNS void
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    PERFORM corebank_internal.money_currency_check(request, currency, account_number);
    IF internal THEN
        PERFORM corebank_internal.fail('CB422', 'Internal accounts move money by transfer only');
    END IF;
END
$fn$;
