"""Password change, forgot and reset: POST /auth/password/{change,forgot,reset}.

docs/identity.md fixes: change verifies the current password first (401),
refuses an unchanged password (400 VALIDATION_ERROR "newPassword: must differ
from the current password") and revokes every session; forgot always answers
the same 200 message, mails a single-use 30-minute link `<base>#token=<token>`
only for an existing active account, and allows 5 requests per client IP per
hour; reset refuses an invalid, expired or used token with 400 BAD_REQUEST
"Reset token is invalid, expired or already used", clears any lockout and
revokes every session.

Mail is read from CB_MAIL_DIR, where the server writes one .eml per message.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


# The reason a guessable new password is refused with (httpd/src/auth/password_quality.hpp).
TOO_GUESSABLE = "is too easy to guess (a common password, a dictionary word or a simple pattern)"


def setUpModule():
    cb.require_identity_service()


def reset_token_for(api, user, **forgot):
    """Ask for a reset link for user and return the token of the mail that answers it."""
    seen = {token for message in cb.mails_to(user.email) for _, token in cb.reset_links(message)}
    count = len(cb.mails_to(user.email))
    cb.assert_message(api.forgot(user.email, **forgot), 200, cb.MSG_FORGOT)
    mails = cb.wait_for_mails(user.email, count=count + 1)
    fresh = {token for message in mails for _, token in cb.reset_links(message)} - seen
    if len(fresh) != 1:
        raise AssertionError(f"expected one new reset token in mails to {user.email}, got {len(fresh)}")
    return fresh.pop()


class PasswordChangeTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_change_success_revokes_all_sessions(self):
        """A change answers the fixed message, signs every session out, and only the new password works."""
        user = cb.new_user(self.api)
        other = cb.login_ok(self.api, user)
        old_hash = cb.db().user(user.id)["password_hash"]
        new_password = cb.unique_password(128)
        resp = self.api.change_password(user.access, user.password, new_password)
        cb.assert_message(resp, 200, cb.MSG_CHANGED)
        self.assertEqual(cb.db().live_sessions(user.id), 0)
        for access, refresh in ((user.access, user.refresh), (other["accessToken"], other["refreshToken"])):
            cb.assert_unauthorized(self.api.me(access))
            cb.assert_error(self.api.refresh(refresh), 401, "INVALID_CREDENTIALS")
        new_hash = cb.db().user(user.id)["password_hash"]
        self.assertNotEqual(new_hash, old_hash)
        self.assertTrue(new_hash.startswith("$argon2id$"))
        cb.assert_error(self.api.login(user.login_body()), 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)
        self.assertEqual(self.api.login({"email": user.email, "password": new_password}).status, 200)

    def test_change_wrong_current_password(self):
        """A wrong current password is 401 INVALID_CREDENTIALS and changes nothing."""
        user = cb.new_user(self.api)
        resp = self.api.change_password(user.access, user.password + "x", cb.unique_password())
        cb.assert_error(resp, 401, "INVALID_CREDENTIALS")
        self.assertTrue(self.api.is_live(user.access))
        cb.login_ok(self.api, user)

    def test_current_password_is_verified_first(self):
        """A wrong current password is 401 even when the new one equals it."""
        user = cb.new_user(self.api)
        wrong = "Wrong-" + cb.unique_password()
        cb.assert_error(self.api.change_password(user.access, wrong, wrong), 401, "INVALID_CREDENTIALS")

    def test_change_to_same_password_rejected(self):
        """A new password equal to the current one is 400 VALIDATION_ERROR with the fixed message."""
        user = cb.new_user(self.api)
        resp = self.api.change_password(user.access, user.password, user.password)
        cb.assert_error(resp, 400, "VALIDATION_ERROR", cb.MSG_MUST_DIFFER)
        self.assertTrue(self.api.is_live(user.access))

    def test_change_new_password_length(self):
        """newPassword must be 8 to 128 characters: 7 and 129 are VALIDATION_ERROR, nothing changes."""
        user = cb.new_user(self.api)
        for length in (7, 129):
            with self.subTest(length=length):
                resp = self.api.change_password(user.access, user.password, ("Nn1-" + "y" * 200)[:length])
                cb.assert_validation(resp, "newPassword")
        self.assertTrue(self.api.is_live(user.access))
        cb.login_ok(self.api, user)

    def test_change_with_minimum_length_password(self):
        """An 8-character new password is accepted."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.change_password(user.access, user.password, "Kv9#qTz2"), 200, cb.MSG_CHANGED)
        self.assertEqual(self.api.login({"email": user.email, "password": "Kv9#qTz2"}).status, 200)

    def test_change_to_a_common_password_is_refused(self):
        """A common or dictionary-based newPassword is 400 VALIDATION_ERROR `newPassword: is too
        easy to guess (...)`; nothing changes: the session lives, the old password works (issue 13)."""
        user = cb.new_user(self.api)
        for weak in ("password123!", "Sunshine1"):
            with self.subTest(weak=weak):
                resp = self.api.change_password(user.access, user.password, weak)
                cb.assert_validation(resp, "newPassword", reason=TOO_GUESSABLE)
        self.assertTrue(self.api.is_live(user.access))
        cb.login_ok(self.api, user)


