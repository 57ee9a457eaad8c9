-- An ISO 3166 alpha-2 country code, upper-cased.
CREATE FUNCTION corebank_internal.json_country(request jsonb, key text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := upper(corebank_internal.json_trimmed(request, key, 2));
BEGIN
    IF value !~ '^[A-Z]{2}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('%s: must be an ISO 3166 alpha-2 country code such as ZW', key));
    END IF;
    RETURN value;
END
$fn$;
