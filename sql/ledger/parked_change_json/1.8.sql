CREATE OR REPLACE FUNCTION corebank_internal.parked_change_json(change_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', p.id, 'operation', p.operation, 'entityType', p.entity_type, 'entityId', p.entity_id,
                'payload', p.payload, 'summary', p.summary, 'makerId', p.maker_id,
                'status', corebank_internal.change_status(p.status, p.expires_at),
                'checkerId', p.checker_id, 'comment', p.comment, 'reason', p.reason, 'result', p.result,
                'createdAt', corebank_internal.iso_utc(p.created_at),
                'expiresAt', corebank_internal.iso_utc(p.expires_at),
                'decidedAt', corebank_internal.iso_utc(p.decided_at),
                'before', p.target_before)
            FROM corebank.parked_changes p
            WHERE p.id = parked_change_json.change_id);
END
$fn$;
