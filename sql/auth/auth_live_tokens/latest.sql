-- The access tokens that are live now (auth_token_is_live), with the facts of
-- their session, user and client that the bearer check (auth_authenticate)
-- and introspection (auth_introspect) answer with: the one lookup both make.
-- A plain view, so the planner folds it into the caller's query: the token is
-- still found by its primary key and the others joined by theirs.
CREATE VIEW corebank_internal.auth_live_tokens AS
SELECT t.jti, t.user_id, t.session_id, t.client_id, t.issued_at, t.expires_at,
       s.client_id AS session_client_id, s.audience AS session_audience,
       u.email AS user_email, u.phone AS user_phone
FROM corebank.auth_access_tokens t
LEFT JOIN corebank.auth_sessions s ON s.id = t.session_id
LEFT JOIN corebank.auth_users u ON u.id = t.user_id
LEFT JOIN corebank.auth_oauth_clients c ON c.client_id = t.client_id
WHERE corebank_internal.auth_token_is_live(t.expires_at, t.session_id, s.revoked_at, s.expires_at,
                                           u.status, c.status);
