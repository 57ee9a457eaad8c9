DROP FUNCTION corebank_internal.money_idempotency_store(text, uuid, jsonb);
