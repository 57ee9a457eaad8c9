DROP FUNCTION corebank_internal.refuse_audit_change();
