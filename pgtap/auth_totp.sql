-- auth_totp.sql: the staff second factor (docs/identity.md, "Staff second
-- factor"): TOTP enrolment and confirmation, the window of one step either
-- side, a code accepted once (RFC 6238 section 5.2), recovery codes stored as
-- hashes and replaced as a set, the secret stored only sealed, wrong codes
-- counted toward the lockout, staff enrolment by role, and amr in tokens.
--
-- Codes are computed with corebank_internal.auth_totp_code from the secret
-- the enrolment answered, at the steps of this transaction's now(), which
-- is the time the functions read too.
BEGIN;
SELECT plan(60);
\ir helpers/identity.sql

-- base32 (RFC 4648, no padding) to bytes, to look for the raw secret.
CREATE FUNCTION pg_temp.base32_bytes(t text) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE
    AS $f$
DECLARE
    bits text := '';
    out bytea := '';
BEGIN
    FOR i IN 1 .. length(t) LOOP
        bits := bits || (position(substr(t, i, 1) IN 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567') - 1)::bit(5)::text;
    END LOOP;
    FOR i IN 0 .. length(bits) / 8 - 1 LOOP
        out := out || set_byte('\x00'::bytea, 0, substring(bits FROM i * 8 + 1 FOR 8)::bit(8)::int);
    END LOOP;
    RETURN out;
END
$f$;
CREATE FUNCTION pg_temp.step(d int DEFAULT 0) RETURNS int
    LANGUAGE sql STABLE
    AS $f$ SELECT (floor(extract(epoch FROM now()) / 30))::int + d $f$;
CREATE FUNCTION pg_temp.code(secret text, d int DEFAULT 0) RETURNS text
    LANGUAGE sql STABLE
    AS $f$ SELECT corebank_internal.auth_totp_code(secret, pg_temp.step(d)) $f$;

-- The arithmetic function agrees with RFC 6238 Appendix B (the ASCII key
-- "12345678901234567890", T = 59 s is step 1: 94287082, last 6 digits).
SELECT is(corebank_internal.auth_totp_code('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 1), '287082',
          'auth_totp_code computes the RFC 6238 vector');

SELECT pg_temp.register('mfa@example.com', NULL, 'mfa-0');
CREATE TEMP TABLE u AS SELECT id FROM corebank.auth_users WHERE email = 'mfa@example.com';

SELECT is(corebank.auth_mfa_state((SELECT id FROM u)),
          '{"totp": {"enabled": false, "enrolledAt": null}, "recoveryCodesLeft": 0}'::jsonb,
          'a new user has no second factor');

-- Enrolment: a secret of 20 bytes (32 base32 symbols), pending.
CREATE TEMP TABLE first_enrolment AS SELECT corebank.auth_mfa_totp_begin((SELECT id FROM u), 'corebank') AS e;
SELECT matches((SELECT e ->> 'secret' FROM first_enrolment), '^[A-Z2-7]{32}$', 'the secret is 32 base32 symbols');
SELECT is((SELECT e ->> 'otpauthUri' FROM first_enrolment),
          'otpauth://totp/corebank:mfa%40example.com?secret=' || (SELECT e ->> 'secret' FROM first_enrolment)
          || '&issuer=corebank&algorithm=SHA1&digits=6&period=30',
          'the otpauth URI names the issuer, the account, the secret and the parameters');
CREATE TEMP TABLE e AS SELECT corebank.auth_mfa_totp_begin((SELECT id FROM u), 'corebank') ->> 'secret' AS secret;
SELECT isnt((SELECT secret FROM e), (SELECT e ->> 'secret' FROM first_enrolment),
            'a second start before confirmation makes a new secret');
SELECT is((SELECT count(*) FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM u)), 1::bigint,
          '... which replaces the pending one');
SELECT is((SELECT enabled_at FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM u)), NULL,
          'the enrolment is pending until confirmed');
SELECT is((SELECT corebank.auth_mfa_state((SELECT id FROM u)) -> 'totp' ->> 'enabled'), 'false',
          'a pending enrolment is not enabled');

-- Sealed: the row holds neither the secret nor its base32 text.
SELECT is((SELECT count(*) FROM corebank.auth_mfa_totp t
           WHERE position(pg_temp.base32_bytes((SELECT secret FROM e)) IN t.secret_sealed) > 0
              OR t::text LIKE '%' || (SELECT secret FROM e) || '%'
              OR t::text LIKE '%' || encode(pg_temp.base32_bytes((SELECT secret FROM e)), 'hex') || '%'), 0::bigint,
          'no column holds the secret in plain text');
SELECT is((SELECT length(secret_sealed) FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM u)), 49,
          'the stored secret is a sealed value (version, nonce, 20 bytes, tag)');
SELECT throws_ok($$UPDATE corebank.auth_mfa_totp SET secret_sealed = '\x0112' WHERE true$$, '23514', NULL,
                 'a column that is not a sealed value is refused');

-- Confirmation: only a code within one step of now.
SELECT throws_ok(format('SELECT corebank.auth_mfa_totp_confirm(%L, %L)', (SELECT id FROM u),
                        pg_temp.code((SELECT secret FROM e), -2)),
                 'CBV00', 'code: does not match the authenticator; check its clock and enter the current code',
                 'a code two steps old does not confirm');
SELECT throws_ok(format('SELECT corebank.auth_mfa_totp_confirm(%L, %L)', (SELECT id FROM u),
                        pg_temp.code((SELECT secret FROM e), 2)),
                 'CBV00', NULL, 'a code two steps ahead does not confirm');
SELECT throws_ok(format('SELECT corebank.auth_mfa_totp_confirm(%L, %L)', (SELECT id FROM u), '12345'),
                 'CBV00', 'code: must be 6 digits', 'a malformed code is refused as such');
CREATE TEMP TABLE confirmed AS
    SELECT corebank.auth_mfa_totp_confirm((SELECT id FROM u), pg_temp.code((SELECT secret FROM e), -1)) AS c;
SELECT is(jsonb_array_length((SELECT c -> 'recoveryCodes' FROM confirmed)), 10,
          'a code of the previous step confirms and answers 10 recovery codes');
SELECT is((SELECT count(*) FROM confirmed, jsonb_array_elements_text(c -> 'recoveryCodes') AS r
           WHERE r ~ '^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$'), 10::bigint,
          'each recovery code is 10 unambiguous symbols shown in two groups of five');
SELECT isnt((SELECT enabled_at FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM u)), NULL,
            'confirmation enables the factor');
