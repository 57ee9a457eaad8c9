-- Delay before delivery attempt n+1 after n failures: base * 2^(n-1), at most
-- max. No jitter: the retry schedule is documented and tested exactly.
CREATE FUNCTION corebank_internal.verify_webhook_backoff(attempts int, base_s int, max_s int) RETURNS interval
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT make_interval(secs => least(max_s::float8,
                                       base_s * power(2::float8, least(greatest(attempts - 1, 0), 30))))
$fn$;
