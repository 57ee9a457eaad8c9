-- auth_contact_claims.sql: the current user's names and contact claims
-- (issue 14, part 1; docs/identity.md, "The current user and contact claims").
--
-- Goal: names change at once within registration's limits; an email or a
-- phone changes only through a claim confirmed with its code, which is
-- stored as an HMAC only, works once, within 15 minutes and 5 attempts;
-- claiming a value another account holds is CB409 at the claim and again at
-- the confirmation (two users' claims for one email: the second
-- confirmation loses); emailVerified has one record, set by a confirmed
-- claim or a followed reset link (which E's BASIC rule also reads). A claim
-- needs the re-entered password (and a TOTP or recovery code when TOTP is
-- enabled), checked in the claim's own call: without it or with a wrong one
-- no claim is written and a wrong one is a counted failed login (the 5th
-- locks). auth_maintenance drops claims closed for more than 7 days.
-- Method: call the API functions as the tier does, with a made-up 32-byte
-- hash standing for the tier's HMAC of a code; expire and inspect rows
-- directly. The race between two sessions is pgtap/concurrency/contact_claim_race.sh.
BEGIN;
SELECT plan(77);
\ir helpers/identity.sql

-- The tier's HMAC of a code for a user and kind (any 32 bytes will do: the
-- database only compares).
CREATE FUNCTION pg_temp.ch(user_id uuid, kind text, code text) RETURNS bytea
    LANGUAGE sql IMMUTABLE
    AS $f$ SELECT sha256(convert_to(user_id::text || ':' || kind || ':' || code, 'UTF8')) $f$;

CREATE FUNCTION pg_temp.person(email text, phone text DEFAULT NULL, first_name text DEFAULT NULL,
                               last_name text DEFAULT NULL) RETURNS uuid
    LANGUAGE sql
    AS $f$
    INSERT INTO corebank.auth_users (email, phone, password_hash, first_name, last_name)
    VALUES (email, phone, pg_temp.hash(0), first_name, last_name) RETURNING id
$f$;

-- A claim with the right password (every person has pg_temp.hash(0)), or
-- with the proof and factor code given.
CREATE FUNCTION pg_temp.claim(user_id uuid, kind text, value text, code text) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.auth_contact_claim_start(user_id, kind, value, pg_temp.ch(user_id, kind, code), pg_temp.proof(0),
                                             NULL, '192.0.2.7')
$f$;
CREATE FUNCTION pg_temp.claim_with(user_id uuid, value text, proof bytea, factor text DEFAULT NULL) RETURNS jsonb
    LANGUAGE sql
    AS $f$
    SELECT corebank.auth_contact_claim_start(user_id, 'email', value, pg_temp.ch(user_id, 'email', '999999'), proof,
                                             factor, '192.0.2.7')
$f$;
CREATE FUNCTION pg_temp.claims_of(user_id uuid) RETURNS int
    LANGUAGE sql
    AS $f$ SELECT count(*)::int FROM corebank.auth_contact_claims c WHERE c.user_id = claims_of.user_id $f$;
CREATE FUNCTION pg_temp.failures_of(user_id uuid) RETURNS int
    LANGUAGE sql
    AS $f$ SELECT failed_attempts FROM corebank.auth_users u WHERE u.id = failures_of.user_id $f$;

CREATE FUNCTION pg_temp.confirm(user_id uuid, kind text, code text) RETURNS jsonb
    LANGUAGE sql
    AS $f$ SELECT corebank.auth_contact_claim_confirm(user_id, kind, pg_temp.ch(user_id, kind, code)) $f$;

CREATE TEMP TABLE u AS SELECT
    pg_temp.person('ann@claims.test') AS ann,
    pg_temp.person('bob@claims.test', '+263771000001') AS bob,
    pg_temp.person('cat@claims.test') AS cat,
    pg_temp.person(NULL, '+263771000003') AS dan;
GRANT SELECT ON u TO PUBLIC;

-- Registration leaves both flags false.
SELECT is(corebank.auth_me((SELECT ann FROM u)) -> 'emailVerified', 'false'::jsonb, 'a new user: emailVerified false');
SELECT is(corebank.auth_me((SELECT bob FROM u)) -> 'phoneVerified', 'false'::jsonb, 'a new user: phoneVerified false');

