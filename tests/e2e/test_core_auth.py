"""Authentication and authorisation of the core banking service.

API keys (`X-API-Key`, SHA-256 at rest, scopes read < write < admin, a per-key
rate limit per minute, creation and zero-downtime rotation through
/v1/api-keys) and the acting staff person (`Authorization: Bearer` of an
identity-service staff token, revocation honoured, roles from
policies/core_operations.json). docs/core-banking.md, 00-decisions.md.
"""
import hashlib
import json
import re
import unittest

import cbclient as cb
import corebanking as C

KEY_RE = re.compile(r"^cb_core_[A-Za-z0-9_-]{43}$")


def setUpModule():
    C.require_core()


class AuthTestBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.admin = C.Core(C.admin_key())
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")
        cls.admin_staff = C.new_staff("admin")

    def capture_journal(self, api=None, token=None):
        return (api or self.admin).post("/v1/transactions", json_body=C.journal(), token=token)


class ApiKeyAuthenticationTest(AuthTestBase):
    def test_no_key_is_401(self):
        """A protected endpoint without X-API-Key is 401 UNAUTHORIZED."""
        resp = C.Core(key=None).get("/v1/transactions")
        body = cb.assert_error(resp, 401, "UNAUTHORIZED")
        self.assertIn("X-API-Key", body["message"])

    def test_unknown_key_is_401(self):
        """An unknown X-API-Key is 401 UNAUTHORIZED."""
        resp = C.Core(key="cb_core_" + "A" * 43).get("/v1/branches")
        cb.assert_error(resp, 401, "UNAUTHORIZED")

    def test_garbage_key_is_401(self):
        """A key that is not even shaped like one (and an empty one) is 401, never 400 or 500."""
        for key in ("x", "", " " * 3, "cb_core_" + "ä" * 5):
            with self.subTest(key=key):
                headers = {"X-API-Key": key.encode("utf-8").decode("latin-1")}
                resp = C.Core(key=None).get("/v1/branches", headers=headers)
                cb.assert_error(resp, 401, "UNAUTHORIZED")

    def test_revoked_key_is_401(self):
        """A key revoked with DELETE /v1/api-keys/{id} is refused with 401 from then on."""
        created = C.new_key(["read"])
        api = C.Core(created["key"])
        C.ok(api.get("/v1/branches"))
        revoked = C.ok(self.admin.delete(f"/v1/api-keys/{created['id']}"))
        self.assertEqual(revoked["status"], "REVOKED")
        cb.assert_error(api.get("/v1/branches"), 401, "UNAUTHORIZED")
        row = C.db().one("SELECT status, revoked_at FROM corebank.api_keys WHERE id = %s", (created["id"],))
        self.assertEqual(row["status"], "REVOKED")
        self.assertIsNotNone(row["revoked_at"])

    def test_revoking_a_revoked_key_is_409(self):
        """DELETE /v1/api-keys/{id} on an already revoked key is 409 CONFLICT (documented in /openapi.json)."""
        created = C.new_key(["read"])
        C.ok(self.admin.delete(f"/v1/api-keys/{created['id']}"))
        # The client also validates the status against the operation's documented responses.
        resp = self.admin.delete(f"/v1/api-keys/{created['id']}")
        cb.assert_error(resp, 409, "CONFLICT")

    def test_revoke_unknown_key_is_404(self):
        """DELETE /v1/api-keys/{unknown uuid} is 404 NOT_FOUND."""
        cb.assert_error(self.admin.delete(f"/v1/api-keys/{C.ZERO_UUID}"), 404, "NOT_FOUND")

    def test_cli_key_works(self):
        """`corebankd key-create --service core --scopes admin` prints one working admin key."""
        key = C.cli_key("admin")
        self.assertRegex(key, KEY_RE)
        C.ok(C.Core(key).get("/v1/api-keys"))

    def test_key_is_stored_only_as_sha256(self):
        """The database holds the key's SHA-256 and its 12-character prefix, never the key itself."""
        created = C.new_key(["read"])
        key = created["key"]
        self.assertRegex(key, KEY_RE)
        self.assertEqual(created["prefix"], key[:12])
        row = C.db().one("SELECT * FROM corebank.api_keys WHERE id = %s", (created["id"],))
        self.assertEqual(bytes(row["key_hash"]), hashlib.sha256(key.encode("ascii")).digest())
        for column, value in row.items():
            if isinstance(value, str):
                self.assertNotIn(key, value, f"plaintext key found in column {column}")
        self.assertNotIn(key[12:], json.dumps(row, default=str))


