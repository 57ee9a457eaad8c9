CREATE FUNCTION corebank_internal.kyc_check_json(k corebank.kyc_checks) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $fn$
    SELECT jsonb_build_object('id', k.id, 'customerId', k.customer_id, 'checkType', k.check_type,
                              'providerMode', k.provider_mode, 'source', k.source, 'outcome', k.outcome,
                              'details', k.details, 'requestedBy', k.requested_by,
                              'requestedAt', corebank_internal.iso_utc(k.requested_at))
$fn$;
