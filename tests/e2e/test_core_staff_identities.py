"""Staff identities and their branch over HTTP (issue 15, "Staff administration").

An admin creates a staff identity without a password; the set-password link
arrives in the mail folder, the member follows it (the identity service's
reset) and signs in. Duplicates are 409, an unknown role 400, a change of
one's own roles, status or branch 403, the last active admin disabled or
demoted 422; disabling stops the identity's token at once; the branch is
read and assigned (null: head office; an unknown branch 404); bad input on
every endpoint is 4xx with nothing written; every change lands in
corebank.staff_audit with its actor. docs/core-banking.md, "Staff identities".
"""
import unittest
import uuid

import cbclient as cb
import corebanking as C

WRITTEN = ("auth_users", "staff_audit", "auth_reset_tokens", "auth_mail_outbox")


def setUpModule():
    C.require_core()


class StaffIdentitiesBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = C.Core(C.admin_key())
        cls.id_api = cb.Identity()
        cls.admin = C.new_staff("admin")

    def create(self, roles=("teller",), token=None, **extra):
        body = {"email": cb.unique_email("ident"), "roles": list(roles), **extra}
        return self.api.post("/v1/staff/identities", json_body=body, token=token or self.admin)

    def set_password(self, email):
        """Follows the set-password link mailed to `email`; answers the password chosen."""
        mails = cb.wait_for_mails(email, count=1)
        tokens = {t for message in mails for _, t in cb.reset_links(message)}
        self.assertEqual(len(tokens), 1, "one set-password link")
        password = cb.unique_password()
        self.assertEqual(self.id_api.reset(tokens.pop(), password).status, 200)
        return password

    def audit(self, target):
        return C.db().rows("SELECT actor_id::text AS actor, action, before, after FROM corebank.staff_audit "
                           "WHERE target = %s ORDER BY id", (target,))


class CreateTest(StaffIdentitiesBase):
    def test_created_without_password_then_the_mailed_link_sets_it(self):
        """Create: no password (login 401, counted), the link in the mail sets one, then login works."""
        created = C.ok(self.create(displayName=" Ann Teller ", branchCode="BYO"))
        self.assertEqual((created["username"], created["displayName"], created["roles"], created["status"],
                          created["branchCode"], created["passwordSet"]),
                         (created["email"], "Ann Teller", ["teller"], "ACTIVE", "BYO", False))
        self.assertFalse({"secret", "otpauthUri", "password"} & set(created), "no secret in the answer")
        refused = self.id_api.login({"email": created["email"], "password": cb.unique_password()})
        cb.assert_error(refused, 401, "INVALID_CREDENTIALS")
        self.assertEqual(C.db().user(created["id"])["failed_attempts"], 1)
        password = self.set_password(created["email"])
        body = C.login(created["email"], password)
        self.assertEqual(body["user"]["id"], created["id"])
        listed = {i["username"]: i for i in C.ok(self.api.get("/v1/staff/identities"))}
        self.assertTrue(listed[created["username"]]["passwordSet"])
        self.assertEqual([(r["actor"], r["action"]) for r in self.audit(created["id"])],
                         [(self.admin.id, "user.create")])

    def test_an_admin_created_over_http_sees_no_totp_secret(self):
        """A role of staff_mfa_roles created over HTTP: no secret shown; it enrols itself after its first login."""
        created = C.ok(self.create(roles=("admin",)))
        self.assertFalse({"secret", "otpauthUri"} & set(created))
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.auth_mfa_totp WHERE user_id = %s",
                                       (created["id"],)), 0)

    def test_duplicates_are_409_and_an_unknown_role_400(self):
        """Another identity's email or username: 409; a role staff_roles lacks: 400; nothing written."""
        first = C.ok(self.create(username=f"dup-{C.uid()}"[:40].lower()))
        counts = C.table_counts(*WRITTEN)
        cb.assert_error(self.api.post("/v1/staff/identities", json_body={"email": first["email"], "roles": ["teller"],
                                                                          "username": f"other-{C.uid()}"[:40].lower()},
                                      token=self.admin), 409, "CONFLICT")
        cb.assert_error(self.create(username=first["username"]), 409, "CONFLICT")
        body = cb.assert_error(self.create(roles=("wizard",)), 400, "VALIDATION_ERROR")
        self.assertIn("wizard", body["message"])
        self.assertEqual(C.table_counts(*WRITTEN), counts)


