CREATE FUNCTION corebank.core_customers_interaction_add(id uuid, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    i corebank.customer_interactions;
    occurred text;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    PERFORM corebank_internal.require_customer(id);
    i.channel := coalesce(corebank_internal.json_enum(request, 'channel',
                          ARRAY['BRANCH', 'PHONE', 'EMAIL', 'SMS', 'MOBILE', 'WEB', 'OTHER']), 'BRANCH');
    i.interaction_type := corebank_internal.json_enum(request, 'interactionType',
                          ARRAY['ENQUIRY', 'COMPLAINT', 'SERVICE_REQUEST', 'SALES', 'KYC', 'OTHER']);
    i.summary := corebank_internal.json_trimmed(request, 'summary', 500);
    i.notes := corebank_internal.json_trimmed(request, 'notes', 4000);
    occurred := corebank_internal.json_text(request, 'occurredAt', 40);
    IF i.interaction_type IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'interactionType: is required');
    END IF;
    IF i.summary IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'summary: is required');
    END IF;
    IF occurred IS NOT NULL THEN
        IF occurred !~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$' THEN
            PERFORM corebank_internal.fail('CBV00', 'occurredAt: must be an ISO 8601 timestamp with a zone');
        END IF;
        BEGIN
            i.occurred_at := occurred::timestamptz;
        EXCEPTION WHEN OTHERS THEN
            PERFORM corebank_internal.fail('CBV00', 'occurredAt: must be an ISO 8601 timestamp with a zone');
        END;
        IF i.occurred_at > now() + interval '5 minutes' THEN
            PERFORM corebank_internal.fail('CBV00', 'occurredAt: must not be in the future');
        END IF;
    END IF;
    INSERT INTO corebank.customer_interactions AS x (customer_id, channel, interaction_type, summary, notes,
                                                     occurred_at, recorded_by)
    VALUES (id, i.channel, i.interaction_type, i.summary, i.notes, coalesce(i.occurred_at, now()), actor)
    RETURNING x.* INTO i;
    RETURN corebank_internal.interaction_json(i);
END
$fn$;
