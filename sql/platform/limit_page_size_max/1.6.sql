-- The most rows a page of a list may have: limits::page_size_max.
CREATE FUNCTION corebank_internal.limit_page_size_max() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_page_size_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
