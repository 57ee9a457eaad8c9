-- One event's term of the parity checksum (docs/events.md, "Parity"): the
-- first 8 bytes of SHA-256 of the eventId's UTF-8 bytes, read as an unsigned
-- big-endian 64-bit integer (0 .. 2^64-1). A producer computes the same from
-- the ids it sent; a window's checksum is the sum of its terms mod 2^64.
CREATE FUNCTION corebank_internal.events_id_hash(event_id text) RETURNS numeric
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $fn$
    SELECT h::numeric + CASE WHEN h < 0 THEN 18446744073709551616 ELSE 0 END
    FROM (SELECT ('x' || encode(substring(sha256(convert_to(events_id_hash.event_id, 'UTF8')) FROM 1 FOR 8), 'hex'))
                     ::bit(64)::bigint AS h) AS t
$fn$;
