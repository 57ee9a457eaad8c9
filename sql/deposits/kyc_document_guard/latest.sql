CREATE FUNCTION corebank_internal.kyc_document_guard() RETURNS trigger
    AS 'MODULE_PATHNAME', 'kyc_document_guard' LANGUAGE C SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
