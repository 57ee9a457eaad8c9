DROP FUNCTION corebank_internal.money_idempotency_claim(text, jsonb);
