/* sql/corebank--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION corebank UPDATE TO '1.6'" to load this file. \quit

-- corebank 1.6: one place for every rule (issue 11).
--   Each section below belongs to one part of the issue; the sections are
--   independent of each other.

-- == section: limits and the money domain (issue 11, part 2) ==

-- == section: one append-only trigger (issue 11, part 3) ==
--
-- Every append-only table refuses UPDATE, DELETE and TRUNCATE through one C++
-- trigger function, corebank_internal.refuse_change()
-- (extension/entry/append_only_trigger.cpp), with one SQLSTATE and one
-- message form:
--   ERROR:  corebank.<table> is append-only      (SQLSTATE 42501)
--   DETAIL: <UPDATE|DELETE|TRUNCATE> refused
-- Before 1.6 five functions did it (refuse_audit_change, events_immutable,
-- verify_refuse_event_change, journal_immutable, deposits_append_only), with
-- five wordings and two SQLSTATEs: 42501 and CB422. 42501
-- (insufficient_privilege) is the one kept: rewriting history is a privilege
-- nobody holds, the owner and superusers included, and it is the code a role
-- without UPDATE or DELETE on the table gets too. It is not of the class
-- "CB" on purpose: those carry a client's mistake to HTTP verbatim, while no
-- API function updates or deletes these rows, so if this error ever reached
-- the tier it would be a server fault (the tier answers 500 and logs it).
--
-- Trigger arguments name the columns an UPDATE may still change: events keep
-- the one exception they had, a customer merge moving customer_id (the
-- detail then reads "UPDATE refused; only customer_id may change").
-- docs/ledger.md lists the tables; pgtap/append_only.sql tries every one and
-- fails when an append-only table lacks the trigger.
CREATE FUNCTION corebank_internal.refuse_change() RETURNS trigger
    AS 'MODULE_PATHNAME', 'refuse_change' LANGUAGE C
    SET search_path = pg_catalog, pg_temp;
REVOKE ALL ON FUNCTION corebank_internal.refuse_change() FROM PUBLIC;

-- The row triggers keep their names (CREATE OR REPLACE re-points them); the
-- statement triggers refuse TRUNCATE. transaction_lines_proposed gains the
-- TRUNCATE refusal it lacked.
CREATE OR REPLACE TRIGGER auth_audit_append_only
    BEFORE UPDATE OR DELETE ON corebank.auth_audit
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER auth_audit_no_truncate
    BEFORE TRUNCATE ON corebank.auth_audit
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER journal_entries_immutable
    BEFORE UPDATE OR DELETE ON corebank.journal_entries
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER journal_entries_no_truncate
    BEFORE TRUNCATE ON corebank.journal_entries
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER transaction_lines_proposed_immutable
    BEFORE UPDATE OR DELETE ON corebank.transaction_lines_proposed
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE TRIGGER transaction_lines_proposed_no_truncate
    BEFORE TRUNCATE ON corebank.transaction_lines_proposed
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER events_immutable
    BEFORE UPDATE OR DELETE ON corebank.events
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change('customer_id');
CREATE OR REPLACE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON corebank.events
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER verify_session_events_append_only
    BEFORE UPDATE OR DELETE ON corebank.verify_session_events
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER verify_session_events_no_truncate
    BEFORE TRUNCATE ON corebank.verify_session_events
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

CREATE OR REPLACE TRIGGER customer_interactions_append_only
    BEFORE UPDATE OR DELETE ON corebank.customer_interactions
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER customer_interactions_no_truncate
    BEFORE TRUNCATE ON corebank.customer_interactions
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_checks_append_only
    BEFORE UPDATE OR DELETE ON corebank.kyc_checks
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_checks_no_truncate
    BEFORE TRUNCATE ON corebank.kyc_checks
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_reviews_append_only
    BEFORE UPDATE OR DELETE ON corebank.kyc_reviews
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER kyc_reviews_no_truncate
    BEFORE TRUNCATE ON corebank.kyc_reviews
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER account_status_history_append_only
    BEFORE UPDATE OR DELETE ON corebank.account_status_history
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER account_status_history_no_truncate
    BEFORE TRUNCATE ON corebank.account_status_history
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER exchange_rates_append_only
    BEFORE UPDATE OR DELETE ON corebank.exchange_rates
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER exchange_rates_no_truncate
    BEFORE TRUNCATE ON corebank.exchange_rates
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accruals_append_only
    BEFORE UPDATE OR DELETE ON corebank.interest_accruals
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accruals_no_truncate
    BEFORE TRUNCATE ON corebank.interest_accruals
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accrual_journals_append_only
    BEFORE UPDATE OR DELETE ON corebank.interest_accrual_journals
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER interest_accrual_journals_no_truncate
    BEFORE TRUNCATE ON corebank.interest_accrual_journals
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

-- Tables with rules of their own (customers, CIF cases, deposit accounts)
-- have their rows kept by their guards; their TRUNCATE was refused by
-- deposits_append_only and now is by refuse_change.
CREATE OR REPLACE TRIGGER customers_no_truncate
    BEFORE TRUNCATE ON corebank.customers
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER customer_cases_no_truncate
    BEFORE TRUNCATE ON corebank.customer_cases
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE OR REPLACE TRIGGER deposit_accounts_no_truncate
    BEFORE TRUNCATE ON corebank.deposit_accounts
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

-- The five functions refuse_change replaced. journal_immutable and
-- deposits_append_only name C symbols that stay in corebank.so as aliases
-- of refuse_change: CREATE EXTENSION runs 1.1 and 1.4, which create them,
-- before this script drops them.
DROP FUNCTION corebank_internal.refuse_audit_change();
DROP FUNCTION corebank_internal.events_immutable();
DROP FUNCTION corebank_internal.verify_refuse_event_change();
DROP FUNCTION corebank_internal.journal_immutable();
DROP FUNCTION corebank_internal.deposits_append_only();

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
REVOKE ALL ON FUNCTION corebank_internal.auth_token_is_live(timestamptz, uuid, timestamptz, timestamptz, text, text)
    FROM PUBLIC;

-- The bearer check on every call: live session and ACTIVE user (or ACTIVE
-- client for client tokens), unexpired token. One primary-key lookup and
-- two primary-key joins.
CREATE OR REPLACE FUNCTION corebank.auth_authenticate(jti uuid) RETURNS jsonb
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
          AND corebank_internal.auth_token_is_live(t.expires_at, t.session_id, s.revoked_at, s.expires_at,
                                                   u.status, c.status)
    ), '{"active": false}'::jsonb);
END
$fn$;

-- RFC 7662 facts the database holds for a token whose signature the tier
-- verified. iss and scope are in the verified token; the tier adds them.
CREATE OR REPLACE FUNCTION corebank.auth_introspect(jti uuid) RETURNS jsonb
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
          AND corebank_internal.auth_token_is_live(t.expires_at, t.session_id, s.revoked_at, s.expires_at,
                                                   u.status, c.status)
    ), '{"active": false}'::jsonb);
END
$fn$;

-- == section: institution data migrations and reference tables (issue 11, part 5) ==
--
-- The institution's data, as opposed to the extension's code: the files of
-- migrations/ at the top of the repository, applied in version order by
-- `./corebank migrate` (docs/migrations.md). The runner applies each file in
-- one transaction with corebank_internal.data_migration_record, which
-- decides here, not in the runner, that a file applies once and that an
-- applied file never changes. corebank.banks is the first reference table
-- that only a migration fills; the extension creates it empty.

CREATE TABLE corebank.data_migrations (
    version    int PRIMARY KEY,
    name       text NOT NULL UNIQUE,
    sha256     text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    applied_by text NOT NULL DEFAULT session_user,
    CONSTRAINT data_migrations_version CHECK (version BETWEEN 1 AND 9999),
    CONSTRAINT data_migrations_name
        CHECK (name ~ '^[0-9]{4}_[a-z0-9_]{1,60}\.sql$' AND left(name, 4) = lpad(version::text, 4, '0')),
    CONSTRAINT data_migrations_sha256 CHECK (sha256 ~ '^[0-9a-f]{64}$')
);
COMMENT ON TABLE corebank.data_migrations IS
    'Institution data migrations applied (migrations/NNNN_name.sql), with the SHA-256 of each file; append-only';
CREATE TRIGGER data_migrations_append_only
    BEFORE UPDATE OR DELETE ON corebank.data_migrations
    FOR EACH ROW EXECUTE FUNCTION corebank_internal.refuse_change();
CREATE TRIGGER data_migrations_no_truncate
    BEFORE TRUNCATE ON corebank.data_migrations
    FOR EACH STATEMENT EXECUTE FUNCTION corebank_internal.refuse_change();

-- The commercial banks of the home market with their SWIFT/BIC, served by
-- GET /v1/platform/banks. Filled by migrations/0003_banks.sql.
CREATE TABLE corebank.banks (
    code      text PRIMARY KEY,
    name      text NOT NULL,
    swift_bic text NOT NULL UNIQUE,
    CONSTRAINT banks_code CHECK (code ~ '^[A-Z][A-Z0-9_-]{0,19}$'),
    CONSTRAINT banks_name CHECK (length(name) BETWEEN 1 AND 200 AND name = btrim(name)),
    CONSTRAINT banks_swift_bic CHECK (swift_bic ~ '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$')
);
COMMENT ON TABLE corebank.banks IS 'Banks of the home market (GET /v1/platform/banks); institution data, see migrations/';

-- pg_dump keeps the rows of both: they are the institution's, not the
-- extension's.
SELECT pg_catalog.pg_extension_config_dump('corebank.data_migrations', '');
SELECT pg_catalog.pg_extension_config_dump('corebank.banks', '');

-- corebank_internal.data_migration_record(version int, name text, sha256 text) returns bool
--
-- Records, in the caller's transaction, that migration file NAME (whose
-- SHA-256 is SHA256) is applied now: true when the caller must apply it,
-- false when it was applied before with the same checksum. Refuses (CB409) a
-- file that changed after it was applied, a renamed one, and a new version
-- below the latest applied one (migrations apply in order, never in between).
-- The table lock serialises recorders, so two runners cannot both find a
-- version new; the row commits or rolls back with the migration's data.
-- Internal, not API: only a superuser (the runner) executes it; applied_by
-- is the session's login.
CREATE FUNCTION corebank_internal.data_migration_record(version int, name text, sha256 text) RETURNS bool
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $fn$
#variable_conflict use_variable
DECLARE
    applied corebank.data_migrations;
    latest corebank.data_migrations;
BEGIN
    IF version IS NULL OR version NOT BETWEEN 1 AND 9999 THEN
        PERFORM corebank_internal.fail('CBV00', 'migration version must be between 1 and 9999');
    END IF;
    IF name IS NULL OR name !~ '^[0-9]{4}_[a-z0-9_]{1,60}\.sql$' OR left(name, 4) <> lpad(version::text, 4, '0') THEN
        PERFORM corebank_internal.fail('CBV00',
            format('migration file name %L must be NNNN_name.sql (lower case), NNNN being its version %s', name, version));
    END IF;
    IF sha256 IS NULL OR sha256 !~ '^[0-9a-f]{64}$' THEN
        PERFORM corebank_internal.fail('CBV00', format('migration %s: the checksum must be 64 lower-case hex digits', name));
    END IF;
    LOCK TABLE corebank.data_migrations IN SHARE ROW EXCLUSIVE MODE;
    SELECT * INTO applied FROM corebank.data_migrations m WHERE m.version = version;
    IF FOUND THEN
        IF applied.name <> name THEN
            PERFORM corebank_internal.fail('CB409',
                format('migration %s was applied as %s on %s: an applied migration is never renamed',
                       name, applied.name, applied.applied_at));
        END IF;
        IF applied.sha256 <> sha256 THEN
            PERFORM corebank_internal.fail('CB409',
                format('migration %s has changed since it was applied on %s (checksum then %s, now %s): '
                       'an applied migration is never edited; put the change in a new migration',
                       name, applied.applied_at, applied.sha256, sha256));
        END IF;
        RETURN false;
    END IF;
    SELECT * INTO latest FROM corebank.data_migrations m ORDER BY m.version DESC LIMIT 1;
    IF FOUND AND latest.version > version THEN
        PERFORM corebank_internal.fail('CB409',
            format('migration %s is older than %s, which is applied already: a new migration takes a version above %s',
                   name, latest.name, latest.version));
    END IF;
    INSERT INTO corebank.data_migrations (version, name, sha256) VALUES (version, name, sha256);
    RETURN true;
END
$fn$;

-- corebank.core_platform_banks() returns jsonb
--
-- The body of GET /v1/platform/banks: [{"code", "name", "swiftBic"}, ...]
-- ordered by name, case-insensitively; [] before migrations/0003_banks.sql.
CREATE FUNCTION corebank.core_platform_banks() RETURNS jsonb
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp
    AS $fn$
    SELECT coalesce(jsonb_agg(jsonb_build_object('code', b.code, 'name', b.name, 'swiftBic', b.swift_bic)
                              ORDER BY lower(b.name) COLLATE "C", b.code), '[]'::jsonb)
    FROM corebank.banks b
$fn$;

-- Only the superuser who runs migrations records them; the tier reads the
-- banks through the function, and the read-only roles may read the table.
REVOKE ALL ON TABLE corebank.data_migrations, corebank.banks FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank_internal.data_migration_record(int, text, text) FROM PUBLIC;
REVOKE ALL ON FUNCTION corebank.core_platform_banks() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION corebank.core_platform_banks() TO corebank_app;
GRANT SELECT ON TABLE corebank.banks, corebank.data_migrations TO corebank_auditor, corebank_reporting;

-- == section: surfaces that tell the truth (issue 11, part 6) ==