-- Names.
SELECT is(corebank.auth_me_update((SELECT ann FROM u), 'Ann', NULL) ->> 'firstName', 'Ann', 'PATCH sets firstName');
SELECT is((SELECT last_name FROM corebank.auth_users WHERE id = (SELECT ann FROM u)), NULL,
          'an absent lastName is left as it was');
SELECT throws_ok($$SELECT corebank.auth_me_update((SELECT ann FROM u), NULL, NULL)$$, 'CBV00', NULL,
                 'PATCH with no name is refused');
SELECT throws_ok($$SELECT corebank.auth_me_update((SELECT ann FROM u), '  ', repeat('x', 101))$$, 'CBV00',
                 'firstName: must be 1 to 100 characters, not blank; lastName: must be 1 to 100 characters, not blank',
                 'a blank or too long name is refused, each listed');
SELECT is((SELECT first_name FROM corebank.auth_users WHERE id = (SELECT ann FROM u)), 'Ann',
          'a refused PATCH writes nothing');
SELECT is((SELECT count(*)::int FROM corebank.auth_audit WHERE user_id = (SELECT ann FROM u) AND event = 'profile_updated'
           AND detail = '{"fields": ["firstName"]}'), 1, 'the name change is audited with its fields');

-- A claim of an email another account holds: 409 at once, nothing written.
SELECT throws_ok($$SELECT pg_temp.claim((SELECT ann FROM u), 'email', ' BOB@Claims.test ', '111111')$$, 'CB409',
                 'That email belongs to another account', 'claiming another account''s email is CB409 (normalised)');
SELECT throws_ok($$SELECT pg_temp.claim((SELECT ann FROM u), 'phone', '263771000001', '111111')$$, 'CB409',
                 'That phone belongs to another account', 'claiming another account''s phone, without its +, is CB409');
SELECT is((SELECT count(*)::int FROM corebank.auth_contact_claims WHERE user_id = (SELECT ann FROM u)), 0,
          'a refused claim writes no claim');
SELECT throws_ok($$SELECT pg_temp.claim((SELECT ann FROM u), 'email', 'not-an-email', '111111')$$, 'CBV00', NULL,
                 'a malformed email is CBV00');
SELECT throws_ok($$SELECT pg_temp.claim((SELECT ann FROM u), 'phone', '12345', '111111')$$, 'CBV00', NULL,
                 'a malformed phone is CBV00');

-- A claim: pending, the code only as its hash.
SELECT is(pg_temp.claim((SELECT ann FROM u), 'email', 'Ann.New@Claims.test', '424242') ->> 'value',
          'ann.new@claims.test', 'a claim answers the normalised value');
SELECT is((SELECT status FROM corebank.auth_contact_claims WHERE user_id = (SELECT ann FROM u)), 'PENDING',
          'the claim is pending');
SELECT ok((SELECT expires_at BETWEEN now() + interval '14 minutes' AND now() + interval '15 minutes'
           FROM corebank.auth_contact_claims WHERE user_id = (SELECT ann FROM u)), 'it expires in 15 minutes');
SELECT is((SELECT count(*)::int FROM corebank.auth_contact_claims c
           WHERE position('424242' IN c::text) > 0 OR position(convert_to('424242', 'UTF8') IN c.code_hash) > 0), 0,
          'no claim row holds the plain code');
SELECT is((SELECT email FROM corebank.auth_users WHERE id = (SELECT ann FROM u)), 'ann@claims.test',
          'the email is unchanged while the claim is pending');

-- A wrong code is counted; the right one confirms, once.
SELECT is(pg_temp.confirm((SELECT ann FROM u), 'email', '000000'), '{"outcome": "wrong_code", "attemptsLeft": 4}',
          'a wrong code: 4 attempts left');
SELECT is((SELECT attempts FROM corebank.auth_contact_claims WHERE user_id = (SELECT ann FROM u)), 1,
          'the wrong attempt is kept');
SELECT is(pg_temp.confirm((SELECT ann FROM u), 'phone', '424242') ->> 'outcome', 'none',
          'the code of an email claim confirms no phone claim');
