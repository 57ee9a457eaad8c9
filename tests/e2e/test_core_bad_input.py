"""Bad input on every endpoint of the core banking service.

One table describes every operation that takes a JSON body (who may call it,
a target that exists, its string and typed fields); every row is run through
the same attacks: not JSON, a JSON array, an unknown field, wrong types,
strings of 10 000 characters, NUL characters, invalid UTF-8 and lone
surrogates, and bodies over the body limit (1 MiB; 4 MiB, batch_max_body_bytes,
for POST /v1/transfers/batch). Operations without a body refuse any body.
Every {id} path refuses malformed UUIDs (400) and answers unknown ones with
404. After each refusal the row counts of the ledger tables are unchanged,
and no answer is ever a 500 (docs/core-banking.md, Error body; the Bad input
decisions of /openapi.json).
"""
import json
import unittest

import cbclient as cb
import corebanking as C

MALFORMED = "Malformed JSON request body"
NO_BODY = "This operation takes no request body"
BIG = 10000
# Operations whose body limit is not the service's max_body_bytes (1 MiB).
BODY_LIMITS = {"/v1/transfers/batch": 4 * 1024 * 1024}  # corebank.conf batch_max_body_bytes, default
BAD_UUIDS = ("nope", "1234", C.ZERO_UUID + "0", "0" * 32, "{" + C.ZERO_UUID + "}", C.ZERO_UUID[:-1] + "g",
             "%20" + C.ZERO_UUID, "..")


def setUpModule():
    C.require_core()


def body_limit(path):
    return BODY_LIMITS.get(path, C.MAX_BODY_BYTES)


class Fixture:
    """Staff, keys and live targets shared by the table."""

    def __init__(self):
        self.api = C.Core(C.admin_key())
        self.teller = C.new_staff("teller")
        self.supervisor = C.new_staff("supervisor")
        self.manager = C.new_staff("branch_manager")
        self.admin = C.new_staff("admin")
        self.gl = C.new_gl_account(self.api, self.admin, "EXPENSE")
        self.branch = C.branches(self.api)["HRE"]
        self.pending = C.capture(self.api, self.teller, C.journal())

    def endpoints(self):
        """(name, method, path, token, valid body, string fields, typed fields {field: wrong value})."""
        change = self.pending["parkedChangeId"]
        journal = C.journal()
        journal["entries"][0]["narrative"] = "ok"
        return [
            ("capture", "POST", "/v1/transactions", self.teller, journal,
             {"reference": 64, "description": 500, "channel": 32, "idempotencyKey": 128},
             {"description": 5, "entries": {"a": 1}, "type": 7, "valueDate": 20240101, "branchId": 1,
              "reference": ["x"]}),
            ("approve", "POST", f"/v1/approvals/{change}/approve", self.supervisor, {"comment": "ok"},
             {"comment": 1000}, {"comment": 5}),
            ("reject", "POST", f"/v1/approvals/{change}/reject", self.supervisor, {"reason": "no"},
             {"reason": 1000}, {"reason": True}),
            ("config", "PUT", "/v1/platform/config", self.admin, {"makerCheckerLapseHours": 72},
             {"businessTimeZone": 64},
             {"businessTimeZone": 5, "todayOverride": 20250101, "makerCheckerLapseHours": "72"}),
            ("numbering", "PUT", "/v1/platform/numbering/LOAN", self.admin, {"padding": 10},
             {"prefix": 10}, {"prefix": 5, "padding": "10", "nextValue": 1.5}),
            ("gl create", "POST", "/v1/gl/accounts", self.admin,
             {"code": f"B{C.uid().upper()}", "name": "bad input", "type": "ASSET"},
             {"code": 20, "name": 100},
             {"code": 1000, "name": ["x"], "type": 1, "allowManualPosting": "true"}),
            ("gl update", "PUT", f"/v1/gl/accounts/{self.gl['id']}", self.admin, {"name": self.gl["name"]},
             {"name": 100, "code": 20}, {"name": 5, "active": "false", "allowManualPosting": 0, "type": []}),
            ("budget", "PUT", "/v1/gl/budgets", self.manager,
             {"glAccountId": self.gl["id"], "period": "2032-01", "amountMinor": 1},
             {"note": 500, "period": 7},
             {"glAccountId": 5, "period": 202401, "amountMinor": "1", "note": {}}),
            ("branch", "PUT", f"/v1/branches/{self.branch['id']}", self.admin, {"name": self.branch["name"]},
             {"name": 100, "city": 100, "address": 300, "phone": 32},
             {"name": 1, "city": False, "active": "yes", "phone": 263}),
            ("api key", "POST", "/v1/api-keys", None, {"name": "bad-input", "scopes": ["read"]},
             {"name": 100}, {"name": 5, "scopes": "read", "rateLimitPerMinute": "60"}),
            ("transfer batch", "POST", "/v1/transfers/batch", self.teller,
             {"transfers": [{"fromAccountId": C.ZERO_UUID, "toAccountId": "3f1c2a9e-7b4d-4c1e-9a52-0d6f1b2c3e4f",
                             "amountMinor": 1}], "channel": "API"},
             {"channel": 32, "idempotencyKey": 128},
             {"transfers": {"a": 1}, "channel": 5, "idempotencyKey": 7}),
        ]

    def no_body_endpoints(self):
        """(name, method, path, token) of operations that take no request body (targets do not exist)."""
        return [
            ("post", "POST", f"/v1/transactions/{C.ZERO_UUID}/post", self.teller),
            ("abandon", "POST", f"/v1/transactions/{C.ZERO_UUID}/abandon", self.teller),
            ("reverse", "POST", f"/v1/transactions/{C.ZERO_UUID}/reverse", self.teller),
            ("close", "POST", "/v1/periods/1901-01/close", self.manager),
            ("reopen", "POST", "/v1/periods/1901-01/reopen", self.manager),
            ("revoke", "DELETE", f"/v1/api-keys/{C.ZERO_UUID}", None),
        ]


