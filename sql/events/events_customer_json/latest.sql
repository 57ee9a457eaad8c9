-- The customer object of the API.
CREATE FUNCTION corebank_internal.events_customer_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    members uuid[] := corebank_internal.events_members(events_customer_json.customer);
BEGIN
    RETURN (SELECT jsonb_build_object(
                'customerId', c.public_id,
                'displayName', c.display_name,
                'isGuest', c.is_guest,
                'createdAt', corebank_internal.events_iso(c.created_at),
                'updatedAt', corebank_internal.events_iso(c.updated_at),
                'identifiers', (SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                                            'type', CASE WHEN i.kind LIKE 'user:%' THEN 'userId'
                                                         WHEN i.kind = 'zbid' THEN 'zbIdSubject'
                                                         WHEN i.kind = 'national_id' THEN 'nationalId'
                                                         WHEN i.kind = 'session' THEN 'sessionId'
                                                         ELSE i.kind END,
                                            'platform', CASE WHEN i.kind LIKE 'user:%' THEN substr(i.kind, 6) END,
                                            'value', i.value,
                                            'firstSeenAt', corebank_internal.events_iso(i.first_seen_at)))
                                        ORDER BY i.first_seen_at, i.kind, i.value), '[]'::jsonb)
                                FROM corebank.customer_identifiers i WHERE i.customer_id = ANY (members)),
                'consents', corebank_internal.events_consents_json(c.id),
                'loyaltyMemberIds', (SELECT coalesce(jsonb_agg(l.member_id ORDER BY l.member_id), '[]'::jsonb)
                                     FROM corebank.loyalty_members l WHERE l.customer_id = ANY (members)),
                'mergedCustomerIds', (SELECT coalesce(jsonb_agg(m.public_id ORDER BY m.created_at, m.id), '[]'::jsonb)
                                      FROM corebank.customers_graph m
                                      WHERE m.merged_into = events_customer_json.customer))
            FROM corebank.customers_graph c
            WHERE c.id = events_customer_json.customer);
END
$fn$;