CREATE TEMP TABLE ok1 AS SELECT pg_temp.confirm((SELECT ann FROM u), 'email', '424242') AS r;
SELECT is((SELECT r ->> 'outcome' FROM ok1), 'confirmed', 'the right code confirms');
SELECT is((SELECT r ->> 'previous' FROM ok1), 'ann@claims.test', 'the answer names the previous email, to notify');
SELECT is((SELECT r -> 'user' ->> 'email' FROM ok1), 'ann.new@claims.test', 'the user now has the new email');
SELECT is((SELECT r -> 'user' -> 'emailVerified' FROM ok1), 'true'::jsonb, 'and emailVerified is true');
SELECT is(pg_temp.confirm((SELECT ann FROM u), 'email', '424242') ->> 'outcome', 'none', 'a code works once');
SELECT is((SELECT array_agg(event ORDER BY id)::text FROM corebank.auth_audit
           WHERE user_id = (SELECT ann FROM u) AND event LIKE 'contact%'),
          '{contact_claimed,contact_claim_failed,contact_confirmed}', 'claim, wrong code and confirmation are audited');
SELECT throws_ok($$SELECT pg_temp.claim((SELECT ann FROM u), 'email', 'ann.new@claims.test', '111111')$$, 'CB409',
                 'That email is already verified on this account', 'claiming one''s own verified email is CB409');

-- Five wrong codes lock the claim: the right one no longer works.
SELECT pg_temp.claim((SELECT cat FROM u), 'email', 'cat.new@claims.test', '555555');
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '000000') ->> 'outcome', 'wrong_code', 'wrong 1');
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '000001') ->> 'outcome', 'wrong_code', 'wrong 2');
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '000002') ->> 'outcome', 'wrong_code', 'wrong 3');
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '000003'), '{"outcome": "wrong_code", "attemptsLeft": 1}',
          'wrong 4: 1 attempt left');
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '000004') ->> 'outcome', 'locked', 'the 5th wrong code locks');
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '555555') ->> 'outcome', 'none',
          'after the lock the right code confirms nothing');
SELECT is((SELECT email FROM corebank.auth_users WHERE id = (SELECT cat FROM u)), 'cat@claims.test',
          'the locked claim changed nothing');

-- Expiry: a claim past its 15 minutes is closed by the right code.
SELECT pg_temp.claim((SELECT cat FROM u), 'email', 'cat.late@claims.test', '666666');
UPDATE corebank.auth_contact_claims SET expires_at = now() - interval '1 second'
WHERE user_id = (SELECT cat FROM u) AND status = 'PENDING';
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '666666') ->> 'outcome', 'expired', 'an expired claim');
SELECT is((SELECT status FROM corebank.auth_contact_claims WHERE user_id = (SELECT cat FROM u) AND value = 'cat.late@claims.test'),
          'EXPIRED', 'is closed as EXPIRED');

-- A new claim replaces the pending one: its code is the one that counts.
SELECT pg_temp.claim((SELECT cat FROM u), 'email', 'cat.one@claims.test', '777777');
SELECT pg_temp.claim((SELECT cat FROM u), 'email', 'cat.two@claims.test', '888888');
SELECT is(pg_temp.confirm((SELECT cat FROM u), 'email', '777777') ->> 'outcome', 'wrong_code',
          'the replaced claim''s code no longer confirms');
SELECT is((SELECT status FROM corebank.auth_contact_claims WHERE value = 'cat.one@claims.test'), 'REPLACED',
          'the first claim is REPLACED');

-- The race settled at confirmation: two users claim one email; the other's
-- pending claim does not block, the second confirmation loses with CONFLICT.
SELECT pg_temp.claim((SELECT bob FROM u), 'email', 'prize@claims.test', '121212');
SELECT lives_ok($$SELECT pg_temp.claim((SELECT dan FROM u), 'email', 'prize@claims.test', '343434')$$,
                'another user''s pending claim does not block a claim');
SELECT is(pg_temp.confirm((SELECT dan FROM u), 'email', '343434') ->> 'outcome', 'confirmed', 'the first confirmation wins');
SELECT is(pg_temp.confirm((SELECT bob FROM u), 'email', '121212') ->> 'outcome', 'conflict', 'the second loses');
SELECT is((SELECT email FROM corebank.auth_users WHERE id = (SELECT bob FROM u)), 'bob@claims.test',
          'the loser keeps its email');

-- A phone claim sets phone and phoneVerified.
SELECT pg_temp.claim((SELECT dan FROM u), 'phone', '+263771000099', '909090');
SELECT is(pg_temp.confirm((SELECT dan FROM u), 'phone', '909090') -> 'user' -> 'phoneVerified', 'true'::jsonb,
          'a confirmed phone claim: phoneVerified true');

