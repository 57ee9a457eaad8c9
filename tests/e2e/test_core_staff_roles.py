"""Staff roles and permissions over HTTP (issue 15, "Staff RBAC").

GET /v1/staff/permissions is policies/core_operations.json's operations
plus a make and a check permission per maker-checker operation; the seven
seeded roles; a role amended, or a user's roles changed, acts on the very
next request of a token issued before the change (the tier reads roles from
the database, not the token); a role holding only an operation's check
permission approves it at /v1/approvals; bad input on every endpoint is 4xx
with nothing written; every change lands in corebank.staff_audit.
docs/core-banking.md, "Staff roles and permissions".
"""
import json
import os
import unittest

import cbclient as cb
import corebanking as C

STAFF_TABLES = ("staff_roles", "staff_role_permissions", "staff_audit")


def setUpModule():
    C.require_core()


def policy():
    root = os.environ.get("CB_ROOT") or os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "policies", "core_operations.json")) as f:
        return json.load(f)["operations"]


class StaffRolesBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = C.Core(C.admin_key())
        cls.admin = C.new_staff("admin")
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")

    def role(self, key):
        roles = {r["key"]: r for r in C.ok(self.api.get("/v1/staff/roles"))}
        return roles.get(key)

    def put_role(self, key, body, token=None):
        return self.api.put(f"/v1/staff/roles/{key}", json_body=body, token=token or self.admin)

    def set_user_roles(self, staff, roles):
        C.db().execute("UPDATE corebank.auth_users SET roles = %s WHERE id = %s", (list(roles), staff.id))


class CatalogueTest(StaffRolesBase):
    def test_permissions_are_the_policy_operations_and_a_make_and_check_per_parked_operation(self):
        """Every operation naming no other permission is one; every named make has its check; nothing else."""
        perms = C.ok(self.api.get("/v1/staff/permissions"))
        keys = {p["key"] for p in perms}
        ops = policy()
        own = {name for name, rule in ops.items() if "permission" not in rule}
        named = {rule["permission"] for rule in ops.values() if rule.get("permission", "").endswith(":make")}
        self.assertEqual({p["key"] for p in perms if p["parkedOperation"] is None}, own)
        self.assertTrue(named)
        for make in named:
            self.assertIn(make, keys)
            self.assertIn(make[: -len(":make")] + ":check", keys)
        parked = {p["parkedOperation"] for p in perms if p["parkedOperation"]}
        self.assertEqual({p["key"] for p in perms if p["parkedOperation"]},
                         {f"{o}:{v}" for o in parked for v in ("make", "check")})
        for p in perms:
            scope = ops[p["key"]]["scope"] if p["key"] in ops else "write"
            self.assertEqual(p["access"], "read" if scope == "read" else "write", p)
        self.assertEqual(sorted(keys), [p["key"] for p in perms], "sorted by key")

    def test_seeded_roles_are_the_documented_role_lists_of_every_operation(self):
        """Each operation's x-required-roles (the role lists the policy file held before 1.8) are exactly
        the seeded roles holding its permission; the approvals', those holding every check permission."""
        ops = policy()
        holders = {}
        for role in C.ok(self.api.get("/v1/staff/roles")):
            for permission in role["permissions"]:
                holders.setdefault(permission, set()).add(role["key"])
        checks = [p["key"] for p in C.ok(self.api.get("/v1/staff/permissions")) if p["verb"] == "check"]
        compared = 0
        for template, item in C.openapi().document["paths"].items():
            for method, op in item.items():
                if not isinstance(op, dict) or op.get("x-staff-actor") in (None, "none"):
                    continue
                name = op["x-corebank-operation"]
                documented = set(op["x-required-roles"])
                if op["x-staff-actor"] == "optional" and not documented:
                    continue  # no role list before: any staff member; the key's scope is the gate
                permission = ops[name].get("permission", name)
                if permission == "<operation>:check":
                    for check in checks:
                        self.assertEqual(holders.get(check, set()), documented, f"{name}: {check}")
                else:
                    self.assertEqual(holders.get(permission, set()), documented, f"{name}: {permission}")
                compared += 1
        self.assertGreaterEqual(compared, 50)  # 59 when written: every staff operation of issues 3, 4, 7, 13, 14, 15

    def test_seven_roles_are_seeded(self):
        """teller, supervisor, branch_manager, compliance_officer, auditor (read-only), admin, agent."""
        roles = {r["key"]: r for r in C.ok(self.api.get("/v1/staff/roles"))}
        for key in ("teller", "supervisor", "branch_manager", "compliance_officer", "auditor", "admin", "agent"):
            self.assertIn(key, roles)
        self.assertTrue(roles["auditor"]["readOnly"])
        self.assertEqual(roles["agent"]["permissions"], [])
        self.assertIn("transaction.release:make", roles["teller"]["permissions"])
        self.assertNotIn("transaction.release:check", roles["teller"]["permissions"])
        self.assertIn("transaction.release:check", roles["supervisor"]["permissions"])