_fixture = None


def fixture():
    global _fixture
    if _fixture is None:
        _fixture = Fixture()
    return _fixture


class BodyEndpointsTest(unittest.TestCase):
    """Every operation with a JSON body against every attack, nothing written."""

    def setUp(self):
        self.f = fixture()
        self.api = self.f.api

    def each(self, attack):
        for name, method, path, token, valid, strings, typed in self.f.endpoints():
            with self.subTest(endpoint=name):
                before = C.ledger_counts()
                attack(method, path, token, valid, strings, typed)
                self.assertEqual(C.ledger_counts(), before, f"{name}: a refused request wrote rows")

    def send(self, method, path, token, **kw):
        return self.api.request(method, path, token=token, **kw)

    def test_malformed_json(self):
        """Syntactically broken JSON is 400 BAD_REQUEST `Malformed JSON request body` everywhere."""
        def attack(method, path, token, *_):
            for text in ("{", "{\"a\":}", "nul", "{'a': 1}", "{\"a\":1}}", "{\"a\":1} trailing", ""):
                if text == "" and method == "POST" and path.endswith("/approve"):
                    continue  # an empty body is documented as `{}` for approvals
                cb.assert_error(self.send(method, path, token, body=text), 400, "BAD_REQUEST", MALFORMED)
        self.each(attack)

    def test_json_that_is_not_an_object(self):
        """A JSON array, string, number or null body is 400 BAD_REQUEST everywhere."""
        def attack(method, path, token, valid, *_):
            for value in ([valid], "text", 42, None, True):
                cb.assert_error(self.send(method, path, token, json_body=value), 400, "BAD_REQUEST", MALFORMED)
        self.each(attack)

    def test_duplicated_keys(self):
        """A key named twice in one object is 400 `Malformed JSON request body`, even with the same value twice."""
        def attack(method, path, token, valid, *_):
            key = next(iter(valid))
            text = json.dumps(valid)[:-1] + ", " + json.dumps(key) + ": " + json.dumps(valid[key]) + "}"
            cb.assert_error(self.send(method, path, token, body=text), 400, "BAD_REQUEST", MALFORMED)
            nested = '{"a": {"b": 1, "b": 1}}'
            cb.assert_error(self.send(method, path, token, body=nested), 400, "BAD_REQUEST", MALFORMED)
        self.each(attack)

    def test_unknown_field(self):
        """An unknown field is 400 VALIDATION_ERROR naming it, even next to valid fields."""
        def attack(method, path, token, valid, *_):
            resp = self.send(method, path, token, json_body={**valid, "zzUnknownField": 1})
            cb.assert_validation(resp, "zzUnknownField", reason="unknown field")
        self.each(attack)

    def test_wrong_types(self):
        """A wrongly typed field is 400 VALIDATION_ERROR naming that field."""
        def attack(method, path, token, valid, strings, typed):
            for field, value in typed.items():
                with self.subTest(field=field):
                    cb.assert_validation(self.send(method, path, token, json_body={**valid, field: value}), field)
        self.each(attack)

    def test_huge_strings(self):
        """A string field of 10 000 characters is 400 VALIDATION_ERROR naming that field."""
        def attack(method, path, token, valid, strings, typed):
            for field in strings:
                with self.subTest(field=field):
                    body = {**valid, field: "A" * BIG}
                    cb.assert_validation(self.send(method, path, token, json_body=body), field)
        self.each(attack)

    def test_strings_one_over_their_limit(self):
        """A string one character over its documented limit is 400 naming the field."""
        def attack(method, path, token, valid, strings, typed):
            for field, limit in strings.items():
                with self.subTest(field=field, length=limit + 1):
                    body = {**valid, field: "B" * (limit + 1)}
                    cb.assert_validation(self.send(method, path, token, json_body=body), field)
        self.each(attack)

    def test_nul_characters(self):
        """A NUL character in a string field is 400 VALIDATION_ERROR naming that field."""
        def attack(method, path, token, valid, strings, typed):
            for field in strings:
                with self.subTest(field=field):
                    body = {**valid, field: "A\u0000B"}
                    cb.assert_validation(self.send(method, path, token, json_body=body), field)
        self.each(attack)

    def test_invalid_unicode(self):
        """Invalid UTF-8 bytes and a lone surrogate escape are 400 BAD_REQUEST, never 500."""
        def attack(method, path, token, valid, strings, typed):
            field = next(iter(strings))
            for raw in (b'{"' + field.encode() + b'": "\xff\xfe"}',
                        b'{"' + field.encode() + b'": "\\ud800"}',
                        b'{"' + field.encode() + b'": "\xc0\xaf"}'):
                resp = self.send(method, path, token, body=raw)
                cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))
        self.each(attack)

    def test_oversized_body_is_413(self):
        """A body over the limit (1 MiB; 4 MiB for the batch) is 413 PAYLOAD_TOO_LARGE with the error body."""
        def attack(method, path, token, valid, strings, typed):
            field = next(iter(strings))
            body = ('{"' + field + '": "' + "x" * (body_limit(path) + 100) + '"}').encode()
            headers = {"X-API-Key": self.api.key}
            if token is not None:
                headers["Authorization"] = f"Bearer {token.token}"
            resp = self.api.http.send_streaming(method, path, body, headers=headers)
            self.assertIsNotNone(resp, "the server closed without an answer")
            cb.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
            C.openapi().check(method, path, resp)
        self.each(attack)

    def test_body_just_under_the_limit_is_not_413(self):
        """A body just under the limit (a huge string) is read and refused as 400 VALIDATION_ERROR, not 413."""
        def attack(method, path, token, valid, strings, typed):
            field = next(iter(strings))
            filler = "y" * (body_limit(path) - 1000)
            cb.assert_validation(self.send(method, path, token, json_body={**valid, field: filler}), field)
        self.each(attack)

    def test_deep_nesting_and_many_fields(self):
        """100 000 nested arrays and 5 000 unknown fields are 400, never a crash."""
        def attack(method, path, token, valid, *_):
            cb.assert_error(self.send(method, path, token, body="[" * 100000 + "]" * 100000), 400, "BAD_REQUEST")
            many = {**valid, **{f"f{i}": i for i in range(5000)}}
            cb.assert_error(self.send(method, path, token, json_body=many), 400, "VALIDATION_ERROR")
        self.each(attack)

    def test_unicode_text_within_limits_is_accepted(self):
        """Limits count characters: 100 four-byte emoji are a valid GL name, 101 are not."""
        emoji = "\U0001F3E6"
        created = C.new_gl_account(self.api, self.f.admin, "ASSET", name=emoji * 100)
        self.assertEqual(created["name"], emoji * 100)
        resp = self.api.put(f"/v1/gl/accounts/{created['id']}", json_body={"name": emoji * 101}, token=self.f.admin)
        cb.assert_validation(resp, "name")
        combining = "e\u0301\u200d\u202e\u00a0x"
        renamed = C.ok(self.api.put(f"/v1/gl/accounts/{created['id']}", json_body={"name": combining},
                                    token=self.f.admin))
        self.assertEqual(renamed["name"], combining)


