"""The core banking service's public endpoints and its OpenAPI document.

Public (no X-API-Key): /actuator/health, /v1/platform, /v1/platform/compliance,
/v1/platform/architecture, /v1/platform/faq, /v1/platform/banks and
/openapi.json (01-core-banking.md, docs/core-banking.md). Every body is
validated against the operation's schema in /openapi.json by corebanking.Core;
the last tests prove that validator is not vacuous.
"""
import re
import unittest

import cbclient as cb
import corebanking as C


def setUpModule():
    C.require_core()


class PublicEndpointsTest(unittest.TestCase):
    def setUp(self):
        self.api = C.Core(key=None)

    def test_health_is_up_without_a_key(self):
        """GET /actuator/health answers 200 UP with the database component UP, without a key."""
        body = C.ok(self.api.get("/actuator/health"))
        self.assertEqual(body["status"], "UP")
        self.assertEqual(body["components"]["db"]["status"], "UP")

    def test_platform_overview_without_a_key(self):
        """GET /v1/platform is public and names the currencies USD and ZWG and the API version 1.0.0."""
        body = C.ok(self.api.get("/v1/platform"))
        self.assertEqual(sorted(body["currencies"]), ["USD", "ZWG"])
        self.assertEqual(body["apiVersion"], "1.0.0")
        self.assertEqual(body["documentation"], "/openapi.json")

    def test_platform_compliance_without_a_key(self):
        """GET /v1/platform/compliance is public and states that a maker may not approve."""
        body = C.ok(self.api.get("/v1/platform/compliance"))
        self.assertIs(body["makerChecker"]["makerMayApprove"], False)
        self.assertEqual(body["makerChecker"]["defaultLapseHours"], 72)
        self.assertIs(body["ledger"]["doubleEntry"], True)

    def test_platform_architecture_without_a_key(self):
        """GET /v1/platform/architecture is public and lists the four service ports."""
        body = C.ok(self.api.get("/v1/platform/architecture"))
        self.assertEqual(body["ports"], {"core": 8080, "identity": 8081, "verification": 8082, "events": 8083})

    def test_platform_faq_without_a_key(self):
        """GET /v1/platform/faq is public and returns a non-empty list of questions and answers."""
        body = C.ok(self.api.get("/v1/platform/faq"))
        self.assertIsInstance(body, list)
        self.assertGreater(len(body), 0)
        for entry in body:
            self.assertTrue(entry["question"].strip())
            self.assertTrue(entry["answer"].strip())

    def test_banks_are_the_15_commercial_banks_with_bics(self):
        """GET /v1/platform/banks lists 15 distinct banks, each with a SWIFT/BIC of 8 or 11 characters."""
        body = C.ok(self.api.get("/v1/platform/banks"))
        self.assertEqual(len(body), 15, body)
        self.assertEqual(len({b["code"] for b in body}), 15, "bank codes are not unique")
        self.assertEqual(len({b["swiftBic"] for b in body}), 15, "BICs are not unique")
        for bank in body:
            bic = bank["swiftBic"]
            self.assertIn(len(bic), (8, 11), bank)
            self.assertRegex(bic, r"^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$", bank)
            self.assertEqual(bic[4:6], "ZW", f"{bank} is not a Zimbabwean BIC")
            self.assertTrue(bank["name"].strip())

    def test_openapi_document_is_public_and_3_1(self):
        """GET /openapi.json is public, OpenAPI 3.1, version 1.0.0, and uses the spec's schema names."""
        body = C.ok(self.api.get("/openapi.json"))
        self.assertTrue(body["openapi"].startswith("3.1"), body["openapi"])
        self.assertEqual(body["info"]["version"], "1.0.0")
        schemas = body["components"]["schemas"]
        for name in ("TransactionResponse", "CreateTransactionRequest", "PagedResponseTransactionResponse",
                     "ParkedChangeResponse", "PlatformConfigResponse", "UpdatePlatformConfigRequest",
                     "NumberingConfigResponse", "UpdateNumberingConfigRequest", "GlAccountResponse",
                     "UpdateGlAccountRequest", "GlBudgetResponse", "UpsertGlBudgetRequest",
                     "BranchResponse", "UpdateBranchRequest", "ErrorResponse"):
            self.assertIn(name, schemas)

    def test_public_endpoints_ignore_a_bad_key(self):
        """A public endpoint answers 200 even when an unknown X-API-Key is sent."""
        for path in C.PUBLIC_PATHS:
            with self.subTest(path=path):
                C.ok(self.api.get(path, key="cb_core_not-a-real-key"))

    def test_protected_endpoint_next_to_public_ones_needs_a_key(self):
        """GET /v1/platform/config (next to the public /v1/platform paths) is not public: 401 without a key."""
        resp = self.api.get("/v1/platform/config")
        cb.assert_error(resp, 401, "UNAUTHORIZED")

    def test_unknown_route_is_404_error_body(self):
        """An unknown path under /v1 is 404 NOT_FOUND with the error body."""
        resp = self.api.get(f"/v1/no-such-thing-{C.uid()}")
        cb.assert_error(resp, 404, "NOT_FOUND")

    def test_wrong_method_is_405_with_allow(self):
        """A wrong method on a known path is 405 METHOD_NOT_ALLOWED with an Allow header listing GET."""
        resp = self.api.request("PATCH", "/v1/platform/banks")
        cb.assert_error(resp, 405, "METHOD_NOT_ALLOWED")
        self.assertIn("GET", (resp.header("Allow") or "").upper())


