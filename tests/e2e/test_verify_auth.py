"""Who may call the verification service.

Goal: every API operation needs "Authorization: Bearer <API key>" of a live
key of service verify; writes need sessions:write and reads sessions:read
(403 otherwise, with the scope named); a missing, malformed, unknown,
revoked or foreign-service key is 401 with WWW-Authenticate: Bearer and the
error body with its timestamp. The hosted page's API takes only the
session's own client token: not an API key, not another session's token,
not an expired one; a wrong token and an unknown session answer alike.
The public routes (health, openapi, the page shell) need nothing.
Method: HTTP with keys made by `corebankd key-create`; revocation and token
expiry are set in the database.
"""

import unittest

import cbclient as cb
import verify_support as vs

ZERO_SESSION = "00000000-0000-4000-8000-000000000000"


def setUpModule():
    vs.require_verify_service()


def assert_401(test, resp, message=None):
    body = cb.assert_error(resp, 401, "UNAUTHORIZED", message, timestamp=True)
    test.assertEqual(resp.header("WWW-Authenticate"), "Bearer")
    return body


class ApiKeyTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.both = vs.VerifyApi()
        cls.session = vs.create_session(cls.both, flow="liveness")

    def calls(self, api):
        """Every API operation, as (name, scope, callable)."""
        sid = self.session["sessionId"]
        return [("create", "sessions:write", lambda: api.create({"flow": "liveness"})),
                ("cancel", "sessions:write", lambda: api.cancel(sid)),
                ("consent", "sessions:write", lambda: api.consent(sid, {"granted": True, "version": "v1"})),
                ("get", "sessions:read", lambda: api.get(sid)),
                ("report", "sessions:read", lambda: api.report(sid)),
                ("search", "sessions:read", lambda: api.search({}))]

    def test_missing_and_malformed_credentials(self):
        """No header, another scheme, an empty bearer: 401 on every operation."""
        for header, message in ((None, "An API key is required: send Authorization: Bearer <API key>"),
                                ("Basic dXNlcjpwYXNz", "Authorization header must be: Bearer <API key>"),
                                ("Bearer", "Authorization header must be: Bearer <API key>"),
                                ("Bearer a b", "Authorization header must be: Bearer <API key>")):
            api = vs.VerifyApi(key="")
            if header is not None:
                api.http = _HeaderClient(api.http, header)
            for name, _, call in self.calls(api):
                with self.subTest(header=header, operation=name):
                    assert_401(self, call(), message)

    def test_unknown_revoked_and_foreign_keys(self):
        """An unknown key, a revoked key and a key of another service are 401 Invalid API key."""
        revoked = cb.cli("key-create", "--service", "verify", "--scopes", "sessions:read,sessions:write",
                         "--name", "e2e-revoked-" + cb.RUN_TAG).strip()
        self.assertEqual(vs.VerifyApi(key=revoked).get(self.session["sessionId"]).status, 200)
        cb.db().execute("UPDATE corebank.api_keys SET status = 'REVOKED', revoked_at = now()"
                        " WHERE key_hash = sha256(%s::bytea)", (revoked.encode(),))
        core_key = cb.cli("key-create", "--service", "core", "--scopes", "read,write",
                          "--name", "e2e-core-" + cb.RUN_TAG).strip()
        for key in ("cb_verify_" + "x" * 43, revoked, core_key, "x" * 201):
            api = vs.VerifyApi(key=key)
            for name, _, call in self.calls(api):
                with self.subTest(key=key[:12], operation=name):
                    assert_401(self, call(), "Invalid API key")

    def test_scopes(self):
        """A read-only key cannot write and a write-only key cannot read: 403 naming the scope."""
        readers = vs.VerifyApi(key=vs.api_key(("sessions:read",)))
        writers = vs.VerifyApi(key=vs.api_key(("sessions:write",)))
        for api, has in ((readers, "sessions:read"), (writers, "sessions:write")):
            for name, scope, call in self.calls(api):
                with self.subTest(key=has, operation=name):
                    resp = call()
                    if scope == has:
                        # Past the scope check (a cancel may then find the session cancelled: 409).
                        self.assertNotIn(resp.status, (401, 403), resp)
                        self.assertLess(resp.status, 500, resp)
                    else:
                        cb.assert_error(resp, 403, "FORBIDDEN", f"This API key lacks the '{scope}' scope")

    def test_client_token_is_no_api_key(self):
        """The session's client token opens nothing on the caller's API."""
        api = vs.VerifyApi(key=vs.token_of(vs.create_session(self.both, flow="liveness")))
        assert_401(self, api.get(self.session["sessionId"]), "Invalid API key")