class ChangeTest(StaffIdentitiesBase):
    def test_nobody_changes_their_own_roles_status_or_branch(self):
        for resp in (self.api.put(f"/v1/staff/identities/{self.admin.email}", json_body={"roles": ["teller"]},
                                  token=self.admin),
                     self.api.put(f"/v1/staff/identities/{self.admin.email}", json_body={"status": "DISABLED"},
                                  token=self.admin),
                     self.api.put(f"/v1/staff/identities/{self.admin.id}/branch", json_body={"branchCode": "HRE"},
                                  token=self.admin)):
            cb.assert_error(resp, 403, "FORBIDDEN")

    def test_the_last_active_admin_is_neither_disabled_nor_demoted(self):
        """With every other admin suspended, a member allowed to change identities gets 422 for both moves."""
        key = f"e2e_ident_{C.uid()}"[:40].lower().replace("-", "_")
        C.ok(self.api.post("/v1/staff/roles", json_body={"key": key, "name": "Identity clerk",
                                                          "permissions": ["staff.identities.update"]},
                           token=self.admin))
        clerk = C.new_staff(key)
        others = [r["id"] for r in C.db().rows(
            "SELECT id::text AS id FROM corebank.auth_users WHERE status = 'ACTIVE' AND 'admin' = ANY (roles) "
            "AND id <> %s", (self.admin.id,))]
        try:
            C.db().execute("UPDATE corebank.auth_users SET status = 'SUSPENDED' WHERE id = ANY (%s::uuid[])", (others,))
            for change in ({"status": "DISABLED"}, {"roles": ["teller"]}):
                resp = self.api.put(f"/v1/staff/identities/{self.admin.email}", json_body=change, token=clerk)
                body = cb.assert_error(resp, 422, "UNPROCESSABLE")
                self.assertIn("last active admin", body["message"])
        finally:
            C.db().execute("UPDATE corebank.auth_users SET status = 'ACTIVE' WHERE id = ANY (%s::uuid[])", (others,))
            # The role gives its permission back: other modules compare the
            # holders of every permission with the documented role lists.
            C.ok(self.api.put(f"/v1/staff/roles/{key}", json_body={"permissions": []}, token=self.admin))
        self.assertEqual(C.db().user(self.admin.id)["status"], "ACTIVE")

    def test_disabling_stops_the_token_at_once_and_is_audited(self):
        created = C.ok(self.create(roles=("teller",)))
        password = self.set_password(created["email"])
        token = C.login(created["email"], password)["accessToken"]
        self.assertEqual(self.id_api.me(token).status, 200)
        C.capture(self.api, token, C.journal())
        disabled = C.ok(self.api.put(f"/v1/staff/identities/{created['username']}", json_body={"status": "DISABLED"},
                                     token=self.admin))
        self.assertEqual(disabled["status"], "DISABLED")
        self.assertEqual(C.db().live_sessions(created["id"]), 0)
        cb.assert_error(self.id_api.me(token), 401, "UNAUTHORIZED", timestamp=False)
        cb.assert_error(self.api.post("/v1/transactions", json_body=C.journal(), token=token), 401, "UNAUTHORIZED")
        rows = self.audit(created["id"])
        self.assertEqual([(r["actor"], r["action"]) for r in rows],
                         [(self.admin.id, "user.create"), (self.admin.id, "user.update")])
        self.assertEqual((rows[1]["before"]["status"], rows[1]["after"]["status"]), ("ACTIVE", "DISABLED"))
        enabled = C.ok(self.api.put(f"/v1/staff/identities/{created['username']}", json_body={"status": "ACTIVE"},
                                    token=self.admin))
        self.assertEqual(enabled["status"], "ACTIVE")
        self.assertEqual(C.login(created["email"], password)["user"]["id"], created["id"])


class BranchTest(StaffIdentitiesBase):
    def test_branch_read_assigned_null_is_head_office_unknown_404(self):
        created = C.ok(self.create(branchCode="BYO"))
        path = f"/v1/staff/identities/{created['id']}/branch"
        got = C.ok(self.api.get(path))
        self.assertEqual((got["branchCode"], got["branchName"], got["headOffice"]), ("BYO", "Bulawayo", False))
        moved = C.ok(self.api.put(path, json_body={"branchCode": "HRE"}, token=self.admin))
        self.assertEqual((moved["branchCode"], moved["headOffice"]), ("HRE", False))
        head = C.ok(self.api.put(path, json_body={"branchCode": None}, token=self.admin))
        self.assertEqual((head["branchCode"], head["branchName"], head["headOffice"]), (None, None, True))
        self.assertEqual(C.ok(self.api.get(path))["headOffice"], True)
        cb.assert_error(self.api.put(path, json_body={"branchCode": "NOPE"}, token=self.admin), 404, "NOT_FOUND")
        cb.assert_error(self.api.get(f"/v1/staff/identities/{uuid.uuid4()}/branch"), 404, "NOT_FOUND")
        rows = [r for r in self.audit(created["id"]) if r["action"] == "user.branch"]
        self.assertEqual([(r["actor"], r["before"]["branchCode"], r["after"]["branchCode"]) for r in rows],
                         [(self.admin.id, "BYO", "HRE"), (self.admin.id, "HRE", None)])


