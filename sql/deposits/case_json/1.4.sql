CREATE FUNCTION corebank_internal.case_json(k corebank.customer_cases) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', k.id, 'customerId', k.customer_id, 'subject', k.subject,
                              'description', k.description, 'category', k.category, 'status', k.status,
                              'openedBy', k.opened_by, 'openedAt', corebank_internal.iso_utc(k.opened_at),
                              'resolvedBy', k.resolved_by, 'resolvedAt', corebank_internal.iso_utc(k.resolved_at),
                              'resolution', k.resolution)
$fn$;