-- A followed reset link proves the email too: one record (email_verified_at),
-- and an email change expires the links sent to the old address.
INSERT INTO corebank.auth_reset_tokens (token_hash, user_id, expires_at)
VALUES (pg_temp.tok('reset-bob'), (SELECT bob FROM u), now() + interval '30 minutes');
UPDATE corebank.auth_reset_tokens SET used_at = now() WHERE token_hash = pg_temp.tok('reset-bob');
SELECT is(corebank.auth_me((SELECT bob FROM u)) -> 'emailVerified', 'true'::jsonb,
          'a followed reset link makes emailVerified true');
INSERT INTO corebank.auth_reset_tokens (token_hash, user_id, expires_at)
VALUES (pg_temp.tok('reset-bob-2'), (SELECT bob FROM u), now() + interval '30 minutes');
SELECT pg_temp.claim((SELECT bob FROM u), 'email', 'bob.new@claims.test', '232323');
SELECT pg_temp.confirm((SELECT bob FROM u), 'email', '232323');
SELECT ok((SELECT expires_at <= now() FROM corebank.auth_reset_tokens WHERE token_hash = pg_temp.tok('reset-bob-2')),
          'an email change expires the unused reset link sent to the old address');

-- At most 5 claims per user and hour: the 6th is refused and writes nothing.
SELECT ok(pg_temp.claim((SELECT cat FROM u), 'phone', '+263771000077', '101010') ? 'claimId', 'the 5th claim of the hour');
SELECT is(pg_temp.claim((SELECT cat FROM u), 'phone', '+263771000078', '202020'), '{"rateLimited": true}',
          'the 6th claim in an hour: rateLimited');
SELECT is((SELECT count(*)::int FROM corebank.auth_contact_claims WHERE user_id = (SELECT cat FROM u)), 5,
          'the refused claims wrote nothing');

-- The re-entered password: checked before the value is even looked at.
CREATE TEMP TABLE r AS SELECT
    pg_temp.person('eve@claims.test') AS eve,
    pg_temp.person('fay@claims.test') AS fay,
    pg_temp.person('gus@claims.test') AS gus;
GRANT SELECT ON r TO PUBLIC;
SELECT is(pg_temp.claim_with((SELECT eve FROM r), 'eve.new@claims.test', pg_temp.wrong_proof()),
          '{"outcome": "invalid"}'::jsonb, 'a wrong password: invalid');
SELECT is(pg_temp.claims_of((SELECT eve FROM r)), 0, 'a wrong password writes no claim');
SELECT is(pg_temp.failures_of((SELECT eve FROM r)), 1, 'a wrong password is a counted failed login');
SELECT is((SELECT detail ->> 'reason' FROM corebank.auth_audit WHERE user_id = (SELECT eve FROM r) AND event = 'login_failed'),
          'reentered_password', 'and audited as login_failed');
SELECT is(pg_temp.claim_with((SELECT eve FROM r), 'ann.new@claims.test', pg_temp.wrong_proof()),
          '{"outcome": "invalid"}'::jsonb, 'without the password, another account''s value is not told (no 409)');
SELECT throws_ok($$SELECT pg_temp.claim_with((SELECT eve FROM r), 'eve.new@claims.test', NULL)$$, 'CBV00', NULL,
                 'no password proof is CBV00');
SELECT throws_ok($$SELECT pg_temp.claim_with((SELECT eve FROM r), 'eve.new@claims.test', '\x00'::bytea)$$, 'CBV00', NULL,
                 'a proof that is not 32 bytes is CBV00');
SELECT is(pg_temp.failures_of((SELECT eve FROM r)), 2, 'a refused proof shape counts nothing');
SELECT is(pg_temp.claims_of((SELECT eve FROM r)), 0, 'and writes no claim');
SELECT is(pg_temp.claim_with((SELECT eve FROM r), 'eve.new@claims.test', pg_temp.wrong_proof()) ->> 'outcome', 'invalid',
          'wrong 3');
SELECT is(pg_temp.claim_with((SELECT eve FROM r), 'eve.new@claims.test', pg_temp.wrong_proof()) ->> 'outcome', 'invalid',
          'wrong 4');
SELECT is(pg_temp.claim_with((SELECT eve FROM r), 'eve.new@claims.test', pg_temp.wrong_proof()) ->> 'outcome', 'invalid',
          'wrong 5');
SELECT ok((SELECT locked_until > now() FROM corebank.auth_users WHERE id = (SELECT eve FROM r)),
          'the 5th wrong password locks the account');
