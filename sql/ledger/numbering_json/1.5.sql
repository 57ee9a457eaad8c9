CREATE OR REPLACE FUNCTION corebank_internal.numbering_json(entity_type text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
DECLARE
    sequence_next bigint;
BEGIN
    IF numbering_json.entity_type = 'TRANSACTION' THEN
        sequence_next := corebank_internal.transaction_number_peek();
    END IF;
    RETURN (SELECT jsonb_build_object(
                'entityType', n.entity_type, 'prefix', n.prefix, 'padding', n.padding,
                'nextValue', coalesce(sequence_next, n.next_value),
                'example', corebank_internal.format_number(n.prefix, n.padding, coalesce(sequence_next, n.next_value)),
                'updatedAt', corebank_internal.iso_utc(n.updated_at), 'updatedBy', n.updated_by)
            FROM corebank.numbering_config n WHERE n.entity_type = numbering_json.entity_type);
END
$fn$;
