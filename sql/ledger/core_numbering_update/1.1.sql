-- UpdateNumberingConfigRequest: {prefix?, padding?, nextValue?}; nextValue
-- only moves forward, so no number is ever issued twice.
CREATE FUNCTION corebank.core_numbering_update(entity_type text, request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    kind text := upper(btrim(entity_type));
    new_prefix text;
    new_padding int;
    new_next bigint;
    current corebank.numbering_config;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF kind IS NULL OR kind NOT IN ('LOAN', 'ACCOUNT', 'TRANSACTION', 'APPLICATION') THEN
        PERFORM corebank_internal.fail('CBV00', 'entityType: must be LOAN, ACCOUNT, TRANSACTION or APPLICATION');
    END IF;
    IF request IS NULL OR jsonb_typeof(request) <> 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'request: must be a JSON object');
    END IF;
    IF request ? 'prefix' AND jsonb_typeof(request -> 'prefix') <> 'null' THEN
        IF jsonb_typeof(request -> 'prefix') <> 'string' OR (request ->> 'prefix') !~ '^[A-Z0-9-]{0,10}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'prefix: must be at most 10 of A-Z 0-9 -');
        END IF;
        new_prefix := request ->> 'prefix';
    END IF;
    new_padding := corebank_internal.json_int(request, 'padding', 4, 20);
    new_next := corebank_internal.json_int(request, 'nextValue', 1, 999999999999999999);
    SELECT * INTO current FROM corebank.numbering_config n WHERE n.entity_type = kind FOR UPDATE;
    IF new_next < current.next_value THEN
        PERFORM corebank_internal.fail('CB422', format('nextValue may only move forward (it is %s)', current.next_value));
    END IF;
    UPDATE corebank.numbering_config n
    SET prefix = coalesce(new_prefix, n.prefix), padding = coalesce(new_padding, n.padding),
        next_value = coalesce(new_next, n.next_value), updated_at = now(), updated_by = actor
    WHERE n.entity_type = kind;
    RETURN corebank_internal.numbering_json(kind);
END
$fn$;
