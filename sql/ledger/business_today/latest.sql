-- The engine's today: the override when set, else the date in the business
-- time zone.
CREATE FUNCTION corebank_internal.business_today() RETURNS date
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(c.today_override, (now() AT TIME ZONE c.business_time_zone)::date)
            FROM corebank.platform_config c);
END
$fn$;
