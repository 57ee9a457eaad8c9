"""The event service as a service: health, OpenAPI document, unknown routes.

Goal: GET /health answers without a key; GET /openapi.json is a public
OpenAPI 3.1 document listing exactly the routes the service serves (checked
against `corebankd routes` when it prints the events service, otherwise
against the route list of docs/events.md), each with an operationId and
responses; unknown paths and methods get the business envelope (404
not_found, 405 method_not_allowed with Allow); a kept-alive connection
serves several requests. Method: plain HTTP.
"""
import os
import subprocess
import unittest

import cbclient as cb
import events_support as es

METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}
# docs/events.md, "Routes".
ROUTES = {
    ("GET", "/health"), ("GET", "/openapi.json"), ("POST", "/v1/events"), ("GET", "/v1/feed"), ("GET", "/v1/platforms"),
    ("GET", "/v1/customers/lookup"), ("GET", "/v1/customers/{customerId}"), ("GET", "/v1/customers/{customerId}/events"),
    ("GET", "/v1/customers/{customerId}/consents"), ("GET", "/v1/customers/{customerId}/traits"),
    ("GET", "/v1/loyalty/members/{memberId}"), ("PUT", "/v1/loyalty/members/{memberId}"),
}


def setUpModule():
    es.require_events_service()


class ServiceTest(unittest.TestCase):
    def test_health(self):
        data = es.assert_success(cb.HttpClient(cb.EVENTS_URL).get("/health"))
        self.assertEqual(data, {"status": "UP", "database": "UP"})

    def served_routes(self):
        if not os.environ.get("CB_CLI"):
            return ROUTES
        output = subprocess.run([os.environ["CB_CLI"], "routes"], capture_output=True, text=True, timeout=30).stdout
        served = {(m.upper(), p) for line in output.splitlines() if line.startswith("events ")
                  for _, m, p in [line.split()]}
        return served or ROUTES

    def test_openapi_document_matches_the_routes(self):
        resp = cb.HttpClient(cb.EVENTS_URL).get("/openapi.json")
        self.assertEqual(resp.status, 200, resp)
        document = resp.json
        self.assertTrue(document["openapi"].startswith("3.1"))
        documented = {(method.upper(), path) for path, item in document["paths"].items() for method in item
                      if method in METHODS}
        self.assertEqual(documented, self.served_routes())
        for path, item in document["paths"].items():
            for method, operation in item.items():
                self.assertIn("operationId", operation, f"{method} {path}")
                self.assertTrue(operation.get("responses"), f"{method} {path}")
        self.assertEqual(document["components"]["securitySchemes"]["ApiKey"],
                         {"type": "apiKey", "in": "header", "name": "X-API-Key"})

    def test_unknown_path_and_method(self):
        http = cb.HttpClient(cb.EVENTS_URL)
        es.assert_business(http.get(f"/v1/nothing-{cb.RUN_TAG}"), 404, "not_found")
        resp = http.delete("/v1/events")
        es.assert_business(resp, 405, "method_not_allowed")
        self.assertEqual(resp.header("Allow"), "POST")
        es.assert_business(http.get("/v1/events"), 405, "method_not_allowed")

    def test_keep_alive(self):
        key, _ = es.make_key()
        http = cb.HttpClient(cb.EVENTS_URL, keepalive=True)
        try:
            for _ in range(5):
                resp = http.post("/v1/events", json_body={"events": [es.ev("page.viewed")]}, headers={"X-API-Key": key})
                self.assertEqual(es.assert_success(resp)["accepted"], 1)
        finally:
            http.close()


if __name__ == "__main__":
    unittest.main()
