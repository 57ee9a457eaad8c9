-- Trial balance as of a value date: each GL account's net in its debit or
-- credit column; per currency the columns sum to the same total.
CREATE FUNCTION corebank.trial_balance_as_of(as_of date)
    RETURNS TABLE (gl_account_id uuid, code text, name text, type text, currency text,
                   debit_minor bigint, credit_minor bigint)
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF as_of IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'as_of: is required');
    END IF;
    RETURN QUERY
    SELECT g.id, g.code, g.name, g.type, g.currency::text,
           greatest(s.net, 0)::bigint, greatest(-s.net, 0)::bigint
    FROM corebank.gl_accounts g
    JOIN (SELECT x.gl_account_id,
                 sum(CASE WHEN x.side = 'D' THEN x.amount_minor ELSE -x.amount_minor END) AS net
          FROM corebank.journal_entries x
          WHERE x.value_date <= as_of
          GROUP BY x.gl_account_id) s ON s.gl_account_id = g.id
    ORDER BY g.currency, g.code;
END
$fn$;