class OpenApiValidatorTest(unittest.TestCase):
    """The response validator the whole core suite relies on really validates."""

    def test_validator_rejects_a_body_missing_required_fields(self):
        """A TransactionResponse without `id` fails validation against GET /v1/transactions/{id} 200."""
        spec = C.openapi()
        with self.assertRaises(AssertionError):
            spec.validate("GET", f"/v1/transactions/{C.ZERO_UUID}", 200, {"status": "POSTED"})

    def test_validator_rejects_a_wrong_enum_and_format(self):
        """A BranchResponse with a bad uuid and a non-boolean `active` fails validation."""
        spec = C.openapi()
        bad = {"id": "not-a-uuid", "code": "HO", "name": "x", "city": None, "address": None, "phone": None,
               "active": "yes", "headOffice": True, "createdAt": "2026-01-01T00:00:00Z",
               "updatedAt": "2026-01-01T00:00:00Z"}
        with self.assertRaises(AssertionError) as caught:
            spec.validate("GET", f"/v1/branches/{C.ZERO_UUID}", 200, bad)
        self.assertIn("active", str(caught.exception))
        self.assertIn("id", str(caught.exception))

    def test_validator_rejects_an_undocumented_status(self):
        """A status an operation does not document (418) is refused by the validator."""
        with self.assertRaises(AssertionError):
            C.openapi().response_schema("GET", "/v1/branches", 418)

    def test_validator_resolves_refs_of_error_responses(self):
        """A documented error status resolves through components/responses to ErrorResponse."""
        schema = C.openapi().response_schema("POST", "/v1/transactions", 422)
        resolved = C.openapi().deref(schema)
        self.assertEqual(set(resolved["required"]), {"error", "message", "status", "timestamp"})

    def test_operation_lookup_prefers_literal_paths(self):
        """Path templates resolve: /v1/platform/config is its own operation, not a templated one."""
        template, operation = C.openapi().operation("GET", "/v1/platform/config")
        self.assertEqual(template, "/v1/platform/config")
        self.assertEqual(operation["operationId"], "getPlatformConfig")
        template, operation = C.openapi().operation("POST", f"/v1/transactions/{C.ZERO_UUID}/post?x=1")
        self.assertEqual(template, "/v1/transactions/{id}/post")

    def test_every_operation_documents_its_json_responses(self):
        """Every API operation of /openapi.json documents a 2xx JSON response with a schema (the console's page and
        assets are HTML, script and style)."""
        document = C.openapi().document
        for path, item in document["paths"].items():
            for method, operation in item.items():
                if method not in ("get", "put", "post", "delete", "patch"):
                    continue
                with self.subTest(operation=f"{method.upper()} {path}"):
                    ok_statuses = [s for s in operation["responses"] if re.fullmatch(r"2\d\d", s)]
                    self.assertTrue(ok_statuses, "no 2xx response")
                    # The document itself, and the approvals console's page and assets
                    # (HTML, script and style a browser loads: docs/core-banking.md).
                    if path == "/openapi.json" or (path.startswith("/console/") and not path.startswith("/console/api/")):
                        continue
                    for status in ok_statuses:
                        spec = C.openapi().deref(operation["responses"][status])
                        self.assertIn("application/json", spec.get("content", {}))


if __name__ == "__main__":
    unittest.main()
