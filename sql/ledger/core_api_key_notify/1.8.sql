-- Trigger function on corebank.api_keys: tells every corebankd process, at
-- commit, that a key changed (revoked, deleted, new scopes or rate limit), so
-- that each evicts its cached verification at once (docs/design/hot-path.md).
-- The channel and payload are what httpd/src/banking/hot_path_events.cpp parses.
CREATE FUNCTION corebank_internal.core_api_key_notify() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    PERFORM pg_notify('corebank_hot_path', 'api_key:' || OLD.id::text);
    RETURN NULL;
END
$fn$;
