"""Every route a service serves is in its OpenAPI document, and every
documented operation is served.

Goal: the published OpenAPI 3.1 documents cannot drift from the server.
Method: `corebankd routes` prints the route table the binary really has; each
service's GET /openapi.json must list exactly those (method, path) pairs, with
path parameters in OpenAPI's {name} form.
"""
import os
import subprocess
import unittest

import cbclient as cb

SERVICES = {"identity": "CB_ID_URL", "core": "CB_CORE_URL", "events": "CB_EVENTS_URL", "verify": "CB_VERIFY_URL"}
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def served_routes():
    output = subprocess.run([os.environ["CB_CLI"], "routes"], check=True, capture_output=True, text=True,
                            timeout=30).stdout
    routes = {}
    for line in output.splitlines():
        service, method, path = line.split()
        routes.setdefault(service, set()).add((method.upper(), path))
    return routes


def setUpModule():
    cb.require(os.environ.get("CB_CLI"), "CB_CLI")


class OpenApiRoutesTest(unittest.TestCase):
    def check(self, service):
        base = os.environ.get(SERVICES[service])
        cb.require(base, SERVICES[service])
        resp = cb.HttpClient(base).get("/openapi.json")
        self.assertEqual(resp.status, 200, resp)
        document = resp.json
        self.assertTrue(document["openapi"].startswith("3.1"), document.get("openapi"))
        documented = {(method.upper(), path) for path, item in document["paths"].items()
                      for method in item if method in METHODS}
        served = served_routes()[service]
        self.assertEqual(sorted(served - documented), [], f"{service}: served but not documented")
        self.assertEqual(sorted(documented - served), [], f"{service}: documented but not served")
        for path, item in document["paths"].items():
            for method, operation in item.items():
                if method in METHODS:
                    self.assertIn("operationId", operation, f"{method} {path}")
                    self.assertTrue(operation.get("responses"), f"{method} {path} lists no responses")

    def test_identity_document_matches_the_routes(self):
        """The identity service's document lists exactly the routes it serves."""
        self.check("identity")

    def test_core_document_matches_the_routes(self):
        """The core banking service's document lists exactly the routes it serves."""
        self.check("core")

    def test_events_document_matches_the_routes(self):
        """The event service's document lists exactly the routes it serves."""
        self.check("events")

    def test_verify_document_matches_the_routes(self):
        """The verification service's document lists exactly the routes it serves."""
        self.check("verify")


if __name__ == "__main__":
    unittest.main()
