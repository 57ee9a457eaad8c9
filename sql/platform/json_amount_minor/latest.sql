-- A decimal amount ("12.34" or 12.34) or amountMinor to minor units.
CREATE OR REPLACE FUNCTION corebank_internal.json_amount_minor(request jsonb) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    minor corebank.amount_minor := corebank_internal.json_int(request, 'amountMinor', 0, corebank_internal.limit_amount_minor_max());
    decimal_text text;
BEGIN
    IF minor IS NOT NULL THEN
        RETURN minor;
    END IF;
    IF jsonb_typeof(request -> 'amount') IN ('number', 'string') THEN
        decimal_text := request ->> 'amount';
        IF decimal_text !~ '^[0-9]{1,13}(\.[0-9]{1,2})?$' THEN
            PERFORM corebank_internal.fail('CBV00', 'amount: must be a decimal amount with at most 2 decimals');
        END IF;
        RETURN (decimal_text::numeric * 100)::bigint;
    END IF;
    RETURN NULL;
END
$fn$;
