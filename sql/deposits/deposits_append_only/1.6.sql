DROP FUNCTION corebank_internal.deposits_append_only();
