-- The status a caller sees: a pending or processing session whose expiry
-- has passed is expired, even before the maintenance pass stores it.
CREATE FUNCTION corebank_internal.verify_effective_status(status text, expires_at timestamptz) RETURNS text
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT CASE WHEN status IN ('pending', 'processing') AND expires_at <= now() THEN 'expired' ELSE status END
$fn$;
