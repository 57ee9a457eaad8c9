"""Login, lockout and the login rate limit: POST /auth/login.

docs/identity.md fixes: email wins over phone, trimmed case-insensitive email
lookup, 401 INVALID_CREDENTIALS "Invalid credentials" for wrong and unknown
accounts alike, lock on the 5th consecutive failure for 30 minutes, counter
reset on success, and 20 attempts per identifier per 60 s (then 429 with
Retry-After). Every test uses fresh users, since the limits are per identifier.
"""

import os
import statistics
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


def setUpModule():
    cb.require_identity_service()


class LoginTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_login_by_email_returns_token_pair(self):
        """Login by email answers 200 with a token pair for that user."""
        user = cb.new_user(self.api, with_phone=True, firstName="Lin")
        resp = self.api.login({"email": user.email, "password": user.password, "channel": "web"})
        self.assertEqual(resp.status, 200, resp)
        body = resp.json
        self.assertEqual(set(body), cb.TOKEN_PAIR_FIELDS)
        self.assertEqual(body["tokenType"], "Bearer")
        self.assertEqual(body["expiresIn"], cb.ACCESS_TTL_S)
        self.assertEqual(body["user"]["id"], user.id)
        self.assertEqual(body["user"]["email"], user.email)
        self.assertEqual(body["user"]["phone"], user.phone)
        self.assertEqual(body["user"]["firstName"], "Lin")
        self.assertNotEqual(body["refreshToken"], user.refresh)
        self.assertNotEqual(cb.jwt_claims(body["accessToken"])["jti"], cb.jwt_claims(user.access)["jti"])

    def test_login_email_is_case_and_space_insensitive(self):
        """Email lookup at login is trimmed and case-insensitive."""
        user = cb.new_user(self.api)
        for variant in (user.email.upper(), "  " + user.email + "  ", " " + user.email.swapcase()):
            with self.subTest(variant=variant):
                resp = self.api.login({"email": variant, "password": user.password})
                self.assertEqual(resp.status, 200, resp)
                self.assertEqual(resp.json["user"]["id"], user.id)

    def test_login_by_phone_with_and_without_plus(self):
        """A phone logs in as registered and also without (or with) the leading '+'."""
        user = cb.new_user(self.api, with_email=False, with_phone=True)
        digits = user.phone.lstrip("+")
        for variant in (user.phone, digits):
            with self.subTest(variant=variant):
                resp = self.api.login({"phone": variant, "password": user.password})
                self.assertEqual(resp.status, 200, resp)
                self.assertEqual(resp.json["user"]["id"], user.id)
                self.assertEqual(cb.jwt_claims(resp.json["accessToken"])["phone"], user.phone)

    def test_email_wins_when_both_sent(self):
        """With email and phone both sent, the email resolves the account; the phone is ignored."""
        owner = cb.new_user(self.api, with_phone=True)
        other = cb.new_user(self.api, with_phone=True)
        for phone in (cb.unique_phone(), other.phone):
            with self.subTest(phone=phone):
                resp = self.api.login({"email": owner.email, "phone": phone, "password": owner.password})
                self.assertEqual(resp.status, 200, resp)
                self.assertEqual(resp.json["user"]["id"], owner.id)

    def test_unknown_email_with_right_phone_fails(self):
        """A wrong email is not rescued by a right phone: the email decides, 401."""
        user = cb.new_user(self.api, with_phone=True)
        resp = self.api.login({"email": cb.unique_email(), "phone": user.phone, "password": user.password})
        cb.assert_error(resp, 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)

    def test_wrong_password_is_invalid_credentials(self):
        """A wrong password is 401 INVALID_CREDENTIALS 'Invalid credentials'."""
        user = cb.new_user(self.api, with_phone=True)
        for body in ({"email": user.email, "password": user.password + "x"},
                     {"phone": user.phone, "password": user.password.upper()}):
            with self.subTest(body=body):
                cb.assert_error(self.api.login(body), 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)

    def test_unknown_account_is_invalid_credentials(self):
        """An unknown email or phone gets the same 401 as a wrong password."""
        for body in ({"email": cb.unique_email("ghost"), "password": cb.unique_password()},
                     {"phone": cb.unique_phone(), "password": cb.unique_password()}):
            with self.subTest(body=body):
                cb.assert_error(self.api.login(body), 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)

    def test_unknown_account_takes_as_long_as_a_wrong_password(self):
        """An unknown account is not faster to refuse than a known one (dummy argon2id verification)."""
        user = cb.new_user(self.api)
        known, unknown = [], []
        for attempt in range(8):
            if attempt == 4:
                cb.login_ok(self.api, user)  # reset the failure counter before it locks
            start = time.monotonic()
            resp = self.api.login({"email": user.email, "password": "Wrong-" + cb.unique_password()})
            known.append(time.monotonic() - start)
            self.assertEqual(resp.status, 401, resp)
            start = time.monotonic()
            resp = self.api.login({"email": cb.unique_email("ghost"), "password": "Wrong-" + cb.unique_password()})
            unknown.append(time.monotonic() - start)
            self.assertEqual(resp.status, 401, resp)
        ratio = statistics.median(unknown) / statistics.median(known)
        self.assertGreater(ratio, 0.5, f"unknown {statistics.median(unknown) * 1000:.1f} ms vs"
                                       f" known {statistics.median(known) * 1000:.1f} ms")

    def test_login_with_client_id_sets_audience(self):
        """A login naming an ACTIVE clientId gets a token whose aud is that clientId."""
        client_id, _ = cb.create_client()
        user = cb.new_user(self.api)
        body = cb.login_ok(self.api, user, clientId=client_id)
        self.assertEqual(cb.jwt_claims(body["accessToken"])["aud"], client_id)
        self.assertEqual(cb.jwt_claims(cb.login_ok(self.api, user)["accessToken"])["aud"], cb.DEFAULT_AUDIENCE)

    def test_login_with_unknown_client_id(self):
        """A login naming an unknown clientId is 400 'Unknown clientId' and opens no session."""
        user = cb.new_user(self.api)
        resp = self.api.login(user.login_body(clientId=cb.unique_client_id("nosuch")))
        cb.assert_error(resp, 400, "BAD_REQUEST", cb.MSG_UNKNOWN_CLIENT)
        self.assertEqual(cb.db().live_sessions(user.id), 1)

    def test_login_password_length_limit(self):
        """Login takes passwords up to 1024 characters (and simply fails); 1025 is a VALIDATION_ERROR."""
        user = cb.new_user(self.api)
        resp = self.api.login({"email": user.email, "password": "p" * 1024})
        cb.assert_error(resp, 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)
        resp = self.api.login({"email": user.email, "password": "p" * 1025})
        cb.assert_validation(resp, "password")

    def test_short_password_at_login_is_just_wrong(self):
        """Login does not apply the 8-character minimum: a short password is a plain 401."""
        user = cb.new_user(self.api)
        resp = self.api.login({"email": user.email, "password": "short"})
        cb.assert_error(resp, 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)


class LockoutTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def fail_logins(self, user, times):
        for attempt in range(times):
            resp = self.api.login({"email": user.email, "password": "Wrong-" + cb.unique_password()})
            cb.assert_error(resp, 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)

    def test_fifth_failure_locks_account(self):
        """Five failures answer 401; then even the right password gets 403 ACCOUNT_LOCKED."""
        user = cb.new_user(self.api)
        self.fail_logins(user, cb.LOCKOUT_FAILURES)
        resp = self.api.login(user.login_body())
        cb.assert_error(resp, 403, "ACCOUNT_LOCKED")
        resp = self.api.login({"email": user.email, "password": "Wrong-" + cb.unique_password()})
        cb.assert_error(resp, 403, "ACCOUNT_LOCKED")

    def test_lock_lasts_thirty_minutes(self):
        """The lock's locked_until is 30 minutes after the fifth failure."""
        user = cb.new_user(self.api)
        self.fail_logins(user, cb.LOCKOUT_FAILURES)
        now = cb.db().scalar("SELECT now()")
        locked_until = cb.db().user(user.id)["locked_until"]
        self.assertIsNotNone(locked_until)
        minutes = (locked_until - now).total_seconds() / 60
        self.assertGreater(minutes, 29)
        self.assertLessEqual(minutes, 30.05)

    def test_four_failures_do_not_lock(self):
        """Four consecutive failures leave the account usable."""
        user = cb.new_user(self.api)
        self.fail_logins(user, cb.LOCKOUT_FAILURES - 1)
        self.assertEqual(self.api.login(user.login_body()).status, 200)

    def test_success_resets_failure_counter(self):
        """A success after four failures resets the counter: four more failures still do not lock."""
        user = cb.new_user(self.api)
        self.fail_logins(user, cb.LOCKOUT_FAILURES - 1)
        cb.login_ok(self.api, user)
        self.assertEqual(cb.db().user(user.id)["failed_attempts"], 0)
        self.fail_logins(user, cb.LOCKOUT_FAILURES - 1)
        cb.login_ok(self.api, user)

    def test_failures_count_across_email_and_phone(self):
        """Failures through email and phone count against the one identity."""
        user = cb.new_user(self.api, with_phone=True)
        for attempt in range(cb.LOCKOUT_FAILURES):
            channel = {"email": user.email} if attempt % 2 else {"phone": user.phone}
            resp = self.api.login(dict(channel, password="Wrong-" + cb.unique_password()))
            cb.assert_error(resp, 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)
        cb.assert_error(self.api.login({"phone": user.phone, "password": user.password}), 403, "ACCOUNT_LOCKED")

    def test_lock_expires(self):
        """When locked_until has passed the lock clears by itself and the right password works."""
        user = cb.new_user(self.api)
        self.fail_logins(user, cb.LOCKOUT_FAILURES)
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")
        cb.db().execute("UPDATE corebank.auth_users SET locked_until = now() - interval '1 second'"
                        " WHERE id = %s", (user.id,))
        resp = self.api.login(user.login_body())
        self.assertEqual(resp.status, 200, resp)
        # The counter starts from zero again: a single failure does not re-lock.
        self.fail_logins(user, 1)
        cb.login_ok(self.api, user)

    def test_locked_account_keeps_existing_sessions_usable(self):
        """Locking blocks new logins; it does not revoke the access token already issued."""
        user = cb.new_user(self.api)
        self.fail_logins(user, cb.LOCKOUT_FAILURES)
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")
        self.assertTrue(self.api.is_live(user.access))

    def test_suspended_account_is_locked_at_login(self):
        """A SUSPENDED account (set by a DBA) answers 403 ACCOUNT_LOCKED with the right password."""
        user = cb.new_user(self.api)
        cb.db().execute("UPDATE corebank.auth_users SET status = 'SUSPENDED' WHERE id = %s", (user.id,))
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")


