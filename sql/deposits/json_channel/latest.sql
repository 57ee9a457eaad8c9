-- A channel code (default BRANCH).
CREATE FUNCTION corebank_internal.json_channel(request jsonb, fallback text DEFAULT 'BRANCH') RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $fn$
DECLARE
    value text := coalesce(corebank_internal.json_text(request, 'channel', 32), fallback);
BEGIN
    IF value !~ '^[A-Za-z0-9_.-]{1,32}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'channel: must be 1 to 32 of A-Z a-z 0-9 _ . -');
    END IF;
    RETURN upper(value);
END
$fn$;
