-- How long a failed unit waits before its next attempt: 30 s, doubling, at
-- most 30 minutes.
CREATE FUNCTION corebank_internal.eod_retry_delay(attempts int) RETURNS interval
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT least(interval '30 seconds' * power(2, greatest(attempts, 1) - 1), interval '30 minutes')
$fn$;
