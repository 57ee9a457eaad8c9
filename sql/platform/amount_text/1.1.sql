-- "12.34" from 1234 minor units (exact: numeric arithmetic).
CREATE FUNCTION corebank_internal.amount_text(amount_minor bigint, minor_units smallint DEFAULT 2) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT round(amount_minor::numeric / (10::numeric ^ minor_units), minor_units)::text
$fn$;
