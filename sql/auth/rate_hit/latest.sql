-- Counts one hit; true while the current window's hits are within hit_limit.
CREATE FUNCTION corebank_internal.rate_hit(bucket text, key text, hit_limit int, window_s int) RETURNS bool
    AS 'MODULE_PATHNAME', 'rate_hit'
    LANGUAGE C VOLATILE;
