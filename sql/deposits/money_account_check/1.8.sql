DROP FUNCTION corebank_internal.money_account_check(jsonb, text, text, bool);
