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
