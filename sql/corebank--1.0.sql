/* sql/corebank--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION corebank" to load this file. \quit

-- corebank 1.0: the identity store (docs/design/identity-db-api.md).
--
-- Layout: schema corebank (set by corebank.control) holds the tables and the
-- API functions the tier (role corebank_app) may EXECUTE; it has no privilege
-- on any table. Schema corebank_internal holds helpers with no grant at all.
-- Every API function is SECURITY DEFINER with a pinned search_path and names
-- tables by schema. The functions that decide a rule or touch key material
-- are C++ in corebank.so (LANGUAGE C); plain data access is SQL or PL/pgSQL.
--
-- Errors use SQLSTATEs of the class "CB" (CB400, CBV00, CB401, CBU01, CB403,
-- CBL03, CB404, CB409, CB422, CB429); the tier maps them to HTTP and passes
-- the message on verbatim.

-- preconditions

DO $pre$
BEGIN
    -- Lengths are counted in UTF-8 characters by the C++ code.
    IF pg_catalog.getdatabaseencoding() <> 'UTF8' THEN
        RAISE EXCEPTION 'corebank requires a database with encoding UTF8, not %',
            pg_catalog.getdatabaseencoding();
    END IF;
END
$pre$;

-- roles (cluster-wide: created once, kept by DROP EXTENSION)

DO $roles$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'corebank_app') THEN
        CREATE ROLE corebank_app LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'corebank_auditor') THEN
        CREATE ROLE corebank_auditor NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'corebank_reporting') THEN
        CREATE ROLE corebank_reporting NOLOGIN;
    END IF;
END
$roles$;

-- schemas

CREATE SCHEMA corebank_internal;
COMMENT ON SCHEMA corebank_internal IS 'corebank helpers; no privileges for anyone but the owner';

-- private functions needed by table constraints

-- The one email normalisation (trim ASCII whitespace, ASCII lower case), shared
-- with the C++ functions; the auth_users check keeps every stored email in it.
CREATE FUNCTION corebank_internal.normalize_email(email text) RETURNS text
    AS 'MODULE_PATHNAME', 'normalize_email'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- tables

CREATE TABLE corebank.auth_users (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email           text UNIQUE,
    phone           text,
    -- The phone's digits: one number with or without its leading '+'.
    phone_key       text GENERATED ALWAYS AS (regexp_replace(phone, '[^0-9]', '', 'g')) STORED UNIQUE,
    password_hash   text NOT NULL,
    first_name      text,
    last_name       text,
    kyc_tier        text NOT NULL DEFAULT 'NONE',
    roles           text[] NOT NULL DEFAULT '{customer}',
    status          text NOT NULL DEFAULT 'ACTIVE',
    -- Consecutive failures; reaching 5 (core/identity_limits.hpp) locks the
    -- account and resets the counter, so 0..4 is all it can hold.
    failed_attempts int NOT NULL DEFAULT 0,
    locked_until    timestamptz,
    branch_code     text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT auth_users_email_or_phone CHECK (email IS NOT NULL OR phone IS NOT NULL),
    CONSTRAINT auth_users_email_normalized
        CHECK (email = corebank_internal.normalize_email(email) AND length(email) BETWEEN 3 AND 254),
    CONSTRAINT auth_users_phone_format CHECK (phone ~ '^\+?[0-9]{10,15}$'),
    -- Only argon2id hashes: a tier bug can never store a plaintext password.
    CONSTRAINT auth_users_password_hash_argon2id
        CHECK (password_hash LIKE '$argon2id$%' AND length(password_hash) <= 512),
    CONSTRAINT auth_users_kyc_tier CHECK (kyc_tier IN ('NONE', 'BASIC', 'STANDARD', 'ENHANCED')),
    CONSTRAINT auth_users_status CHECK (status IN ('ACTIVE', 'SUSPENDED', 'DEACTIVATED')),
    CONSTRAINT auth_users_failed_attempts CHECK (failed_attempts BETWEEN 0 AND 4),
    CONSTRAINT auth_users_roles
        CHECK (cardinality(roles) BETWEEN 1 AND 32 AND array_position(roles, NULL) IS NULL),
    CONSTRAINT auth_users_names CHECK (length(first_name) <= 100 AND length(last_name) <= 100),
    CONSTRAINT auth_users_branch_code CHECK (length(branch_code) BETWEEN 1 AND 20)
);
COMMENT ON TABLE corebank.auth_users IS 'Identities: one per person, with an email, a phone or both';

CREATE TABLE corebank.auth_oauth_clients (
    client_id       text PRIMARY KEY,
    secret_hash     text NOT NULL,
    name            text,
    status          text NOT NULL DEFAULT 'ACTIVE',
    scopes          text[] NOT NULL DEFAULT '{}',
    reset_link_base text,
    app_name        text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT auth_oauth_clients_client_id CHECK (client_id ~ '^[A-Za-z0-9._-]{1,100}$'),
    CONSTRAINT auth_oauth_clients_secret_hash_argon2id
        CHECK (secret_hash LIKE '$argon2id$%' AND length(secret_hash) <= 512),
    CONSTRAINT auth_oauth_clients_status CHECK (status IN ('ACTIVE', 'DISABLED')),
    CONSTRAINT auth_oauth_clients_scopes
        CHECK (cardinality(scopes) <= 100 AND array_position(scopes, NULL) IS NULL),
    CONSTRAINT auth_oauth_clients_texts
        CHECK (length(name) <= 200 AND length(reset_link_base) <= 2048 AND length(app_name) <= 100)
);
COMMENT ON TABLE corebank.auth_oauth_clients IS 'OAuth2 clients (client credentials grant; audience of user tokens)';

-- A session is one refresh-token family; live while revoked_at IS NULL and
-- expires_at > now(). Its lifetime is absolute (refresh_token_ttl_s from login).
CREATE TABLE corebank.auth_sessions (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id        uuid NOT NULL REFERENCES corebank.auth_users (id),
    client_id      text REFERENCES corebank.auth_oauth_clients (client_id),
    audience       text NOT NULL,
    channel        text,
    ip             text,
    user_agent     text,
    created_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    last_used_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    expires_at     timestamptz NOT NULL,
    revoked_at     timestamptz,
    revoked_reason text,
    CONSTRAINT auth_sessions_audience CHECK (length(audience) BETWEEN 1 AND 255),
    CONSTRAINT auth_sessions_texts
        CHECK (length(channel) <= 50 AND length(ip) <= 64 AND length(user_agent) <= 512),
    CONSTRAINT auth_sessions_revoked CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL)),
    CONSTRAINT auth_sessions_revoked_reason
        CHECK (revoked_reason IN ('session_cap', 'refresh_replay', 'password_change', 'password_reset',
                                  'logout', 'logout_all', 'deactivated'))
);
COMMENT ON TABLE corebank.auth_sessions IS 'Login sessions (refresh-token families)';
-- Session cap, session list and revoke-all all read a user's unrevoked sessions.
CREATE INDEX auth_sessions_live_by_user ON corebank.auth_sessions (user_id, created_at)
    WHERE revoked_at IS NULL;

CREATE TABLE corebank.auth_refresh_tokens (
    token_hash bytea PRIMARY KEY,   -- SHA-256 of the opaque token; the token itself is never stored
    session_id uuid NOT NULL REFERENCES corebank.auth_sessions (id),
    issued_at  timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    CONSTRAINT auth_refresh_tokens_sha256 CHECK (length(token_hash) = 32)
);
COMMENT ON TABLE corebank.auth_refresh_tokens IS 'Refresh tokens by SHA-256; single use (used_at)';
CREATE INDEX auth_refresh_tokens_expiry ON corebank.auth_refresh_tokens (expires_at);

-- Every issued access token: revocation and introspection are decided here.
-- A user token has a session and a user; a client token has only a client.
CREATE TABLE corebank.auth_access_tokens (
    jti        uuid PRIMARY KEY,
    session_id uuid REFERENCES corebank.auth_sessions (id),
    user_id    uuid REFERENCES corebank.auth_users (id),
    client_id  text REFERENCES corebank.auth_oauth_clients (client_id),
    issued_at  timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    CONSTRAINT auth_access_tokens_lifetime CHECK (expires_at > issued_at),
    CONSTRAINT auth_access_tokens_subject
        CHECK ((session_id IS NOT NULL AND user_id IS NOT NULL AND client_id IS NULL)
            OR (session_id IS NULL AND user_id IS NULL AND client_id IS NOT NULL))
);
COMMENT ON TABLE corebank.auth_access_tokens IS 'Issued access tokens (jti) for revocation and introspection';
CREATE INDEX auth_access_tokens_expiry ON corebank.auth_access_tokens (expires_at);

CREATE TABLE corebank.auth_signing_keys (
    kid             text PRIMARY KEY,   -- RFC 7638 thumbprint of the public key
    algorithm       text NOT NULL DEFAULT 'RS256',
    public_jwk      jsonb NOT NULL,
    private_key_pem text NOT NULL,      -- never leaves the database: the extension signs
    created_at      timestamptz NOT NULL DEFAULT now(),
    retired_at      timestamptz,
    CONSTRAINT auth_signing_keys_kid CHECK (length(kid) BETWEEN 1 AND 128),
    CONSTRAINT auth_signing_keys_algorithm CHECK (algorithm = 'RS256'),
    CONSTRAINT auth_signing_keys_jwk
        CHECK (public_jwk ->> 'kid' = kid AND public_jwk ->> 'kty' = 'RSA' AND public_jwk ->> 'alg' = 'RS256')
);
COMMENT ON TABLE corebank.auth_signing_keys IS 'RS256 signing keys; one active (retired_at IS NULL)';
-- At most one active key.
CREATE UNIQUE INDEX auth_signing_keys_one_active ON corebank.auth_signing_keys ((true))
    WHERE retired_at IS NULL;

CREATE TABLE corebank.auth_reset_tokens (
    token_hash bytea PRIMARY KEY,   -- SHA-256 of the mailed token
    user_id    uuid NOT NULL REFERENCES corebank.auth_users (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    CONSTRAINT auth_reset_tokens_sha256 CHECK (length(token_hash) = 32)
);
COMMENT ON TABLE corebank.auth_reset_tokens IS 'Password reset tokens by SHA-256; single use';
CREATE INDEX auth_reset_tokens_unused_by_user ON corebank.auth_reset_tokens (user_id)
    WHERE used_at IS NULL;

CREATE TABLE corebank.auth_rate_counters (
    bucket       text NOT NULL,
    key          text NOT NULL,
    window_start timestamptz NOT NULL,
    hits         int NOT NULL,
    PRIMARY KEY (bucket, key, window_start),
    CONSTRAINT auth_rate_counters_hits CHECK (hits >= 1)
);
COMMENT ON TABLE corebank.auth_rate_counters IS 'Fixed-window rate-limit counters (login per identifier, reset per IP)';
CREATE INDEX auth_rate_counters_window ON corebank.auth_rate_counters (window_start);

CREATE TABLE corebank.auth_mail_outbox (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    recipient       text NOT NULL,
    subject         text NOT NULL,
    body_sealed     bytea,   -- AES-256-GCM sealed by the tier; NULL once SENT or FAILED
    status          text NOT NULL DEFAULT 'PENDING',
    attempts        int NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    last_error      text,
    CONSTRAINT auth_mail_outbox_status CHECK (status IN ('PENDING', 'SENT', 'FAILED')),
    CONSTRAINT auth_mail_outbox_body CHECK ((status = 'PENDING') = (body_sealed IS NOT NULL)),
    CONSTRAINT auth_mail_outbox_attempts CHECK (attempts >= 0),
    CONSTRAINT auth_mail_outbox_texts
        CHECK (length(recipient) BETWEEN 3 AND 254 AND length(subject) BETWEEN 1 AND 200
               AND length(body_sealed) <= 1048576 AND length(last_error) <= 1000)
);
COMMENT ON TABLE corebank.auth_mail_outbox IS 'Outgoing mail, sealed; claimed with FOR UPDATE SKIP LOCKED';
CREATE INDEX auth_mail_outbox_due ON corebank.auth_mail_outbox (next_attempt_at)
    WHERE status = 'PENDING';

CREATE TABLE corebank.auth_audit (
    id      bigserial PRIMARY KEY,
    at      timestamptz NOT NULL DEFAULT now(),
    user_id uuid,   -- no foreign key: the trail must not depend on other rows
    event   text NOT NULL,
    channel text,
    ip      text,
    detail  jsonb,
    CONSTRAINT auth_audit_event
        CHECK (event IN ('register', 'login_ok', 'login_failed', 'locked', 'refresh', 'replay', 'logout',
                         'logout_all', 'password_changed', 'reset_requested', 'password_reset',
                         'deactivated', 'client_token'))
);
COMMENT ON TABLE corebank.auth_audit IS 'Identity audit trail; append-only (trigger)';
CREATE INDEX auth_audit_by_user ON corebank.auth_audit (user_id, at);

CREATE TABLE corebank.auth_role_scopes (
    role        text PRIMARY KEY,
    scopes      text[] NOT NULL,
    staff       bool NOT NULL,
    description text,
    CONSTRAINT auth_role_scopes_role CHECK (role ~ '^[a-z][a-z0-9_]{0,62}$'),
    CONSTRAINT auth_role_scopes_scopes
        CHECK (cardinality(scopes) <= 100 AND array_position(scopes, NULL) IS NULL)
);
COMMENT ON TABLE corebank.auth_role_scopes IS 'Role to scopes, loaded from policies/roles.json by policy_load';

-- triggers

CREATE FUNCTION corebank_internal.refuse_audit_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RAISE EXCEPTION 'corebank.auth_audit is append-only'
        USING ERRCODE = 'insufficient_privilege', DETAIL = format('%s refused', TG_OP);
END
$fn$;

CREATE TRIGGER auth_audit_append_only
    BEFORE UPDATE OR DELETE ON corebank.auth_audit
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_audit_change();
CREATE TRIGGER auth_audit_no_truncate
    BEFORE TRUNCATE ON corebank.auth_audit
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_audit_change();

-- private functions
--
-- Functions whose body is a query are PL/pgSQL rather than LANGUAGE sql:
-- PL/pgSQL keeps its plans for the session, while a SQL function that cannot
-- be inlined is planned again at every call (measured on auth_authenticate:
-- 67k against 9k calls/s).

-- Sorted, distinct union of the scopes of `roles`. Sorted bytewise (COLLATE
-- "C"), whatever the database's collation, like the C++ sort of client scopes.
CREATE FUNCTION corebank_internal.role_scopes(roles text[]) RETURNS text[]
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(array_agg(DISTINCT s.scope COLLATE "C" ORDER BY s.scope COLLATE "C"), '{}')
            FROM corebank.auth_role_scopes r
            CROSS JOIN LATERAL unnest(r.scopes) AS s(scope)
            WHERE r.role = ANY (role_scopes.roles));
END
$fn$;

-- The user object of the API: absent values are JSON null.
CREATE FUNCTION corebank_internal.user_object(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('id', u.id, 'email', u.email, 'phone', u.phone,
                                      'firstName', u.first_name, 'lastName', u.last_name,
                                      'kycTier', u.kyc_tier, 'roles', to_jsonb(u.roles))
            FROM corebank.auth_users u
            WHERE u.id = user_object.user_id);
END
$fn$;

-- Appends an audit row (for the SQL-language functions; C++ inserts directly).
CREATE FUNCTION corebank_internal.audit(user_id uuid, event text, detail jsonb DEFAULT NULL)
    RETURNS void
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    INSERT INTO corebank.auth_audit (at, user_id, event, detail)
    VALUES (now(), audit.user_id, audit.event, audit.detail);
END
$fn$;

-- Delay before mail attempt n+1: 1, 2, 4 .. minutes, at most an hour. The
-- claim pushes next_attempt_at by it, so a crashed sender's rows come back.
CREATE FUNCTION corebank_internal.mail_backoff(attempts int) RETURNS interval
    LANGUAGE sql IMMUTABLE
    AS $fn$
    SELECT make_interval(secs => least(3600, 60 * power(2, least(greatest(mail_backoff.attempts - 1, 0), 10))))
$fn$;

-- Raises `message` with SQLSTATE `code` (one of the CB class) from
-- PL/pgSQL bodies, so each failure is one readable line.
CREATE FUNCTION corebank_internal.fail(code text, message text) RETURNS void
    LANGUAGE plpgsql
    AS $fn$
BEGIN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = message;
END
$fn$;

-- Signs a claims object with the active RS256 key (creating one if none).
CREATE FUNCTION corebank_internal.sign_jwt(claims jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'sign_jwt'
    LANGUAGE C VOLATILE;

-- A fresh RSA-2048 key pair; not stored.
CREATE FUNCTION corebank_internal.generate_rsa_key(OUT kid text, OUT public_jwk jsonb, OUT private_key_pem text)
    RETURNS record
    AS 'MODULE_PATHNAME', 'generate_rsa_key'
    LANGUAGE C VOLATILE;

-- Counts one hit; true while the current window's hits are within hit_limit.
CREATE FUNCTION corebank_internal.rate_hit(bucket text, key text, hit_limit int, window_s int) RETURNS bool
    AS 'MODULE_PATHNAME', 'rate_hit'
    LANGUAGE C VOLATILE;

-- API functions: C++ (rules and keys)

CREATE FUNCTION corebank.auth_register(email text, phone text, password_hash text, first_name text,
                                       last_name text, client_id text, channel text, ip text,
                                       user_agent text, refresh_token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_register'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_login_begin(identifier_kind text, identifier text, client_id text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_login_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_login_finish(user_id uuid, password_ok bool, client_id text, channel text,
                                           ip text, user_agent text, refresh_token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_login_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_refresh(refresh_token_hash bytea, new_refresh_token_hash bytea, ip text,
                                      user_agent text) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_refresh'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_password_forgot(email text, client_id text, ip text, token_hash bytea)
    RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_password_forgot'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_password_reset_begin(token_hash bytea) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_password_reset_begin'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_password_reset_finish(token_hash bytea, new_password_hash text) RETURNS void
    AS 'MODULE_PATHNAME', 'auth_password_reset_finish'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_client_token(client_id text, requested_scopes text[]) RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_client_token'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_jwks() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_jwks'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_ensure_signing_key() RETURNS text
    AS 'MODULE_PATHNAME', 'auth_ensure_signing_key'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_rotate_signing_key() RETURNS text
    AS 'MODULE_PATHNAME', 'auth_rotate_signing_key'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

CREATE FUNCTION corebank.auth_maintenance() RETURNS jsonb
    AS 'MODULE_PATHNAME', 'auth_maintenance'
    LANGUAGE C VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp;

-- API functions: PL/pgSQL (data access)
--
-- Columns are always qualified by a table alias; arguments are referred to
-- as function_name.argument or, under #variable_conflict use_variable, by
-- name.

-- The bearer check on every call: live session and ACTIVE user (or ACTIVE
-- client for client tokens), unexpired token. One primary-key lookup and
-- two primary-key joins.
CREATE FUNCTION corebank.auth_authenticate(jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((
        SELECT jsonb_build_object('active', true, 'userId', t.user_id, 'sessionId', t.session_id,
                                  'clientId', coalesce(t.client_id, s.client_id))
        FROM corebank.auth_access_tokens t
        LEFT JOIN corebank.auth_sessions s ON s.id = t.session_id
        LEFT JOIN corebank.auth_users u ON u.id = t.user_id
        LEFT JOIN corebank.auth_oauth_clients c ON c.client_id = t.client_id
        WHERE t.jti = auth_authenticate.jti
          AND t.expires_at > now()
          AND CASE WHEN t.session_id IS NOT NULL
                   THEN s.revoked_at IS NULL AND s.expires_at > now() AND u.status = 'ACTIVE'
                   ELSE c.status = 'ACTIVE'
              END
    ), '{"active": false}'::jsonb);
END
$fn$;

-- RFC 7662 facts the database holds for a token whose signature the tier
-- verified. iss and scope are in the verified token; the tier adds them.
CREATE FUNCTION corebank.auth_introspect(jti uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN coalesce((
        SELECT jsonb_strip_nulls(jsonb_build_object(
                   'active', true,
                   'sub', coalesce(t.user_id::text, t.client_id),
                   'iat', extract(epoch FROM t.issued_at)::bigint,
                   'exp', extract(epoch FROM t.expires_at)::bigint,
                   'jti', t.jti,
                   'token_type', CASE WHEN t.session_id IS NULL THEN 'client' ELSE 'access' END,
                   'client_id', coalesce(t.client_id, s.client_id),
                   'aud', s.audience,
                   'username', coalesce(u.email, u.phone)))
        FROM corebank.auth_access_tokens t
        LEFT JOIN corebank.auth_sessions s ON s.id = t.session_id
        LEFT JOIN corebank.auth_users u ON u.id = t.user_id
        LEFT JOIN corebank.auth_oauth_clients c ON c.client_id = t.client_id
        WHERE t.jti = auth_introspect.jti
          AND t.expires_at > now()
          AND CASE WHEN t.session_id IS NOT NULL
                   THEN s.revoked_at IS NULL AND s.expires_at > now() AND u.status = 'ACTIVE'
                   ELSE c.status = 'ACTIVE'
              END
    ), '{"active": false}'::jsonb);
END
$fn$;

CREATE FUNCTION corebank.auth_user_password_hash(user_id uuid) RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    current_hash text;
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    SELECT u.password_hash INTO current_hash
    FROM corebank.auth_users u
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    RETURN current_hash;
END
$fn$;

-- Locks the user row first (like login and refresh), so no session is being
-- created or refreshed while the others are revoked.
CREATE FUNCTION corebank.auth_password_change(user_id uuid, new_password_hash text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    IF new_password_hash IS NULL OR new_password_hash NOT LIKE '$argon2id$%' OR length(new_password_hash) > 512 THEN
        PERFORM corebank_internal.fail('CBV00', 'new_password_hash: must be an argon2id encoded hash');
    END IF;
    UPDATE corebank.auth_users u
    SET password_hash = new_password_hash, updated_at = now()
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = 'password_change'
    WHERE s.user_id = user_id AND s.revoked_at IS NULL AND s.expires_at > now();
    PERFORM corebank_internal.audit(user_id, 'password_changed');
END
$fn$;

CREATE FUNCTION corebank.auth_deactivate(user_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    UPDATE corebank.auth_users u
    SET status = 'DEACTIVATED', updated_at = now()
    WHERE u.id = user_id AND u.status = 'ACTIVE';
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CBU01', 'Account is not active');
    END IF;
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = 'deactivated'
    WHERE s.user_id = user_id AND s.revoked_at IS NULL AND s.expires_at > now();
    PERFORM corebank_internal.audit(user_id, 'deactivated');
END
$fn$;

CREATE FUNCTION corebank.auth_logout(user_id uuid, session_id uuid) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
BEGIN
    IF user_id IS NULL OR session_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id, session_id: are required');
    END IF;
    PERFORM FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    PERFORM FROM corebank.auth_sessions s WHERE s.id = session_id AND s.user_id = user_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'Session not found');
    END IF;
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = 'logout'
    WHERE s.id = session_id AND s.revoked_at IS NULL;
    IF FOUND THEN
        PERFORM corebank_internal.audit(user_id, 'logout', jsonb_build_object('sessionId', session_id));
    END IF;
END
$fn$;

CREATE FUNCTION corebank.auth_logout_all(user_id uuid) RETURNS int
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    revoked int;
BEGIN
    IF user_id IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'user_id: is required');
    END IF;
    PERFORM FROM corebank.auth_users u WHERE u.id = user_id FOR UPDATE;
    UPDATE corebank.auth_sessions s
    SET revoked_at = now(), revoked_reason = 'logout_all'
    WHERE s.user_id = user_id AND s.revoked_at IS NULL AND s.expires_at > now();
    GET DIAGNOSTICS revoked = ROW_COUNT;
    PERFORM corebank_internal.audit(user_id, 'logout_all', jsonb_build_object('revoked', revoked));
    RETURN revoked;
END
$fn$;

CREATE FUNCTION corebank.auth_me(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    me jsonb;
BEGIN
    SELECT corebank_internal.user_object(u.id)
           || jsonb_build_object('status', u.status, 'createdAt', u.created_at, 'branchCode', u.branch_code)
    INTO me
    FROM corebank.auth_users u
    WHERE u.id = user_id;
    IF NOT FOUND THEN
        PERFORM corebank_internal.fail('CB404', 'User not found');
    END IF;
    RETURN me;
END
$fn$;

CREATE FUNCTION corebank.auth_sessions_list(user_id uuid) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'channel', s.channel, 'ip', s.ip,
                                                         'userAgent', s.user_agent, 'audience', s.audience,
                                                         'createdAt', s.created_at, 'lastUsedAt', s.last_used_at,
                                                         'expiresAt', s.expires_at)
                                      ORDER BY s.created_at DESC, s.id DESC), '[]'::jsonb)
            FROM corebank.auth_sessions s
            WHERE s.user_id = auth_sessions_list.user_id AND s.revoked_at IS NULL AND s.expires_at > now());
END
$fn$;

CREATE FUNCTION corebank.auth_client_lookup(client_id text) RETURNS jsonb
    LANGUAGE plpgsql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
BEGIN
    RETURN (SELECT jsonb_build_object('clientId', c.client_id, 'secretHash', c.secret_hash, 'status', c.status,
                                      'scopes', to_jsonb(c.scopes))
            FROM corebank.auth_oauth_clients c
            WHERE c.client_id = auth_client_lookup.client_id);
END
$fn$;

CREATE FUNCTION corebank.auth_client_create(client_id text, secret_hash text, scopes text[], name text,
                                            reset_link_base text, app_name text) RETURNS jsonb
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    created jsonb;
BEGIN
    IF client_id IS NULL OR client_id !~ '^[A-Za-z0-9._-]{1,100}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'client_id: must be 1 to 100 of A-Z a-z 0-9 . _ -');
    END IF;
    IF secret_hash IS NULL OR secret_hash NOT LIKE '$argon2id$%' OR length(secret_hash) > 512 THEN
        PERFORM corebank_internal.fail('CBV00', 'secret_hash: must be an argon2id encoded hash');
    END IF;
    IF scopes IS NULL OR cardinality(scopes) > 100 OR array_ndims(scopes) > 1
       OR EXISTS (SELECT FROM unnest(scopes) AS x(scope) WHERE x.scope IS NULL OR x.scope !~ '^[!#-\[\]-~]{1,100}$') THEN
        PERFORM corebank_internal.fail('CBV00', 'scopes: must be at most 100 scopes of 1 to 100 printable characters without spaces');
    END IF;
    IF length(name) > 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'name: must be at most 200 characters');
    END IF;
    IF reset_link_base IS NOT NULL AND (reset_link_base !~ '^https?://' OR length(reset_link_base) > 2048) THEN
        PERFORM corebank_internal.fail('CBV00', 'reset_link_base: must be an http(s) URL of at most 2048 characters');
    END IF;
    IF length(app_name) > 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'app_name: must be at most 100 characters');
    END IF;

    INSERT INTO corebank.auth_oauth_clients AS c (client_id, secret_hash, name, status, scopes, reset_link_base, app_name)
    VALUES (client_id, secret_hash, name, 'ACTIVE', coalesce(scopes, '{}'), reset_link_base, app_name)
    ON CONFLICT DO NOTHING
    RETURNING jsonb_build_object('clientId', c.client_id, 'name', c.name, 'status', c.status,
                                 'scopes', to_jsonb(c.scopes), 'resetLinkBase', c.reset_link_base,
                                 'appName', c.app_name, 'createdAt', c.created_at)
    INTO created;
    IF created IS NULL THEN
        PERFORM corebank_internal.fail('CB409', 'An OAuth client with this id already exists');
    END IF;
    RETURN created;
END
$fn$;

CREATE FUNCTION corebank.auth_staff_create(email text, phone text, password_hash text, first_name text,
                                           last_name text, roles text[], branch_code text) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    normalized_email text := corebank_internal.normalize_email(nullif(btrim(email), ''));
    clean_phone text := nullif(btrim(phone), '');
    unknown_role text;
    new_id uuid;
BEGIN
    IF normalized_email IS NULL AND clean_phone IS NULL THEN
        PERFORM corebank_internal.fail('CB400', 'Either an email or a phone number is required');
    END IF;
    IF length(normalized_email) > 254 OR position('@' IN normalized_email) = 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'email: must be a well-formed email address of at most 254 characters');
    END IF;
    IF clean_phone !~ '^\+?[0-9]{10,15}$' THEN
        PERFORM corebank_internal.fail('CBV00', 'phone: must match ^\+?[0-9]{10,15}$');
    END IF;
    IF password_hash IS NULL OR password_hash NOT LIKE '$argon2id$%' OR length(password_hash) > 512 THEN
        PERFORM corebank_internal.fail('CBV00', 'password_hash: must be an argon2id encoded hash');
    END IF;
    IF length(first_name) > 100 OR length(last_name) > 100 THEN
        PERFORM corebank_internal.fail('CBV00', 'firstName, lastName: must be at most 100 characters');
    END IF;
    IF roles IS NULL OR cardinality(roles) = 0 THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: is required');
    END IF;
    IF cardinality(roles) > 32 OR array_ndims(roles) > 1 OR array_position(roles, NULL) IS NOT NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'roles: must be at most 32 role names');
    END IF;
    SELECT x.role INTO unknown_role
    FROM unnest(roles) WITH ORDINALITY AS x(role, position)
    WHERE NOT EXISTS (SELECT FROM corebank.auth_role_scopes r WHERE r.role = x.role)
    ORDER BY x.position
    LIMIT 1;
    IF FOUND THEN
        PERFORM corebank_internal.fail('CBV00', format('roles: unknown role %L', unknown_role));
    END IF;
    IF branch_code IS NOT NULL AND length(branch_code) NOT BETWEEN 1 AND 20 THEN
        PERFORM corebank_internal.fail('CBV00', 'branch_code: must be 1 to 20 characters');
    END IF;

    INSERT INTO corebank.auth_users AS u (email, phone, password_hash, first_name, last_name, roles, branch_code)
    VALUES (normalized_email, clean_phone, password_hash, first_name, last_name,
            ARRAY(SELECT DISTINCT x.role FROM unnest(roles) AS x(role) ORDER BY 1), branch_code)
    ON CONFLICT DO NOTHING
    RETURNING u.id INTO new_id;
    IF new_id IS NULL THEN
        IF EXISTS (SELECT FROM corebank.auth_users u WHERE u.email = normalized_email) THEN
            PERFORM corebank_internal.fail('CB409', 'An account with this email already exists; log in with that email');
        END IF;
        PERFORM corebank_internal.fail('CB409', 'An account with this phone number already exists; log in with that phone number');
    END IF;
    PERFORM corebank_internal.audit(new_id, 'register', jsonb_build_object('staff', true, 'roles', to_jsonb(roles)));
    RETURN new_id;
END
$fn$;

CREATE FUNCTION corebank.auth_mail_enqueue(recipient text, subject text, body_sealed bytea) RETURNS uuid
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    new_id uuid;
BEGIN
    IF recipient IS NULL OR length(recipient) NOT BETWEEN 3 AND 254 THEN
        PERFORM corebank_internal.fail('CBV00', 'recipient: must be 3 to 254 characters');
    END IF;
    IF subject IS NULL OR length(subject) NOT BETWEEN 1 AND 200 THEN
        PERFORM corebank_internal.fail('CBV00', 'subject: must be 1 to 200 characters');
    END IF;
    IF body_sealed IS NULL OR length(body_sealed) NOT BETWEEN 1 AND 1048576 THEN
        PERFORM corebank_internal.fail('CBV00', 'body_sealed: must be 1 byte to 1 MiB');
    END IF;
    INSERT INTO corebank.auth_mail_outbox AS o (recipient, subject, body_sealed)
    VALUES (recipient, subject, body_sealed)
    RETURNING o.id INTO new_id;
    RETURN new_id;
END
$fn$;

-- Claims due mail for one sender. SKIP LOCKED lets several senders share the
-- work; the claim counts the attempt and pushes next_attempt_at by the
-- backoff, so rows claimed by a sender that died come back by themselves.
CREATE FUNCTION corebank.auth_mail_claim(max_rows int)
    RETURNS TABLE (id uuid, recipient text, subject text, body_sealed bytea, attempts int)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_column
DECLARE
    batch_rows int := least(auth_mail_claim.max_rows, 100);
BEGIN
    IF batch_rows IS NULL OR batch_rows < 1 THEN
        PERFORM corebank_internal.fail('CBV00', 'max_rows: must be at least 1');
    END IF;
    RETURN QUERY
    WITH due AS (
        SELECT o.id
        FROM corebank.auth_mail_outbox o
        WHERE o.status = 'PENDING' AND o.next_attempt_at <= now()
        ORDER BY o.next_attempt_at
        LIMIT batch_rows
        FOR UPDATE SKIP LOCKED
    )
    UPDATE corebank.auth_mail_outbox o
    SET attempts = o.attempts + 1,
        next_attempt_at = now() + corebank_internal.mail_backoff(o.attempts + 1)
    FROM due
    WHERE o.id = due.id
    RETURNING o.id, o.recipient, o.subject, o.body_sealed, o.attempts;
END
$fn$;

-- Records a delivery: SENT (the sealed body is dropped), or after a failure
-- back to PENDING with backoff, FAILED once 8 attempts are spent.
CREATE FUNCTION corebank.auth_mail_done(id uuid, ok bool, error text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    attempts_max CONSTANT int := 8;
BEGIN
    IF id IS NULL OR ok IS NULL THEN
        PERFORM corebank_internal.fail('CBV00', 'id, ok: are required');
    END IF;
    IF ok THEN
        UPDATE corebank.auth_mail_outbox o
        SET status = 'SENT', sent_at = now(), body_sealed = NULL, last_error = NULL
        WHERE o.id = id AND o.status = 'PENDING';
    ELSE
        UPDATE corebank.auth_mail_outbox o
        SET status = CASE WHEN o.attempts >= attempts_max THEN 'FAILED' ELSE 'PENDING' END,
            body_sealed = CASE WHEN o.attempts >= attempts_max THEN NULL ELSE o.body_sealed END,
            last_error = left(coalesce(error, 'unknown error'), 1000),
            next_attempt_at = now() + corebank_internal.mail_backoff(o.attempts)
        WHERE o.id = id AND o.status = 'PENDING';
    END IF;
    IF NOT FOUND AND NOT EXISTS (SELECT FROM corebank.auth_mail_outbox o WHERE o.id = id) THEN
        PERFORM corebank_internal.fail('CB404', 'Mail not found');
    END IF;
END
$fn$;

-- Upserts auth_role_scopes from {"roles": {"<role>": {"scopes": [..],
-- "staff": bool, "description": ".."}, ...}} (policies/roles.json).
CREATE FUNCTION corebank.policy_load(policy jsonb) RETURNS int
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    roles_max CONSTANT int := 100;
    entry record;
    loaded int := 0;
BEGIN
    IF policy IS NULL OR jsonb_typeof(policy -> 'roles') IS DISTINCT FROM 'object' THEN
        PERFORM corebank_internal.fail('CBV00', 'policy: must have a "roles" object');
    END IF;
    IF (SELECT count(*) FROM jsonb_object_keys(policy -> 'roles')) > roles_max THEN
        PERFORM corebank_internal.fail('CBV00', format('policy: at most %s roles', roles_max));
    END IF;
    FOR entry IN SELECT e.key AS role, e.value AS definition FROM jsonb_each(policy -> 'roles') AS e LOOP
        IF entry.role !~ '^[a-z][a-z0-9_]{0,62}$' THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: invalid role name %L', entry.role));
        END IF;
        IF jsonb_typeof(entry.definition -> 'scopes') IS DISTINCT FROM 'array'
           OR EXISTS (SELECT FROM jsonb_array_elements(entry.definition -> 'scopes') AS x(scope)
                      WHERE jsonb_typeof(x.scope) <> 'string' OR length(x.scope #>> '{}') NOT BETWEEN 1 AND 100) THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: role %L: scopes must be an array of strings', entry.role));
        END IF;
        IF jsonb_typeof(entry.definition -> 'staff') IS DISTINCT FROM 'boolean' THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: role %L: staff must be true or false', entry.role));
        END IF;
        IF jsonb_typeof(entry.definition -> 'description') NOT IN ('string', 'null') THEN
            PERFORM corebank_internal.fail('CBV00', format('policy: role %L: description must be a string', entry.role));
        END IF;
        INSERT INTO corebank.auth_role_scopes AS r (role, scopes, staff, description)
        VALUES (entry.role,
                ARRAY(SELECT DISTINCT x.scope FROM jsonb_array_elements_text(entry.definition -> 'scopes') AS x(scope) ORDER BY 1),
                (entry.definition ->> 'staff')::bool,
                entry.definition ->> 'description')
        ON CONFLICT (role) DO UPDATE
        SET scopes = excluded.scopes, staff = excluded.staff, description = excluded.description;
        loaded := loaded + 1;
    END LOOP;
    RETURN loaded;
END
$fn$;

-- privileges
--
-- Nobody but the owner touches a table. corebank_app may use the schema and
-- execute exactly the API functions; corebank_internal has no grant at all.

REVOKE ALL ON ALL TABLES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL SEQUENCES IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA corebank_internal FROM PUBLIC;
REVOKE ALL ON SCHEMA corebank_internal FROM PUBLIC;

GRANT USAGE ON SCHEMA corebank TO corebank_app;
GRANT EXECUTE ON FUNCTION
    corebank.auth_register(text, text, text, text, text, text, text, text, text, bytea),
    corebank.auth_login_begin(text, text, text),
    corebank.auth_login_finish(uuid, bool, text, text, text, text, bytea),
    corebank.auth_refresh(bytea, bytea, text, text),
    corebank.auth_authenticate(uuid),
    corebank.auth_user_password_hash(uuid),
    corebank.auth_password_change(uuid, text),
    corebank.auth_password_forgot(text, text, text, bytea),
    corebank.auth_mail_enqueue(text, text, bytea),
    corebank.auth_mail_claim(int),
    corebank.auth_mail_done(uuid, bool, text),
    corebank.auth_password_reset_begin(bytea),
    corebank.auth_password_reset_finish(bytea, text),
    corebank.auth_deactivate(uuid),
    corebank.auth_logout(uuid, uuid),
    corebank.auth_logout_all(uuid),
    corebank.auth_me(uuid),
    corebank.auth_sessions_list(uuid),
    corebank.auth_client_lookup(text),
    corebank.auth_client_token(text, text[]),
    corebank.auth_introspect(uuid),
    corebank.auth_client_create(text, text, text[], text, text, text),
    corebank.auth_staff_create(text, text, text, text, text, text[], text),
    corebank.auth_jwks(),
    corebank.auth_ensure_signing_key(),
    corebank.auth_rotate_signing_key(),
    corebank.auth_maintenance(),
    corebank.policy_load(jsonb)
TO corebank_app;
