-- UpdateNumberingConfigRequest: {prefix?, padding?, nextValue?}; nextValue
-- only moves forward. For TRANSACTION it moves the sequence; a number that a
-- posting takes in the same instant as the move may be issued again, so move
-- it at a quiet time (references are labels, not keys: transactions are
-- identified by id).
CREATE OR REPLACE FUNCTION corebank.core_numbering_update(entity_type text, request jsonb, actor uuid) RETURNS jsonb
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
    current_next bigint;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    IF kind IS NULL OR kind NOT IN ('LOAN', 'ACCOUNT', 'TRANSACTION', 'APPLICATION') THEN
        PERFORM corebank_internal.fail('CBV00', 'entityType: must be LOAN, ACCOUNT, TRANSACTION or APPLICATION');
    END IF;
    PERFORM corebank_internal.require_object(request);
    IF request ? 'prefix' AND jsonb_typeof(request -> 'prefix') <> 'null' THEN
        IF jsonb_typeof(request -> 'prefix') <> 'string' OR (request ->> 'prefix') !~ '^[A-Z0-9-]{0,10}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'prefix: must be at most 10 of A-Z 0-9 -');
        END IF;
        new_prefix := request ->> 'prefix';
    END IF;
    new_padding := corebank_internal.json_int(request, 'padding', 4, 20);
    new_next := corebank_internal.json_int(request, 'nextValue', 1, 999999999999999999);
    SELECT * INTO current FROM corebank.numbering_config n WHERE n.entity_type = kind FOR UPDATE;
    current_next := CASE WHEN kind = 'TRANSACTION' THEN corebank_internal.transaction_number_peek()
                         ELSE current.next_value END;
    IF new_next < current_next THEN
        PERFORM corebank_internal.fail('CB422', format('nextValue may only move forward (it is %s)', current_next));
    END IF;
    IF kind = 'TRANSACTION' AND new_next IS NOT NULL AND new_next > current_next THEN
        PERFORM setval('corebank.transaction_numbers', new_next, false);
    END IF;
    UPDATE corebank.numbering_config n
    SET prefix = coalesce(new_prefix, n.prefix), padding = coalesce(new_padding, n.padding),
        next_value = CASE WHEN kind = 'TRANSACTION' THEN n.next_value ELSE coalesce(new_next, n.next_value) END,
        updated_at = now(), updated_by = actor
    WHERE n.entity_type = kind;
    RETURN corebank_internal.numbering_json(kind);
END
$fn$;
