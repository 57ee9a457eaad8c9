-- The consent object of the session and of the report (which adds the
-- evidence: version, text hash, ip, user agent). `c` is NULL when no consent
-- was recorded.
CREATE FUNCTION corebank_internal.verify_consent_json(required boolean, c corebank.verify_consents) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN jsonb_build_object(
        'required', required,
        'status', corebank_internal.verify_consent_status(c.granted),
        'channel', c.channel,
        'recordedAt', corebank_internal.verify_iso_utc(c.recorded_at));
END
$fn$;