SELECT is((SELECT last_step FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM u)), pg_temp.step(-1)::bigint,
          'the confirming code''s step is used');
SELECT is(corebank.auth_mfa_state((SELECT id FROM u)) ->> 'recoveryCodesLeft', '10', 'the state counts 10 codes');
SELECT throws_ok(format('SELECT corebank.auth_mfa_totp_begin(%L, %L)', (SELECT id FROM u), 'corebank'),
                 'CB409', 'Two-factor authentication is already enabled; turn it off first to enrol again',
                 'an enabled factor is not enrolled again');

-- Recovery codes are stored as SHA-256 of the code, never the code.
SELECT is((SELECT count(*) FROM corebank.auth_mfa_recovery_codes r, confirmed c,
                                jsonb_array_elements_text(c.c -> 'recoveryCodes') AS code
           WHERE r.user_id = (SELECT id FROM u) AND r.code_hash = sha256(convert_to(replace(code, '-', ''), 'UTF8'))),
          10::bigint, 'the stored recovery codes are the SHA-256 of the codes');
SELECT is((SELECT count(*) FROM corebank.auth_mfa_recovery_codes r, confirmed c,
                                jsonb_array_elements_text(c.c -> 'recoveryCodes') AS code
           WHERE r::text LIKE '%' || replace(code, '-', '') || '%'), 0::bigint, 'no row holds a recovery code');

-- A code is accepted once: the used step, and any earlier one, is refused,
-- and each refusal is a failed login of the user.
SELECT is(corebank.auth_mfa_recovery_codes((SELECT id FROM u), pg_temp.code((SELECT secret FROM e), -1)),
          '{"outcome": "invalid"}'::jsonb, 'the code that confirmed is not accepted again');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 1,
          'the replayed code counts as a failed login');
CREATE TEMP TABLE second_set AS
    SELECT corebank.auth_mfa_recovery_codes((SELECT id FROM u), pg_temp.code((SELECT secret FROM e), 0)) AS c;
SELECT is((SELECT c ->> 'outcome' FROM second_set), 'ok', 'a code of the current step gets a new set');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM u)), 0,
          'a right code resets the counter');
SELECT is((SELECT count(*) FROM corebank.auth_mfa_recovery_codes r, confirmed c,
                                jsonb_array_elements_text(c.c -> 'recoveryCodes') AS code
           WHERE r.code_hash = sha256(convert_to(replace(code, '-', ''), 'UTF8'))), 0::bigint,
          'the new set replaces the old one');
SELECT is(corebank.auth_mfa_recovery_codes((SELECT id FROM u), (SELECT c -> 'recoveryCodes' ->> 0 FROM confirmed)),
          '{"outcome": "invalid"}'::jsonb, 'a code of the replaced set is refused');
SELECT is(corebank.auth_mfa_recovery_codes((SELECT id FROM u), pg_temp.code((SELECT secret FROM e), 0)),
          '{"outcome": "invalid"}'::jsonb, 'the current step, once used, is refused');