class RoleActsOnTheNextRequestTest(StaffRolesBase):
    def test_a_permission_withdrawn_from_teller_refuses_the_next_request_and_restored_allows_it(self):
        """The teller's token, issued before the change, is judged by the role as it is now."""
        before = self.role("teller")["permissions"]
        self.addCleanup(lambda: C.ok(self.put_role("teller", {"permissions": before})))
        C.capture(self.api, self.teller, C.journal())
        without = [p for p in before if p != "transaction.release:make"]
        self.assertEqual(C.ok(self.put_role("teller", {"permissions": without}))["permissions"], without)
        counts = C.ledger_counts()
        body = cb.assert_error(self.api.post("/v1/transactions", json_body=C.journal(), token=self.teller),
                               403, "FORBIDDEN")
        self.assertIn("transaction.release:make", body["message"])
        self.assertEqual(C.ledger_counts(), counts)
        C.ok(self.put_role("teller", {"permissions": before}))
        C.capture(self.api, self.teller, C.journal())

    def test_a_users_roles_changed_act_on_the_next_request(self):
        """A teller made auditor (in the database) is refused at once; made teller again, allowed at once."""
        staff = C.new_staff("teller")
        C.capture(self.api, staff, C.journal())
        self.set_user_roles(staff, ["auditor"])
        cb.assert_error(self.api.post("/v1/transactions", json_body=C.journal(), token=staff), 403, "FORBIDDEN")
        self.set_user_roles(staff, ["teller"])
        C.capture(self.api, staff, C.journal())
        rows = C.db().rows("SELECT before, after FROM corebank.staff_audit WHERE action = 'user.roles' AND target = %s "
                           "ORDER BY id", (staff.id,))
        self.assertEqual([(r["before"]["roles"], r["after"]["roles"]) for r in rows],
                         [(["teller"], ["auditor"]), (["auditor"], ["teller"])], "each change is audited")

    def test_a_role_holding_only_the_check_permission_approves(self):
        """FINERACT-2688 over HTTP: one permission, transaction.release:check, and the checker approves."""
        key = f"e2e_check_{C.uid()}"[:40].lower().replace("-", "_")
        C.ok(self.api.post("/v1/staff/roles", json_body={"key": key, "name": "Checks journals",
                                                          "permissions": ["transaction.release:check"]},
                           token=self.admin))
        checker = C.new_staff("supervisor")
        self.set_user_roles(checker, [key])
        outsider = C.new_staff("supervisor")
        self.set_user_roles(outsider, ["teller"])
        first = C.capture(self.api, self.teller, C.journal())["parkedChangeId"]
        body = cb.assert_error(self.api.post(f"/v1/approvals/{first}/approve", json_body={}, token=outsider),
                               403, "FORBIDDEN")
        self.assertIn("transaction.release:check", body["message"])
        self.assertEqual(C.ok(self.api.get(f"/v1/approvals/{first}"))["status"], "PENDING")
        self.assertEqual(C.approve(self.api, checker, first)["status"], "APPROVED")
        second = C.capture(self.api, self.teller, C.journal())["parkedChangeId"]
        resp = self.api.post(f"/v1/approvals/{second}/reject", json_body={"reason": "no"}, token=checker)
        self.assertEqual(C.ok(resp)["status"], "REJECTED")


class RoleChangesTest(StaffRolesBase):
    def test_create_amend_and_audit(self):
        """A role is created and amended by an admin; each change is one staff_audit row naming the admin."""
        key = f"e2e_{C.uid()}"[:40].lower().replace("-", "_")
        created = C.ok(self.api.post("/v1/staff/roles", json_body={"key": key, "name": " Night clerk ",
                                                                    "permissions": ["money.deposit", "accounts.get"]},
                                     token=self.admin))
        self.assertEqual((created["key"], created["name"], created["readOnly"], created["permissions"]),
                         (key, "Night clerk", False, ["accounts.get", "money.deposit"]))
        amended = C.ok(self.put_role(key, {"name": "Night teller", "permissions": ["money.deposit"]}))
        self.assertEqual((amended["name"], amended["permissions"]), ("Night teller", ["money.deposit"]))
        rows = C.db().rows("SELECT actor_id::text AS actor, action, before, after FROM corebank.staff_audit "
                          "WHERE target = %s ORDER BY id", (key,))
        self.assertEqual([(r["actor"], r["action"]) for r in rows],
                         [(self.admin.id, "role.create"), (self.admin.id, "role.update")])
        self.assertIsNone(rows[0]["before"])
        self.assertEqual(rows[1]["before"]["permissions"], ["accounts.get", "money.deposit"])
        self.assertEqual(rows[1]["after"]["permissions"], ["money.deposit"])


