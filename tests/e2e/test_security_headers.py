"""Headers every response of the four services carries (issue 13 review).

`X-Content-Type-Options: nosniff` stops a browser from guessing a JSON error
body, which may echo a value the caller sent, into HTML or script. It must be
on every response, not only on the pages that serve HTML: successes, the
OpenAPI document, 401, 404, 405 and 413 errors, the reset form and the hosted
capture page. It is added in one place (send_response in httpd/src/service.cpp),
so this module samples each kind of answer on each port.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402

# Just over each service's body limit (the verification service accepts
# images of up to verify_image_bytes_max, 5 MiB by default, plus 64 KiB), and
# under Pistache's own cap, whose plain-text 413 the tier never sees (see
# docs/security.md).
OVER_LIMIT_BYTES = cb.MAX_BODY_BYTES + 1
OVER_VERIFY_LIMIT_BYTES = 5 * 1024 * 1024 + 64 * 1024 + 1


def setUpModule():
    cb.require_identity_service()


def answers_of(base_url, health_path, protected_path, over_limit_bytes):
    """(label, response) for each kind of answer one service gives."""
    http = cb.HttpClient(base_url)
    return [
        ("health", http.get(health_path)),
        ("openapi", http.get("/openapi.json")),
        ("401", http.get(protected_path)),
        ("404", http.get("/no/such/route")),
        ("405", http.request("PATCH", "/openapi.json")),
        # 413 comes before routing, so any path shows it.
        ("413", http.post(protected_path, body=b"x" * over_limit_bytes)),
        ("400 malformed query", http.get(health_path + "?a=%zz")),
    ]


class NosniffTest(unittest.TestCase):

    def assert_nosniff(self, label, resp):
        values = resp.headers.get_all("X-Content-Type-Options") or []
        self.assertEqual(values, ["nosniff"], f"{label}: {resp!r}")

    def check_service(self, base_url, health_path, protected_path, over_limit_bytes=OVER_LIMIT_BYTES):
        if base_url is None:
            self.skipTest("service URL not set")
        for label, resp in answers_of(base_url, health_path, protected_path, over_limit_bytes):
            with self.subTest(answer=label):
                self.assertLess(resp.status, 500, f"{label}: {resp!r}")
                if label[0].isdigit():
                    self.assertEqual(resp.status, int(label[:3]), f"{label}: {resp!r}")
                self.assert_nosniff(label, resp)

    def test_identity_service(self):
        """Every kind of identity answer says nosniff, exactly once."""
        self.check_service(cb.ID_URL, "/health", "/auth/me")

    def test_core_service(self):
        """Every kind of core answer says nosniff, exactly once."""
        self.check_service(cb.CORE_URL, "/actuator/health", "/v1/customers")

    def test_verification_service(self):
        """Every kind of verification answer says nosniff, exactly once."""
        self.check_service(cb.VERIFY_URL, "/health", "/v1/sessions/00000000-0000-4000-8000-000000000000",
                           OVER_VERIFY_LIMIT_BYTES)

    def test_events_service(self):
        """Every kind of events answer says nosniff, exactly once."""
        self.check_service(cb.EVENTS_URL, "/health", "/v1/feed")

    def test_html_pages(self):
        """The reset form and the hosted capture page say nosniff once (they also set it themselves)."""
        resp = cb.HttpClient(cb.ID_URL).get("/auth/password/reset-form")
        self.assertEqual(resp.status, 200, resp)
        self.assert_nosniff("reset form", resp)
        if cb.VERIFY_URL is not None:
            verify = cb.HttpClient(cb.VERIFY_URL)
            for path in ("/hosted/sessions/00000000-0000-4000-8000-000000000000", "/hosted/assets/app.js"):
                with self.subTest(path=path):
                    resp = verify.get(path)
                    self.assertLess(resp.status, 500, resp)
                    self.assert_nosniff(path, resp)


if __name__ == "__main__":
    unittest.main()
