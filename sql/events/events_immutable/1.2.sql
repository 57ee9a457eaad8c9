-- Events are append-only; the one change allowed is the customer a merge
-- moves them to.
CREATE FUNCTION corebank_internal.events_immutable() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF TG_OP = 'UPDATE'
       AND (NEW.id, NEW.source, NEW.event_id, NEW.type, NEW.schema_version, NEW.occurred_at, NEW.received_at,
            NEW.platform, NEW.identity, NEW.payload)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.source, OLD.event_id, OLD.type, OLD.schema_version, OLD.occurred_at, OLD.received_at,
            OLD.platform, OLD.identity, OLD.payload) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'corebank.events is append-only'
        USING ERRCODE = 'insufficient_privilege',
              DETAIL = format('%s refused; only a merge may change customer_id', TG_OP);
END
$fn$;
