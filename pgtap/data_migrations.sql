-- data_migrations.sql: corebank_internal.data_migration_record, corebank.data_migrations
-- and corebank.banks (issue 11, part 5; docs/migrations.md).
--
-- Goal: the database, not the runner, decides that a migration applies once,
-- in version order, and that an applied file never changes: a second record of
-- the same file answers false, a changed checksum or a renamed file is refused
-- with CB409 naming the file, and the record table is append-only. The rows of
-- both institution tables survive pg_dump, only a superuser records a
-- migration, and the tier reads the banks through one function. Versions 9001
-- and up keep clear of the real migrations/, which may be applied or not.
BEGIN;
SELECT plan(27);

CREATE TEMP TABLE sums AS
    SELECT repeat('a', 64) AS first, repeat('b', 64) AS second;

-- once
SELECT is(corebank_internal.data_migration_record(9001, '9001_test_data.sql', (SELECT first FROM sums)), true,
          'a new migration is recorded: the runner must apply it now');
SELECT is((SELECT sha256 || ' ' || (applied_by = session_user)::text FROM corebank.data_migrations WHERE version = 9001),
          repeat('a', 64) || ' true', 'the record keeps the checksum and who applied it');
SELECT is(corebank_internal.data_migration_record(9001, '9001_test_data.sql', (SELECT first FROM sums)), false,
          'the same file again is not applied again');
SELECT is((SELECT count(*) FROM corebank.data_migrations WHERE version = 9001), 1::bigint,
          'a migration has one record however often the runner runs');

-- an applied file never changes
SELECT throws_ok($$SELECT corebank_internal.data_migration_record(9001, '9001_test_data.sql', repeat('b', 64))$$,
                 'CB409', NULL, 'a changed checksum is refused with CB409');
SELECT throws_like($$SELECT corebank_internal.data_migration_record(9001, '9001_test_data.sql', repeat('b', 64))$$,
                   'migration 9001_test_data.sql has changed since it was applied on % (checksum then '
                   || repeat('a', 64) || ', now ' || repeat('b', 64)
                   || '): an applied migration is never edited; put the change in a new migration',
                   'the refusal names the file and both checksums');
SELECT throws_ok($$SELECT corebank_internal.data_migration_record(9001, '9001_other_name.sql', repeat('a', 64))$$,
                 'CB409', NULL, 'a renamed applied file is refused with CB409');
SELECT throws_like($$SELECT corebank_internal.data_migration_record(9001, '9001_other_name.sql', repeat('a', 64))$$,
                   'migration 9001_other_name.sql was applied as 9001_test_data.sql on %: an applied migration is never renamed',
                   'the refusal names both file names');

-- in order
SELECT throws_ok($$SELECT corebank_internal.data_migration_record(9000, '9000_late.sql', repeat('c', 64))$$, 'CB409',
                 'migration 9000_late.sql is older than 9001_test_data.sql, which is applied already: '
                 'a new migration takes a version above 9001',
                 'a new migration below the latest applied one is refused');
SELECT is(corebank_internal.data_migration_record(9002, '9002_next.sql', (SELECT second FROM sums)), true,
          'the next version is recorded');

-- what a record is
SELECT throws_ok($$SELECT corebank_internal.data_migration_record(9003, '9003_Bad Name.sql', repeat('a', 64))$$, 'CBV00',
                 'migration file name ''9003_Bad Name.sql'' must be NNNN_name.sql (lower case), NNNN being its version 9003',
                 'a file name outside NNNN_name.sql is refused');
SELECT throws_ok($$SELECT corebank_internal.data_migration_record(9004, '9003_mismatch.sql', repeat('a', 64))$$, 'CBV00',
                 'migration file name ''9003_mismatch.sql'' must be NNNN_name.sql (lower case), NNNN being its version 9004',
                 'the version is the file name''s prefix');
