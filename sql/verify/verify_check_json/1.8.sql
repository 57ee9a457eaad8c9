-- A single check as the API shows it: the result as a session's checks show
-- theirs, the consent recorded with it, and what was known of the images
-- (never the images: they are not kept).
CREATE FUNCTION corebank_internal.verify_check_json(check_id uuid) RETURNS jsonb
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT jsonb_build_object(
               'checkId', c.id, 'type', c.type, 'status', c.status, 'result', c.result,
               'provider', c.provider, 'reference', c.reference, 'consent', c.consent, 'images', c.images,
               'createdAt', corebank_internal.verify_iso_utc(c.created_at))
    FROM corebank.verify_checks c
    WHERE c.id = check_id
$fn$;
