-- The branch of a request: branchId or branchCode, else the actor's active
-- branch (identity keeps staff branch codes), else `fallback`, else head
-- office. 1.8: the money engine's rule (pg/money_posting.cpp), one for the
-- money operations, account opening and customer creation.
CREATE OR REPLACE FUNCTION corebank_internal.request_branch(request jsonb, actor uuid, fallback uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'request_branch' LANGUAGE C STABLE
    SET search_path = pg_catalog, pg_temp;