class BadInputTest(StaffIdentitiesBase):
    def test_bad_input_everywhere_is_4xx_and_writes_nothing(self):
        created = C.ok(self.create())
        teller = C.new_staff("teller")
        counts = C.table_counts(*WRITTEN)
        post = lambda body, token=None: self.api.post("/v1/staff/identities", json_body=body,
                                                      token=token or self.admin)
        put = lambda name, body, token=None: self.api.put(f"/v1/staff/identities/{name}", json_body=body,
                                                          token=token or self.admin)
        branch = f"/v1/staff/identities/{created['id']}/branch"
        email = cb.unique_email("bad")
        cases = [
            (post({"roles": ["teller"]}), 400, "VALIDATION_ERROR", "email"),
            (post({"email": "not-an-email", "roles": ["teller"]}), 400, "VALIDATION_ERROR", "email"),
            (post({"email": email}), 400, "VALIDATION_ERROR", "roles"),
            (post({"email": email, "roles": []}), 400, "VALIDATION_ERROR", "roles"),
            (post({"email": email, "roles": "teller"}), 400, "VALIDATION_ERROR", "roles"),
            (post({"email": email, "roles": ["Teller!"]}), 400, "VALIDATION_ERROR", "roles"),
            (post({"email": email, "roles": ["teller"] * 33}), 400, "VALIDATION_ERROR", "roles"),
            (post({"email": email, "roles": ["teller"], "username": "a b"}), 400, "VALIDATION_ERROR", "username"),
            (post({"email": email, "roles": ["teller"], "username": "x" * 300}), 400, "VALIDATION_ERROR", "username"),
            (post({"email": email, "roles": ["teller"], "displayName": "x" * 101}), 400, "VALIDATION_ERROR",
             "displayName"),
            (post({"email": email, "roles": ["teller"], "branchCode": "nope!"}), 400, "VALIDATION_ERROR", "branchCode"),
            (post({"email": email, "roles": ["teller"], "branchCode": "NOPE"}), 404, "NOT_FOUND", "branch"),
            (post({"email": email, "roles": ["teller"], "colour": "red"}), 400, "VALIDATION_ERROR", "colour"),
            (self.api.post("/v1/staff/identities", body=b"{", headers={"Content-Type": "application/json"},
                           token=self.admin), 400, "BAD_REQUEST", None),
            (post({"email": email, "roles": ["teller"]}, token=teller), 403, "FORBIDDEN", None),
            (self.api.post("/v1/staff/identities", json_body={"email": email, "roles": ["teller"]}), 401,
             "UNAUTHORIZED", None),
            (put(created["username"], {}), 400, "VALIDATION_ERROR", None),
            (put(created["username"], {"status": "GONE"}), 400, "VALIDATION_ERROR", "status"),
            (put(created["username"], {"roles": ["wizard"]}), 400, "VALIDATION_ERROR", "wizard"),
            (put(created["username"], {"roles": []}), 400, "VALIDATION_ERROR", "roles"),
            (put(created["username"], {"email": self.admin.email}), 409, "CONFLICT", "email"),
            (put(created["username"], {"username": "renamed"}), 400, "VALIDATION_ERROR", "username"),
            (put(created["username"], {"status": "DISABLED"}, token=teller), 403, "FORBIDDEN", None),
            (put("nobody-" + C.uid()[:8], {"displayName": "X"}), 404, "NOT_FOUND", None),
            (put("Not%20A%20Name", {"displayName": "X"}), 404, "NOT_FOUND", None),
            (self.api.put(branch, json_body={}, token=self.admin), 400, "VALIDATION_ERROR", "branchCode"),
            (self.api.put(branch, json_body={"branchCode": 7}, token=self.admin), 400, "VALIDATION_ERROR",
             "branchCode"),
            (self.api.put(branch, json_body={"branchCode": None, "x": 1}, token=self.admin), 400,
             "VALIDATION_ERROR", "x"),
            (self.api.put(branch, body=b"[]", headers={"Content-Type": "application/json"}, token=self.admin), 400,
             "BAD_REQUEST", None),
            (self.api.put(branch, json_body={"branchCode": "HRE"}, token=teller), 403, "FORBIDDEN", None),
            (self.api.put("/v1/staff/identities/not-a-uuid/branch", json_body={"branchCode": "HRE"},
                          token=self.admin), 404, "NOT_FOUND", None),
            (self.api.get("/v1/staff/identities/not-a-uuid/branch"), 404, "NOT_FOUND", None),
            (self.api.get("/v1/staff/identities", key=None), 401, "UNAUTHORIZED", None),
        ]
        for resp, status, code, text in cases:
            with self.subTest(status=status, code=code, text=text):
                body = cb.assert_error(resp, status, code)
                if text:
                    self.assertIn(text, body["message"])
        self.assertEqual(C.table_counts(*WRITTEN), counts)


if __name__ == "__main__":
    unittest.main()
