DROP FUNCTION corebank_internal.money_deposit_posting(jsonb, uuid, bool);
