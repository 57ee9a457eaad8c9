"""Suspension over HTTP (issue 14, part 3).

docs/identity.md ("Client administration and suspension") fixes: staff with
admin (signed in with a second factor) or compliance_officer suspend and
reinstate a user with a reason; suspending revokes every session at once, so
the user's access and refresh tokens stop; a suspended user's login with the
right password is 403 ACCOUNT_LOCKED with its own message; both moves are
audited; nobody suspends themselves; everyone else gets 403 FORBIDDEN and
bad input 4xx, with nothing written.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import admin_support as admin  # noqa: E402
import cbclient as cb  # noqa: E402

SUSPENDED = "Account is suspended; contact support to have it reinstated"
LOCKED = "Account is locked or deactivated"


def setUpModule():
    cb.require_identity_service()


def suspend(api, token, user_id, payload=None, **kw):
    if "body" not in kw:
        kw["json_body"] = {"reason": "Card fraud reported"} if payload is None else payload
    return api.http.post(f"/admin/users/{user_id}/suspend", token=token, **kw)


def reinstate(api, token, user_id, payload=None, **kw):
    if "body" not in kw:
        kw["json_body"] = {"reason": "Case closed"} if payload is None else payload
    return api.http.post(f"/admin/users/{user_id}/reinstate", token=token, **kw)


class SuspensionTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.officer = admin.staff_token("compliance_officer")
        cls.admin = admin.staff_token("admin")

    def test_suspended_and_reinstated(self):
        """Suspension revokes every session at once and refuses login with its own message; reinstating restores login."""
        user = cb.new_user(self.api)
        second = cb.login_ok(self.api, user)
        self.assertEqual(self.api.me(user.access).status, 200)

        resp = suspend(self.api, self.officer, user.id, {"reason": "Card fraud reported, case 77"})
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(resp.json, {"userId": user.id, "status": "SUSPENDED", "revokedSessions": 2})
        cb.assert_unauthorized(self.api.me(user.access))
        cb.assert_unauthorized(self.api.me(second["accessToken"]))
        cb.assert_error(self.api.refresh(second["refreshToken"]), 401, "INVALID_CREDENTIALS")
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED", SUSPENDED)
        wrong = dict(user.login_body(), password="not-" + user.password)
        cb.assert_error(self.api.login(wrong), 403, "ACCOUNT_LOCKED", LOCKED)
        self.assertEqual(cb.db().scalar("SELECT failed_attempts FROM corebank.auth_users WHERE id = %s", (user.id,)), 0,
                         "no attempt on a suspended account is counted")
        self.assertEqual(cb.db().live_sessions(user.id), 0)

        back = reinstate(self.api, self.admin, user.id, {"reason": "Case 77 closed: not fraud"})
        self.assertEqual(back.status, 200, back)
        self.assertEqual(back.json, {"userId": user.id, "status": "ACTIVE", "revokedSessions": 0})
        self.assertEqual(cb.db().live_sessions(user.id), 0, "no session comes back")
        self.assertEqual(cb.login_ok(self.api, user)["user"]["id"], user.id)

        audit = cb.db().rows("SELECT event, detail FROM corebank.auth_audit WHERE user_id = %s "
                             "AND event IN ('suspended', 'reinstated') ORDER BY id", (user.id,))
        self.assertEqual([a["event"] for a in audit], ["suspended", "reinstated"])
        self.assertEqual(audit[0]["detail"]["reason"], "Card fraud reported, case 77")
        self.assertEqual(audit[1]["detail"]["reason"], "Case 77 closed: not fraud")
        officer_id = cb.jwt_claims(self.officer)["sub"]
        admin_id = cb.jwt_claims(self.admin)["sub"]
        self.assertEqual((audit[0]["detail"]["by"], audit[1]["detail"]["by"]), (officer_id, admin_id))

    def test_staff_read_one_user(self):
        """GET /admin/users/{id}: the user as /auth/me shows it, to the same staff; others 403, bad ids 400, unknown 404."""
        user = cb.new_user(self.api)
        me = self.api.me(user.access)
        self.assertEqual(me.status, 200, me)
        for token in (self.officer, self.admin):
            resp = self.api.http.get(f"/admin/users/{user.id}", token=token)
            self.assertEqual(resp.status, 200, resp)
            self.assertEqual(resp.json, me.json)
        self.assertEqual(suspend(self.api, self.officer, user.id).status, 200)
        self.assertEqual(self.api.http.get(f"/admin/users/{user.id}", token=self.admin).json["status"], "SUSPENDED")
        teller, customer = admin.staff_token("teller", "supervisor"), cb.new_user(self.api).access
        before = admin.counts()
        cb.assert_error(self.api.http.get(f"/admin/users/{user.id}", token=teller),
                        403, "FORBIDDEN", "Requires the role admin or compliance_officer")
        cb.assert_error(self.api.http.get(f"/admin/users/{user.id}", token=customer), 403, "FORBIDDEN")
        cb.assert_unauthorized(self.api.http.get(f"/admin/users/{user.id}"))
        cb.assert_error(self.api.http.get("/admin/users/not-a-uuid", token=self.officer), 400, "BAD_REQUEST")
        cb.assert_error(self.api.http.get("/admin/users/00000000-0000-4000-8000-000000000000", token=self.officer),
                        404, "NOT_FOUND")
        self.assertEqual(admin.counts(), before, "reads write nothing")

    def test_refusals(self):
        """Tellers, customers, an admin without a second factor and oneself are refused; nothing changes."""
        user = cb.new_user(self.api)
        weak_user, weak = admin.admin_without_second_factor(self.api)
        before = admin.counts()
        cases = [
            (admin.staff_token("teller", "supervisor"), user.id, "Requires the role admin or compliance_officer"),
            (cb.new_user(self.api).access, user.id, "Requires the role admin or compliance_officer"),
            (weak, user.id, "A second factor is required for the role admin: sign in with a one-time code "
                            "(enrol at POST /auth/mfa/totp on the identity service)"),
            (self.officer, cb.jwt_claims(self.officer)["sub"], "Nobody may suspend themselves"),
        ]
        for token, target, message in cases:
            with self.subTest(message=message):
                cb.assert_error(suspend(self.api, token, target), 403, "FORBIDDEN", message)
        cb.assert_error(reinstate(self.api, self.officer, cb.jwt_claims(self.officer)["sub"]), 403, "FORBIDDEN",
                        "Nobody may reinstate themselves")
        self.assertEqual(admin.counts(), before, "nothing written")
        self.assertEqual(self.api.me(user.access).status, 200, "the user's token still works")
        self.assertEqual(self.api.me(weak_user.access).status, 200)
        cb.assert_unauthorized(self.api.http.post(f"/admin/users/{user.id}/suspend", json_body={"reason": "x"}))

    def test_bad_input(self):
        """Bad ids, bodies and states answer 4xx and write nothing."""
        user = cb.new_user(self.api)
        gone = cb.new_user(self.api)
        self.assertEqual(self.api.deactivate(gone.access, gone.password).status, 200)
        before = admin.counts()
        cases = [
            (suspend(self.api, self.officer, "not-a-uuid"), 400, "BAD_REQUEST"),
            (suspend(self.api, self.officer, user.id, {}), 400, "VALIDATION_ERROR"),
            (suspend(self.api, self.officer, user.id, {"reason": "   "}), 400, "VALIDATION_ERROR"),
            (suspend(self.api, self.officer, user.id, {"reason": "x" * 501}), 400, "VALIDATION_ERROR"),
            (suspend(self.api, self.officer, user.id, {"reason": 7}), 400, "VALIDATION_ERROR"),
            (suspend(self.api, self.officer, user.id, {"reason": "x", "until": "never"}), 400, "VALIDATION_ERROR"),
            (suspend(self.api, self.officer, user.id, body="{no"), 400, "BAD_REQUEST"),
            (suspend(self.api, self.officer, user.id, body=""), 400, "BAD_REQUEST"),
            (suspend(self.api, self.officer, "00000000-0000-4000-8000-000000000000"), 404, "NOT_FOUND"),
            (suspend(self.api, self.officer, gone.id), 409, "CONFLICT"),
            (reinstate(self.api, self.officer, user.id), 409, "CONFLICT"),
            (reinstate(self.api, self.officer, "not-a-uuid"), 400, "BAD_REQUEST"),
            (reinstate(self.api, self.officer, user.id, {"reason": ""}), 400, "VALIDATION_ERROR"),
        ]
        for i, (resp, status, code) in enumerate(cases):
            with self.subTest(case=i):
                cb.assert_error(resp, status, code)
        self.assertEqual(admin.counts(), before, "nothing written")
        self.assertEqual(suspend(self.api, self.officer, user.id).status, 200)
        cb.assert_error(suspend(self.api, self.officer, user.id), 409, "CONFLICT",
                        "Only an ACTIVE user can be suspended; this one is SUSPENDED")


if __name__ == "__main__":
    unittest.main()
