"""Bad input on every JSON endpoint of the identity service (docs/identity.md, "Bad input").

The same table of cases runs against each endpoint:
- a body that is not JSON, or not a JSON object: 400 BAD_REQUEST "Malformed JSON request body";
- a missing field, a wrong type, a too-long string, an unknown field: 400
  VALIDATION_ERROR whose message lists each failing field as `field: reason`;
- a body over 1 MiB: 413 PAYLOAD_TOO_LARGE with the error body, and the
  server keeps answering;
- deep nesting, NUL characters and huge strings never produce a 5xx.
Nothing may be written by a refused request: registration rows are counted,
and the bearer endpoints' user must stay active with a live token.
"""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402

BAD_DOMAIN = f"bad-{cb.RUN_TAG}.e2e.test"

MALFORMED_BODIES = {
    "truncated object": b'{"email":',
    "lone brace": b"{",
    "empty body": b"",
    "whitespace only": b"   \n",
    "single quotes": b"{'email': 'a@b.test'}",
    "trailing comma": b'{"email":"a@b.test",}',
    "unquoted key": b'{email:"a@b.test"}',
    "trailing garbage": b'{"email":"a@b.test"} x',
    "two objects": b'{"a":1}{"b":2}',
    "NaN literal": b'{"password":NaN}',
    "form encoding": b"email=a%40b.test&password=secret123",
    "invalid UTF-8 byte": b'{"email":"\xff@b.test"}',
    "UTF-8 BOM and garbage": b"\xef\xbb\xbf\xff",
    "control character in string": b'{"email":"a\x01b@b.test"}',
}

NOT_AN_OBJECT = {
    "array": b"[]",
    "array of object": b'[{"email":"a@b.test"}]',
    "number": b"42",
    "string": b'"hello"',
    "null": b"null",
    "true": b"true",
}

WRONG_TYPES = {"number": 123, "float": 1.5, "boolean": True, "empty array": [],
               "array": ["x"], "object": {"a": "b"}}

CLIENT_ERROR_CODES = ("BAD_REQUEST", "VALIDATION_ERROR", "INVALID_CREDENTIALS", "UNAUTHORIZED",
                      "CONFLICT", "NOT_FOUND", "ACCOUNT_LOCKED", "RATE_LIMIT_EXCEEDED")


def setUpModule():
    cb.require_identity_service()


def bad_email(tag="bad"):
    return cb.unique_email(tag, domain=BAD_DOMAIN)


def deep_array(depth):
    return "[" * depth + "]" * depth


