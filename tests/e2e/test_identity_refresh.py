"""Refresh token rotation: POST /auth/token/refresh.

docs/identity.md fixes: opaque single-use refresh tokens (32 random bytes,
base64url; only their SHA-256 is stored), rotation on every use within the
same session and audience, replay of a used token revokes every session of
the user, and unknown, expired or replayed tokens are 401 INVALID_CREDENTIALS.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


def setUpModule():
    cb.require_identity_service()


class RefreshTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def refresh_ok(self, refresh_token):
        resp = self.api.refresh(refresh_token)
        self.assertEqual(resp.status, 200, resp)
        return resp.json

    def test_refresh_returns_new_token_pair(self):
        """A refresh answers 200 with a new token pair for the same user."""
        user = cb.new_user(self.api, with_phone=True)
        body = self.refresh_ok(user.refresh)
        self.assertEqual(set(body), cb.TOKEN_PAIR_FIELDS)
        self.assertEqual(body["tokenType"], "Bearer")
        self.assertEqual(body["expiresIn"], cb.ACCESS_TTL_S)
        self.assertEqual(body["user"], user.body["user"])
        self.assertNotEqual(body["refreshToken"], user.refresh)
        old, new = cb.jwt_claims(user.access), cb.jwt_claims(body["accessToken"])
        self.assertEqual(new["sub"], user.id)
        self.assertNotEqual(new["jti"], old["jti"])
        self.assertEqual(new["exp"] - new["iat"], body["expiresIn"])
        self.assertTrue(self.api.is_live(body["accessToken"]))

    def test_refresh_token_format_and_storage(self):
        """A refresh token is 32 random bytes in base64url, and the database keeps only its SHA-256."""
        user = cb.new_user(self.api)
        self.assertRegex(user.refresh, r"^[A-Za-z0-9_-]{43}=?$")
        self.assertEqual(len(cb.b64url_decode(user.refresh.rstrip("="))), 32)
        digests = [cb.sha256(user.refresh.encode("ascii")), cb.sha256(cb.b64url_decode(user.refresh.rstrip("=")))]
        rows = cb.db().rows("SELECT t.token_hash FROM corebank.auth_refresh_tokens t"
                            " JOIN corebank.auth_sessions s ON s.id = t.session_id WHERE s.user_id = %s",
                            (user.id,))
        stored = [bytes(r["token_hash"]) for r in rows]
        self.assertEqual(len(stored), 1)
        self.assertIn(stored[0], digests)
        self.assertNotIn(user.refresh.encode("ascii"), stored)

    def test_rotation_chain(self):
        """Each new refresh token can itself be used once: a chain of rotations works."""
        user = cb.new_user(self.api)
        token = user.refresh
        seen = {token}
        for step in range(4):
            token = self.refresh_ok(token)["refreshToken"]
            self.assertNotIn(token, seen)
            seen.add(token)

    def test_used_refresh_token_is_rejected(self):
        """A refresh token stops working as soon as it has been used once."""
        user = cb.new_user(self.api)
        self.refresh_ok(user.refresh)
        cb.assert_error(self.api.refresh(user.refresh), 401, "INVALID_CREDENTIALS")

    def test_replay_revokes_every_session_of_the_user(self):
        """Replaying a used refresh token revokes all the user's sessions, not only that one."""
        user = cb.new_user(self.api)
        second = cb.login_ok(self.api, user)
        rotated = self.refresh_ok(user.refresh)
        self.assertEqual(cb.db().live_sessions(user.id), 2)
        cb.assert_error(self.api.refresh(user.refresh), 401, "INVALID_CREDENTIALS")
        self.assertEqual(cb.db().live_sessions(user.id), 0)
        self.assertFalse(self.api.is_live(rotated["accessToken"]))
        self.assertFalse(self.api.is_live(second["accessToken"]))
        cb.assert_error(self.api.refresh(rotated["refreshToken"]), 401, "INVALID_CREDENTIALS")
        cb.assert_error(self.api.refresh(second["refreshToken"]), 401, "INVALID_CREDENTIALS")
        # The account itself is fine: the owner signs in again.
        cb.login_ok(self.api, user)

    def test_replay_does_not_touch_other_users(self):
        """A replay revokes the sessions of that user only."""
        victim = cb.new_user(self.api)
        bystander = cb.new_user(self.api)
        self.refresh_ok(victim.refresh)
        cb.assert_error(self.api.refresh(victim.refresh), 401, "INVALID_CREDENTIALS")
        self.assertTrue(self.api.is_live(bystander.access))
        self.refresh_ok(bystander.refresh)

    def test_refresh_keeps_session(self):
        """Rotation stays within one session: the session id is the same before and after."""
        user = cb.new_user(self.api)
        before = cb.current_session_id(self.api, user.access)
        body = self.refresh_ok(user.refresh)
        self.assertEqual(cb.current_session_id(self.api, body["accessToken"]), before)
        self.assertEqual(cb.db().live_sessions(user.id), 1)

    def test_refresh_carries_client_audience(self):
        """A session opened with a clientId keeps that audience across refreshes."""
        client_id, _ = cb.create_client()
        user = cb.new_user(self.api)
        login = cb.login_ok(self.api, user, clientId=client_id)
        first = self.refresh_ok(login["refreshToken"])
        second = self.refresh_ok(first["refreshToken"])
        self.assertEqual(cb.jwt_claims(first["accessToken"])["aud"], client_id)
        self.assertEqual(cb.jwt_claims(second["accessToken"])["aud"], client_id)

    def test_refresh_carries_default_audience(self):
        """A session opened without clientId keeps the default audience across a refresh."""
        user = cb.new_user(self.api)
        body = self.refresh_ok(user.refresh)
        self.assertEqual(cb.jwt_claims(body["accessToken"])["aud"], cb.DEFAULT_AUDIENCE)

    def test_refresh_reflects_current_account_state(self):
        """A refreshed token describes the account as it is now (kyc tier changed meanwhile).

        The tier moves only with its evidence (docs/identity.md, "KYC tiers"): a followed reset link
        makes a user with both names BASIC, in the reset's transaction."""
        user = cb.new_user(self.api, firstName="Ada", lastName="Lovelace")
        cb.db().execute("INSERT INTO corebank.auth_reset_tokens (token_hash, user_id, expires_at) "
                        "VALUES (sha256(convert_to(%s::text, 'UTF8')), %s, now() + interval '30 minutes')",
                        (user.id, user.id))
        cb.db().execute("UPDATE corebank.auth_reset_tokens SET used_at = now() "
                        "WHERE token_hash = sha256(convert_to(%s::text, 'UTF8'))", (user.id,))
        body = self.refresh_ok(user.refresh)
        self.assertEqual(body["user"]["kycTier"], "BASIC")
        self.assertEqual(cb.jwt_claims(body["accessToken"])["kyc_tier"], "BASIC")

    def test_invalid_refresh_tokens(self):
        """Unknown refresh tokens of any shape are 401 INVALID_CREDENTIALS."""
        user = cb.new_user(self.api)
        for token in ("garbage", cb.b64url_encode(os.urandom(32)), user.access[:512], "x" * 512,
                      ("B" if user.refresh[0] == "A" else "A") + user.refresh[1:]):
            with self.subTest(token=token[:40]):
                cb.assert_error(self.api.refresh(token), 401, "INVALID_CREDENTIALS")
        # None of these was a replay of the user's token, so the session is untouched.
        self.assertTrue(self.api.is_live(user.access))
        self.refresh_ok(user.refresh)

    def test_expired_refresh_token(self):
        """A refresh token past its expiry is 401 INVALID_CREDENTIALS."""
        user = cb.new_user(self.api)
        cb.db().execute("UPDATE corebank.auth_refresh_tokens SET expires_at = now() - interval '1 second'"
                        " WHERE session_id IN (SELECT id FROM corebank.auth_sessions WHERE user_id = %s)",
                        (user.id,))
        cb.assert_error(self.api.refresh(user.refresh), 401, "INVALID_CREDENTIALS")

    def test_refresh_lifetime_is_thirty_days(self):
        """A new refresh token expires 30 days after issue."""
        user = cb.new_user(self.api)
        row = cb.db().one("SELECT t.issued_at, t.expires_at FROM corebank.auth_refresh_tokens t"
                          " JOIN corebank.auth_sessions s ON s.id = t.session_id WHERE s.user_id = %s",
                          (user.id,))
        lifetime = (row["expires_at"] - row["issued_at"]).total_seconds()
        self.assertAlmostEqual(lifetime, cb.REFRESH_TTL_S, delta=5)

    def test_refresh_token_of_logged_out_session(self):
        """After logout the session's refresh token is 401 INVALID_CREDENTIALS."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.logout(user.access), 200, cb.MSG_LOGOUT)
        cb.assert_error(self.api.refresh(user.refresh), 401, "INVALID_CREDENTIALS")


if __name__ == "__main__":
    unittest.main()
