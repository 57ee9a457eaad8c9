CREATE FUNCTION corebank_internal.numbering_json(entity_type text) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'entityType', n.entity_type, 'prefix', n.prefix, 'padding', n.padding,
                'nextValue', n.next_value, 'example', corebank_internal.format_number(n.prefix, n.padding, n.next_value),
                'updatedAt', corebank_internal.iso_utc(n.updated_at), 'updatedBy', n.updated_by)
            FROM corebank.numbering_config n WHERE n.entity_type = numbering_json.entity_type);
END
$fn$;