class BadInputCases:
    """The bad-input table; a subclass names one endpoint and a valid-looking body for it.

    The valid-looking body never succeeds on its own (wrong password, unknown
    token), so a server that ignores a bad field still cannot change state.
    """

    path = None
    bearer = False
    required = ()
    fields = ()
    nul_fields = None
    limits = {}

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.user = cb.new_user(cls.api) if cls.bearer else None
        cls.token = cls.user.access if cls.bearer else None

    def tearDown(self):
        # Refused requests must not have changed anything the endpoint could change.
        if self.bearer:
            self.assertTrue(self.api.is_live(self.token), "a refused request revoked the caller's session")
            self.assertEqual(cb.db().user(self.user.id)["status"], "ACTIVE")

    def base_body(self):
        raise NotImplementedError

    def send(self, body=cb._UNSET, raw=None, token=cb._UNSET):
        token = self.token if token is cb._UNSET else token
        if raw is not None:
            return self.api.http.post(self.path, body=raw, token=token, xff=cb.unique_ip())
        return self.api.http.post(self.path, json_body=body, token=token, xff=cb.unique_ip())

    def long_value(self, field, length):
        if field == "email":
            return cb.long_email(length) if length <= 400 else "e" * (length - len(BAD_DOMAIN) - 1) + "@" + BAD_DOMAIN
        return "a" * length

    # ------------------------------------------------------------ not JSON

    def test_malformed_json(self):
        """A body that is not JSON is 400 BAD_REQUEST 'Malformed JSON request body'."""
        for name, raw in MALFORMED_BODIES.items():
            with self.subTest(body=name):
                cb.assert_error(self.send(raw=raw), 400, "BAD_REQUEST", cb.MSG_MALFORMED_JSON)

    def test_json_that_is_not_an_object(self):
        """A JSON array, number, string, null or boolean is 400 BAD_REQUEST 'Malformed JSON request body'."""
        for name, raw in NOT_AN_OBJECT.items():
            with self.subTest(body=name):
                cb.assert_error(self.send(raw=raw), 400, "BAD_REQUEST", cb.MSG_MALFORMED_JSON)

    def test_duplicated_key(self):
        """A key named twice in one object is 400 'Malformed JSON request body', even with the same value twice."""
        body = self.base_body()
        key = next(iter(body))
        raw = json.dumps(body)[:-1] + ", " + json.dumps(key) + ": " + json.dumps(body[key]) + "}"
        cb.assert_error(self.send(raw=raw.encode()), 400, "BAD_REQUEST", cb.MSG_MALFORMED_JSON)

    # ------------------------------------------------------------ fields

    def test_unknown_field(self):
        """An unknown field is a VALIDATION_ERROR `foo: unknown field`."""
        resp = self.send(dict(self.base_body(), foo=1))
        cb.assert_validation(resp, "foo", reason="unknown field")

    def test_missing_required_fields(self):
        """Each required field, when missing, is a VALIDATION_ERROR `field: is required`."""
        for field in self.required:
            with self.subTest(field=field):
                body = self.base_body()
                del body[field]
                cb.assert_validation(self.send(body), field, reason="is required")

    def test_wrong_types(self):
        """A number, boolean, array or object where a string belongs is a VALIDATION_ERROR naming the field."""
        for field in self.fields:
            for name, value in WRONG_TYPES.items():
                with self.subTest(field=field, value=name):
                    cb.assert_validation(self.send(dict(self.base_body(), **{field: value})), field)

    def test_too_long_strings(self):
        """A string one over its limit, or 10 000 characters, is a VALIDATION_ERROR naming the field."""
        for field, limit in self.limits.items():
            for length in (limit + 1, 10_000):
                with self.subTest(field=field, length=length):
                    body = dict(self.base_body(), **{field: self.long_value(field, length)})
                    cb.assert_validation(self.send(body), field)

    def test_every_failing_field_is_listed(self):
        """Several problems at once are all listed, `field: reason; field: reason`."""
        body = dict(self.base_body(), foo=1, bar=True)
        del body[self.required[0]]
        parts = cb.validation_parts(cb.assert_validation(self.send(body), self.required[0], "foo", "bar")["message"])
        self.assertIn((self.required[0], "is required"), parts)
        self.assertIn(("foo", "unknown field"), parts)

    def test_deep_nesting(self):
        """A field holding 100 000 nested arrays is refused with 400, and the server stays up."""
        raw = ('{"%s":%s}' % (self.fields[0], deep_array(100_000))).encode()
        resp = self.send(raw=raw)
        cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))
        self.assertEqual(self.api.http.get("/health").status, 200)

    def test_many_unknown_fields(self):
        """An object with 5 000 unknown fields is a VALIDATION_ERROR, not a crash or a hang."""
        body = self.base_body()
        body.update({f"f{i}": i for i in range(5000)})
        cb.assert_validation(self.send(body), "f0")

    def test_nul_character_in_strings(self):
        """A NUL character in any string field never causes a 5xx; it is refused or handled like any text."""
        for field in self.nul_fields or self.fields:
            with self.subTest(field=field):
                value = bad_email("nul\u0000") if field == "email" else "Nul\u0000value-123"
                resp = self.send(dict(self.base_body(), **{field: value}))
                if resp.status == 200 and self.path == "/auth/password/forgot":
                    cb.assert_message(resp, 200, cb.MSG_FORGOT)
                    continue
                self.assertTrue(400 <= resp.status < 500, resp)
                cb.assert_error(resp, resp.status, CLIENT_ERROR_CODES, timestamp=None)

    # ------------------------------------------------------------ size

    def test_oversized_body(self):
        """A body over 1 MiB is 413 PAYLOAD_TOO_LARGE with the error body; the server keeps answering."""
        filler = "x" * (cb.MAX_BODY_BYTES + 4096)
        raw = json.dumps(dict(self.base_body(), **{self.fields[0]: filler})).encode()
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        resp = self.api.http.send_streaming("POST", self.path, raw, headers=headers)
        self.assertIsNotNone(resp, "the server closed the connection without answering")
        cb.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
        self.assertEqual(self.api.http.get("/health").status, 200)

    def test_large_body_under_limit_is_parsed(self):
        """A body just under 1 MiB is read and validated like any other (400, not 413)."""
        filler = "x" * (cb.MAX_BODY_BYTES - 16 * 1024)
        resp = self.send(dict(self.base_body(), foo=filler))
        cb.assert_validation(resp, "foo", reason="unknown field")