class KeyScopeTest(AuthTestBase):
    def test_read_key_cannot_write(self):
        """A read-only key capturing a journal is 403 FORBIDDEN and nothing is written."""
        api = C.Core(C.new_key(["read"])["key"])
        before = C.ledger_counts()
        resp = self.capture_journal(api, token=self.teller)
        body = cb.assert_error(resp, 403, "FORBIDDEN")
        self.assertIn("write", body["message"])
        self.assertEqual(C.ledger_counts(), before)

    def test_read_key_can_read(self):
        """A read-only key may search transactions and list branches."""
        api = C.Core(C.new_key(["read"])["key"])
        C.ok(api.get("/v1/transactions"))
        C.ok(api.get("/v1/branches"))

    def test_write_key_cannot_create_keys(self):
        """A write key on POST /v1/api-keys (an admin operation) is 403 and no key is created."""
        api = C.Core(C.new_key(["write"])["key"])
        before = C.count("api_keys")
        resp = api.post("/v1/api-keys", json_body={"name": "nope", "scopes": ["admin"]})
        body = cb.assert_error(resp, 403, "FORBIDDEN")
        self.assertIn("admin", body["message"])
        self.assertEqual(C.count("api_keys"), before)

    def test_write_key_cannot_list_keys(self):
        """A write key on GET /v1/api-keys is 403 FORBIDDEN."""
        api = C.Core(C.new_key(["write"])["key"])
        cb.assert_error(api.get("/v1/api-keys"), 403, "FORBIDDEN")

    def test_write_key_cannot_change_platform_config(self):
        """A write key on PUT /v1/platform/config (admin scope) is 403 even with an admin staff token."""
        api = C.Core(C.new_key(["write"])["key"])
        resp = api.put("/v1/platform/config", json_body={"makerCheckerLapseHours": 72}, token=self.admin_staff)
        cb.assert_error(resp, 403, "FORBIDDEN")

    def test_write_key_can_capture(self):
        """A write key with a teller token captures a journal (scopes are hierarchical: write >= write)."""
        api = C.Core(C.new_key(["write"])["key"])
        self.assertEqual(C.ok(self.capture_journal(api, token=self.teller))["status"], "PENDING")

    def test_auth_is_checked_before_input(self):
        """Without a key a malformed body is 401, not 400: authorisation comes before the input."""
        resp = C.Core(key=None).post("/v1/transactions", body="{not json", token=self.teller)
        cb.assert_error(resp, 401, "UNAUTHORIZED")


