CREATE FUNCTION corebank_internal.interaction_json(i corebank.customer_interactions) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', i.id, 'customerId', i.customer_id, 'channel', i.channel,
                              'interactionType', i.interaction_type, 'summary', i.summary, 'notes', i.notes,
                              'occurredAt', corebank_internal.iso_utc(i.occurred_at), 'recordedBy', i.recorded_by,
                              'recordedAt', corebank_internal.iso_utc(i.recorded_at))
$fn$;
