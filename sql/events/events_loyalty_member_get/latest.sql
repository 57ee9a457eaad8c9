CREATE FUNCTION corebank.events_loyalty_member_get(member_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('memberId', l.member_id, 'customerId', w.public_id,
                                      'createdAt', corebank_internal.events_iso(l.created_at))
            FROM corebank.loyalty_members l
            JOIN corebank.customers_graph c ON c.id = l.customer_id
            JOIN corebank.customers_graph w ON w.id = coalesce(c.merged_into, c.id)
            WHERE l.member_id = events_loyalty_member_get.member_id);
END
$fn$;
