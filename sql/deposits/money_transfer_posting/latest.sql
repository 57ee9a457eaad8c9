DROP FUNCTION corebank_internal.money_transfer_posting(jsonb, uuid, bool);
