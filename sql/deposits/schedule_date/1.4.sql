-- The k-th scheduled date from the start (months clamp to the month end).
CREATE FUNCTION corebank_internal.schedule_date(start_date date, frequency text, k int) RETURNS date
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT (start_date + CASE frequency
                             WHEN 'DAILY' THEN make_interval(days => k)
                             WHEN 'WEEKLY' THEN make_interval(days => 7 * k)
                             WHEN 'MONTHLY' THEN make_interval(months => k)
                             WHEN 'QUARTERLY' THEN make_interval(months => 3 * k)
                             WHEN 'YEARLY' THEN make_interval(years => k)
                         END)::date
$fn$;
