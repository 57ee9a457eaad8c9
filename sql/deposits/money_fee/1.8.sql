DROP FUNCTION corebank_internal.money_fee(jsonb, uuid);
