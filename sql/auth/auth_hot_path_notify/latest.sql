-- Trigger function on the tables the staff token's session check reads
-- (auth_live_tokens): a session revoked (logout, logout-all, password change,
-- deactivation), a user's or a client's status changed. Tells every corebankd
-- process, at commit, to evict the cached checks of that session, user or
-- client (docs/design/hot-path.md). One IF per table: a record's fields are
-- resolved when the statement runs, and each table has its own key column.
CREATE FUNCTION corebank_internal.auth_hot_path_notify() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    IF TG_TABLE_NAME = 'auth_sessions' THEN
        PERFORM pg_notify('corebank_hot_path', 'session:' || OLD.id::text);
    ELSIF TG_TABLE_NAME = 'auth_users' THEN
        PERFORM pg_notify('corebank_hot_path', 'user:' || OLD.id::text);
    ELSIF TG_TABLE_NAME = 'auth_oauth_clients' THEN
        PERFORM pg_notify('corebank_hot_path', 'client:' || OLD.client_id);
    ELSE
        RAISE EXCEPTION 'auth_hot_path_notify: unexpected table %', TG_TABLE_NAME;
    END IF;
    RETURN NULL;
END
$fn$;
