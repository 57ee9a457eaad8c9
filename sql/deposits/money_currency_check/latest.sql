CREATE FUNCTION corebank_internal.money_currency_check(request jsonb, currency text, account_number text) RETURNS void
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    given text := upper(corebank_internal.json_trimmed(request, 'currency', 3));
BEGIN
    IF given IS NOT NULL AND given <> currency THEN
        PERFORM corebank_internal.fail('CB422', format('currency: account %s is in %s', account_number, currency));
    END IF;
END
$fn$;