class StaffTokenTest(AuthTestBase):
    def test_missing_staff_token_on_capture_is_401(self):
        """Capturing a journal with a valid key but no staff token is 401 and writes nothing."""
        before = C.ledger_counts()
        resp = self.capture_journal()
        body = cb.assert_error(resp, 401, "UNAUTHORIZED")
        self.assertIn("Bearer", body["message"])
        self.assertEqual(C.ledger_counts(), before)

    def test_client_token_is_not_a_staff_token(self):
        """An OAuth client-credentials (service) token instead of a staff token is 401."""
        client_id, secret = cb.create_client(scopes=("kyc:validate",))
        resp = cb.Identity().oauth_token(client_id, secret)
        self.assertEqual(resp.status, 200, resp)
        token = resp.json["accessToken"]
        before = C.ledger_counts()
        cb.assert_error(self.capture_journal(token=token), 401, "UNAUTHORIZED")
        self.assertEqual(C.ledger_counts(), before)

    def test_customer_token_is_refused(self):
        """A registered customer's access token (no staff role) cannot capture: 401 or 403, nothing written."""
        user = cb.new_user(cb.Identity())
        before = C.ledger_counts()
        resp = self.capture_journal(token=user.access)
        self.assertIn(resp.status, (401, 403), resp)
        cb.assert_error(resp, resp.status, "UNAUTHORIZED" if resp.status == 401 else "FORBIDDEN")
        self.assertEqual(C.ledger_counts(), before)

    def test_garbage_token_is_401(self):
        """A bearer value that is not a JWT is 401 UNAUTHORIZED."""
        cb.assert_error(self.capture_journal(token="not.a.jwt"), 401, "UNAUTHORIZED")

    def test_tampered_token_is_401(self):
        """A staff token with a modified payload (signature no longer valid) is 401."""
        header, claims, _, signature = cb.jwt_parts(self.teller.token)
        claims["roles"] = ["admin"]
        forged = cb.unsigned_jwt(header, claims, signature)
        cb.assert_error(self.capture_journal(token=forged), 401, "UNAUTHORIZED")

    def test_logged_out_staff_session_is_401(self):
        """After POST /auth/logout the staff token is refused by the core tier (revocation honoured)."""
        staff = C.new_staff("teller")
        C.ok(self.capture_journal(token=staff))
        resp = cb.Identity().logout(staff.token)
        self.assertEqual(resp.status, 200, resp)
        before = C.ledger_counts()
        body = cb.assert_error(self.capture_journal(token=staff), 401, "UNAUTHORIZED")
        self.assertIn("revoked", body["message"].lower())
        self.assertEqual(C.ledger_counts(), before)

    def test_teller_cannot_approve(self):
        """A teller approving a parked journal is 403 FORBIDDEN (role) and the change stays PENDING."""
        maker = C.new_staff("teller")
        tx = C.capture(self.admin, maker, C.journal())
        resp = self.admin.post(f"/v1/approvals/{tx['parkedChangeId']}/approve", json_body={}, token=self.teller)
        body = cb.assert_error(resp, 403, "FORBIDDEN")
        self.assertIn("supervisor", body["message"])
        change = C.ok(self.admin.get(f"/v1/approvals/{tx['parkedChangeId']}"))
        self.assertEqual(change["status"], "PENDING")

    def test_auditor_cannot_capture(self):
        """A staff user with only the auditor role cannot capture a journal: 403, nothing written."""
        auditor = C.new_staff("auditor")
        before = C.ledger_counts()
        cb.assert_error(self.capture_journal(token=auditor), 403, "FORBIDDEN")
        self.assertEqual(C.ledger_counts(), before)

    def test_maker_is_the_token_user(self):
        """The maker recorded on a captured journal is the staff token's user."""
        tx = C.ok(self.capture_journal(token=self.teller))
        self.assertEqual(tx["makerId"], self.teller.id)
        change = C.ok(self.admin.get(f"/v1/approvals/{tx['parkedChangeId']}"))
        self.assertEqual(change["makerId"], self.teller.id)

    def test_reads_need_no_staff_token(self):
        """Read operations (actor none) answer 200 with only an API key."""
        for path in ("/v1/transactions", "/v1/approvals", "/v1/branches", "/v1/periods", "/v1/gl/accounts",
                     "/v1/platform/numbering"):
            with self.subTest(path=path):
                C.ok(self.admin.get(path))