class NoBodyEndpointsTest(unittest.TestCase):
    """Operations without a request body accept none or `{}` and refuse anything else."""

    def setUp(self):
        self.f = fixture()
        self.api = self.f.api

    def test_any_body_is_refused(self):
        """A non-empty JSON object, an array or a string body is 400 `This operation takes no request body`."""
        for name, method, path, token in self.f.no_body_endpoints():
            with self.subTest(endpoint=name):
                before = C.ledger_counts()
                for value in ({"reason": "x"}, [1], "text"):
                    resp = self.api.request(method, path, token=token, json_body=value)
                    cb.assert_error(resp, 400, "BAD_REQUEST", NO_BODY)
                cb.assert_error(self.api.request(method, path, token=token, body="{bad"), 400, "BAD_REQUEST",
                                MALFORMED)
                self.assertEqual(C.ledger_counts(), before)

    def test_empty_object_is_accepted(self):
        """`{}` is accepted like no body: the answer is the operation's own (404 for an unknown id, not 400)."""
        for name, method, path, token in self.f.no_body_endpoints():
            if "/periods/" in path:
                continue
            with self.subTest(endpoint=name):
                cb.assert_error(self.api.request(method, path, token=token, json_body={}), 404, "NOT_FOUND")

    def test_oversized_body_is_413(self):
        """A body over 1 MiB on an operation without a body is 413 PAYLOAD_TOO_LARGE."""
        body = b'{"x": "' + b"z" * (C.MAX_BODY_BYTES + 100) + b'"}'
        for name, method, path, token in self.f.no_body_endpoints():
            with self.subTest(endpoint=name):
                headers = {"X-API-Key": self.api.key}
                if token is not None:
                    headers["Authorization"] = f"Bearer {token.token}"
                resp = self.api.http.send_streaming(method, path, body, headers=headers)
                self.assertIsNotNone(resp, "the server closed without an answer")
                cb.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
                C.openapi().check(method, path, resp)


