-- Maps a loyalty member id to a customer. {"outcome": "created" |
-- "unchanged" | "member_taken" | "customer_not_found", "mapping": {...}}:
-- mapping the same pair again is "unchanged"; a member id already mapped to
-- another (surviving) customer is "member_taken" and names that customer.
CREATE FUNCTION corebank.events_loyalty_member_map(member_id text, customer_id text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    customer uuid;
    owner uuid;
    created bool := false;
BEGIN
    IF member_id IS NULL OR member_id !~ '^[A-Za-z0-9._:-]{1,64}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'memberId: must be 1 to 64 of A-Z a-z 0-9 . _ : -');
    END IF;
    IF customer_id IS NULL OR length(customer_id) > 64 THEN
        PERFORM corebank_internal.fail('CBV00', 'customerId: is required');
    END IF;
    customer := corebank_internal.events_canonical(customer_id);
    IF customer IS NULL THEN
        RETURN jsonb_build_object('outcome', 'customer_not_found');
    END IF;
    INSERT INTO corebank.loyalty_members AS l (member_id, customer_id) VALUES (member_id, customer)
    ON CONFLICT DO NOTHING;
    created := FOUND;
    SELECT coalesce(c.merged_into, c.id) INTO owner
    FROM corebank.loyalty_members l JOIN corebank.customers_graph c ON c.id = l.customer_id
    WHERE l.member_id = member_id;
    RETURN jsonb_build_object('outcome', CASE WHEN created THEN 'created'
                                              WHEN owner = customer THEN 'unchanged'
                                              ELSE 'member_taken' END,
                              'mapping', corebank.events_loyalty_member_get(member_id));
END
$fn$;
