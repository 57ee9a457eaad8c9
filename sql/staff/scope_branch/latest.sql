-- 1.8: the branch the current transaction is scoped to; NULL when unscoped
-- (pg/branch_scope.cpp). SECURITY DEFINER without SET clauses: it must stay
-- cheap per row, and its one lookup names every object and operator in full.
CREATE FUNCTION corebank.scope_branch() RETURNS uuid
    AS 'MODULE_PATHNAME', 'scope_branch' LANGUAGE C STABLE PARALLEL RESTRICTED SECURITY DEFINER;
