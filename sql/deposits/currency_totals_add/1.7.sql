-- 1.7: core_interest_run sums its days with interest_currency_totals.
DROP FUNCTION corebank_internal.currency_totals_add(jsonb, jsonb);
