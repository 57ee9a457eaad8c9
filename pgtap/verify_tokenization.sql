-- verify_tokenization.sql: no subject data in plaintext at rest.
--
-- Goal: the database can hold a subject only sealed (AES-256-GCM by the tier,
-- bytea) plus an HMAC lookup token; there is no column a name or an ID
-- number could go into as text; plaintext handed in by mistake is refused;
-- after a whole session (create, consent, captures, decision, webhook,
-- report) the subject's name and ID number appear in no row of any
-- verify_* table, as text or as hex; the lookup token finds the session.
-- Method: the tier's inputs are stood in for (helpers/verify.sql): the
-- "sealed" subject is opaque bytes derived from, but not containing, the
-- plaintext; then every row of every verify_* table is searched.
BEGIN;
SELECT plan(13);
\ir helpers/verify.sql

-- The shape: sealed bytes and a 32-byte token, nothing else.
SELECT col_type_is('corebank', 'verify_sessions', 'subject_sealed', 'bytea', 'the subject is stored as sealed bytes');
SELECT col_type_is('corebank', 'verify_sessions', 'subject_lookup', 'bytea', 'the lookup token is bytes');
SELECT is((SELECT count(*) FROM information_schema.columns
           WHERE table_schema = 'corebank' AND table_name LIKE 'verify\_%'
             AND column_name ~ '(name|id_number|idnumber|national|birth|passport|subject)'
             AND column_name NOT IN ('subject_sealed', 'subject_lookup')),
          0::bigint, 'no verify_* column is meant for a name, an ID number or a birth date');
SELECT is((SELECT count(*) FROM information_schema.columns
           WHERE table_schema = 'corebank' AND table_name = 'verify_captures' AND column_name = 'image_sealed'
             AND data_type = 'bytea'), 1::bigint, 'captured images are stored sealed too');

-- Plaintext is refused.
SELECT throws_ok($$SELECT corebank.verify_session_create(pg_temp.vkey(), 'tok-plain', pg_temp.h('p'), gen_random_uuid(),
                   'liveness', NULL, convert_to('{"name":"Ada Lovelace","idNumber":"63-123456A42"}', 'UTF8'), NULL,
                   NULL, NULL, pg_temp.h('tok-plain'), pg_temp.sealed('x'), 3600, 900)$$,
                 'CBV00', 'subject_sealed: must be sealed, not plaintext JSON', 'a plaintext JSON subject is refused');
SELECT throws_ok($$SELECT corebank.verify_session_create(pg_temp.vkey(), 'tok-short', pg_temp.h('p'), gen_random_uuid(),
                   'liveness', NULL, convert_to('Ada', 'UTF8'), NULL, NULL, NULL, pg_temp.h('tok-short'),
                   pg_temp.sealed('x'), 3600, 900)$$,
                 'CBV00', 'subject_sealed: must be AES-256-GCM sealed data of 29 to 4096 bytes',
                 'bytes too short to be sealed are refused');
SELECT throws_ok($$INSERT INTO corebank.verify_sessions (id, api_key_id, flow, subject_sealed, client_token_hash,
                       client_token_expires_at, consent_required, expires_at)
                   VALUES (gen_random_uuid(), pg_temp.vkey(), 'liveness', '\x00', pg_temp.h('t'),
                           now() + interval '1 minute', true, now() + interval '1 hour')$$,
                 '23514', NULL, 'even a direct INSERT cannot store unsealed subject bytes');
SELECT throws_ok($$SELECT corebank.verify_session_create(pg_temp.vkey(), 'tok-lookup', pg_temp.h('p'), gen_random_uuid(),
                   'liveness', NULL, NULL, convert_to('63-123456A42', 'UTF8'), NULL, NULL, pg_temp.h('tok-lookup'),
                   pg_temp.sealed('x'), 3600, 900)$$,
                 'CBV00', 'subject_lookup: must be 32 bytes, and only with a sealed subject',
                 'a lookup token must be a 32-byte HMAC, not the ID number');

-- A whole session with a subject.
CREATE TEMP TABLE subject AS
    SELECT 'Ada Lovelace' AS name, '63-123456A42' AS id_number,
           -- what the tier sends: nonce || ciphertext || tag, and HMAC(lookup key, ID) (stood in for here)
           '\x02'::bytea || sha256(convert_to('nonce', 'UTF8')) || sha256(convert_to('ciphertext', 'UTF8')) AS sealed,
           sha256(convert_to('lookup-key:63123456A42', 'UTF8')) AS lookup;
CREATE TEMP TABLE created AS
    SELECT corebank.verify_session_create(pg_temp.vkey(), 'tok-subject', pg_temp.h('subject-request'), gen_random_uuid(),
               'liveness+facematch+document', 'customer-7', (SELECT sealed FROM subject), (SELECT lookup FROM subject),
               'https://example.com/back', '{"channel": "app"}', pg_temp.h('tok-subject'), pg_temp.sealed('tok-subject'),
               3600, 900) AS r;
CREATE TEMP TABLE sid AS SELECT ((SELECT r FROM created) -> 'body' ->> 'sessionId')::uuid AS id;
SELECT corebank.verify_webhook_endpoint_add('https://hooks.example.com/verify', pg_temp.sealed('secret'));
SELECT pg_temp.vcomplete((SELECT id FROM sid), 'tok-subject', ARRAY['pass', 'pass', 'pass']);
SELECT corebank.verify_session_report((SELECT id FROM sid));

SELECT is((SELECT subject_sealed FROM corebank.verify_sessions WHERE id = (SELECT id FROM sid)),
          (SELECT sealed FROM subject), 'the sealed subject is stored as the tier sealed it');

-- Counts rows of the verify_* tables whose text form contains `needle`, as
-- text or as hex (bytea columns appear as hex in a row's text form).
CREATE FUNCTION pg_temp.occurrences(needle text) RETURNS bigint
    LANGUAGE plpgsql
    AS $f$
DECLARE
    table_name regclass;
    found bigint;
    total bigint := 0;
BEGIN
    FOR table_name IN SELECT c.oid FROM pg_class c
                      WHERE c.relnamespace = 'corebank'::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'verify\_%' LOOP
        EXECUTE format('SELECT count(*) FROM %s t WHERE strpos(lower(t::text), lower($1)) > 0 OR strpos(t::text, $2) > 0',
                       table_name)
            INTO found USING needle, encode(convert_to(needle, 'UTF8'), 'hex');
        total := total + found;
    END LOOP;
    RETURN total;
END
$f$;

SELECT is(pg_temp.occurrences('Ada Lovelace'), 0::bigint, 'the name is in no verify_* row');
SELECT is(pg_temp.occurrences('Lovelace'), 0::bigint, 'not even the surname');
SELECT is(pg_temp.occurrences('63-123456A42') + pg_temp.occurrences('63123456A42'), 0::bigint,
          'the ID number is in no verify_* row, formatted or normalised');
SELECT is((corebank.verify_sessions_find(NULL, (SELECT lookup FROM subject), NULL, NULL, 10) -> 'data' -> 0 ->> 'sessionId')::uuid,
          (SELECT id FROM sid), 'the lookup token finds the session without the ID number');

SELECT * FROM finish();
ROLLBACK;
