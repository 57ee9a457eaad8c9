-- The most requests per minute an API key may be given: limits::api_key_requests_per_minute_max.
CREATE FUNCTION corebank_internal.limit_api_key_requests_per_minute_max() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_api_key_requests_per_minute_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