SELECT throws_ok($$SELECT corebank_internal.data_migration_record(9003, '9003_short_sum.sql', 'abc')$$, 'CBV00',
                 'migration 9003_short_sum.sql: the checksum must be 64 lower-case hex digits',
                 'a checksum is a SHA-256 in hex');
SELECT throws_ok($$SELECT corebank_internal.data_migration_record(0, '0000_zero.sql', repeat('a', 64))$$, 'CBV00',
                 'migration version must be between 1 and 9999', 'versions start at 1');

-- append-only
SELECT throws_ok($$UPDATE corebank.data_migrations SET sha256 = repeat('b', 64) WHERE version = 9001$$, '42501',
                 'corebank.data_migrations is append-only', 'a record cannot be changed');
SELECT throws_ok($$DELETE FROM corebank.data_migrations WHERE version = 9001$$, '42501',
                 'corebank.data_migrations is append-only', 'a record cannot be deleted');
SELECT throws_ok($$TRUNCATE corebank.data_migrations$$, '42501',
                 'corebank.data_migrations is append-only', 'the records cannot be truncated');
SELECT is((SELECT count(*) FROM corebank.data_migrations WHERE version >= 9000), 2::bigint,
          'only the two accepted records exist');

-- who may record; what pg_dump keeps
SELECT is(has_function_privilege('corebank_app', 'corebank_internal.data_migration_record(int,text,text)', 'EXECUTE'), false,
          'the tier''s role cannot record a migration');
SELECT is(has_function_privilege('corebank_app', 'corebank.core_platform_banks()', 'EXECUTE'), true,
          'the tier''s role reads the banks through corebank.core_platform_banks()');
SELECT is(has_table_privilege('corebank_app', 'corebank.banks', 'SELECT'), false,
          'the tier''s role cannot read the banks table itself');
SELECT set_eq($$SELECT c::regclass::text FROM pg_extension e, unnest(e.extconfig) AS c
                WHERE e.extname = 'corebank' AND c::regclass::text IN ('corebank.data_migrations', 'corebank.banks')$$,
              ARRAY['corebank.data_migrations', 'corebank.banks'],
              'pg_dump keeps the rows of both institution tables (pg_extension_config_dump)');

-- the banks
DELETE FROM corebank.banks;
SELECT is(corebank.core_platform_banks(), '[]'::jsonb, 'no banks before the banks migration: an empty list');
INSERT INTO corebank.banks (code, name, swift_bic) VALUES
    ('ZB', 'ZB Bank', 'ZBCOZWHA'), ('NMB', 'NMB Bank', 'NMBLZWHA'), ('NEDBANK', 'Nedbank Zimbabwe', 'MBCAZWHX');
SELECT is(corebank.core_platform_banks(),
          '[{"code": "NEDBANK", "name": "Nedbank Zimbabwe", "swiftBic": "MBCAZWHX"},
            {"code": "NMB", "name": "NMB Bank", "swiftBic": "NMBLZWHA"},
            {"code": "ZB", "name": "ZB Bank", "swiftBic": "ZBCOZWHA"}]'::jsonb,
          'banks are listed by name, case-insensitively, with code, name and swiftBic');
SELECT throws_ok($$INSERT INTO corebank.banks (code, name, swift_bic) VALUES ('BAD', 'Bad Bank', 'BAD')$$, '23514',
                 NULL, 'a SWIFT/BIC has 8 or 11 characters of the ISO 9362 form');
SELECT throws_ok($$INSERT INTO corebank.banks (code, name, swift_bic) VALUES ('NMB2', 'Other', 'NMBLZWHA')$$, '23505',
                 NULL, 'a BIC belongs to one bank');
SELECT throws_ok($$INSERT INTO corebank.banks (code, name, swift_bic) VALUES ('X', ' padded', 'XXXXZWHA')$$, '23514',
                 NULL, 'a bank''s name has no surrounding blanks');

SELECT * FROM finish();
ROLLBACK;
