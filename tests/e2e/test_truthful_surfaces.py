"""Surfaces that tell the truth (issue 11, part 6): no endpoint claims what is not there.

- GET /v1/platform lists the four services this process runs, each on the port
  it really answers on, and none of them as "not built".
- GET /v1/platform/compliance lists only controls that exist (no simulated
  regulatory submission, no transaction monitoring) and the KYC provider mode
  of the configuration (the suite's corebank.conf: STUB).
- PUT /v1/platform/branch-scoping refuses to turn scoping on (422), since
  nothing enforces it yet, and parks nothing; an "on" change parked before
  extension 1.6 cannot be approved either; turning it off is still parked.
- The identity service's OpenID discovery lists only the grants that
  POST /oauth/token serves.

Method: plain HTTP against the running services, checks in the database for
what was (not) parked. The pre-1.6 "on" change is written into
parked_changes directly, as the row an older release left behind.
"""
import unittest
import urllib.parse

import cbclient as cb
import corebanking as C

REFUSED_ON = "Branch scoping cannot be turned on: it is not enforced yet"


def setUpModule():
    C.require_core()
    cb.require(cb.VERIFY_URL, "CB_VERIFY_URL")
    cb.require(cb.EVENTS_URL, "CB_EVENTS_URL")


def port_of(url):
    return urllib.parse.urlsplit(url).port


class PlatformOverviewTest(unittest.TestCase):
    def test_services_are_the_ones_this_process_runs(self):
        """Each service of GET /v1/platform is on the port it answers on; none is "not built"."""
        body = C.ok(C.Core(key=None).get("/v1/platform"))
        services = {s["name"]: s for s in body["services"]}
        urls = {"core-banking": cb.CORE_URL, "identity": cb.ID_URL,
                "verification": cb.VERIFY_URL, "events": cb.EVENTS_URL}
        self.assertEqual(set(services), set(urls))
        for name, url in urls.items():
            with self.subTest(service=name):
                self.assertEqual(services[name]["port"], port_of(url))
                self.assertNotEqual(services[name]["status"], "not built")
                resp = cb.HttpClient(url).get("/openapi.json")
                self.assertEqual(resp.status, 200, f"{name} does not answer on its port: {resp!r}")
        self.assertEqual(services["core-banking"]["status"], "partial")
        for name in ("identity", "verification", "events"):
            self.assertEqual(services[name]["status"], "available", name)


class PlatformComplianceTest(unittest.TestCase):
    def test_only_controls_that_exist(self):
        """No simulated regulatory submission and no transaction monitoring: neither is built."""
        body = C.ok(C.Core(key=None).get("/v1/platform/compliance"))
        self.assertNotIn("regulatorySubmission", body)
        self.assertNotIn("transactionMonitoring", body)
        text = str(body).lower()
        self.assertNotIn("simulated", text)
        self.assertNotIn("advisory", text)
        self.assertEqual(set(body), {"ledger", "makerChecker", "kyc", "dataProtection"})

    def test_kyc_mode_is_the_configured_one(self):
        """The KYC provider mode is the configuration's (corebank.conf of the suite: STUB)."""
        body = C.ok(C.Core(key=None).get("/v1/platform/compliance"))
        self.assertEqual(body["kyc"]["externalProviderMode"], "STUB")
        self.assertIn("source=STUB", body["kyc"]["note"])


class BranchScopingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = C.Core(C.admin_key())
        cls.admin = C.new_staff("admin")
        cls.supervisor = C.new_staff("supervisor")

    def pending_scoping_changes(self):
        return C.count("parked_changes", "operation = 'branch_scoping.update' AND status = 'PENDING'")

    def reject_when_pending(self, change_id):
        if C.count("parked_changes", "id = %s AND status = 'PENDING'", (change_id,)):
            C.reject(self.api, self.supervisor, change_id, reason="test cleanup")

    def test_turning_on_is_refused_and_parks_nothing(self):
        """PUT {enabled: true} is 422 UNPROCESSABLE with a clear message; nothing is parked; it stays off."""
        before = self.pending_scoping_changes()
        resp = self.api.put("/v1/platform/branch-scoping", json_body={"enabled": True}, token=self.admin)
        cb.assert_error(resp, 422, "UNPROCESSABLE", REFUSED_ON)
        self.assertEqual(self.pending_scoping_changes(), before)
        self.assertIs(C.ok(self.api.get("/v1/platform/branch-scoping"))["enabled"], False)

    def test_turning_off_is_still_parked(self):
        """PUT {enabled: false} is parked as before (branch_scoping.update)."""
        change = C.ok(self.api.put("/v1/platform/branch-scoping", json_body={"enabled": False}, token=self.admin))
        self.addCleanup(self.reject_when_pending, change["id"])
        self.assertEqual((change["operation"], change["status"]), ("branch_scoping.update", "PENDING"))
        approved = C.approve(self.api, self.supervisor, change["id"])
        self.assertEqual(approved["status"], "APPROVED")
        self.assertIs(C.ok(self.api.get("/v1/platform/branch-scoping"))["enabled"], False)

    def test_an_on_change_parked_earlier_cannot_be_approved(self):
        """Approving an "on" change parked before 1.6 is 422; the change stays pending and nothing turns on."""
        change_id = self.park_on_as_an_older_release_did()
        self.addCleanup(self.reject_when_pending, change_id)
        resp = self.api.post(f"/v1/approvals/{change_id}/approve", json_body={}, token=self.supervisor)
        cb.assert_error(resp, 422, "UNPROCESSABLE", REFUSED_ON)
        self.assertEqual(C.db().scalar("SELECT status FROM corebank.parked_changes WHERE id = %s", (change_id,)),
                         "PENDING")
        self.assertIs(C.ok(self.api.get("/v1/platform/branch-scoping"))["enabled"], False)

    def park_on_as_an_older_release_did(self):
        return C.db().scalar(
            "INSERT INTO corebank.parked_changes (operation, entity_type, entity_id, payload, summary, maker_id,"
            "                                     expires_at)"
            " VALUES ('branch_scoping.update', 'platform', 'branch_scoping', '{\"enabled\": true}',"
            "         'Turn branch scoping on', %s, now() + interval '72 hours') RETURNING id::text", (self.admin.id,))


class DiscoveryTest(unittest.TestCase):
    def test_only_the_grants_oauth_token_serves(self):
        """grant_types_supported is exactly what POST /oauth/token accepts: client_credentials."""
        api = cb.Identity()
        grants = api.openid_configuration()["grant_types_supported"]
        self.assertEqual(grants, ["client_credentials"])
        client_id, secret = cb.create_client(("kyc:validate",))
        for grant in grants:
            with self.subTest(grant=grant):
                resp = api.oauth_token(client_id, secret, grant_type=grant)
                self.assertEqual(resp.status, 200, resp)
        for grant in ("password", "refresh_token"):
            with self.subTest(refused=grant):
                resp = api.oauth_token(client_id, secret, grant_type=grant)
                self.assertEqual(resp.status, 400, resp)


if __name__ == "__main__":
    unittest.main()