class BadInputTest(StaffRolesBase):
    def assert_refused(self, resp, status, code, message=None):
        body = cb.assert_error(resp, status, code)
        if message:
            self.assertIn(message, body["message"])
        return body

    def test_bad_input_everywhere_is_4xx_and_writes_nothing(self):
        """Every refusal of POST and PUT leaves staff_roles, staff_role_permissions and staff_audit as they were."""
        key = f"e2e_{C.uid()}"[:40].lower().replace("-", "_")
        C.ok(self.api.post("/v1/staff/roles", json_body={"key": key, "name": "Taken"}, token=self.admin))
        counts = C.table_counts(*STAFF_TABLES)
        post = lambda body, **kw: self.api.post("/v1/staff/roles", json_body=body, token=kw.get("token", self.admin))
        cases = [
            (post({"key": key, "name": "Again"}), 409, "CONFLICT", key),
            (post({"key": "Teller2", "name": "X"}), 400, "VALIDATION_ERROR", "key"),
            (post({"key": "x", "name": "X"}), 400, "VALIDATION_ERROR", "key"),
            (post({"key": "1abc", "name": "X"}), 400, "VALIDATION_ERROR", "key"),
            (post({"key": "a" * 41, "name": "X"}), 400, "VALIDATION_ERROR", "key"),
            (post({"name": "X"}), 400, "VALIDATION_ERROR", "key"),
            (post({"key": "no_name"}), 400, "VALIDATION_ERROR", "name"),
            (post({"key": "no_name", "name": "X", "colour": "red"}), 400, "VALIDATION_ERROR", "colour"),
            (post({"key": "bad_perm", "name": "X", "permissions": ["money.print"]}), 400, "VALIDATION_ERROR",
             "money.print"),
            (post({"key": "bad_perm", "name": "X", "permissions": "money.deposit"}), 400, "VALIDATION_ERROR",
             "permissions"),
            (post({"key": "peek", "name": "X", "readOnly": True, "permissions": ["money.deposit"]}), 422,
             "UNPROCESSABLE", "read-only"),
            (post({"key": "by_teller", "name": "X"}, token=self.teller), 403, "FORBIDDEN", "staff.roles.create"),
            (self.api.post("/v1/staff/roles", body="{not json", token=self.admin), 400, "BAD_REQUEST", None),
            (self.api.post("/v1/staff/roles", json_body={"key": "no_token", "name": "X"}), 401, "UNAUTHORIZED", None),
            (C.Core(C.new_key(["write"])["key"]).post("/v1/staff/roles", json_body={"key": "w", "name": "X"},
                                                      token=self.admin), 403, "FORBIDDEN", "admin"),
            (self.put_role("no_such_role", {"name": "X"}), 404, "NOT_FOUND", None),
            (self.put_role("Bad-Key", {"name": "X"}), 404, "NOT_FOUND", None),
            (self.put_role("auditor", {"permissions": ["accounts.get", "money.deposit"]}), 422, "UNPROCESSABLE",
             "read-only"),
            (self.put_role(key, {"key": "other_key"}), 422, "UNPROCESSABLE", "key"),
            (self.put_role(key, {"readOnly": True}), 422, "UNPROCESSABLE", "readOnly"),
            (self.put_role(key, {"permissions": ["nope"]}), 400, "VALIDATION_ERROR", "nope"),
            (self.put_role(key, {"name": ""}), 400, "VALIDATION_ERROR", "name"),
            (self.put_role(key, {"roles": []}), 400, "VALIDATION_ERROR", "roles"),
            (self.put_role(key, {"name": "X"}, token=self.supervisor), 403, "FORBIDDEN", "staff.roles.update"),
            (self.api.put(f"/v1/staff/roles/{key}", body="[]", token=self.admin), 400, "BAD_REQUEST", None),
        ]
        for resp, status, code, message in cases:
            with self.subTest(status=status, code=code, message=message):
                self.assert_refused(resp, status, code, message)
        self.assertEqual(C.table_counts(*STAFF_TABLES), counts)

    def test_reads_need_a_key_only(self):
        """The two lists answer a read key without a staff token, and no key is 401."""
        reader = C.Core(C.new_key(["read"])["key"])
        C.ok(reader.get("/v1/staff/roles"))
        C.ok(reader.get("/v1/staff/permissions"))
        cb.assert_error(C.Core(key=None).get("/v1/staff/roles"), 401, "UNAUTHORIZED")


if __name__ == "__main__":
    unittest.main()
