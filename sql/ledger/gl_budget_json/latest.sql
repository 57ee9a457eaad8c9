CREATE FUNCTION corebank_internal.gl_budget_json(budget_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', b.id, 'glAccountId', b.gl_account_id, 'glAccountCode', g.code, 'currency', g.currency,
                'period', b.period, 'amountMinor', b.amount_minor,
                'amount', corebank_internal.amount_text(b.amount_minor, c.minor_units), 'note', b.note,
                'updatedAt', corebank_internal.iso_utc(b.updated_at), 'updatedBy', b.updated_by)
            FROM corebank.gl_budgets b
            JOIN corebank.gl_accounts g ON g.id = b.gl_account_id
            JOIN corebank.currencies c ON c.code = g.currency
            WHERE b.id = gl_budget_json.budget_id);
END
$fn$;
