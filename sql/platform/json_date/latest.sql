CREATE FUNCTION corebank_internal.json_date(request jsonb, key text) RETURNS date
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    value text := corebank_internal.json_text(request, key, 10);
    parsed date;
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF value !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a date YYYY-MM-DD', key));
    END IF;
    BEGIN
        parsed := to_date(value, 'YYYY-MM-DD');
    EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a date YYYY-MM-DD', key));
    END;
    IF to_char(parsed, 'YYYY-MM-DD') <> value THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be a date YYYY-MM-DD', key));
    END IF;
    RETURN parsed;
END
$fn$;