class UnknownIdentifierLockoutTest(unittest.TestCase):
    """Lockout never tells whether an account exists (issue 13).

    The spec makes a locked account answer 403 ACCOUNT_LOCKED; an identifier
    no account has therefore "locks" the same way after 5 failures, so the
    sequence of answers is the same whether or not the account exists
    (docs/identity.md, "Lockout and unknown accounts").
    """

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def attempts(self, body_of, times):
        """The (status, body without timestamp) of `times` wrong-password attempts."""
        out = []
        for _ in range(times):
            resp = self.api.login(dict(body_of(), password="Wrong-" + cb.unique_password()))
            body = dict(resp.json)
            body.pop("timestamp", None)
            out.append((resp.status, body))
        return out

    def test_locked_account_and_unknown_email_answer_alike(self):
        """Seven wrong attempts: a real account and an unknown email get the same answers, 401 x5 then 403."""
        user = cb.new_user(self.api)
        ghost = cb.unique_email("ghost")
        real = self.attempts(lambda: {"email": user.email}, cb.LOCKOUT_FAILURES + 2)
        unknown = self.attempts(lambda: {"email": ghost}, cb.LOCKOUT_FAILURES + 2)
        self.assertEqual(real, unknown)
        self.assertEqual([status for status, _ in unknown],
                         [401] * cb.LOCKOUT_FAILURES + [403, 403])
        self.assertEqual(unknown[-1][1]["error"], "ACCOUNT_LOCKED")
        self.assertEqual(unknown[0][1]["message"], cb.MSG_INVALID_CREDENTIALS)

    def test_four_failures_do_not_lock_an_unknown_email(self):
        """Four failures on an unknown email leave it answering 401, like a real account."""
        ghost = cb.unique_email("ghost")
        answers = self.attempts(lambda: {"email": ghost}, cb.LOCKOUT_FAILURES - 1)
        self.assertEqual({status for status, _ in answers}, {401})
        self.assertEqual(self.attempts(lambda: {"email": ghost.upper()}, 1)[0][0], 401)

    def test_unknown_phone_locks_with_or_without_plus(self):
        """An unknown phone locks after 5 failures, whichever way it is written."""
        phone = cb.unique_phone()
        for attempt in range(cb.LOCKOUT_FAILURES):
            written = phone if attempt % 2 else phone.lstrip("+")
            cb.assert_error(self.api.login({"phone": written, "password": "Wrong-pass-1"}), 401,
                            "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)
        cb.assert_error(self.api.login({"phone": phone, "password": "Wrong-pass-1"}), 403, "ACCOUNT_LOCKED")

    def test_unknown_email_lock_expires(self):
        """When the unknown email's lock has passed it answers 401 again, like a real account."""
        ghost = cb.unique_email("ghost")
        self.attempts(lambda: {"email": ghost}, cb.LOCKOUT_FAILURES)
        cb.assert_error(self.api.login({"email": ghost, "password": "Wrong-pass-1"}), 403, "ACCOUNT_LOCKED")
        cb.db().execute("UPDATE corebank.auth_login_failures SET locked_until = now() - interval '1 second'"
                        " WHERE identifier = %s", ("email:" + ghost.lower(),))
        cb.assert_error(self.api.login({"email": ghost, "password": "Wrong-pass-1"}), 401,
                        "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)


class LoginRateLimitTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_twenty_first_attempt_is_rate_limited(self):
        """The 21st attempt for one identifier within 60 s is 429 even with the right password."""
        user = cb.new_user(self.api)
        cb.wait_for_window_room(cb.LOGIN_RATE_WINDOW_S, 30)
        for attempt in range(cb.LOGIN_RATE_LIMIT):
            resp = self.api.login(user.login_body())
            self.assertEqual(resp.status, 200, f"attempt {attempt + 1}: {resp!r}")
        resp = self.api.login(user.login_body())
        cb.assert_error(resp, 429, "RATE_LIMIT_EXCEEDED")
        retry_after = resp.header("Retry-After")
        self.assertIsNotNone(retry_after, "429 without Retry-After")
        self.assertRegex(retry_after, r"^[0-9]+$")
        self.assertGreaterEqual(int(retry_after), 1)
        self.assertLessEqual(int(retry_after), cb.LOGIN_RATE_WINDOW_S)

    def test_rate_limit_is_per_normalised_identifier_not_per_ip(self):
        """The limit follows the normalised email, not the case used or the source address."""
        user = cb.new_user(self.api)
        bystander = cb.new_user(self.api)
        cb.wait_for_window_room(cb.LOGIN_RATE_WINDOW_S, 30)
        for attempt in range(cb.LOGIN_RATE_LIMIT):
            variant = user.email.upper() if attempt % 2 else user.email
            resp = self.api.login({"email": variant, "password": user.password}, xff=cb.unique_ip())
            self.assertEqual(resp.status, 200, f"attempt {attempt + 1}: {resp!r}")
        resp = self.api.login({"email": "  " + user.email.upper(), "password": user.password},
                              xff=cb.unique_ip())
        cb.assert_error(resp, 429, "RATE_LIMIT_EXCEEDED")
        # Another identifier from the same address is not affected.
        self.assertEqual(self.api.login(bystander.login_body()).status, 200)

    def test_rate_limited_attempts_do_not_count_as_failures(self):
        """A refused (429) attempt is counted before the password check, so it adds no failure."""
        user = cb.new_user(self.api)
        cb.wait_for_window_room(cb.LOGIN_RATE_WINDOW_S, 30)
        for attempt in range(cb.LOGIN_RATE_LIMIT):
            self.assertEqual(self.api.login(user.login_body()).status, 200)
        for attempt in range(3):
            resp = self.api.login({"email": user.email, "password": "Wrong-" + cb.unique_password()})
            cb.assert_error(resp, 429, "RATE_LIMIT_EXCEEDED")
        self.assertEqual(cb.db().user(user.id)["failed_attempts"], 0)


if __name__ == "__main__":
    unittest.main()
