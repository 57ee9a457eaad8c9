-- A parity checksum (an integer 0 .. 2^64-1) as 16 lower-case hex digits, so
-- that JSON readers whose numbers are doubles never round it.
CREATE FUNCTION corebank_internal.events_checksum_hex(checksum numeric) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $fn$
    SELECT lpad(to_hex((CASE WHEN events_checksum_hex.checksum >= 9223372036854775808
                             THEN events_checksum_hex.checksum - 18446744073709551616
                             ELSE events_checksum_hex.checksum END)::bigint), 16, '0')
$fn$;
