-- The rows of a page of a list when the caller names no size: limits::page_size_default.
CREATE FUNCTION corebank_internal.limit_page_size_default() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_page_size_default' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
