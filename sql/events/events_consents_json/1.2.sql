-- Consent state of a surviving customer: per purpose the decision with the
-- newest occurredAt over the customer and those merged into it (a merge
-- moves consents, and this also covers one that raced with the merge).
CREATE FUNCTION corebank_internal.events_consents_json(customer uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object(
                       'purpose', x.purpose, 'status', x.status,
                       'occurredAt', corebank_internal.events_iso(x.occurred_at),
                       'source', x.source, 'eventId', x.event_id,
                       'updatedAt', corebank_internal.events_iso(x.updated_at))
                   ORDER BY x.purpose), '[]'::jsonb)
            FROM (SELECT DISTINCT ON (k.purpose) k.purpose, k.status, k.occurred_at, k.updated_at,
                         e.source, e.event_id
                  FROM corebank.consents k
                  JOIN corebank.events e ON e.id = k.event_row_id
                  WHERE k.customer_id = ANY (corebank_internal.events_members(events_consents_json.customer))
                  ORDER BY k.purpose, k.occurred_at DESC, k.updated_at DESC) x);
END
$fn$;
