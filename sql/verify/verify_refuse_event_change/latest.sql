DROP FUNCTION corebank_internal.verify_refuse_event_change();
