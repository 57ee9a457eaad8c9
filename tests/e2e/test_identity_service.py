"""Service-level behaviour: /health, /openapi.json, unknown routes and methods, sibling ports.

docs/identity.md fixes GET /health as 200 {"status":"UP","database":"UP"}, an
unknown route as 404 NOT_FOUND and a wrong method on a known path as 405
METHOD_NOT_ALLOWED, both with the error body. The other three services share
the corebankd process; until they are built they must still answer with a
JSON error body (404 or 503), never hang or reset the connection.
"""

import os
import socket
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402

DOCUMENTED_PATHS = ["/auth/register", "/auth/login", "/auth/token/refresh", "/auth/password/change",
                    "/auth/password/forgot", "/auth/password/reset", "/auth/deactivate", "/auth/logout",
                    "/auth/logout/all", "/auth/me", "/auth/sessions", "/oauth/token", "/oauth/introspect",
                    "/.well-known/jwks.json", "/.well-known/openid-configuration", "/health"]


def setUpModule():
    cb.require_identity_service()


class ServiceTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.http = cb.HttpClient(cb.ID_URL)

    def test_health(self):
        """GET /health is 200 with {"status":"UP","database":"UP"} as JSON."""
        resp = self.http.get("/health")
        self.assertEqual(resp.status, 200, resp)
        self.assertIn("json", resp.header("Content-Type") or "")
        self.assertEqual(resp.json, {"status": "UP", "database": "UP"})

    def test_openapi_document(self):
        """GET /openapi.json is an OpenAPI 3.1 document describing every documented path."""
        resp = self.http.get("/openapi.json")
        self.assertEqual(resp.status, 200, resp)
        document = resp.json
        self.assertTrue(str(document["openapi"]).startswith("3.1"), document.get("openapi"))
        paths = set(document["paths"])
        missing = [p for p in DOCUMENTED_PATHS if p not in paths]
        self.assertEqual(missing, [])
        self.assertTrue(any(p.startswith("/auth/sessions/") for p in paths), sorted(paths))

    def test_unknown_route_is_404_with_error_body(self):
        """Unknown routes answer 404 NOT_FOUND with the error body, whatever the method."""
        for method, path in (("GET", "/no/such/route"), ("POST", "/auth/nope"), ("GET", "/auth"),
                             ("GET", "/auth/me/extra"), ("GET", "/" + "x" * 2000)):
            with self.subTest(method=method, path=path[:40]):
                cb.assert_error(self.http.request(method, path), 404, "NOT_FOUND")

    def test_wrong_method_is_405_with_error_body(self):
        """A wrong method on a known path answers 405 METHOD_NOT_ALLOWED with the error body."""
        for method, path in (("GET", "/auth/login"), ("PUT", "/auth/register"), ("DELETE", "/auth/me"),
                             ("GET", "/oauth/token"), ("POST", "/health"), ("PATCH", "/auth/sessions")):
            with self.subTest(method=method, path=path):
                cb.assert_error(self.http.request(method, path), 405, "METHOD_NOT_ALLOWED")

    def test_garbage_request_line_does_not_hurt_the_server(self):
        """A request that is not HTTP at all is refused or dropped, and the service keeps answering."""
        for payload in (b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"\x00\xff" * 512 + b"\r\n\r\n"):
            with self.subTest(payload=payload[:12]):
                with socket.create_connection((self.http.host, self.http.port), timeout=5) as sock:
                    sock.sendall(payload)
                    try:
                        answer = sock.recv(64)
                    except (ConnectionResetError, socket.timeout):
                        answer = b""
                if answer.startswith(b"HTTP/"):
                    # A client error, or 505 for the unknown HTTP version; never another 5xx.
                    self.assertRegex(answer, rb"^HTTP/1\.[01] (4[0-9][0-9]|505) ")
                self.assertEqual(self.http.get("/health").status, 200)

    def test_keep_alive_connection_serves_several_requests(self):
        """Several requests over one kept-alive connection all get complete answers."""
        client = cb.HttpClient(cb.ID_URL, keepalive=True)
        try:
            for _ in range(5):
                self.assertEqual(client.get("/health").json, {"status": "UP", "database": "UP"})
            self.assertEqual(client.get("/.well-known/jwks.json").status, 200)
        finally:
            client.close()


class SiblingServiceTest(unittest.TestCase):
    """The core, verification and event ports answer with a JSON error until they are built."""

    def check_port(self, url, name):
        if not url:
            self.skipTest(f"CB_{name}_URL is not set")
        resp = cb.HttpClient(url).get(f"/e2e-no-such-route-{cb.RUN_TAG}")
        self.assertIn(resp.status, (404, 503), resp)
        body = resp.json
        if "success" in body:
            # The event service's business error envelope (03-verification-and-events.md).
            self.assertIs(body["success"], False)
            self.assertIsInstance(body["error"]["code"], str)
            self.assertIsInstance(body["error"]["message"], str)
        else:
            cb.assert_error(resp, resp.status, ("NOT_FOUND", "SERVICE_UNAVAILABLE"))

    def test_core_port_answers_json_error(self):
        """The core banking port answers an unknown route with a JSON error (404 or 503)."""
        self.check_port(cb.CORE_URL, "CORE")

    def test_verify_port_answers_json_error(self):
        """The verification port answers an unknown route with a JSON error (404 or 503)."""
        self.check_port(cb.VERIFY_URL, "VERIFY")

    def test_events_port_answers_json_error(self):
        """The event port answers an unknown route with a JSON error (404 or 503)."""
        self.check_port(cb.EVENTS_URL, "EVENTS")


if __name__ == "__main__":
    unittest.main()
