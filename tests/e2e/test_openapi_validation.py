"""The response validation of the identity and verification services really validates (issue 13).

cbclient.HttpClient hands every response of those two services to
openapi_check, which fails the test that received it when the status is not
one the operation lists, or the body does not match the listed schema, or
the body has a member the schema does not list. This module shows each of
those refusals on the served documents, so that the rest of the suite passing
means something.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402
import openapi_check  # noqa: E402


def setUpModule():
    cb.require_identity_service()


class IdentityValidationTest(unittest.TestCase):
    def setUp(self):
        self.spec = openapi_check.document("identity")

    def test_a_documented_answer_passes(self):
        """GET /health's body as the service answers it matches."""
        self.spec.validate("GET", "/health", 200, {"status": "UP", "database": "UP"})

    def test_an_undocumented_member_fails(self):
        """A member the schema does not list is refused, naming it."""
        with self.assertRaises(AssertionError) as caught:
            self.spec.validate("GET", "/health", 200, {"status": "UP", "database": "UP", "cpu": 3})
        self.assertIn("'cpu' is not documented", str(caught.exception))

    def test_an_undocumented_member_of_a_nested_object_fails(self):
        """Members are checked inside arrays and nested objects too (the JWKS keys)."""
        jwks = cb.HttpClient(cb.ID_URL).get("/.well-known/jwks.json").json
        jwks["keys"][0]["d"] = "private exponent"
        with self.assertRaises(AssertionError) as caught:
            self.spec.validate("GET", "/.well-known/jwks.json", 200, jwks)
        self.assertIn("keys/0", str(caught.exception))

    def test_an_undocumented_status_fails(self):
        """A status the operation does not list (418) is refused."""
        with self.assertRaises(AssertionError):
            self.spec.response_spec("GET", "/health", 418)

    def test_the_client_checks_every_answer(self):
        """The hook is on: a response whose status the document does not list fails the request itself."""
        http = cb.HttpClient(cb.ID_URL)
        resp = http.get("/health")
        resp.status = 418
        with self.assertRaises(AssertionError):
            openapi_check.check_response(http.host, http.port, "GET", "/health", resp)


class VerificationValidationTest(unittest.TestCase):
    def setUp(self):
        cb.require(cb.VERIFY_URL, "CB_VERIFY_URL")
        self.spec = openapi_check.document("verification")

    def test_an_undocumented_member_of_the_error_body_fails(self):
        """The verification error body is closed too."""
        resp = cb.HttpClient(cb.VERIFY_URL).get("/v1/sessions/x")
        self.assertEqual(resp.status, 401, resp)
        with self.assertRaises(AssertionError) as caught:
            self.spec.validate("GET", "/v1/sessions/x", 401, dict(resp.json, trace="..."))
        self.assertIn("'trace' is not documented", str(caught.exception))

    def test_an_undocumented_status_fails(self):
        """A status the operation does not list is refused."""
        with self.assertRaises(AssertionError):
            self.spec.response_spec("GET", "/health", 418)


if __name__ == "__main__":
    unittest.main()
