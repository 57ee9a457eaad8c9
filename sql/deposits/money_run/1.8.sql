DROP FUNCTION corebank_internal.money_run(text, jsonb, uuid);
