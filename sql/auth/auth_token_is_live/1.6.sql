-- A token is live when it is unexpired and, for a user token, its session is
-- neither revoked nor expired and its user is ACTIVE, or, for a client
-- token, its client is ACTIVE. auth_authenticate and auth_introspect each
-- wrote this predicate out until 1.6. LANGUAGE sql, STABLE, no SET clause and
-- not SECURITY DEFINER, so that the planner inlines it into the callers'
-- query: the token is still found by its primary key, and the sessions,
-- users and clients by theirs (EXPLAIN shows the same plan as before 1.6).
CREATE FUNCTION corebank_internal.auth_token_is_live(token_expires_at timestamptz, session_id uuid,
                                                     session_revoked_at timestamptz,
                                                     session_expires_at timestamptz, user_status text,
                                                     client_status text) RETURNS bool
    LANGUAGE sql STABLE
    AS $fn$
    SELECT token_expires_at > now()
       AND CASE WHEN session_id IS NOT NULL
                THEN session_revoked_at IS NULL AND session_expires_at > now() AND user_status = 'ACTIVE'
                ELSE client_status = 'ACTIVE'
           END
$fn$;
