-- Delay before mail attempt n+1: 1, 2, 4 .. minutes, at most an hour. The
-- claim pushes next_attempt_at by it, so a crashed sender's rows come back.
CREATE FUNCTION corebank_internal.mail_backoff(attempts int) RETURNS interval
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT make_interval(secs => least(3600, 60 * power(2, least(greatest(mail_backoff.attempts - 1, 0), 10))))
$fn$;