class ClientTokenTest(unittest.TestCase):

    def setUp(self):
        self.api = vs.VerifyApi()
        self.session = vs.create_session(self.api, flow="liveness")
        self.sid = self.session["sessionId"]
        self.token = vs.token_of(self.session)

    def page_calls(self, page):
        return [("state", page.state), ("consent", lambda: page.consent(True)),
                ("capture", lambda: page.capture("selfie", vs.face_png(5))), ("submit", page.submit)]

    def test_wrong_tokens_are_refused_alike(self):
        """No token, a wrong token, the API key, another session's token, an unknown session: all 401."""
        other = vs.token_of(vs.create_session(self.api, flow="liveness"))
        cases = [(self.sid, None, "A client token is required: send Authorization: Bearer <client token>"),
                 (self.sid, "vct_" + "A" * 43, "Client token is invalid or expired"),
                 (self.sid, self.api.key, "Client token is invalid or expired"),
                 (self.sid, other, "Client token is invalid or expired"),
                 (ZERO_SESSION, self.token, "Client token is invalid or expired"),
                 ("not-a-uuid", self.token, "Client token is invalid or expired")]
        for sid, token, message in cases:
            page = vs.HostedApi(sid, token)
            for name, call in self.page_calls(page):
                with self.subTest(case=(sid[:8], (token or "")[:8]), operation=name):
                    assert_401(self, call(), message)
        self.assertEqual(self.api.get(self.sid).json["consent"]["status"], "not_recorded", "nothing was recorded")

    def test_expired_token(self):
        """After client_token_ttl_s the token opens nothing, though the session lives on."""
        page = vs.HostedApi(self.sid, self.token)
        self.assertEqual(page.state().status, 200)
        cb.db().execute("UPDATE corebank.verify_sessions SET created_at = created_at - interval '16 minutes',"
                        " client_token_expires_at = client_token_expires_at - interval '16 minutes' WHERE id = %s",
                        (self.sid,))
        for name, call in self.page_calls(page):
            with self.subTest(operation=name):
                assert_401(self, call(), "Client token is invalid or expired")
        self.assertEqual(self.api.get(self.sid).json["status"], "pending")

    def test_token_lifetime(self):
        """The client token lives client_token_ttl_s (900 s) from creation."""
        state = vs.HostedApi(self.sid, self.token).state().json
        created = cb.parse_iso8601(self.session["createdAt"]).timestamp()
        expires = cb.parse_iso8601(state["clientTokenExpiresAt"]).timestamp()
        self.assertAlmostEqual(expires - created, vs.CLIENT_TOKEN_TTL_S, delta=1)

    def test_public_routes_need_nothing(self):
        """/health, /openapi.json and the page shell and assets are public; the shell carries no data."""
        http = cb.HttpClient(vs.VERIFY_URL)
        for path in ("/health", "/openapi.json", f"/hosted/sessions/{self.sid}", "/hosted/assets/app.js",
                     "/hosted/assets/app.css"):
            resp = http.get(path)
            self.assertEqual(resp.status, 200, (path, resp))
        shell = http.get(f"/hosted/sessions/{self.sid}")
        self.assertTrue(shell.header("Content-Type").startswith("text/html"))
        self.assertIn("script-src 'self'", shell.header("Content-Security-Policy"))
        self.assertEqual(shell.header("Referrer-Policy"), "no-referrer")
        self.assertNotIn(self.sid, shell.body.decode())
        self.assertTrue(http.get("/hosted/assets/app.js").header("Content-Type").startswith("text/javascript"))


class _HeaderClient:
    """Wraps an HttpClient so every request carries a fixed Authorization header."""

    def __init__(self, inner, authorization):
        self.inner = inner
        self.authorization = authorization

    def _with(self, kw):
        headers = dict(kw.pop("headers", None) or {})
        headers["Authorization"] = self.authorization
        kw["headers"] = headers
        return kw

    def get(self, path, **kw):
        return self.inner.get(path, **self._with(kw))

    def post(self, path, **kw):
        return self.inner.post(path, **self._with(kw))


if __name__ == "__main__":
    unittest.main()