-- Turning it off: a recovery code of the new set works once.
SELECT is(corebank.auth_mfa_totp_disable((SELECT id FROM u), upper((SELECT c -> 'recoveryCodes' ->> 3 FROM second_set))),
          '{"outcome": "ok"}'::jsonb, 'an unused recovery code (typed in capitals) turns the factor off');
SELECT is((SELECT count(*) FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM u))
          + (SELECT count(*) FROM corebank.auth_mfa_recovery_codes WHERE user_id = (SELECT id FROM u)), 0::bigint,
          'turning it off drops the secret and the recovery codes');
SELECT throws_ok(format('SELECT corebank.auth_mfa_totp_disable(%L, %L)', (SELECT id FROM u), '123456'),
                 'CB409', 'Two-factor authentication is not enabled', 'there is nothing left to turn off');

-- Staff: admin (corebank.staff_mfa_roles' default) is enrolled at creation,
-- enabled at once; a teller is not.
INSERT INTO corebank.auth_role_scopes (role, scopes, staff) VALUES ('admin', '{}', true), ('teller', '{}', true)
ON CONFLICT (role) DO NOTHING;
CREATE TEMP TABLE staff AS
    SELECT id, corebank.auth_mfa_staff_enrol(id, 'corebank') AS e
    FROM corebank.auth_staff_create('boss@example.com', NULL, pg_temp.hash(), 'B', 'A', '{admin}', NULL) AS id;
SELECT matches((SELECT e ->> 'secret' FROM staff), '^[A-Z2-7]{32}$', 'staff create of an admin answers a secret');
SELECT isnt((SELECT enabled_at FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM staff)), NULL,
            '... enabled at once');
SELECT is((SELECT corebank.auth_mfa_staff_enrol(id, 'corebank')
           FROM corebank.auth_staff_create('teller@example.com', NULL, pg_temp.hash(), 'T', 'E', '{teller}', NULL)
                AS id), NULL, 'a teller is not enrolled');
SELECT throws_ok(format('SELECT corebank.auth_mfa_totp_disable(%L, %L)', (SELECT id FROM staff),
                        pg_temp.code((SELECT e ->> 'secret' FROM staff), 0)),
                 'CB403', 'Your roles require a second factor (staff_mfa_roles); it cannot be turned off',
                 'an admin cannot turn the factor off');

-- Five wrong codes lock the account, as five wrong passwords do. Sure to be
-- wrong: the steps already used (after a right code), and a made-up recovery code.
SELECT is(corebank.auth_mfa_recovery_codes((SELECT id FROM staff), pg_temp.code((SELECT e ->> 'secret' FROM staff), 0))
          ->> 'outcome', 'ok', 'the admin''s current code gets recovery codes');
SELECT is(corebank.auth_mfa_recovery_codes((SELECT id FROM staff), pg_temp.code((SELECT e ->> 'secret' FROM staff), d)),
          '{"outcome": "invalid"}'::jsonb, 'a used step (' || d || ') answers invalid')
FROM generate_series(-1, 0) AS d;
SELECT is(corebank.auth_mfa_recovery_codes((SELECT id FROM staff), 'zzzzz-zzzzz'), '{"outcome": "invalid"}'::jsonb,
          'wrong recovery code ' || n || ' answers invalid')
FROM generate_series(3, 5) AS n;
SELECT is((SELECT locked_until FROM corebank.auth_users WHERE id = (SELECT id FROM staff)),
          now() + interval '30 minutes', 'the 5th wrong code locks the account for 30 minutes');
SELECT is(corebank.auth_mfa_recovery_codes((SELECT id FROM staff), pg_temp.code((SELECT e ->> 'secret' FROM staff), 1)),
          '{"outcome": "locked"}'::jsonb, 'while locked even the right code answers locked');
SELECT is((SELECT count(*) FROM corebank.auth_audit WHERE user_id = (SELECT id FROM staff) AND event = 'login_failed'
           AND detail ->> 'reason' = 'second_factor'), 5::bigint, 'each wrong code is audited');

-- amr: a password login's token and its refresh say ["pwd"].
CREATE TEMP TABLE pwd_login AS SELECT pg_temp.login((SELECT id FROM u), 'mfa-1') AS l;
SELECT is(pg_temp.jwt_part((SELECT l -> 'tokens' ->> 'accessToken' FROM pwd_login), 2) -> 'amr', '["pwd"]'::jsonb,
          'a password login''s token has amr ["pwd"]');
SELECT is(pg_temp.jwt_part(corebank.auth_refresh(pg_temp.tok('mfa-1'), pg_temp.tok('mfa-2'), '10.0.0.3', 'pgtap')
                           -> 'tokens' ->> 'accessToken', 2) -> 'amr', '["pwd"]'::jsonb,
          '... and so has its refresh');

