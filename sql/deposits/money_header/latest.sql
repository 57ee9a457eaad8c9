-- The header members shared by the money requests.
CREATE FUNCTION corebank_internal.money_header(request jsonb, type text, actor uuid, branch_fallback uuid)
    RETURNS jsonb
    LANGUAGE plpgsql
    AS $fn$
DECLARE
    reference text := corebank_internal.json_trimmed(request, 'reference', 80);
    value_date date := corebank_internal.json_date(request, 'valueDate');
    channel text := corebank_internal.json_channel(request);
    branch uuid := corebank_internal.request_branch(request, actor, branch_fallback);
BEGIN
    RETURN jsonb_strip_nulls(jsonb_build_object('type', type,
                              'reference', coalesce(reference, corebank.next_number('TRANSACTION')),
                              'description', corebank_internal.json_trimmed(request, 'description', 500),
                              'valueDate', value_date, 'branchId', branch, 'channel', channel,
                              'operatorId', actor, 'makerId', actor));
END
$fn$;
