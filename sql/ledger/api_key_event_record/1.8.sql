-- One row of the append-only API key audit (corebank.api_key_events): who
-- did what to which key, with the key's answer before and after.
CREATE FUNCTION corebank_internal.api_key_event_record(api_key_id uuid, event text, actor uuid, before jsonb,
                                                       after jsonb) RETURNS void
    LANGUAGE sql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    INSERT INTO corebank.api_key_events (api_key_id, event, actor_id, before, after)
    VALUES (api_key_event_record.api_key_id, api_key_event_record.event, api_key_event_record.actor,
            api_key_event_record.before, api_key_event_record.after);
$fn$;
