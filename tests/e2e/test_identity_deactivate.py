"""Account deactivation: POST /auth/deactivate.

docs/identity.md fixes: the password is re-entered (wrong: 401
INVALID_CREDENTIALS), the account becomes DEACTIVATED, every session is
revoked, login then answers 403 ACCOUNT_LOCKED, and forgot sends nothing for
an account that is not active.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


def setUpModule():
    cb.require_identity_service()


class DeactivateTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_wrong_password_is_refused(self):
        """Deactivation with a wrong password is 401 INVALID_CREDENTIALS and the account stays active."""
        user = cb.new_user(self.api)
        cb.assert_error(self.api.deactivate(user.access, user.password + "x"), 401, "INVALID_CREDENTIALS")
        self.assertEqual(cb.db().user(user.id)["status"], "ACTIVE")
        self.assertTrue(self.api.is_live(user.access))
        cb.login_ok(self.api, user)

    def test_deactivate_revokes_sessions_and_locks_login(self):
        """Deactivation answers the fixed message, revokes every session and makes login 403."""
        user = cb.new_user(self.api, with_phone=True)
        other = cb.login_ok(self.api, user)
        cb.assert_message(self.api.deactivate(user.access, user.password), 200, cb.MSG_DEACTIVATED)
        self.assertEqual(cb.db().user(user.id)["status"], "DEACTIVATED")
        self.assertEqual(cb.db().live_sessions(user.id), 0)
        for access, refresh in ((user.access, user.refresh), (other["accessToken"], other["refreshToken"])):
            cb.assert_unauthorized(self.api.me(access))
            cb.assert_error(self.api.refresh(refresh), 401, "INVALID_CREDENTIALS")
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")
        cb.assert_error(self.api.login({"phone": user.phone, "password": user.password}), 403, "ACCOUNT_LOCKED")

    def test_deactivated_login_with_wrong_password(self):
        """A deactivated account answers 403 ACCOUNT_LOCKED to a wrong password as well."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.deactivate(user.access, user.password), 200, cb.MSG_DEACTIVATED)
        resp = self.api.login({"email": user.email, "password": "Wrong-" + cb.unique_password()})
        cb.assert_error(resp, 403, "ACCOUNT_LOCKED")

    def test_forgot_sends_nothing_for_deactivated_account(self):
        """Forgot for a deactivated account answers the same message but stores no reset token."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.deactivate(user.access, user.password), 200, cb.MSG_DEACTIVATED)
        cb.assert_message(self.api.forgot(user.email), 200, cb.MSG_FORGOT)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_reset_tokens WHERE user_id = %s",
                                        (user.id,)), 0)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_mail_outbox WHERE recipient = %s",
                                        (user.email,)), 0)

    def test_deactivate_needs_live_token(self):
        """Deactivation with a revoked token is 401 UNAUTHORIZED and leaves the account active."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.logout(user.access), 200, cb.MSG_LOGOUT)
        cb.assert_unauthorized(self.api.deactivate(user.access, user.password))
        self.assertEqual(cb.db().user(user.id)["status"], "ACTIVE")

    def test_deactivate_missing_password(self):
        """Deactivation without a password is a VALIDATION_ERROR naming `password`."""
        user = cb.new_user(self.api)
        resp = self.api.http.post("/auth/deactivate", token=user.access, json_body={})
        cb.assert_validation(resp, "password", reason="is required")
        self.assertEqual(cb.db().user(user.id)["status"], "ACTIVE")


class DeactivateGuessingTest(unittest.TestCase):
    """The re-entered password is counted like a login (issue 13, docs/identity.md "Online guessing")."""

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_wrong_passwords_lock_the_account(self):
        """Five wrong passwords lock: the right one is then 403 ACCOUNT_LOCKED and the account stays ACTIVE."""
        user = cb.new_user(self.api)
        for attempt in range(cb.LOCKOUT_FAILURES):
            cb.assert_error(self.api.deactivate(user.access, "Wrong-" + cb.unique_password()), 401,
                            "INVALID_CREDENTIALS")
        cb.assert_error(self.api.deactivate(user.access, user.password), 403, "ACCOUNT_LOCKED")
        self.assertEqual(cb.db().user(user.id)["status"], "ACTIVE")
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")

    def test_lock_ends_and_deactivation_works(self):
        """When the lock has passed, the right password deactivates."""
        user = cb.new_user(self.api)
        for attempt in range(cb.LOCKOUT_FAILURES):
            cb.assert_error(self.api.deactivate(user.access, "Wrong-" + cb.unique_password()), 401,
                            "INVALID_CREDENTIALS")
        cb.assert_error(self.api.deactivate(user.access, user.password), 403, "ACCOUNT_LOCKED")
        cb.db().execute("UPDATE corebank.auth_users SET locked_until = now() - interval '1 second' WHERE id = %s",
                        (user.id,))
        cb.assert_message(self.api.deactivate(user.access, user.password), 200, cb.MSG_DEACTIVATED)


if __name__ == "__main__":
    unittest.main()
