-- prefix || value zero-padded to `padding` digits; never truncated.
CREATE FUNCTION corebank_internal.format_number(prefix text, padding int, value bigint) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT prefix || CASE WHEN length(value::text) >= padding THEN value::text ELSE lpad(value::text, padding, '0') END
$fn$;
