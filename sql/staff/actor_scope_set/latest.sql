-- 1.8: the tier scopes each call to the acting staff member's branch
-- (pg/branch_scope.cpp): SELECT corebank.core_x(...) FROM
-- corebank.actor_scope_set(actor). Kept in backend memory for the
-- transaction; only corebank_app may call it.
CREATE FUNCTION corebank.actor_scope_set(actor uuid) RETURNS void
    AS 'MODULE_PATHNAME', 'actor_scope_set' LANGUAGE C VOLATILE PARALLEL RESTRICTED SECURITY DEFINER;
