"""Sessions and logout: the 3-session cap, GET/DELETE /auth/sessions, POST /auth/logout[/all].

docs/identity.md fixes: at most 3 live sessions per user (a 4th login revokes
the oldest), the session object's fields, newest first with one `current`,
DELETE answering 404 for a session that is not the caller's and 400 for a
malformed UUID, and the logout messages. Revocation takes effect at once:
a revoked session's access token gets 401 UNAUTHORIZED on the next call.
"""

import os
import sys
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


def setUpModule():
    cb.require_identity_service()


class SessionCapTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_fourth_login_revokes_oldest_session(self):
        """With 3 live sessions, the next login revokes the oldest: its tokens stop working."""
        user = cb.new_user(self.api)                    # session 1 (registration)
        oldest = cb.current_session_id(self.api, user.access)
        logins = [cb.login_ok(self.api, user) for _ in range(2)]   # sessions 2, 3
        self.assertTrue(self.api.is_live(user.access))
        self.assertEqual(cb.db().live_sessions(user.id), cb.SESSIONS_MAX)
        newest = cb.login_ok(self.api, user)            # session 4 pushes out session 1
        self.assertEqual(cb.db().live_sessions(user.id), cb.SESSIONS_MAX)
        cb.assert_unauthorized(self.api.me(user.access))
        cb.assert_error(self.api.refresh(user.refresh), 401, "INVALID_CREDENTIALS")
        for body in logins + [newest]:
            self.assertTrue(self.api.is_live(body["accessToken"]))
        row = cb.db().one("SELECT revoked_at, revoked_reason FROM corebank.auth_sessions WHERE id = %s",
                          (oldest,))
        self.assertIsNotNone(row["revoked_at"])
        self.assertEqual(row["revoked_reason"], "session_cap")

    def test_cap_revokes_in_age_order(self):
        """Successive logins beyond the cap revoke sessions oldest first."""
        user = cb.new_user(self.api)
        bodies = [user.body] + [cb.login_ok(self.api, user) for _ in range(4)]
        live = [self.api.is_live(b["accessToken"]) for b in bodies]
        self.assertEqual(live, [False, False, True, True, True])

    def test_session_list_after_cap(self):
        """GET /auth/sessions lists exactly 3 sessions, the asking one marked current."""
        user = cb.new_user(self.api)
        oldest = cb.current_session_id(self.api, user.access)
        bodies = [cb.login_ok(self.api, user) for _ in range(3)]
        resp = self.api.sessions(bodies[1]["accessToken"])
        self.assertEqual(resp.status, 200, resp)
        sessions = resp.json
        self.assertEqual(len(sessions), cb.SESSIONS_MAX)
        self.assertNotIn(oldest, [s["id"] for s in sessions])
        current = [s for s in sessions if s["current"] is True]
        self.assertEqual(len(current), 1)
        self.assertEqual(current[0]["id"], cb.current_session_id(self.api, bodies[1]["accessToken"]))
        self.assertTrue(all(s["current"] is False for s in sessions if s is not current[0]))


class SessionListTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_session_object_fields(self):
        """Each session shows channel, ip (from the trusted X-Forwarded-For), userAgent and audience."""
        client_id, _ = cb.create_client()
        user = cb.new_user(self.api)
        ip, agent = cb.unique_ip(), f"e2e-agent/{uuid.uuid4().hex[:8]}"
        resp = self.api.login(user.login_body(channel="mobile", clientId=client_id),
                              xff=ip, headers={"User-Agent": agent})
        self.assertEqual(resp.status, 200, resp)
        listing = self.api.sessions(resp.json["accessToken"])
        self.assertEqual(listing.status, 200, listing)
        mine = [s for s in listing.json if s["current"]]
        self.assertEqual(len(mine), 1)
        session = mine[0]
        self.assertEqual(set(session), cb.SESSION_FIELDS)
        self.assertEqual(session["channel"], "mobile")
        self.assertEqual(session["ip"], ip)
        self.assertEqual(session["userAgent"], agent)
        self.assertEqual(session["audience"], client_id)
        created = cb.parse_iso8601(session["createdAt"])
        cb.parse_iso8601(session["lastUsedAt"])
        expires = cb.parse_iso8601(session["expiresAt"])
        self.assertAlmostEqual((expires - created).total_seconds(), cb.REFRESH_TTL_S, delta=60)
        uuid.UUID(session["id"])
        row = cb.db().one("SELECT channel, ip, user_agent, audience FROM corebank.auth_sessions WHERE id = %s",
                          (session["id"],))
        self.assertEqual(row, {"channel": "mobile", "ip": ip, "user_agent": agent, "audience": client_id})

    def test_sessions_newest_first(self):
        """Sessions are listed newest first."""
        user = cb.new_user(self.api)
        cb.login_ok(self.api, user, channel="second")
        third = cb.login_ok(self.api, user, channel="third")
        sessions = self.api.sessions(third["accessToken"]).json
        self.assertEqual([s["channel"] for s in sessions][:2], ["third", "second"])
        created = [cb.parse_iso8601(s["createdAt"]) for s in sessions]
        self.assertEqual(created, sorted(created, reverse=True))

    def test_session_default_audience(self):
        """A session opened without clientId shows the default audience."""
        user = cb.new_user(self.api)
        sessions = self.api.sessions(user.access).json
        self.assertEqual([s["audience"] for s in sessions], [cb.DEFAULT_AUDIENCE])

    def test_sessions_are_per_user(self):
        """A user sees only their own sessions."""
        alice, bob = cb.new_user(self.api), cb.new_user(self.api)
        bob_session = cb.current_session_id(self.api, bob.access)
        self.assertNotIn(bob_session, cb.session_ids(self.api, alice.access))


class SessionDeleteTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_delete_own_other_session(self):
        """DELETE of another of one's sessions answers 'Session revoked' and kills its tokens."""
        user = cb.new_user(self.api)
        doomed = cb.current_session_id(self.api, user.access)
        keeper = cb.login_ok(self.api, user)
        cb.assert_message(self.api.delete_session(keeper["accessToken"], doomed), 200, cb.MSG_SESSION_REVOKED)
        cb.assert_unauthorized(self.api.me(user.access))
        cb.assert_error(self.api.refresh(user.refresh), 401, "INVALID_CREDENTIALS")
        self.assertTrue(self.api.is_live(keeper["accessToken"]))
        self.assertEqual(len(cb.session_ids(self.api, keeper["accessToken"])), 1)
        self.assertIsNotNone(cb.db().scalar("SELECT revoked_at FROM corebank.auth_sessions WHERE id = %s",
                                            (doomed,)))

    def test_delete_current_session(self):
        """A user may revoke the session they are calling from; its token then stops working."""
        user = cb.new_user(self.api)
        current = cb.current_session_id(self.api, user.access)
        cb.assert_message(self.api.delete_session(user.access, current), 200, cb.MSG_SESSION_REVOKED)
        cb.assert_unauthorized(self.api.me(user.access))

    def test_delete_other_users_session_is_404(self):
        """DELETE of another user's session id is 404 NOT_FOUND and leaves it live."""
        attacker, victim = cb.new_user(self.api), cb.new_user(self.api)
        target = cb.current_session_id(self.api, victim.access)
        cb.assert_error(self.api.delete_session(attacker.access, target), 404, "NOT_FOUND")
        self.assertTrue(self.api.is_live(victim.access))
        self.assertEqual(cb.db().live_sessions(victim.id), 1)

    def test_delete_unknown_session_is_404(self):
        """DELETE of a well-formed but unknown session id is 404 NOT_FOUND."""
        user = cb.new_user(self.api)
        cb.assert_error(self.api.delete_session(user.access, uuid.uuid4()), 404, "NOT_FOUND")

    def test_delete_malformed_uuid_is_400(self):
        """DELETE with a malformed UUID in the path is 400 BAD_REQUEST."""
        user = cb.new_user(self.api)
        for bad in ("not-a-uuid", "1234", str(uuid.uuid4()) + "0", str(uuid.uuid4())[:-1] + "g",
                    "%00", "00000000-0000-0000-0000-00000000000"):
            with self.subTest(bad=bad):
                cb.assert_error(self.api.delete_session(user.access, bad), 400, "BAD_REQUEST")
        self.assertTrue(self.api.is_live(user.access))


class LogoutTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_logout_revokes_only_current_session(self):
        """POST /auth/logout revokes the presented token's session and no other."""
        user = cb.new_user(self.api)
        other = cb.login_ok(self.api, user)
        cb.assert_message(self.api.logout(other["accessToken"]), 200, cb.MSG_LOGOUT)
        cb.assert_unauthorized(self.api.me(other["accessToken"]))
        cb.assert_error(self.api.refresh(other["refreshToken"]), 401, "INVALID_CREDENTIALS")
        self.assertTrue(self.api.is_live(user.access))
        self.assertEqual(cb.db().live_sessions(user.id), 1)
        self.assertEqual(self.api.refresh(user.refresh).status, 200)

    def test_logout_twice(self):
        """A second logout with the same, now revoked, token is 401 UNAUTHORIZED."""
        user = cb.new_user(self.api)
        cb.assert_message(self.api.logout(user.access), 200, cb.MSG_LOGOUT)
        cb.assert_unauthorized(self.api.logout(user.access))

    def test_logout_all_revokes_every_session(self):
        """POST /auth/logout/all revokes every session of the user at once."""
        user = cb.new_user(self.api)
        others = [cb.login_ok(self.api, user) for _ in range(2)]
        cb.assert_message(self.api.logout_all(others[0]["accessToken"]), 200, cb.MSG_LOGOUT_ALL)
        self.assertEqual(cb.db().live_sessions(user.id), 0)
        for access, refresh in [(user.access, user.refresh)] + [(b["accessToken"], b["refreshToken"]) for b in others]:
            cb.assert_unauthorized(self.api.me(access))
            cb.assert_error(self.api.refresh(refresh), 401, "INVALID_CREDENTIALS")
        # Logging out everywhere is not a lock: the user signs in again.
        cb.login_ok(self.api, user)

    def test_logout_all_leaves_other_users_alone(self):
        """Logout-all of one user does not touch another user's sessions."""
        alice, bob = cb.new_user(self.api), cb.new_user(self.api)
        cb.assert_message(self.api.logout_all(alice.access), 200, cb.MSG_LOGOUT_ALL)
        self.assertTrue(self.api.is_live(bob.access))

    def test_logout_then_login_counts_fresh_sessions(self):
        """Revoked sessions do not count towards the cap: after logout-all, 3 new logins all live."""
        user = cb.new_user(self.api)
        cb.login_ok(self.api, user)
        cb.login_ok(self.api, user)
        cb.assert_message(self.api.logout_all(user.access), 200, cb.MSG_LOGOUT_ALL)
        bodies = [cb.login_ok(self.api, user) for _ in range(3)]
        self.assertTrue(all(self.api.is_live(b["accessToken"]) for b in bodies))
        self.assertEqual(cb.db().live_sessions(user.id), 3)


if __name__ == "__main__":
    unittest.main()
