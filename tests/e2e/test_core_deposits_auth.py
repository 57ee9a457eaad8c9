"""Authorisation of issue 4's endpoints, every one of them, driven by the
service's own /openapi.json and policies/core_operations.json: no or an
unknown API key is 401; a key below the operation's scope is 403; an
operation that records a person needs a staff token (401 without) whose roles
hold the operation's permission (403 otherwise, e.g. an auditor); and all of
this is decided before the input is looked at (a malformed body still gets
the 401/403). The documented x-required-* attributes match the policy file
and the roles the database seeds with each permission (issue 15).
"""
import json
import os
import re

import cbclient as cb
import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


PREFIXES = ("/v1/customers", "/v1/kyc", "/v1/deposit-products", "/v1/accounts", "/v1/interest", "/v1/dormancy",
            "/v1/deposits", "/v1/withdrawals", "/v1/transfers", "/v1/fees", "/v1/exchange-rates", "/v1/passbooks",
            "/v1/standing-orders")
SCOPES = ["read", "write", "admin"]


def policy():
    root = os.environ.get("CB_ROOT") or os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "policies", "core_operations.json")) as f:
        return json.load(f)["operations"]


def seeded_roles():
    """{permission: sorted roles holding it}, from the database (issue 15: roles live there, not in the policy)."""
    out = {}
    for row in C.db().rows("SELECT permission_key, array_agg(role_key ORDER BY role_key) AS roles "
                           "FROM corebank.staff_role_permissions GROUP BY permission_key"):
        out[row["permission_key"]] = list(row["roles"])
    return out


def roles_of(policy, roles, name):
    """The roles holding the permission operation `name` needs (none when it records no person)."""
    rule = policy[name]
    if rule["actor"] == "none" or rule.get("permission") == "<operation>:check":
        return []
    return roles.get(rule.get("permission", name), [])


def operations():
    """(method, concrete path, operation name) of every documented issue 4 operation."""
    out = []
    for template, item in C.openapi().document["paths"].items():
        if not template.startswith(PREFIXES):
            continue
        concrete = template.replace("{from}", "USD").replace("{to}", "ZWG")
        concrete = re.sub(r"\{[^}]+\}", D.MISSING_UUID, concrete)
        for method, op in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                out.append((method.upper(), concrete, op["x-corebank-operation"], op))
    return out


class DepositsAuthorisationTest(D.DepositsBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.keys = {scope: C.new_key([scope])["key"] for scope in SCOPES}
        cls.ops = operations()
        cls.policy = policy()
        cls.roles = seeded_roles()

    def test_every_route_is_covered(self):
        """The document lists the issue's 63 operations, plus issue 7's batch of transfers and issue 14's
        identity-user link, and each names a policy operation."""
        self.assertEqual(len(self.ops), 65)
        for method, path, name, op in self.ops:
            self.assertIn(name, self.policy, f"{method} {path}")
            rule = self.policy[name]
            self.assertEqual(op["x-required-scope"], rule["scope"], name)
            self.assertEqual(op["x-staff-actor"], rule["actor"], name)
            self.assertEqual(sorted(op["x-required-roles"]), sorted(roles_of(self.policy, self.roles, name)), name)
            self.assertIn(f"operation `{name}`", op["description"])

    def test_no_key_or_an_unknown_key_is_401_before_the_input(self):
        """Without X-API-Key, or with an unknown one, every operation is 401, whatever the body."""
        for method, path, name, _ in self.ops:
            for key in (None, "cb_core_not-a-key"):
                resp = self.api.request(method, path, key=key, body="{not json", token=self.admin)
                cb.assert_error(resp, 401, "UNAUTHORIZED")

    def test_scope_below_the_policy_is_403(self):
        """A key whose scope is below the operation's is 403 FORBIDDEN before the input is read."""
        checked = 0
        for method, path, name, _ in self.ops:
            needed = SCOPES.index(self.policy[name]["scope"])
            if needed == 0:
                continue
            resp = self.api.request(method, path, key=self.keys[SCOPES[needed - 1]], body="{not json",
                                    token=self.admin)
            self.assert_error(resp, 403, "FORBIDDEN", "scope")
            checked += 1
        self.assertEqual(checked, 40)  # 39 of issues 4 and 7, and issue 14's identity-user link

    def test_staff_token_required_and_roles_checked(self):
        """Operations recording a person: no token 401; an auditor's token 403 where the auditor's role lacks the
        permission (the reads it holds answer it: they take the token to scope the answer by branch); a bad token
        401; jobs run without a token."""
        checked_refusals = 0
        for method, path, name, _ in self.ops:
            rule = self.policy[name]
            if rule["actor"] == "none":
                continue
            key = self.keys[rule["scope"]]
            if rule["actor"] == "required":
                cb.assert_error(self.api.request(method, path, key=key, body="{not json"), 401, "UNAUTHORIZED")
            resp = self.api.request(method, path, key=key, body="{not json", token=self.auditor)
            if "auditor" in roles_of(self.policy, self.roles, name):
                self.assertNotIn(resp.status, (401, 403), f"{method} {path}: the auditor holds {name}: {resp!r}")
            else:
                self.assert_error(resp, 403, "FORBIDDEN", "roles")
                checked_refusals += 1
            resp = self.api.request(method, path, key=key, body="{not json", token="not.a.token")
            cb.assert_error(resp, 401, "UNAUTHORIZED")
        self.assertGreater(checked_refusals, 20, "the auditor's refusals were checked on the writes")

    def test_reads_need_no_person(self):
        """Read operations answer a read key without any staff token (404 for the unknown ids used here)."""
        for method, path, name, _ in self.ops:
            if self.policy[name]["scope"] != "read":
                continue
            self.assertNotEqual(self.policy[name]["actor"], "required", name)
            resp = self.api.request(method, path, key=self.keys["read"])
            self.assertNotIn(resp.status, (401, 403), f"{method} {path}: {resp!r}")

    def test_roles_of_money_movement(self):
        """Tellers move money and open accounts; supervisors approve and run jobs; auditors only read."""
        for name in ("money.deposit", "money.withdraw", "money.transfer", "money.transfer_batch", "money.fee", "accounts.open",
                     "standing_orders.create", "passbooks.issue", "customers.create"):
            self.assertIn("teller", roles_of(self.policy, self.roles, name), name)
            self.assertNotIn("auditor", roles_of(self.policy, self.roles, name), name)
        for name in ("accounts.activate", "accounts.interest.post", "exchange_rates.set"):
            self.assertNotIn("teller", roles_of(self.policy, self.roles, name), name)
        for name in ("interest.run", "dormancy.run", "standing_orders.execute"):
            self.assertEqual((self.policy[name]["scope"], self.policy[name]["actor"]), ("admin", "optional"), name)


if __name__ == "__main__":
    import unittest
    unittest.main()
