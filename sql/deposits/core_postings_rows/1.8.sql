-- 1.8: corebank.core_postings with its answers as rows, in request order
-- (extension/entry/posting_group.cpp): what the tier calls for concurrent
-- POST /v1/transfers requests, so that no JSON array of the answers is
-- built, parsed and taken apart again. status is POSTED or ALONE; response
-- (POSTED) is jsonb's text of what core_transfer answers; reason (ALONE) why
-- the request is to be posted alone with core_transfer.
CREATE OR REPLACE FUNCTION corebank.core_postings_rows(requests jsonb, actors uuid[])
    RETURNS TABLE (status text, response text, reason text)
    AS 'MODULE_PATHNAME', 'core_postings_rows' LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