class RateLimitTest(AuthTestBase):
    def test_fourth_call_in_a_minute_is_429(self):
        """A key with rateLimitPerMinute 3 gets 429 RATE_LIMIT_EXCEEDED with Retry-After on its 4th call."""
        created = C.new_key(["read"], rate=3)
        self.assertEqual(created["rateLimitPerMinute"], 3)
        api = C.Core(created["key"])
        cb.wait_for_window_room(60, 10)
        for _ in range(3):
            C.ok(api.get("/v1/branches"))
        resp = api.get("/v1/branches")
        body = cb.assert_error(resp, 429, "RATE_LIMIT_EXCEEDED")
        self.assertTrue(body["message"])
        retry = resp.header("Retry-After")
        self.assertIsNotNone(retry, "429 without Retry-After")
        self.assertRegex(retry, r"^\d+$")
        self.assertTrue(1 <= int(retry) <= 60, retry)
        # Another key is not affected.
        C.ok(self.admin.get("/v1/branches"))

    def test_public_endpoints_do_not_count_against_the_limit(self):
        """Public endpoints are not counted against a key (they read no key)."""
        created = C.new_key(["read"], rate=2)
        api = C.Core(created["key"])
        cb.wait_for_window_room(60, 10)
        for _ in range(5):
            C.ok(api.get("/v1/platform"))
        C.ok(api.get("/v1/branches"))
        C.ok(api.get("/v1/branches"))
        cb.assert_error(api.get("/v1/branches"), 429, "RATE_LIMIT_EXCEEDED")


class KeyRotationTest(AuthTestBase):
    def test_rotation_with_zero_downtime(self):
        """Rotation: old and new key both work until the old is revoked; then only the new one."""
        old = C.new_key(["write"], name=f"rotate-{C.uid()}")
        old_api = C.Core(old["key"])
        C.ok(old_api.get("/v1/transactions"))
        new = C.new_key(["write"], name=old["name"])
        new_api = C.Core(new["key"])
        self.assertNotEqual(old["key"], new["key"])
        self.assertEqual(new["scopes"], old["scopes"])
        for api in (old_api, new_api):
            C.ok(api.get("/v1/transactions"))
            self.assertEqual(C.ok(api.post("/v1/transactions", json_body=C.journal(), token=self.teller))["status"],
                             "PENDING")
        C.ok(self.admin.delete(f"/v1/api-keys/{old['id']}"))
        cb.assert_error(old_api.get("/v1/transactions"), 401, "UNAUTHORIZED")
        C.ok(new_api.get("/v1/transactions"))

    def test_plaintext_key_only_at_creation(self):
        """POST /v1/api-keys shows `key` once (201); GET /v1/api-keys never shows it."""
        created = C.new_key(["read"])
        self.assertRegex(created["key"], KEY_RE)
        listing = C.ok(self.admin.get("/v1/api-keys"))
        mine = [k for k in listing if k["id"] == created["id"]]
        self.assertEqual(len(mine), 1, "new key not listed")
        self.assertEqual(mine[0]["prefix"], created["key"][:12])
        self.assertEqual(mine[0]["status"], "ACTIVE")
        for item in listing:
            self.assertNotIn("key", item)
        self.assertNotIn(created["key"], json.dumps(listing))

    def test_created_key_fields(self):
        """A created key echoes name, scopes, rate limit and service `core`, status ACTIVE."""
        name = f"fields-{C.uid()}"
        created = C.new_key(["read", "write"], rate=1234, name=name)
        self.assertEqual(created["name"], name)
        self.assertEqual(sorted(created["scopes"]), ["read", "write"])
        self.assertEqual(created["rateLimitPerMinute"], 1234)
        self.assertEqual(created["service"], "core")
        self.assertEqual(created["status"], "ACTIVE")
        self.assertIsNone(created["lastUsedAt"])

    def test_default_rate_limit_is_6000(self):
        """A key created without rateLimitPerMinute gets the documented default 6000."""
        self.assertEqual(C.new_key(["read"])["rateLimitPerMinute"], 6000)

    def test_bad_key_requests_are_400(self):
        """POST /v1/api-keys with a bad scope, an empty scope list or a rate limit of 0 is 400 VALIDATION_ERROR."""
        cases = [({"name": "x", "scopes": ["root"]}, "scopes"),
                 ({"name": "x", "scopes": []}, "scopes"),
                 ({"name": "x", "scopes": ["read"], "rateLimitPerMinute": 0}, "rateLimitPerMinute"),
                 ({"scopes": ["read"]}, "name")]
        before = C.count("api_keys")
        for body, field in cases:
            with self.subTest(body=body):
                cb.assert_validation(self.admin.post("/v1/api-keys", json_body=body), field)
        self.assertEqual(C.count("api_keys"), before)


if __name__ == "__main__":
    unittest.main()
