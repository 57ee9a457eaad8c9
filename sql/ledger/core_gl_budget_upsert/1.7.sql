-- UpsertGlBudgetRequest: {glAccountId | glAccountCode (+ currency, USD by
-- default), period YYYY-MM, amountMinor | amount, note?}. Writes no journal
-- entry.
CREATE OR REPLACE FUNCTION corebank.core_gl_budget_upsert(request jsonb, actor uuid) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    gl_text text;
    gl_code text;
    gl_currency text;
    budget_period text;
    amount bigint;
    budget_note text;
    gl uuid;
    budget_id uuid;
BEGIN
    PERFORM corebank_internal.require_actor(actor);
    PERFORM corebank_internal.require_object(request);
    gl_text := corebank_internal.json_text(request, 'glAccountId', 36);
    gl_code := corebank_internal.json_text(request, 'glAccountCode', 20);
    gl_currency := upper(coalesce(corebank_internal.json_text(request, 'currency', 3), 'USD'));
    budget_period := corebank_internal.json_text(request, 'period', 7);
    amount := corebank_internal.json_amount_minor(request);
    budget_note := corebank_internal.json_text(request, 'note', 500);
    IF budget_period IS NULL OR budget_period !~ '^[0-9]{4}-(0[1-9]|1[0-2])$' THEN
        PERFORM corebank_internal.fail('CBV00', 'period: must be YYYY-MM');
    END IF;
    IF amount IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'amountMinor: is required (or amount)');
    END IF;
    IF gl_text IS NOT NULL THEN
        IF gl_text !~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
            PERFORM corebank_internal.fail('CBV00', 'glAccountId: must be a UUID');
        END IF;
        SELECT g.id INTO gl FROM corebank.gl_accounts g WHERE g.id = gl_text::uuid;
    ELSIF gl_code IS NOT NULL THEN
        SELECT g.id INTO gl FROM corebank.gl_accounts g WHERE g.code = gl_code AND g.currency = gl_currency;
    ELSE
        PERFORM corebank_internal.fail('CBV00', 'glAccountId: is required (or glAccountCode)');
    END IF;
    IF gl IS NULL THEN
        PERFORM corebank_internal.fail('CB404', 'GL account not found');
    END IF;
    INSERT INTO corebank.gl_budgets AS b (gl_account_id, period, amount_minor, note, updated_by)
    VALUES (gl, budget_period, amount, budget_note, actor)
    ON CONFLICT (gl_account_id, period)
    DO UPDATE SET amount_minor = excluded.amount_minor, note = excluded.note, updated_at = now(),
                  updated_by = excluded.updated_by
    RETURNING b.id INTO budget_id;
    RETURN corebank_internal.gl_budget_json(budget_id);
END
$fn$;
