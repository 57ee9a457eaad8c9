-- A pending change past its expiry is LAPSED for every reader, before
-- maintenance (parked_changes_lapse) stores it: an approval that finds it
-- lapsed must raise, which rolls its own write back.
CREATE FUNCTION corebank_internal.change_status(status text, expires_at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    AS $fn$
    SELECT CASE WHEN status = 'PENDING' AND expires_at <= now() THEN 'LAPSED' ELSE status END
$fn$;
