DROP FUNCTION corebank_internal.journal_immutable();
