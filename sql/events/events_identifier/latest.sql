-- {kind, value} of an identifier as ingest stores it (the same C++ rules),
-- or NULL when the value is not usable (a phone that is no phone number).
-- kind is the API name: userId (needs platform), zbIdSubject, phone, email,
-- nationalId, sessionId.
CREATE FUNCTION corebank_internal.events_identifier(kind text, value text, platform text,
                                                    home_calling_code text) RETURNS text[]
    AS 'MODULE_PATHNAME', 'events_identifier'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
