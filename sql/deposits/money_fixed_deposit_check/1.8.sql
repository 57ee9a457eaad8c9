DROP FUNCTION corebank_internal.money_fixed_deposit_check(uuid, text, text);
