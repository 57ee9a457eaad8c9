-- A required positive amount (amountMinor, or amount as a decimal).
CREATE FUNCTION corebank_internal.json_positive_amount(request jsonb) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    minor bigint := corebank_internal.json_amount_minor(request);
BEGIN
    IF minor IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'amountMinor: is required (or amount)');
    END IF;
    IF minor <= 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'amountMinor: must be greater than zero');
    END IF;
    RETURN minor;
END
$fn$;
