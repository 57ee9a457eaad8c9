CREATE FUNCTION corebank_internal.standing_order_json(order_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', o.id, 'reference', o.reference, 'sourceAccountId', o.source_account_id,
                'sourceAccountNumber', s.account_number, 'targetAccountId', o.target_account_id,
                'targetAccountNumber', t.account_number, 'beneficiaryId', o.beneficiary_id,
                'amountMinor', o.amount_minor, 'amount', corebank_internal.money_text(o.amount_minor, o.currency),
                'currency', o.currency, 'frequency', o.frequency, 'startDate', o.start_date, 'endDate', o.end_date,
                'nextRunDate', CASE WHEN o.status IN ('ACTIVE', 'PAUSED') THEN o.next_run_date END,
                'lastRunDate', o.last_run_date, 'status', o.status, 'description', o.description,
                'consecutiveFailures', o.consecutive_failures, 'lastFailureReason', o.last_failure_reason,
                'createdBy', o.created_by, 'createdAt', corebank_internal.iso_utc(o.created_at),
                'updatedBy', o.updated_by, 'updatedAt', corebank_internal.iso_utc(o.updated_at))
            FROM corebank.standing_orders o
            JOIN corebank.ledger_accounts s ON s.id = o.source_account_id
            JOIN corebank.ledger_accounts t ON t.id = o.target_account_id
            WHERE o.id = order_id);
END
$fn$;
