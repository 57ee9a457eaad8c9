-- A surviving customer and every customer merged into it.
CREATE FUNCTION corebank_internal.events_members(customer uuid) RETURNS uuid[]
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN ARRAY(SELECT c.id FROM corebank.customers_graph c
                 WHERE c.id = events_members.customer OR c.merged_into = events_members.customer
                 ORDER BY c.id);
END
$fn$;
