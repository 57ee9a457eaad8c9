DROP FUNCTION corebank_internal.money_withdraw_posting(jsonb, uuid);
