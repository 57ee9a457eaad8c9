"""Surfaces that tell the truth (issue 11, part 6): no endpoint claims what is not there.

- GET /v1/platform lists the four services this process runs, each on the port
  it really answers on, and none of them as "not built".
- GET /v1/platform/compliance lists only controls that exist (no simulated
  regulatory submission, no transaction monitoring) and the KYC provider mode
  of the configuration (the suite's corebank.conf: STUB).
- PUT /v1/platform/branch-scoping {enabled: false} is parked (turning it on,
  now that the database enforces it, is test_core_branch_scoping.py's).
- The identity service's OpenID discovery lists only the grants that
  POST /oauth/token serves.

Method: plain HTTP against the running services.
"""
import unittest
import urllib.parse

import cbclient as cb
import corebanking as C


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

    def reject_when_pending(self, change_id):
        if C.count("parked_changes", "id = %s AND status = 'PENDING'", (change_id,)):
            C.reject(self.api, self.supervisor, change_id, reason="test cleanup")

    def test_turning_off_is_still_parked(self):
        """PUT {enabled: false} is parked as before (branch_scoping.update)."""
        change = C.ok(self.api.put("/v1/platform/branch-scoping", json_body={"enabled": False}, token=self.admin))
        self.addCleanup(self.reject_when_pending, change["id"])
        self.assertEqual((change["operation"], change["status"]), ("branch_scoping.update", "PENDING"))
        approved = C.approve(self.api, self.supervisor, change["id"])
        self.assertEqual(approved["status"], "APPROVED")
        self.assertIs(C.ok(self.api.get("/v1/platform/branch-scoping"))["enabled"], False)


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
