CREATE FUNCTION corebank_internal.money_text(amount_minor bigint, currency text) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT corebank_internal.amount_text(amount_minor, (SELECT c.minor_units FROM corebank.currencies c WHERE c.code = currency))
$fn$;
