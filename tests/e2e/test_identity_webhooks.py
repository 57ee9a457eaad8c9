"""The identity service's outbound events (docs/identity.md, "Outbound events").

Goal: a registration over HTTP sends a signed identity.user.registered and a
suspension by staff (POST /admin/users/{id}/suspend) a signed
identity.user.suspended, each through the deployment's webhook endpoints
(Verify-Signature, Verify-Event-Id), thin: {id, type, createdAt, data:
{userId}} with no email; an endpoint whose events filter names only
identity.user.suspended receives the suspension and not the registration;
the delivery log lists the identity event like any other.
Method: a second corebankd on its own database (tests/e2e/verify_support.py,
IsolatedTier: its outbox is its own, loopback receivers allowed); the staff
member is a registered user given compliance_officer in that database.
"""

import json
import time
import unittest

import cbclient as cb
import verify_support as vs



def setUpModule():
    vs.require_verify_service()
    cb.require(cb.CLI, "CB_CLI")
    cb.require(cb.DATABASE_URL, "CB_DATABASE_URL")


class IdentityWebhooksTest(vs.IsolatedWebhookTest):

    @classmethod
    def setup_tier(cls):
        key = cls.tier.cli("key-create", "--service", "verify", "--scopes", "webhooks:manage",
                           "--name", "e2e-identity-webhooks")
        cls.hooks = cb.HttpClient(cls.tier.url)
        cls.auth = {"Authorization": f"Bearer {key}"}
        cls.identity = cb.Identity(f"http://127.0.0.1:{cls.tier.ports[1]}")

    def execute(self, sql, params=()):
        self.tier_scalar(sql, params)

    def endpoint(self, **extra):
        receiver = self.new_receiver()
        resp = self.hooks.post("/v1/webhook-endpoints", json_body=dict(url=receiver.url, **extra), headers=self.auth)
        self.assertEqual(resp.status, 201, resp)
        return receiver, resp.json

    def received(self, receiver, event_type, user_id, timeout=vs.WEBHOOK_WAIT_S):
        """The first delivery of event_type about user_id, waiting for it."""
        deadline = time.monotonic() + timeout
        while True:
            for r in list(receiver.received):
                body = json.loads(r["body"])
                if body.get("type") == event_type and body.get("data", {}).get("userId") == user_id:
                    return r, body
            if time.monotonic() > deadline:
                raise AssertionError(f"no {event_type} for {user_id} after {timeout} s")
            time.sleep(0.1)

    def assert_thin_and_signed(self, got, body, secret, event_type, user):
        self.assertTrue(vs.signature_valid(secret, got["headers"]["Verify-Signature"], got["body"]),
                        "signed with the endpoint's secret")
        self.assertEqual(got["headers"]["Verify-Event-Id"], body["id"])
        self.assertEqual(set(body), {"id", "type", "createdAt", "data"})
        self.assertEqual((body["type"], body["data"]), (event_type, {"userId": user.id}))
        self.assertNotIn(user.email.encode(), got["body"], "no email in the body")

    def test_registration_and_suspension_are_signed_thin_events(self):
        """A registration and a suspension reach every endpoint that takes them, signed, with the user id only."""
        every, every_ep = self.endpoint(description="all events")
        picky, picky_ep = self.endpoint(events=["identity.user.suspended"])

        user = cb.new_user(self.identity)
        got, body = self.received(every, "identity.user.registered", user.id)
        self.assert_thin_and_signed(got, body, every_ep["secret"], "identity.user.registered", user)

        officer = cb.new_user(self.identity)
        self.execute("UPDATE corebank.auth_users SET roles = '{compliance_officer}' WHERE id = %s", (officer.id,))
        token = cb.login_ok(self.identity, officer)["accessToken"]
        resp = self.identity.http.post(f"/admin/users/{user.id}/suspend", token=token,
                                       json_body={"reason": "Card fraud reported"})
        self.assertEqual(resp.status, 200, resp)

        for receiver, ep in ((every, every_ep), (picky, picky_ep)):
            got, body = self.received(receiver, "identity.user.suspended", user.id)
            self.assert_thin_and_signed(got, body, ep["secret"], "identity.user.suspended", user)
        self.assertNotIn(b"Card fraud", got["body"], "no reason in the body")
        self.assertEqual([json.loads(r["body"])["type"] for r in picky.received], ["identity.user.suspended"],
                         "the filtered endpoint received the suspension only")

        log = self.hooks.get(f"/v1/webhook-endpoints/{picky_ep['id']}/deliveries", headers=self.auth)
        self.assertEqual(log.status, 200, log)
        self.assertEqual([(d["eventType"], d["sessionId"]) for d in log.json["data"]],
                         [("identity.user.suspended", None)], "the delivery log lists the identity event")

    def test_an_unknown_identity_type_is_refused(self):
        """An endpoint filter naming an identity type that does not exist is 400, and nothing is registered."""
        resp = self.hooks.post("/v1/webhook-endpoints", headers=self.auth,
                               json_body={"url": "http://127.0.0.1:9/x", "events": ["identity.user.created"]})
        cb.assert_error(resp, 400, "VALIDATION_ERROR")


if __name__ == "__main__":
    unittest.main()