SELECT is(pg_temp.claim_with((SELECT eve FROM r), 'eve.new@claims.test', pg_temp.proof(0)),
          '{"outcome": "locked"}'::jsonb, 'while locked, the right password claims nothing');
SELECT is(pg_temp.claims_of((SELECT eve FROM r)), 0, 'no claim was written at any step');
-- A right password clears the count.
SELECT pg_temp.claim_with((SELECT fay FROM r), 'fay.new@claims.test', pg_temp.wrong_proof());
SELECT ok(pg_temp.claim_with((SELECT fay FROM r), 'fay.new@claims.test', pg_temp.proof(0)) ? 'claimId',
          'the right password makes the claim');
SELECT is(pg_temp.failures_of((SELECT fay FROM r)), 0, 'and clears the failure count');

-- With TOTP enabled, a current code or an unused recovery code as well.
CREATE TEMP TABLE t AS SELECT corebank.auth_mfa_totp_begin((SELECT gus FROM r), 'corebank') ->> 'secret' AS secret;
GRANT SELECT ON t TO PUBLIC;
CREATE TEMP TABLE rc AS SELECT corebank.auth_mfa_totp_confirm(
    (SELECT gus FROM r), corebank_internal.auth_totp_code((SELECT secret FROM t),
                                                           (floor(extract(epoch FROM now()) / 30))::int - 1)) AS c;
SELECT is(pg_temp.claim_with((SELECT gus FROM r), 'gus.new@claims.test', pg_temp.proof(0)),
          '{"outcome": "mfa_required"}'::jsonb, 'TOTP enabled, no code: mfa_required');
SELECT is(pg_temp.failures_of((SELECT gus FROM r)), 0, 'a missing code after the right password counts nothing');
SELECT is(pg_temp.claim_with((SELECT gus FROM r), 'gus.new@claims.test', pg_temp.proof(0),
                             corebank_internal.auth_totp_code((SELECT secret FROM t),
                                                               (floor(extract(epoch FROM now()) / 30))::int - 1)),
          '{"outcome": "invalid"}'::jsonb, 'a used TOTP step: invalid');
SELECT is(pg_temp.failures_of((SELECT gus FROM r)), 1, 'a wrong code is a counted failed login');
SELECT is(pg_temp.claims_of((SELECT gus FROM r)), 0, 'neither wrote a claim');
SELECT ok(pg_temp.claim_with((SELECT gus FROM r), 'gus.new@claims.test', pg_temp.proof(0),
                             corebank_internal.auth_totp_code((SELECT secret FROM t),
                                                               (floor(extract(epoch FROM now()) / 30))::int)) ? 'claimId',
          'the right password and a current code make the claim');
SELECT ok(pg_temp.claim_with((SELECT gus FROM r), 'gus.two@claims.test', pg_temp.proof(0),
                             (SELECT c -> 'recoveryCodes' ->> 0 FROM rc)) ? 'claimId',
          'an unused recovery code does too');
SELECT is(pg_temp.claim_with((SELECT gus FROM r), 'gus.three@claims.test', pg_temp.proof(0),
                             (SELECT c -> 'recoveryCodes' ->> 0 FROM rc)),
          '{"outcome": "invalid"}'::jsonb, 'a used recovery code: invalid');

-- auth_maintenance drops claims closed more than 7 days ago; pending ones
-- and recently closed ones stay.
UPDATE corebank.auth_contact_claims SET created_at = now() - interval '9 days', closed_at = now() - interval '8 days'
WHERE value = 'cat.one@claims.test';
UPDATE corebank.auth_contact_claims SET created_at = now() - interval '9 days'
WHERE user_id = (SELECT fay FROM r) AND status = 'PENDING';
SELECT corebank.auth_maintenance();
SELECT is((SELECT count(*)::int FROM corebank.auth_contact_claims WHERE value = 'cat.one@claims.test'), 0,
          'a claim closed 8 days ago is dropped');
SELECT is((SELECT count(*)::int FROM corebank.auth_contact_claims WHERE value = 'cat.late@claims.test'), 1,
          'a claim closed today is kept');
SELECT is((SELECT count(*)::int FROM corebank.auth_contact_claims WHERE user_id = (SELECT fay FROM r)), 1,
          'a pending claim is kept, however old');

SELECT * FROM finish();
ROLLBACK;
