"""OAuth client administration over HTTP (issue 14, part 2).

docs/identity.md ("Client administration and suspension") fixes: staff with
admin, signed in with a second factor, list, create (the secret generated,
32 random bytes, shown once), read, change scopes, audiences and name, rotate
the secret with an overlap during which both secrets authenticate, and
disable a client; everyone else gets 403 FORBIDDEN and nothing is written;
bad input is 4xx and writes nothing; ./corebank client create keeps working.
"""

import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import admin_support as admin  # noqa: E402
import cbclient as cb  # noqa: E402

SECOND_FACTOR = ("A second factor is required for the role admin: sign in with a one-time code "
                 "(enrol at POST /auth/mfa/totp on the identity service)")


def setUpModule():
    cb.require_identity_service()


class ClientAdmin:
    """The client-administration endpoints, as one caller."""

    def __init__(self, api, token):
        self.http, self.token = api.http, token

    def list(self):
        return self.http.get("/admin/clients", token=self.token)

    def get(self, client_id):
        return self.http.get(f"/admin/clients/{client_id}", token=self.token)

    def create(self, payload=None, **kw):
        return self.http.post("/admin/clients", token=self.token, **self.sent(payload, kw))

    def update(self, client_id, payload=None, **kw):
        return self.http.request("PATCH", f"/admin/clients/{client_id}", token=self.token, **self.sent(payload, kw))

    def rotate(self, client_id, payload=None, **kw):
        return self.http.post(f"/admin/clients/{client_id}/rotate-secret", token=self.token,
                              **(self.sent(payload, kw) if payload is not None else kw))

    @staticmethod
    def sent(payload, kw):
        """A JSON payload, unless the caller sends a raw body."""
        return kw if "body" in kw else dict(kw, json_body=payload)

    def disable(self, client_id, **kw):
        return self.http.post(f"/admin/clients/{client_id}/disable", token=self.token, **kw)


class LifecycleTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.admin = ClientAdmin(cls.api, admin.staff_token("admin"))
        cls.introspector = cb.create_client(scopes=("introspect",))

    def token_status(self, client_id, secret, scope=None):
        return self.api.oauth_token(client_id, secret, scope=scope, basic=True)

    def test_created_rotated_and_disabled(self):
        """A client is created (secret shown once), gets tokens, is changed, rotated with an overlap, disabled."""
        client_id = cb.unique_client_id("admin")
        created = self.admin.create({"clientId": client_id, "scopes": ["kyc:validate", "kyc:screen"],
                                     "audiences": ["web-app"], "name": "KYC worker"})
        self.assertEqual(created.status, 201, created)
        self.assertEqual(created.header("Cache-Control"), "no-store")
        secret = created.json["clientSecret"]
        self.assertRegex(secret, r"^[A-Za-z0-9_-]{43}$", "32 random bytes, base64url")
        self.assertEqual(created.json["status"], "ACTIVE")
        self.assertEqual(created.json["audiences"], ["web-app"])
        stored = cb.db().scalar("SELECT secret_hash FROM corebank.auth_oauth_clients WHERE client_id = %s",
                                (client_id,))
        self.assertTrue(stored.startswith("$argon2id$"), "only a hash is stored")
        self.assertNotIn(secret, stored)
        self.assertNotIn("clientSecret", self.admin.get(client_id).json, "the secret is shown once")

        token = self.token_status(client_id, secret)
        self.assertEqual(token.status, 200, token)
        self.assertEqual(set(token.json["scope"].split()), {"kyc:validate", "kyc:screen"})
        listed = self.admin.list()
        self.assertEqual(listed.status, 200, listed)
        self.assertIn(client_id, [c["clientId"] for c in listed.json])

        changed = self.admin.update(client_id, {"scopes": ["kyc:screen"], "name": "Screening"})
        self.assertEqual(changed.status, 200, changed)
        self.assertEqual((changed.json["scopes"], changed.json["audiences"], changed.json["name"]),
                         (["kyc:screen"], ["web-app"], "Screening"))
        self.assertEqual(self.token_status(client_id, secret).json["scope"], "kyc:screen",
                         "the next token carries the new scopes")

        rotated = self.admin.rotate(client_id, {"overlapSeconds": 3600})
        self.assertEqual(rotated.status, 200, rotated)
        new_secret = rotated.json["clientSecret"]
        self.assertNotEqual(new_secret, secret)
        self.assertIsNotNone(rotated.json["previousSecretExpiresAt"])
        self.assertEqual(self.token_status(client_id, new_secret).status, 200, "the new secret works")
        self.assertEqual(self.token_status(client_id, secret).status, 200, "the old one too, during the overlap")
        cb.db().execute("UPDATE corebank.auth_oauth_clients SET previous_secret_expires_at = now() - interval '1 s' "
                        "WHERE client_id = %s", (client_id,))
        cb.assert_error(self.token_status(client_id, secret), 401, "INVALID_CREDENTIALS")
        self.assertEqual(self.token_status(client_id, new_secret).status, 200, "after the overlap only the new one")

        live = self.token_status(client_id, new_secret).json["accessToken"]
        disabled = self.admin.disable(client_id)
        self.assertEqual(disabled.status, 200, disabled)
        self.assertEqual(disabled.json["status"], "DISABLED")
        cb.assert_error(self.token_status(client_id, new_secret), 401, "INVALID_CREDENTIALS")
        facts = self.api.introspect(live, *self.introspector)
        self.assertEqual(facts.json, {"active": False}, "its tokens stop at once")
        events = cb.db().rows("SELECT event, user_id::text FROM corebank.auth_audit WHERE detail ->> 'clientId' = %s "
                              "AND event LIKE 'client\\_%%' AND event <> 'client_token' ORDER BY id", (client_id,))
        self.assertEqual([e["event"] for e in events], ["client_created", "client_updated", "client_secret_rotated",
                                                 "client_disabled"])

    def test_rotation_without_overlap_and_default_overlap(self):
        """overlapSeconds 0 ends the old secret at once; without a body the overlap is a day."""
        client_id, secret = cb.create_client(scopes=("kyc:screen",))  # made by the CLI
        rotated = self.admin.rotate(client_id)
        self.assertEqual(rotated.status, 200, rotated)
        ends = cb.parse_iso8601(rotated.json["previousSecretExpiresAt"])
        now = cb.parse_iso8601(cb.db().scalar("SELECT to_json(now())::text").strip('"'))
        self.assertAlmostEqual((ends - now).total_seconds(), 86400, delta=120)
        self.assertEqual(self.token_status(client_id, secret).status, 200, "a CLI client's old secret overlaps")
        again = self.admin.rotate(client_id, {"overlapSeconds": 0})
        self.assertEqual(again.status, 200, again)
        self.assertIsNone(again.json["previousSecretExpiresAt"])
        cb.assert_error(self.token_status(client_id, rotated.json["clientSecret"]), 401, "INVALID_CREDENTIALS")
        self.assertEqual(self.token_status(client_id, again.json["clientSecret"]).status, 200)

    def test_audiences_limit_introspection(self):
        """A client given audiences learns only of user tokens issued for one of them; emptied, of any."""
        app_id, _ = cb.create_client(scopes=("kyc:screen",))
        created = self.admin.create({"clientId": cb.unique_client_id("inspector"), "scopes": ["introspect"],
                                     "audiences": [app_id]})
        self.assertEqual(created.status, 201, created)
        inspector = (created.json["clientId"], created.json["clientSecret"])
        for_app = cb.new_user(self.api, clientId=app_id).access
        for_default = cb.new_user(self.api).access
        self.assertEqual(self.api.introspect(for_app, *inspector).json["aud"], app_id)
        self.assertEqual(self.api.introspect(for_default, *inspector).json, {"active": False})
        self.assertEqual(self.admin.update(inspector[0], {"audiences": []}).status, 200)
        self.assertTrue(self.api.introspect(for_default, *inspector).json["active"])

    def test_cli_client_create_still_works(self):
        """./corebank client create makes a client the admin endpoints read."""
        client_id = cb.unique_client_id("cli")
        out = cb.cli("client-create", "--id", client_id, "--scopes", "kyc:screen")
        lines = out.split()
        self.assertEqual(lines[0], client_id)
        self.assertRegex(lines[1], r"^[A-Za-z0-9_-]{43}$", "a generated secret")
        self.assertEqual(self.token_status(client_id, lines[1]).status, 200)
        self.assertEqual(self.admin.get(client_id).json["scopes"], ["kyc:screen"])


class RefusalTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.client_id, _ = cb.create_client()

    def refused(self, token, message=None):
        caller = ClientAdmin(self.api, token)
        before = admin.counts()
        for resp in (caller.list(), caller.get(self.client_id),
                     caller.create({"clientId": cb.unique_client_id("refused")}),
                     caller.update(self.client_id, {"scopes": ["x"]}),
                     caller.rotate(self.client_id), caller.disable(self.client_id)):
            cb.assert_error(resp, 403, "FORBIDDEN", message)
        self.assertEqual(admin.counts(), before, "nothing written")

    def test_staff_without_admin(self):
        """A teller, a compliance officer and a customer are refused on every operation."""
        self.refused(admin.staff_token("teller"), "Requires the role admin")
        self.refused(admin.staff_token("compliance_officer"), "Requires the role admin")
        self.refused(cb.new_user(self.api).access, "Requires the role admin")

    def test_admin_without_second_factor(self):
        """An admin whose session was signed in with a password alone is refused."""
        _, token = admin.admin_without_second_factor(self.api)
        self.refused(token, SECOND_FACTOR)

    def test_no_token(self):
        cb.assert_unauthorized(self.api.http.get("/admin/clients"))
        cb.assert_unauthorized(self.api.http.post("/admin/clients", json_body={"clientId": "x"}))


class BadInputTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.admin = ClientAdmin(cls.api, admin.staff_token("admin"))
        cls.client_id, _ = cb.create_client()
        cls.disabled_id, _ = cb.create_client()
        assert cls.admin.disable(cls.disabled_id).status == 200

    def test_every_endpoint(self):
        """Bad bodies and ids answer 4xx, and no client, audit row or secret changes."""
        before = admin.counts()
        cid = self.client_id
        cases = [
            (self.admin.create({"clientId": "bad id"}), 400, "VALIDATION_ERROR"),
            (self.admin.create({}), 400, "VALIDATION_ERROR"),
            (self.admin.create({"clientId": "ok-id", "scopes": "kyc:screen"}), 400, "VALIDATION_ERROR"),
            (self.admin.create({"clientId": "ok-id", "scopes": ["two words"]}), 400, "VALIDATION_ERROR"),
            (self.admin.create({"clientId": "ok-id", "audiences": ["bad aud"]}), 400, "VALIDATION_ERROR"),
            (self.admin.create({"clientId": "ok-id", "audiences": ["a"] * 21}), 400, "VALIDATION_ERROR"),
            (self.admin.create({"clientId": "ok-id", "name": "x" * 201}), 400, "VALIDATION_ERROR"),
            (self.admin.create({"clientId": "ok-id", "secret": "mine"}), 400, "VALIDATION_ERROR"),
            (self.admin.create(None, body="{not json"), 400, "BAD_REQUEST"),
            (self.admin.create({"clientId": cid}), 409, "CONFLICT"),
            (self.admin.get("bad%20id!"), 400, "BAD_REQUEST"),
            (self.admin.get("x" * 101), 400, "BAD_REQUEST"),
            (self.admin.get("no-such-client-" + cb.unique_client_id()), 404, "NOT_FOUND"),
            (self.admin.update(cid, {}), 400, "VALIDATION_ERROR"),
            (self.admin.update(cid, {"scopes": [1]}), 400, "VALIDATION_ERROR"),
            (self.admin.update(cid, {"status": "ACTIVE"}), 400, "VALIDATION_ERROR"),
            (self.admin.update(cid, None, body="[]"), 400, "BAD_REQUEST"),
            (self.admin.update("no-such-client", {"name": "x"}), 404, "NOT_FOUND"),
            (self.admin.rotate(cid, {"overlapSeconds": -1}), 400, "VALIDATION_ERROR"),
            (self.admin.rotate(cid, {"overlapSeconds": 604801}), 400, "VALIDATION_ERROR"),
            (self.admin.rotate(cid, {"overlapSeconds": "1"}), 400, "VALIDATION_ERROR"),
            (self.admin.rotate(cid, {"overlap": 1}), 400, "VALIDATION_ERROR"),
            (self.admin.rotate("no-such-client"), 404, "NOT_FOUND"),
            (self.admin.disable(cid, json_body={"reason": "x"}), 400, "BAD_REQUEST"),
            (self.admin.disable("no-such-client"), 404, "NOT_FOUND"),
            (self.admin.disable(self.disabled_id), 409, "CONFLICT"),
        ]
        for i, (resp, status, code) in enumerate(cases):
            with self.subTest(case=i):
                cb.assert_error(resp, status, code)
        self.assertEqual(admin.counts(), before, "nothing written")


if __name__ == "__main__":
    unittest.main()