-- Login: after the proven password, a user with TOTP enabled needs a code.
CREATE TEMP TABLE boss2 AS
    SELECT id, corebank.auth_mfa_staff_enrol(id, 'corebank') ->> 'secret' AS secret
    FROM corebank.auth_staff_create('boss2@example.com', NULL, pg_temp.hash(), 'B', 'T', '{admin}', NULL) AS id;
CREATE FUNCTION pg_temp.login2(token text, totp_code text, recovery_code text) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.auth_login_finish_with_factor((SELECT id FROM boss2), pg_temp.proof(), NULL, 'web', '10.0.0.4',
                                                  'pgtap', pg_temp.tok(token), totp_code, recovery_code)
$f$;
SELECT is(pg_temp.login((SELECT id FROM boss2), 'boss2-0'), '{"outcome": "mfa_required"}'::jsonb,
          'the right password without a code answers mfa_required');
SELECT is((SELECT count(*) FROM corebank.auth_sessions WHERE user_id = (SELECT id FROM boss2))
          + (SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM boss2)), 0::bigint,
          '... opens no session and counts no failure');
SELECT is(corebank.auth_login_finish_with_factor((SELECT id FROM boss2), pg_temp.wrong_proof(), NULL, 'web', NULL,
                                                 NULL, pg_temp.tok('boss2-w'), pg_temp.code((SELECT secret FROM boss2)),
                                                 NULL),
          '{"outcome": "invalid"}'::jsonb, 'a wrong password with a right code is invalid');
SELECT is((SELECT last_step FROM corebank.auth_mfa_totp WHERE user_id = (SELECT id FROM boss2)), NULL,
          '... and the code is not spent: the password is checked first');
CREATE TEMP TABLE otp_login AS SELECT pg_temp.login2('boss2-1', pg_temp.code((SELECT secret FROM boss2)), NULL) AS l;
SELECT is(pg_temp.jwt_part((SELECT l -> 'tokens' ->> 'accessToken' FROM otp_login), 2) -> 'amr',
          '["pwd", "otp", "mfa"]'::jsonb, 'a login with a TOTP code has amr ["pwd","otp","mfa"]');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM boss2)), 0,
          '... and resets the failure the wrong password counted');
SELECT is(pg_temp.jwt_part(corebank.auth_refresh(pg_temp.tok('boss2-1'), pg_temp.tok('boss2-2'), NULL, 'pgtap')
                           -> 'tokens' ->> 'accessToken', 2) -> 'amr', '["pwd", "otp", "mfa"]'::jsonb,
          'a refresh carries the session''s amr over');
SELECT is(pg_temp.login2('boss2-3', pg_temp.code((SELECT secret FROM boss2)), NULL), '{"outcome": "invalid"}'::jsonb,
          'the same code at a second login is invalid');
SELECT is((SELECT failed_attempts FROM corebank.auth_users WHERE id = (SELECT id FROM boss2)), 1,
          '... and counted as a failed login');
CREATE TEMP TABLE boss2_codes AS
    SELECT corebank.auth_mfa_recovery_codes((SELECT id FROM boss2), pg_temp.code((SELECT secret FROM boss2), 1))
           -> 'recoveryCodes' AS c;
CREATE TEMP TABLE recovery_login AS SELECT pg_temp.login2('boss2-4', NULL, (SELECT c ->> 5 FROM boss2_codes)) AS l;
SELECT is(pg_temp.jwt_part((SELECT l -> 'tokens' ->> 'accessToken' FROM recovery_login), 2) -> 'amr',
          '["pwd", "mfa"]'::jsonb, 'a login with a recovery code has amr ["pwd","mfa"]');
SELECT is(pg_temp.login2('boss2-5', NULL, (SELECT c ->> 5 FROM boss2_codes)), '{"outcome": "invalid"}'::jsonb,
          'a recovery code logs in once');
SELECT throws_ok($$SELECT pg_temp.login2('boss2-6', '123456', 'abcde-fghjk')$$, 'CBV00',
                 'totp_code: send a TOTP code or a recovery code, not both', 'both kinds of code at once are refused');
SELECT is(pg_temp.jwt_part(corebank.auth_login_finish_with_factor((SELECT id FROM u), pg_temp.proof(), NULL, NULL,
                                                                  NULL, NULL, pg_temp.tok('mfa-9'), '123456', NULL)
                           -> 'tokens' ->> 'accessToken', 2) -> 'amr', '["pwd"]'::jsonb,
          'a user without TOTP who sends a code logs in with the password alone');

SELECT * FROM finish();
ROLLBACK;