class BearerBadInputCases(BadInputCases):
    """The table for endpoints behind the bearer filter, plus the filter-first rule."""

    bearer = True

    def test_bearer_checked_before_body(self):
        """A missing token is 401 UNAUTHORIZED even when the body is broken or valid-looking."""
        cb.assert_unauthorized(self.send(raw=b'{"broken', token=None))
        cb.assert_unauthorized(self.send(self.base_body(), token=None))


class RegisterBadInputTest(BadInputCases, unittest.TestCase):
    path = "/auth/register"
    required = ("password",)
    fields = ("email", "phone", "password", "firstName", "lastName", "clientId", "channel")
    # A NUL inside a password may legitimately be accepted; test_nul_in_password covers it.
    nul_fields = ("email", "phone", "firstName", "lastName", "clientId", "channel")
    limits = {"email": 254, "password": 128, "firstName": 100, "lastName": 100,
              "channel": 50, "clientId": 100}

    def base_body(self):
        return {"email": bad_email(), "password": cb.unique_password()}

    def tearDown(self):
        # "Nothing written": no refused registration left a user row behind.
        written = cb.db().scalar("SELECT count(*) FROM corebank.auth_users WHERE email LIKE %s",
                                 ("%@" + BAD_DOMAIN,))
        self.assertEqual(written, 0, "a refused registration created a user")

    def test_nul_in_text_fields_is_refused(self):
        """A NUL character in email, names, channel or phone is refused with 400 and nothing is written."""
        for field in ("email", "firstName", "lastName", "channel", "phone"):
            with self.subTest(field=field):
                value = bad_email("nul\u0000") if field == "email" else "12345\u000067890"
                resp = self.send(dict(self.base_body(), **{field: value}))
                cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))

    def test_nul_in_password_is_not_truncated(self):
        """A password with a NUL is either refused or kept whole: its prefix before the NUL must not log in."""
        address = cb.unique_email("nulpw")
        password = "Prefix-1\u0000suffix-2"
        resp = self.api.register({"email": address, "password": password})
        if resp.status == 400:
            cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))
            return
        self.assertEqual(resp.status, 201, resp)
        cb.assert_error(self.api.login({"email": address, "password": "Prefix-1"}), 401, "INVALID_CREDENTIALS")
        self.assertEqual(self.api.login({"email": address, "password": password}).status, 200)

    def test_empty_object(self):
        """An empty object is refused with 400 and writes nothing."""
        cb.assert_error(self.send({}), 400, ("BAD_REQUEST", "VALIDATION_ERROR"))


class LoginBadInputTest(BadInputCases, unittest.TestCase):
    path = "/auth/login"
    required = ("password",)
    fields = ("email", "phone", "password", "clientId", "channel")
    limits = {"email": 254, "password": 1024, "channel": 50, "clientId": 100}

    def base_body(self):
        return {"email": bad_email(), "password": "Wrong-pass-1"}

    def test_neither_email_nor_phone(self):
        """A login naming no account is refused with 400."""
        cb.assert_error(self.send({"password": "Wrong-pass-1"}), 400, ("BAD_REQUEST", "VALIDATION_ERROR"))


class RefreshBadInputTest(BadInputCases, unittest.TestCase):
    path = "/auth/token/refresh"
    required = ("refreshToken",)
    fields = ("refreshToken",)
    limits = {"refreshToken": 512}

    def base_body(self):
        return {"refreshToken": cb.b64url_encode(os.urandom(32))}


class PasswordChangeBadInputTest(BearerBadInputCases, unittest.TestCase):
    path = "/auth/password/change"
    required = ("currentPassword", "newPassword")
    fields = ("currentPassword", "newPassword")
    limits = {"newPassword": 128}

    def base_body(self):
        return {"currentPassword": "Wrong-pass-1", "newPassword": cb.unique_password()}


class ForgotBadInputTest(BadInputCases, unittest.TestCase):
    path = "/auth/password/forgot"
    required = ("email",)
    fields = ("email", "clientId")
    limits = {"email": 254, "clientId": 100}

    def base_body(self):
        return {"email": bad_email("forgot")}


class ResetBadInputTest(BadInputCases, unittest.TestCase):
    path = "/auth/password/reset"
    required = ("token", "newPassword")
    fields = ("token", "newPassword")
    limits = {"token": 512, "newPassword": 128}

    def base_body(self):
        return {"token": cb.b64url_encode(os.urandom(32)), "newPassword": cb.unique_password()}


class DeactivateBadInputTest(BearerBadInputCases, unittest.TestCase):
    path = "/auth/deactivate"
    required = ("password",)
    fields = ("password",)
    limits = {}

    def base_body(self):
        return {"password": "Wrong-pass-1"}


if __name__ == "__main__":
    unittest.main()
