DROP FUNCTION corebank_internal.events_immutable();