class PasswordChangeGuessingTest(unittest.TestCase):
    """The re-entered current password is counted like a login (issue 13).

    docs/identity.md ("Online guessing"): a wrong currentPassword is a failed
    login of that user, so the 5th consecutive one locks the account for 30
    minutes (then 403 ACCOUNT_LOCKED here and at login, even with the right
    password), and re-entries count against the login rate limit per user.
    """

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def wrong_change(self, user):
        resp = self.api.change_password(user.access, "Wrong-" + cb.unique_password(), cb.unique_password())
        cb.assert_error(resp, 401, "INVALID_CREDENTIALS")

    def test_wrong_current_passwords_lock_the_account(self):
        """Five wrong current passwords lock: the right one is then 403 here and at login, nothing changed."""
        user = cb.new_user(self.api)
        old_hash = cb.db().user(user.id)["password_hash"]
        for attempt in range(cb.LOCKOUT_FAILURES):
            self.wrong_change(user)
        cb.assert_error(self.api.change_password(user.access, user.password, cb.unique_password()), 403,
                        "ACCOUNT_LOCKED")
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")
        self.assertEqual(cb.db().user(user.id)["password_hash"], old_hash)

    def test_failures_add_up_with_failed_logins(self):
        """Three wrong logins and two wrong current passwords are five consecutive failures: locked."""
        user = cb.new_user(self.api)
        for attempt in range(3):
            resp = self.api.login({"email": user.email, "password": "Wrong-" + cb.unique_password()})
            cb.assert_error(resp, 401, "INVALID_CREDENTIALS")
        for attempt in range(2):
            self.wrong_change(user)
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")

    def test_right_current_password_resets_the_count(self):
        """Four wrong current passwords, then the right one (refused only as the same password), reset it."""
        user = cb.new_user(self.api)
        for round_ in range(2):
            for attempt in range(cb.LOCKOUT_FAILURES - 1):
                self.wrong_change(user)
            self.assertEqual(cb.db().user(user.id)["failed_attempts"], cb.LOCKOUT_FAILURES - 1)
            resp = self.api.change_password(user.access, user.password, user.password)
            cb.assert_error(resp, 400, "VALIDATION_ERROR", cb.MSG_MUST_DIFFER)
        self.assertEqual(cb.db().user(user.id)["failed_attempts"], 0)
        cb.login_ok(self.api, user)

    def test_re_entries_are_rate_limited_like_logins(self):
        """The 21st re-entry within the login window is 429 RATE_LIMIT_EXCEEDED, even with the right password."""
        user = cb.new_user(self.api)
        cb.wait_for_window_room(cb.LOGIN_RATE_WINDOW_S, 30)
        for attempt in range(cb.LOGIN_RATE_LIMIT):
            resp = self.api.change_password(user.access, user.password, user.password)
            cb.assert_error(resp, 400, "VALIDATION_ERROR", cb.MSG_MUST_DIFFER)
        resp = self.api.change_password(user.access, user.password, cb.unique_password())
        cb.assert_error(resp, 429, "RATE_LIMIT_EXCEEDED")
        self.assertIsNotNone(resp.header("Retry-After"))


class ForgotTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_forgot_same_answer_for_existing_and_unknown(self):
        """Forgot answers 200 with the same fixed message whether or not the account exists."""
        user = cb.new_user(self.api)
        known = self.api.forgot(user.email)
        unknown = self.api.forgot(cb.unique_email("ghost"))
        cb.assert_message(known, 200, cb.MSG_FORGOT)
        cb.assert_message(unknown, 200, cb.MSG_FORGOT)
        self.assertEqual(known.body, unknown.body)

    def test_mail_only_for_existing_account(self):
        """A reset mail goes to an existing account; an unknown address gets none and no outbox row."""
        ghost = cb.unique_email("ghost")
        user = cb.new_user(self.api)
        cb.assert_message(self.api.forgot(ghost), 200, cb.MSG_FORGOT)
        cb.assert_message(self.api.forgot(user.email), 200, cb.MSG_FORGOT)
        self.assertEqual(len(cb.wait_for_mails(user.email)), 1)
        self.assertEqual(cb.mails_to(ghost), [])
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_mail_outbox WHERE recipient = %s",
                                        (ghost,)), 0)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_reset_tokens WHERE user_id = %s",
                                        (user.id,)), 1)

    def test_reset_mail_content(self):
        """The mail is addressed to the user and holds exactly one link `<base>#token=<token>`."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.forgot(user.email), 200, cb.MSG_FORGOT)
        message = cb.wait_for_mails(user.email)[0]
        self.assertEqual(cb.mail_recipients(message), {user.email})
        self.assertTrue(message["Subject"])
        self.assertTrue(message["From"])
        links = cb.reset_links(message)
        self.assertEqual(len(set(links)), 1, links)
        base, token = links[0]
        self.assertTrue(base.startswith("http"), base)
        self.assertRegex(token, r"^[A-Za-z0-9_-]{20,512}$")

    def test_reset_link_carries_the_token_in_the_fragment(self):
        """The link is `<base>#token=<token>`: a fragment never reaches a server log, a proxy or a Referer (issue 13)."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.forgot(user.email), 200, cb.MSG_FORGOT)
        text = cb.mail_text(cb.wait_for_mails(user.email)[0])
        self.assertRegex(text, r"https?://[^\s?#]+#token=[A-Za-z0-9_-]{20,512}")
        self.assertNotIn("?token=", text)
        self.assertNotIn("&token=", text)

    def test_reset_form_reads_the_fragment_and_refuses_framing(self):
        """The reset form takes the token from the fragment and may not be framed (frame-ancestors 'none')."""
        resp = self.api.http.get("/auth/password/reset-form")
        self.assertEqual(resp.status, 200, resp)
        policy = resp.header("Content-Security-Policy") or ""
        self.assertIn("frame-ancestors 'none'", policy)
        self.assertEqual(resp.header("X-Frame-Options"), "DENY")
        page = resp.body.decode("utf-8")
        self.assertIn("location.hash", page)
        self.assertNotIn("location.search", page)

    def test_reset_token_stored_hashed_and_mail_sealed(self):
        """The database keeps only a hash of the reset token; the outbox never holds the link in clear."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        row = cb.db().one("SELECT token_hash, created_at, expires_at, used_at FROM corebank.auth_reset_tokens"
                          " WHERE user_id = %s", (user.id,))
        stored = bytes(row["token_hash"])
        self.assertNotIn(token.encode(), stored)
        self.assertIn(stored, (cb.sha256(token.encode()), cb.sha256(cb.b64url_decode(token))))
        self.assertIsNone(row["used_at"])
        self.assertAlmostEqual((row["expires_at"] - row["created_at"]).total_seconds(), 1800, delta=5)
        for outbox in cb.db().rows("SELECT subject, body_sealed FROM corebank.auth_mail_outbox"
                                   " WHERE recipient = %s", (user.email,)):
            self.assertNotIn(token, outbox["subject"] or "")
            self.assertNotIn(token.encode(), bytes(outbox["body_sealed"] or b""))

    def test_client_branding_selects_link_base(self):
        """With clientId, the link base and app name come from that OAuth client."""
        client_id, _ = cb.create_client()
        base = f"https://app-{cb.RUN_TAG}.example.test/reset"
        app_name = f"Brand {cb.RUN_TAG}"
        cb.db().execute("UPDATE corebank.auth_oauth_clients SET reset_link_base = %s, app_name = %s"
                        " WHERE client_id = %s", (base, app_name, client_id))
        user = cb.new_user(self.api)
        cb.assert_message(self.api.forgot(user.email, client_id=client_id), 200, cb.MSG_FORGOT)
        message = cb.wait_for_mails(user.email)[0]
        self.assertEqual([b for b, _ in cb.reset_links(message)], [base])
        self.assertIn(app_name, str(message["Subject"]) + cb.mail_text(message))

    def test_unknown_client_id_falls_back_to_default(self):
        """An unknown clientId on forgot still answers the same message and still mails the link."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.forgot(user.email, client_id=cb.unique_client_id("nosuch")),
                          200, cb.MSG_FORGOT)
        self.assertEqual(len(cb.reset_links(cb.wait_for_mails(user.email)[0])), 1)

    def test_forgot_rate_limit_per_ip(self):
        """The 6th forgot from one client IP within the hour is 429; another IP is unaffected."""
        user = cb.new_user(self.api)
        ip = cb.unique_ip()
        cb.wait_for_window_room(cb.RESET_RATE_WINDOW_S, 60)
        for attempt in range(cb.RESET_RATE_LIMIT):
            address = user.email if attempt == 0 else cb.unique_email("ghost")
            cb.assert_message(self.api.forgot(address, ip=ip), 200, cb.MSG_FORGOT)
        cb.assert_error(self.api.forgot(user.email, ip=ip), 429, "RATE_LIMIT_EXCEEDED")
        cb.assert_error(self.api.forgot(cb.unique_email("ghost"), ip=ip), 429, "RATE_LIMIT_EXCEEDED")
        cb.assert_message(self.api.forgot(cb.unique_email("ghost"), ip=cb.unique_ip()), 200, cb.MSG_FORGOT)
        # Only the one request that got through made a reset token.
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_reset_tokens WHERE user_id = %s",
                                        (user.id,)), 1)


class ResetTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_reset_with_mailed_token(self):
        """The mailed token sets a new password, revokes every session, and the old password stops working."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        new_password = cb.unique_password()
        cb.assert_message(self.api.reset(token, new_password), 200, cb.MSG_RESET)
        cb.assert_unauthorized(self.api.me(user.access))
        cb.assert_error(self.api.refresh(user.refresh), 401, "INVALID_CREDENTIALS")
        self.assertEqual(cb.db().live_sessions(user.id), 0)
        cb.assert_error(self.api.login(user.login_body()), 401, "INVALID_CREDENTIALS", cb.MSG_INVALID_CREDENTIALS)
        self.assertEqual(self.api.login({"email": user.email, "password": new_password}).status, 200)

    def test_reset_token_is_single_use(self):
        """A second reset with the same token is 400 with the fixed message and changes nothing."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        first, second = cb.unique_password(), cb.unique_password()
        cb.assert_message(self.api.reset(token, first), 200, cb.MSG_RESET)
        cb.assert_error(self.api.reset(token, second), 400, "BAD_REQUEST", cb.MSG_RESET_TOKEN_BAD)
        self.assertEqual(self.api.login({"email": user.email, "password": first}).status, 200)
        cb.assert_error(self.api.login({"email": user.email, "password": second}), 401, "INVALID_CREDENTIALS")

    def test_unknown_reset_tokens(self):
        """Made-up reset tokens are 400 BAD_REQUEST with the fixed message."""
        for token in ("garbage", cb.b64url_encode(os.urandom(32)), "x" * 512):
            with self.subTest(token=token[:20]):
                cb.assert_error(self.api.reset(token, cb.unique_password()), 400, "BAD_REQUEST",
                                cb.MSG_RESET_TOKEN_BAD)

    def test_expired_reset_token(self):
        """A reset token past its 30 minutes is 400 BAD_REQUEST with the fixed message."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        cb.db().execute("UPDATE corebank.auth_reset_tokens SET expires_at = now() - interval '1 second'"
                        " WHERE user_id = %s", (user.id,))
        cb.assert_error(self.api.reset(token, cb.unique_password()), 400, "BAD_REQUEST", cb.MSG_RESET_TOKEN_BAD)
        cb.login_ok(self.api, user)

    def test_reset_clears_lockout(self):
        """A reset unlocks an account locked by failed logins; the new password logs in at once."""
        user = cb.new_user(self.api)
        for _ in range(cb.LOCKOUT_FAILURES):
            self.api.login({"email": user.email, "password": "Wrong-" + cb.unique_password()})
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")
        token = reset_token_for(self.api, user)
        new_password = cb.unique_password()
        cb.assert_message(self.api.reset(token, new_password), 200, cb.MSG_RESET)
        self.assertTrue(cb.db().scalar("SELECT locked_until IS NULL OR locked_until <= now()"
                                       " FROM corebank.auth_users WHERE id = %s", (user.id,)))
        resp = self.api.login({"email": user.email, "password": new_password})
        self.assertEqual(resp.status, 200, resp)

    def test_reset_to_current_password_rejected(self):
        """A reset to the current password is 400 VALIDATION_ERROR with the fixed message."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        resp = self.api.reset(token, user.password)
        cb.assert_error(resp, 400, "VALIDATION_ERROR", cb.MSG_MUST_DIFFER)
        cb.login_ok(self.api, user)

    def test_reset_new_password_length(self):
        """A reset's newPassword must be 8 to 128 characters."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        for length in (7, 129):
            with self.subTest(length=length):
                cb.assert_validation(self.api.reset(token, ("Rr1-" + "z" * 200)[:length]), "newPassword")
        cb.assert_message(self.api.reset(token, ("Rr1-" + "z" * 200)[:128]), 200, cb.MSG_RESET)

    def test_reset_to_a_common_password_is_refused(self):
        """A common newPassword is 400 VALIDATION_ERROR `newPassword: is too easy to guess (...)`
        and spends nothing: the token then sets a strong password (issue 13)."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        cb.assert_validation(self.api.reset(token, "password123!"), "newPassword", reason=TOO_GUESSABLE)
        cb.login_ok(self.api, user)
        cb.assert_message(self.api.reset(token, "tangerine otter lamp 92"), 200, cb.MSG_RESET)
        self.assertEqual(self.api.login({"email": user.email, "password": "tangerine otter lamp 92"}).status, 200)

    def test_reset_token_of_deactivated_account(self):
        """A reset token stops working once its account is deactivated."""
        user = cb.new_user(self.api)
        token = reset_token_for(self.api, user)
        cb.assert_message(self.api.deactivate(user.access, user.password), 200, cb.MSG_DEACTIVATED)
        cb.assert_error(self.api.reset(token, cb.unique_password()), 400, "BAD_REQUEST", cb.MSG_RESET_TOKEN_BAD)
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")

    def test_each_forgot_mails_a_distinct_token(self):
        """Two forgot requests mail two different tokens; the later one works."""
        user = cb.new_user(self.api)
        first = reset_token_for(self.api, user)
        second = reset_token_for(self.api, user)
        self.assertNotEqual(first, second)
        cb.assert_message(self.api.reset(second, cb.unique_password()), 200, cb.MSG_RESET)


if __name__ == "__main__":
    unittest.main()
