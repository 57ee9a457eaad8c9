-- 1.8: the one predicate of branch scoping (core/branch_scope.hpp): true
-- when the transaction is unscoped, or scoped to `branch`. Every API
-- function, masking view and row-level security policy filters with it.
CREATE FUNCTION corebank.branch_visible(branch uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'branch_visible' LANGUAGE C STABLE PARALLEL RESTRICTED SECURITY DEFINER;