class PathIdsTest(unittest.TestCase):
    """Every {id} path: malformed UUIDs are 400, unknown ids 404, never 500."""

    def setUp(self):
        self.f = fixture()
        self.api = self.f.api

    def id_operations(self):
        f = self.f
        return [
            ("GET", "/v1/transactions/{}", None, None),
            ("POST", "/v1/transactions/{}/post", f.teller, None),
            ("POST", "/v1/transactions/{}/abandon", f.teller, None),
            ("POST", "/v1/transactions/{}/reverse", f.teller, None),
            ("GET", "/v1/approvals/{}", None, None),
            ("POST", "/v1/approvals/{}/approve", f.supervisor, {}),
            ("POST", "/v1/approvals/{}/reject", f.supervisor, {"reason": "x"}),
            ("GET", "/v1/gl/accounts/{}", None, None),
            ("PUT", "/v1/gl/accounts/{}", f.admin, {"name": "x"}),
            ("GET", "/v1/branches/{}", None, None),
            ("PUT", "/v1/branches/{}", f.admin, {"name": "x"}),
            ("DELETE", "/v1/api-keys/{}", None, None),
        ]

    def call(self, method, template, token, body, value):
        kw = {"json_body": body} if body is not None else {}
        return self.api.request(method, template.format(value), token=token, **kw)

    def test_malformed_uuids_are_400(self):
        """A malformed UUID in any {id} path is 400 BAD_REQUEST `id must be a UUID`, nothing written."""
        before = C.ledger_counts()
        for method, template, token, body in self.id_operations():
            for value in BAD_UUIDS:
                with self.subTest(operation=f"{method} {template}", id=value):
                    cb.assert_error(self.call(method, template, token, body, value), 400, "BAD_REQUEST",
                                    "id must be a UUID")
        self.assertEqual(C.ledger_counts(), before)

    def test_unknown_ids_are_404(self):
        """An unknown UUID in any {id} path is 404 NOT_FOUND, nothing written."""
        before = C.ledger_counts()
        for method, template, token, body in self.id_operations():
            for value in (C.ZERO_UUID, "3f1c2a9e-7b4d-4c1e-9a52-0d6f1b2c3e4f"):
                with self.subTest(operation=f"{method} {template}", id=value):
                    cb.assert_error(self.call(method, template, token, body, value), 404, "NOT_FOUND")
        self.assertEqual(C.ledger_counts(), before)

    def test_nul_in_a_path_segment_is_never_500(self):
        """A percent-encoded NUL in a path segment is refused (400 or 404) with the error body, never 500."""
        for method, path, token in (("GET", f"/v1/branches/{C.ZERO_UUID}%00", None),
                                    ("GET", "/v1/transactions/%00", None),
                                    ("PUT", "/v1/platform/numbering/LOAN%00", self.f.admin)):
            with self.subTest(path=path):
                resp = self.api.request(method, path, token=token, json_body={"padding": 10}, validate=False)
                self.assertIn(resp.status, (400, 404), resp)
                cb.assert_error(resp, resp.status, ("BAD_REQUEST", "NOT_FOUND"))
                C.openapi().validate_error(resp)

    def test_upper_case_uuid_is_the_same_id(self):
        """UUIDs are case-insensitive: an upper-case id finds the same branch."""
        branch = self.f.branch
        self.assertEqual(C.ok(self.api.get(f"/v1/branches/{branch['id'].upper()}"))["id"], branch["id"])

    def test_ids_of_another_resource_are_404(self):
        """A branch id used as a transaction or GL account id is 404, not 500."""
        branch_id = self.f.branch["id"]
        cb.assert_error(self.api.get(f"/v1/transactions/{branch_id}"), 404, "NOT_FOUND")
        cb.assert_error(self.api.get(f"/v1/gl/accounts/{branch_id}"), 404, "NOT_FOUND")
        cb.assert_error(self.api.get(f"/v1/approvals/{branch_id}"), 404, "NOT_FOUND")

    def test_bad_entity_type_and_period_paths_are_400(self):
        """An unknown numbering entity type and a malformed period are 400 BAD_REQUEST."""
        for value in ("CUSTOMER", "loan", "LOAN%20", "%20LOAN"):
            with self.subTest(entityType=value):
                cb.assert_error(self.api.put(f"/v1/platform/numbering/{value}", json_body={"padding": 10},
                                             token=self.f.admin), 400, "BAD_REQUEST")
        for value in ("2024-13", "2024-00", "202401", "2024-1", "x"):
            with self.subTest(period=value):
                cb.assert_error(self.api.post(f"/v1/periods/{value}/close", token=self.f.manager), 400,
                                "BAD_REQUEST")


