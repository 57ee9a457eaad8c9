"""The versioning policy of docs/versioning.md, checked on what each service
serves (the spec leaves it to us: "Deprecation and compatibility policy: not
shown", "Versioning of this service (path prefix, version numbers,
deprecation): not shown", "Version policy: not shown").

Goal: the published documents say which contract a client talks to, and no
operation can be deprecated without the date it goes away.
Method: each service's GET /openapi.json: `info.version` is the interface
version 1.0.0 (01-core-banking.md fixes it for core banking; the policy gives
every service the same rule: it changes only with a breaking change, which
comes under a new path prefix); the API paths of core banking, verification
and events carry the /v1 prefix, identity's the spec's unprefixed families;
an operation marked `deprecated` names its `x-sunset` date, at least 180 days
after `x-deprecated-since`.
"""
import datetime
import os
import re
import unittest

import cbclient as cb

SERVICES = {"identity": "CB_ID_URL", "core": "CB_CORE_URL", "events": "CB_EVENTS_URL", "verify": "CB_VERIFY_URL"}
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}
# Paths outside the versioned API: probes, the documents themselves, and the
# pages a browser loads (the hosted capture page, the approvals console).
UNVERSIONED = re.compile(r"^/(health|actuator/health|openapi\.json|hosted/|console/|console$)")
# The identity service's families, as 02-identity.md writes its paths.
IDENTITY_FAMILIES = re.compile(r"^/(auth/|oauth/|\.well-known/|admin/)")
INTERFACE_VERSION = "1.0.0"


class ApiVersioningTest(unittest.TestCase):
    def document(self, service):
        base = os.environ.get(SERVICES[service])
        cb.require(base, SERVICES[service])
        resp = cb.HttpClient(base).get("/openapi.json")
        self.assertEqual(resp.status, 200, resp)
        return resp.json

    def check(self, service):
        document = self.document(service)
        self.assertEqual(document["info"]["version"], INTERFACE_VERSION,
                         f"{service}: info.version is the interface version (docs/versioning.md)")
        for path, item in document["paths"].items():
            if not UNVERSIONED.match(path):
                if service == "identity":
                    self.assertRegex(path, IDENTITY_FAMILIES, f"identity path outside the spec's families: {path}")
                else:
                    self.assertTrue(path.startswith("/v1/"), f"{service}: {path} has no /v1 prefix")
            for method, operation in item.items():
                if method not in METHODS or not operation.get("deprecated"):
                    continue
                since = datetime.date.fromisoformat(operation["x-deprecated-since"])
                sunset = datetime.date.fromisoformat(operation["x-sunset"])
                self.assertGreaterEqual((sunset - since).days, 180, f"{method} {path}: sunset too soon")

    def test_identity(self):
        """Identity: interface version 1.0.0; the spec's unprefixed path families."""
        self.check("identity")

    def test_core(self):
        """Core banking: interface version 1.0.0; every API path under /v1."""
        self.check("core")

    def test_verification(self):
        """Verification: interface version 1.0.0; every API path under /v1."""
        self.check("verify")

    def test_events(self):
        """Events: interface version 1.0.0; every API path under /v1."""
        self.check("events")

    def test_the_check_refuses_what_the_policy_refuses(self):
        """The rules above fail on a bad document (so the checks can fail)."""
        bad = {"info": {"version": "0.9.0"},
               "paths": {"/accounts": {"get": {"deprecated": True, "x-deprecated-since": "2026-11-01",
                                               "x-sunset": "2026-12-01"}}}}
        original = self.document
        self.document = lambda service: bad
        try:
            with self.assertRaises(AssertionError):
                self.check("core")
            bad["info"]["version"] = INTERFACE_VERSION
            with self.assertRaises(AssertionError):   # no /v1 prefix
                self.check("core")
            bad["paths"] = {"/v1/accounts": bad["paths"]["/accounts"]}
            with self.assertRaises(AssertionError):   # a sunset 30 days after the deprecation
                self.check("core")
            bad["paths"]["/v1/accounts"]["get"]["x-sunset"] = "2027-06-01"
            self.check("core")
        finally:
            self.document = original


if __name__ == "__main__":
    unittest.main()
