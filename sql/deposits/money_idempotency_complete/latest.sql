DROP FUNCTION corebank_internal.money_idempotency_complete(text, uuid);
