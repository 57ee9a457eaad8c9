-- Requests per minute of an API key whose creator names none: limits::api_key_requests_per_minute_default.
CREATE FUNCTION corebank_internal.limit_api_key_requests_per_minute_default() RETURNS int
    AS 'MODULE_PATHNAME', 'limit_api_key_requests_per_minute_default' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
