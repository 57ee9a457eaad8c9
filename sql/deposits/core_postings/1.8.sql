-- 1.8: N single posting requests decided and written together in one transaction
-- (extension/pg/posting_group.cpp; docs/design/posting-group.md): what the tier
-- calls for concurrent POST /v1/transfers requests. requests is an array of 1 to
-- 256 {"operation": "transfer", "request": <what core_transfer takes>}; actors[i]
-- acts for request i. Each answer is {"status": "POSTED", "response": <what
-- core_transfer answers>} or {"status": "ALONE", "reason": ...}: not posted here,
-- to be posted alone with core_transfer, whose answer is then the request's.
CREATE OR REPLACE FUNCTION corebank.core_postings(requests jsonb, actors uuid[]) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'core_postings' LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
