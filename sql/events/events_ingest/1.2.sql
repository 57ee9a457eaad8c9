-- One batch, one call: {results: [{eventId, status, error?}], accepted,
-- duplicates, invalid}. source is the calling key's callerId.
CREATE FUNCTION corebank.events_ingest(source text, events jsonb) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'events_ingest'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;
