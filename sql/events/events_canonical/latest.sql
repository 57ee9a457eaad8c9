-- The surviving customer of a public id (itself, or the one it was merged into).
CREATE FUNCTION corebank_internal.events_canonical(public_id text) RETURNS uuid
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(c.merged_into, c.id) FROM corebank.customers_graph c
            WHERE c.public_id = events_canonical.public_id);
END
$fn$;
