"""OAuth2 client credentials (POST /oauth/token) and introspection (POST /oauth/introspect).

docs/identity.md fixes: client id and secret as form fields or HTTP Basic,
`scope` a space-separated subset of the granted scopes (none asked: all
granted), the client token response fields, and RFC 7662 answers: the token
facts when active, exactly {"active": false} when malformed, badly signed,
expired or revoked. Clients are made with `$CB_CLI client-create`.
"""

import json
import os
import re
import secrets
import subprocess
import sys
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402

GRANTED = ("kyc:validate", "kyc:screen")
INTROSPECT_SCOPE = "introspect"


def setUpModule():
    cb.require_identity_service()


class ClientCredentialsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.client_id, cls.secret = cb.create_client(GRANTED)

    def token_ok(self, **kw):
        resp = self.api.oauth_token(self.client_id, self.secret, **kw)
        self.assertEqual(resp.status, 200, resp)
        return resp.json

    def test_form_credentials(self):
        """Form-field credentials get a client token response with all granted scopes."""
        body = self.token_ok()
        self.assertEqual(set(body), cb.CLIENT_TOKEN_FIELDS)
        self.assertEqual(body["tokenType"], "Bearer")
        self.assertEqual(set(body["scope"].split(" ")), set(GRANTED))
        claims = cb.verify_jwt(body["accessToken"], self.api.jwks())
        self.assertEqual(claims["exp"] - claims["iat"], body["expiresIn"])
        self.assertGreater(body["expiresIn"], 0)

    def test_basic_credentials(self):
        """HTTP Basic credentials work the same as form fields."""
        body = self.token_ok(basic=True)
        self.assertEqual(set(body["scope"].split(" ")), set(GRANTED))
        self.assertEqual(cb.jwt_claims(body["accessToken"])["client_id"], self.client_id)

    def test_client_token_claims(self):
        """A client token has exactly the client claims: no aud, roles, kyc_tier, phone or email."""
        claims = cb.jwt_claims(self.token_ok()["accessToken"])
        self.assertEqual(set(claims), cb.CLIENT_CLAIMS)
        self.assertEqual(claims["token_type"], "client")
        self.assertEqual(claims["sub"], self.client_id)
        self.assertEqual(claims["client_id"], self.client_id)
        self.assertEqual(sorted(claims["scopes"]), sorted(GRANTED))
        uuid.UUID(claims["jti"])

    def test_client_token_recorded(self):
        """Every client token is recorded by jti for revocation and introspection."""
        claims = cb.jwt_claims(self.token_ok()["accessToken"])
        row = cb.db().one("SELECT client_id, user_id, session_id FROM corebank.auth_access_tokens WHERE jti = %s",
                          (claims["jti"],))
        self.assertEqual(row, {"client_id": self.client_id, "user_id": None, "session_id": None})

    def test_scope_subset(self):
        """Asking for a subset of the granted scopes gets exactly that subset."""
        body = self.token_ok(scope="kyc:screen")
        self.assertEqual(body["scope"], "kyc:screen")
        self.assertEqual(cb.jwt_claims(body["accessToken"])["scopes"], ["kyc:screen"])

    def test_scope_not_granted(self):
        """Asking for a scope the client was not granted is 400 invalid_scope, no token."""
        for scope in ("admin", "kyc:validate banking:write"):
            with self.subTest(scope=scope):
                resp = self.api.oauth_token(self.client_id, self.secret, scope=scope)
                cb.assert_error(resp, 400, "BAD_REQUEST", re.compile(r"^invalid_scope"))

    def test_unknown_client(self):
        """An unknown client id is 401 INVALID_CREDENTIALS, by form and by Basic."""
        for basic in (False, True):
            with self.subTest(basic=basic):
                resp = self.api.oauth_token(cb.unique_client_id("nosuch"), self.secret, basic=basic)
                cb.assert_error(resp, 401, "INVALID_CREDENTIALS")

    def test_wrong_secret(self):
        """A wrong secret is 401 INVALID_CREDENTIALS, by form and by Basic."""
        for basic in (False, True):
            with self.subTest(basic=basic):
                resp = self.api.oauth_token(self.client_id, self.secret + "x", basic=basic)
                cb.assert_error(resp, 401, "INVALID_CREDENTIALS")

    def test_missing_credentials(self):
        """No client credentials at all is 401."""
        resp = self.api.oauth_token(None, None)
        cb.assert_error(resp, 401, ("INVALID_CREDENTIALS", "UNAUTHORIZED"), timestamp=None)

    def test_disabled_client(self):
        """A client that is no longer ACTIVE gets no token."""
        client_id, secret = cb.create_client(GRANTED)
        cb.db().execute("UPDATE corebank.auth_oauth_clients SET status = 'DISABLED' WHERE client_id = %s",
                        (client_id,))
        cb.assert_error(self.api.oauth_token(client_id, secret), 401, "INVALID_CREDENTIALS")

    def test_wrong_grant_type(self):
        """A grant type other than client_credentials, or none, is 400."""
        for grant_type in ("password", "authorization_code", "refresh_token", "", None):
            with self.subTest(grant_type=grant_type):
                resp = self.api.oauth_token(self.client_id, self.secret, grant_type=grant_type)
                cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))

    def test_client_secret_is_hashed(self):
        """The database holds an argon2id hash of the client secret, not the secret."""
        row = cb.db().one("SELECT secret_hash, status, scopes FROM corebank.auth_oauth_clients"
                          " WHERE client_id = %s", (self.client_id,))
        self.assertTrue(row["secret_hash"].startswith("$argon2id$"))
        self.assertNotIn(self.secret, row["secret_hash"])
        self.assertEqual(row["status"], "ACTIVE")
        self.assertEqual(sorted(row["scopes"]), sorted(GRANTED))


class IntrospectionTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        # Introspection is for clients granted the `introspect` scope (issue 13).
        cls.client_id, cls.secret = cb.create_client(GRANTED + (INTROSPECT_SCOPE,))

    def introspect_ok(self, token, basic=True):
        resp = self.api.introspect(token, self.client_id, self.secret, basic=basic)
        self.assertEqual(resp.status, 200, resp)
        return resp.json

    def assert_inactive(self, token):
        self.assertEqual(self.introspect_ok(token), {"active": False})

    def test_live_user_token(self):
        """A live user token introspects as active with the token's own facts."""
        user = cb.new_user(self.api)
        claims = cb.jwt_claims(user.access)
        body = self.introspect_ok(user.access)
        self.assertIs(body["active"], True)
        self.assertEqual(body["sub"], user.id)
        self.assertEqual(body["token_type"], "access")
        for key in ("iss", "iat", "exp", "jti", "aud"):
            self.assertEqual(body[key], claims[key], key)
        self.assertEqual(set(body["scope"].split(" ")), set(claims["scopes"]))
        self.assertEqual(body["username"], user.email)

    def test_form_credentials_for_introspection(self):
        """The introspecting client may authenticate with form fields too."""
        user = cb.new_user(self.api)
        self.assertIs(self.introspect_ok(user.access, basic=False)["active"], True)

    def test_phone_only_user_username(self):
        """For an account without email the username is the phone."""
        user = cb.new_user(self.api, with_email=False, with_phone=True)
        self.assertEqual(self.introspect_ok(user.access)["username"], user.phone)

    def test_client_token(self):
        """A client token introspects as active, token_type client, with its client_id."""
        other_id, other_secret = cb.create_client(("kyc:screen",))
        token = self.api.oauth_token(other_id, other_secret).json["accessToken"]
        body = self.introspect_ok(token)
        self.assertIs(body["active"], True)
        self.assertEqual(body["token_type"], "client")
        self.assertEqual(body["client_id"], other_id)
        self.assertEqual(body["sub"], other_id)
        self.assertEqual(body["scope"], "kyc:screen")
        self.assertNotIn("aud", body)

    def test_inactive_after_logout(self):
        """A token whose session was logged out introspects as exactly {"active": false}."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.logout(user.access), 200, cb.MSG_LOGOUT)
        self.assert_inactive(user.access)

    def test_inactive_for_garbage(self):
        """Malformed and badly signed tokens introspect as exactly {"active": false}."""
        user = cb.new_user(self.api)
        header, claims, _, _ = cb.jwt_parts(user.access)
        forged = cb.sign_jwt(header, claims, cb.new_rsa_key())
        tampered = dict(claims, roles=["admin"])
        head, _, signature = user.access.split(".")
        for token in ("garbage", "a.b.c", forged,
                      f"{head}.{cb.b64url_encode(json.dumps(tampered).encode())}.{signature}",
                      cb.unsigned_jwt({"alg": "none", "typ": "JWT"}, claims)):
            with self.subTest(token=token[:30]):
                self.assert_inactive(token)

    def test_inactive_when_expired(self):
        """A token past its expiry (as recorded in the database) introspects as inactive."""
        user = cb.new_user(self.api)
        cb.db().expire_access_token(cb.jwt_claims(user.access)["jti"])
        self.assert_inactive(user.access)

    def test_inactive_when_client_disabled(self):
        """A client token introspects as inactive once its client is disabled."""
        other_id, other_secret = cb.create_client(("kyc:screen",))
        token = self.api.oauth_token(other_id, other_secret).json["accessToken"]
        self.assertIs(self.introspect_ok(token)["active"], True)
        cb.db().execute("UPDATE corebank.auth_oauth_clients SET status = 'DISABLED' WHERE client_id = %s",
                        (other_id,))
        self.assert_inactive(token)

    def test_introspection_requires_client_authentication(self):
        """Introspection without, or with wrong, client credentials is 401 and reveals nothing."""
        user = cb.new_user(self.api)
        unauthenticated = self.api.http.post("/oauth/introspect", form={"token": user.access})
        wrong = self.api.introspect(user.access, self.client_id, self.secret + "x")
        for resp in (unauthenticated, wrong):
            body = cb.assert_error(resp, 401, ("INVALID_CREDENTIALS", "UNAUTHORIZED"), timestamp=None)
            self.assertNotIn("active", body)

    def test_introspection_requires_the_introspect_scope(self):
        """An authenticated client without the `introspect` scope is 403 FORBIDDEN and learns nothing."""
        user = cb.new_user(self.api)
        other_id, other_secret = cb.create_client(GRANTED)
        for basic in (True, False):
            with self.subTest(basic=basic):
                resp = self.api.introspect(user.access, other_id, other_secret, basic=basic)
                body = cb.assert_error(resp, 403, "FORBIDDEN")
                self.assertNotIn("active", body)
                self.assertIn("introspect", body["message"])
        for token in (user.access, "not-a-token"):
            resp = self.api.introspect(token, other_id, other_secret)
            self.assertEqual(resp.status, 403, resp)

    def test_introspection_without_token_parameter(self):
        """Introspection without the `token` parameter is 400."""
        resp = self.api.http.post("/oauth/introspect", form={}, basic=(self.client_id, self.secret))
        cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))


class ClientLockoutTest(unittest.TestCase):
    """Failed client authentications are counted and lock the client id (issue 13).

    docs/identity.md ("Online guessing"): per client id, in the database, on
    /oauth/token and /oauth/introspect alike; the 5th consecutive wrong secret
    locks the id for 30 minutes (403 ACCOUNT_LOCKED, even for the right
    secret), whether or not a client has that id; a success resets the count.
    """

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def fail_token(self, client_id, times, basic=False):
        for attempt in range(times):
            resp = self.api.oauth_token(client_id, "wrong-" + secrets.token_urlsafe(32), basic=basic)
            cb.assert_error(resp, 401, "INVALID_CREDENTIALS")

    def unlock(self, client_id):
        cb.db().execute("UPDATE corebank.auth_login_failures SET locked_until = now() - interval '1 second'"
                        " WHERE identifier = %s", ("client:" + client_id,))

    def test_fifth_wrong_secret_locks_the_client_until_the_lock_ends(self):
        """Five wrong secrets, then the right one is 403 ACCOUNT_LOCKED (form and Basic) until the lock ends."""
        client_id, secret = cb.create_client(GRANTED)
        self.fail_token(client_id, cb.LOCKOUT_FAILURES)
        for basic in (False, True):
            with self.subTest(basic=basic):
                cb.assert_error(self.api.oauth_token(client_id, secret, basic=basic), 403, "ACCOUNT_LOCKED")
        row = cb.db().one("SELECT locked_until - now() AS left FROM corebank.auth_login_failures"
                          " WHERE identifier = %s", ("client:" + client_id,))
        self.assertAlmostEqual(row["left"].total_seconds() / 60, 30, delta=1)
        self.unlock(client_id)
        self.assertEqual(self.api.oauth_token(client_id, secret).status, 200)

    def test_four_wrong_secrets_do_not_lock_and_a_success_resets(self):
        """Four wrong secrets leave the client usable; after a success four more still do not lock."""
        client_id, secret = cb.create_client(GRANTED)
        for round_ in range(2):
            self.fail_token(client_id, cb.LOCKOUT_FAILURES - 1, basic=bool(round_))
            self.assertEqual(cb.db().scalar("SELECT failed_attempts FROM corebank.auth_login_failures"
                                            " WHERE identifier = %s", ("client:" + client_id,)),
                             cb.LOCKOUT_FAILURES - 1, "the wrong secrets are counted")
            self.assertEqual(self.api.oauth_token(client_id, secret).status, 200, f"round {round_ + 1}")

    def test_introspection_failures_count_toward_the_same_lock(self):
        """Wrong secrets on /oauth/introspect count with those on /oauth/token: together they lock."""
        client_id, secret = cb.create_client(GRANTED + (INTROSPECT_SCOPE,))
        user = cb.new_user(self.api)
        self.fail_token(client_id, 2)
        for attempt in range(cb.LOCKOUT_FAILURES - 2):
            resp = self.api.introspect(user.access, client_id, secret + "x")
            cb.assert_error(resp, 401, "INVALID_CREDENTIALS")
        cb.assert_error(self.api.introspect(user.access, client_id, secret), 403, "ACCOUNT_LOCKED")
        cb.assert_error(self.api.oauth_token(client_id, secret), 403, "ACCOUNT_LOCKED")

    def test_parallel_wrong_secrets_count_exactly_five(self):
        """10 simultaneous wrong secrets: exactly 5 are counted (401), the rest find the lock (403)."""
        client_id, secret = cb.create_client(GRANTED)
        responses = cb.run_parallel([lambda: cb.Identity().oauth_token(client_id, "wrong-" + secrets.token_urlsafe(32))
                                     for _ in range(10)])
        codes = sorted(resp.status for resp in responses)
        self.assertEqual(codes, [401] * cb.LOCKOUT_FAILURES + [403] * (10 - cb.LOCKOUT_FAILURES), responses)
        for resp in responses:
            cb.assert_error(resp, resp.status, "INVALID_CREDENTIALS" if resp.status == 401 else "ACCOUNT_LOCKED")
        cb.assert_error(self.api.oauth_token(client_id, secret), 403, "ACCOUNT_LOCKED")

    def test_unknown_client_id_locks_alike(self):
        """An id no client has answers exactly as a real one: 401 five times, then the same 403 body."""
        real_id, real_secret = cb.create_client(GRANTED)
        ghost_id = cb.unique_client_id("ghost")
        self.fail_token(real_id, cb.LOCKOUT_FAILURES)
        self.fail_token(ghost_id, cb.LOCKOUT_FAILURES)
        real = cb.assert_error(self.api.oauth_token(real_id, real_secret), 403, "ACCOUNT_LOCKED")
        ghost = cb.assert_error(self.api.oauth_token(ghost_id, real_secret), 403, "ACCOUNT_LOCKED")
        self.assertEqual((ghost["error"], ghost["message"]), (real["error"], real["message"]))


class ClientSecretLengthTest(unittest.TestCase):
    """Client secrets are long enough not to be guessed online (issue 13).

    `client-create` refuses a supplied secret under 32 characters; without a
    secret it generates 32 random bytes (base64url) and prints them on the
    line after the client id.
    """

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def run_cli(self, *args):
        env = dict(os.environ, DATABASE_URL=cb.require(cb.DATABASE_URL, "CB_DATABASE_URL"))
        return subprocess.run([cb.require(cb.CLI, "CB_CLI"), *args], env=env, capture_output=True, text=True,
                              timeout=60)

    def clients_named(self, client_id):
        return cb.db().scalar("SELECT count(*) FROM corebank.auth_oauth_clients WHERE client_id = %s", (client_id,))

    def test_short_supplied_secret_is_refused(self):
        """A 31-character secret is refused (exit 2, nothing created); 32 characters are accepted."""
        short_id, long_id = cb.unique_client_id("short"), cb.unique_client_id("long")
        done = self.run_cli("client-create", "--id", short_id, "--secret", "s" * 31, "--scopes", "kyc:screen")
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("32", done.stderr)
        self.assertEqual(self.clients_named(short_id), 0)
        done = self.run_cli("client-create", "--id", long_id, "--secret", "s" * 32, "--scopes", "kyc:screen")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(self.api.oauth_token(long_id, "s" * 32).status, 200)

    def test_generated_secret_is_32_random_bytes(self):
        """Without a secret one is generated: base64url of 32 random bytes, printed once, and it works."""
        seen = set()
        for attempt in range(2):
            client_id = cb.unique_client_id("generated")
            done = self.run_cli("client-create", "--id", client_id, "--scopes", "kyc:screen")
            self.assertEqual(done.returncode, 0, done.stderr)
            lines = done.stdout.splitlines()
            self.assertEqual(len(lines), 2, done.stdout)
            self.assertEqual(lines[0], client_id)
            secret = lines[1]
            self.assertRegex(secret, r"^[A-Za-z0-9_-]{43}$")
            self.assertEqual(len(cb.b64url_decode(secret)), 32)
            seen.add(secret)
            row = cb.db().one("SELECT secret_hash FROM corebank.auth_oauth_clients WHERE client_id = %s",
                              (client_id,))
            self.assertTrue(row["secret_hash"].startswith("$argon2id$"))
            self.assertEqual(self.api.oauth_token(client_id, secret).status, 200)
        self.assertEqual(len(seen), 2, "two generated secrets are equal")


class CliSecretSourcesTest(unittest.TestCase):
    """The admin commands take passwords and secrets off the command line too (issue 13).

    A value in argv is visible to every local user (ps, /proc/PID/cmdline) and
    stays in shell history: `--secret -` / `--password -` read one line of
    standard input, `--secret-env VAR` / `--password-env VAR` an environment
    variable (docs/identity.md, "Staff users and scopes").
    """

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def run_cli(self, *args, stdin="", extra_env=None):
        env = dict(os.environ, DATABASE_URL=cb.require(cb.DATABASE_URL, "CB_DATABASE_URL"), **(extra_env or {}))
        done = subprocess.run([cb.require(cb.CLI, "CB_CLI"), *args], input=stdin, env=env,
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def assert_client_works(self, client_id, secret):
        resp = self.api.oauth_token(client_id, secret, basic=True)
        self.assertEqual(resp.status, 200, resp)

    def test_client_secret_from_standard_input(self):
        """client-create --secret - takes the secret from standard input."""
        client_id, secret = cb.unique_client_id("stdin"), "sec-" + secrets.token_urlsafe(32)
        self.run_cli("client-create", "--id", client_id, "--secret", "-", "--scopes", "kyc:screen",
                     stdin=secret + "\n")
        self.assert_client_works(client_id, secret)

    def test_client_secret_from_the_environment(self):
        """client-create --secret-env VAR takes the secret from that variable."""
        client_id, secret = cb.unique_client_id("env"), "sec-" + secrets.token_urlsafe(32)
        self.run_cli("client-create", "--id", client_id, "--secret-env", "CB_TEST_CLIENT_SECRET",
                     "--scopes", "kyc:screen", extra_env={"CB_TEST_CLIENT_SECRET": secret})
        self.assert_client_works(client_id, secret)

    def test_staff_password_from_standard_input_and_environment(self):
        """staff-create --password - and --password-env VAR both set the password the staff user logs in with."""
        for how in ("stdin", "env"):
            with self.subTest(how=how):
                address, password = cb.unique_email("staff-" + how), cb.unique_password()
                if how == "stdin":
                    self.run_cli("staff-create", "--email", address, "--password", "-", "--roles", "teller",
                                 stdin=password + "\n")
                else:
                    self.run_cli("staff-create", "--email", address, "--password-env", "CB_TEST_STAFF_PASSWORD",
                                 "--roles", "teller", extra_env={"CB_TEST_STAFF_PASSWORD": password})
                resp = self.api.login({"email": address, "password": password})
                self.assertEqual(resp.status, 200, resp)

    def test_staff_create_refuses_a_common_password(self):
        """staff-create refuses a common or dictionary password as registration does: exit 2, nobody created."""
        for password in ("password123!", "Sunshine2026"):
            with self.subTest(password=password):
                address = cb.unique_email("staff-weak")
                env = dict(os.environ, DATABASE_URL=cb.DATABASE_URL or "")
                done = subprocess.run([cb.require(cb.CLI, "CB_CLI"), "staff-create", "--email", address,
                                       "--password", password, "--roles", "teller"],
                                      env=env, capture_output=True, text=True, timeout=60)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertIn("--password is too easy to guess", done.stderr)
                self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_users WHERE email = %s",
                                                (address,)), 0)

    def test_both_sources_or_an_empty_one_is_refused(self):
        """--secret with --secret-env, an unset variable or empty standard input: exit 2, nothing created."""
        client_id = cb.unique_client_id("refused")
        env = dict(os.environ, DATABASE_URL=cb.DATABASE_URL or "")
        for args, stdin in ((["--secret", "sec-12345678", "--secret-env", "HOME"], ""),
                            (["--secret-env", "CB_TEST_NO_SUCH_VARIABLE"], ""),
                            (["--secret", "-"], "")):
            with self.subTest(args=args):
                done = subprocess.run([cb.require(cb.CLI, "CB_CLI"), "client-create", "--id", client_id, *args],
                                      input=stdin, env=env, capture_output=True, text=True, timeout=60)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertIn("--secret", done.stderr)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_oauth_clients WHERE client_id = %s",
                                        (client_id,)), 0)


if __name__ == "__main__":
    unittest.main()
