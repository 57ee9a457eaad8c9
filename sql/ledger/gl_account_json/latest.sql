CREATE FUNCTION corebank_internal.gl_account_json(gl_account_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object(
                'id', g.id, 'code', g.code, 'name', g.name, 'type', g.type, 'currency', g.currency,
                'mirrorOfId', g.mirror_of, 'allowManualPosting', g.allow_manual, 'active', g.active,
                'postedTo', g.first_posted_at IS NOT NULL, 'balanceMinor', b.balance_minor,
                'balance', corebank_internal.amount_text(b.balance_minor, c.minor_units),
                'createdAt', corebank_internal.iso_utc(g.created_at),
                'updatedAt', corebank_internal.iso_utc(g.updated_at))
            FROM corebank.gl_accounts g
            JOIN corebank.currencies c ON c.code = g.currency
            CROSS JOIN LATERAL (
                SELECT corebank_internal.normal_balance(g.type, coalesce(sum(s.debit_minor), 0)::bigint,
                                                        coalesce(sum(s.credit_minor), 0)::bigint) AS balance_minor
                FROM corebank.gl_balance_stripes s WHERE s.gl_account_id = g.id) b
            WHERE g.id = gl_account_json.gl_account_id);
END
$fn$;
