DROP FUNCTION corebank_internal.money_withdraw(jsonb, uuid);