class HeaderSizeTest(unittest.TestCase):
    """Request headers over 32 KiB in all are 400 with the error body (the dispatcher of every service)."""

    def setUp(self):
        self.f = fixture()
        self.api = self.f.api

    def test_oversized_headers_are_400(self):
        """One 40 KiB header, or many small ones adding up, is 400 BAD_REQUEST; nothing is written."""
        before = C.ledger_counts()
        many = {f"X-Pad-{i}": "p" * 1000 for i in range(40)}
        for headers in ({"X-Padding": "p" * 40000}, many):
            with self.subTest(headers=len(headers)):
                resp = self.api.request("POST", "/v1/gl/accounts", token=self.f.admin, headers=headers,
                                        json_body={"code": f"H{C.uid().upper()}", "name": "header", "type": "ASSET"})
                cb.assert_error(resp, 400, "BAD_REQUEST", "Request headers exceed 32768 bytes")
        self.assertEqual(C.ledger_counts(), before)

    def test_headers_under_the_limit_are_read(self):
        """24 KiB of headers are an ordinary request."""
        C.ok(self.api.get("/v1/branches", headers={"X-Padding": "p" * 24000}))


class QueryParametersTest(unittest.TestCase):
    """Bad query parameters on the list endpoints are 400 BAD_REQUEST naming the parameter."""

    def setUp(self):
        self.f = fixture()
        self.api = self.f.api

    def test_bad_query_parameters(self):
        """Bad dates, enums, paging values and lengths are 400 naming the parameter, on every list."""
        cases = [
            ("/v1/transactions", "from", "2024-02-30"), ("/v1/transactions", "to", "2024/01/01"),
            ("/v1/transactions", "type", "adjustment"), ("/v1/transactions", "status", "OPEN"),
            ("/v1/transactions", "state", "DONE"), ("/v1/transactions", "page", "-1"),
            ("/v1/transactions", "size", "201"), ("/v1/transactions", "size", "1.5"),
            ("/v1/transactions", "reference", "r" * 65), ("/v1/transactions", "glAccountCode", "9" * 21),
            ("/v1/approvals", "status", "DONE"), ("/v1/approvals", "page", "x"), ("/v1/approvals", "size", "0"),
            ("/v1/gl/accounts", "currency", "usd"), ("/v1/gl/accounts", "type", "BANK"),
            ("/v1/gl/accounts", "code", "9" * 21), ("/v1/gl/budgets", "period", "2024-13"),
        ]
        for path, name, value in cases:
            with self.subTest(path=path, name=name, value=value):
                err = cb.assert_error(self.api.get(C.query(path, **{name: value})), 400, "BAD_REQUEST")
                self.assertIn(name, err["message"])

    def test_nul_in_a_query_parameter_is_400(self):
        """A percent-encoded NUL in a query parameter is 400, never 500."""
        for path in ("/v1/transactions?reference=a%00b", "/v1/gl/accounts?code=10%0000",
                     "/v1/gl/budgets?period=2024-01%00"):
            with self.subTest(path=path):
                cb.assert_error(self.api.get(path), 400, "BAD_REQUEST")

    def test_get_with_oversized_body_is_413(self):
        """A GET with a body over 1 MiB is 413 PAYLOAD_TOO_LARGE, a status its operation documents."""
        body = b'{"x": "' + b"z" * (C.MAX_BODY_BYTES + 100) + b'"}'
        resp = self.api.http.send_streaming("GET", "/v1/branches", body, headers={"X-API-Key": self.api.key})
        self.assertIsNotNone(resp)
        cb.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
        C.openapi().check("GET", "/v1/branches", resp)


if __name__ == "__main__":
    unittest.main()
