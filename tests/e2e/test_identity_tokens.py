"""Tokens: the JWKS, the discovery document, the claims of user tokens, and the bearer filter.

docs/identity.md fixes: RS256 with header {alg, typ, kid}, the key of that kid
published at /.well-known/jwks.json; user token claims exactly sub, iss, aud,
iat, exp, jti, phone?, email?, roles, scopes, kyc_tier with aud a plain string
and iss the advertised issuer; scopes derived from the role policy of migrations/; and
every protected call checks signature, iss, exp and that the session is live,
answering 401 UNAUTHORIZED without `timestamp` otherwise.
"""

import json
import os
import sys
import time
import unittest
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


def setUpModule():
    cb.require_identity_service()


class JwksTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_jwks_publishes_rsa_public_keys_only(self):
        """The JWKS lists RS256 signing keys with kid, n and e, and no private key material."""
        resp = self.api.http.get("/.well-known/jwks.json")
        self.assertEqual(resp.status, 200, resp)
        self.assertIn("json", resp.header("Content-Type") or "")
        keys = resp.json["keys"]
        self.assertGreaterEqual(len(keys), 1)
        self.assertEqual(len({k["kid"] for k in keys}), len(keys))
        for key in keys:
            with self.subTest(kid=key.get("kid")):
                self.assertEqual(key["kty"], "RSA")
                self.assertEqual(key["alg"], "RS256")
                self.assertEqual(key["use"], "sig")
                self.assertIsInstance(key["kid"], str)
                self.assertFalse({"d", "p", "q", "dp", "dq", "qi"} & set(key), key)
                self.assertEqual(cb.jwk_public_key(key).key_size, 2048)

    def test_openid_configuration(self):
        """The discovery document names the issuer, the JWKS and the token endpoint."""
        config = self.api.openid_configuration()
        self.assertIsInstance(config["issuer"], str)
        self.assertTrue(config["issuer"])
        self.assertTrue(config["jwks_uri"].endswith("/.well-known/jwks.json"), config["jwks_uri"])
        self.assertTrue(config["token_endpoint"].endswith("/oauth/token"), config["token_endpoint"])
        if "introspection_endpoint" in config:
            self.assertTrue(config["introspection_endpoint"].endswith("/oauth/introspect"))

    def test_jwks_matches_database(self):
        """Every published kid is a signing key in the database, and the active one is published."""
        kids = {k["kid"] for k in self.api.jwks()["keys"]}
        stored = {r["kid"] for r in cb.db().rows("SELECT kid FROM corebank.auth_signing_keys")}
        self.assertLessEqual(kids, stored)
        active = cb.db().rows("SELECT kid FROM corebank.auth_signing_keys WHERE retired_at IS NULL")
        self.assertEqual(len(active), 1)
        self.assertIn(active[0]["kid"], kids)


class UserTokenClaimsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.jwks = cls.api.jwks()
        cls.issuer = cls.api.openid_configuration()["issuer"]

    def test_header_and_signature(self):
        """A user token is RS256 with typ JWT and a kid from the JWKS, and its signature verifies."""
        user = cb.new_user(self.api)
        header, _, _, _ = cb.jwt_parts(user.access)
        self.assertEqual(header["alg"], "RS256")
        self.assertEqual(header["typ"], "JWT")
        self.assertIn(header["kid"], {k["kid"] for k in self.jwks["keys"]})
        cb.verify_jwt(user.access, self.jwks)

    def test_tampered_token_fails_local_verification(self):
        """Control for the verifier itself: a changed payload no longer verifies against the JWKS."""
        user = cb.new_user(self.api)
        head, _, signature = user.access.split(".")
        payload = cb.b64url_encode(json.dumps(dict(cb.jwt_claims(user.access), roles=["admin"])).encode())
        with self.assertRaises(AssertionError):
            cb.verify_jwt(f"{head}.{payload}.{signature}", self.jwks)

    def test_claim_set_with_email_only(self):
        """An email-only account's token has exactly the user claims plus email."""
        user = cb.new_user(self.api)
        self.assertEqual(set(cb.verify_jwt(user.access, self.jwks)), cb.USER_CLAIMS | {"email"})

    def test_claim_set_with_phone_only(self):
        """A phone-only account's token has exactly the user claims plus phone."""
        user = cb.new_user(self.api, with_email=False, with_phone=True)
        claims = cb.verify_jwt(user.access, self.jwks)
        self.assertEqual(set(claims), cb.USER_CLAIMS | {"phone"})
        self.assertEqual(claims["phone"], user.phone)

    def test_claim_set_with_email_and_phone(self):
        """An account with both has both claims, and no names or other extras."""
        user = cb.new_user(self.api, with_phone=True, firstName="Named", lastName="Person")
        claims = cb.verify_jwt(user.access, self.jwks)
        self.assertEqual(set(claims), cb.USER_CLAIMS | {"email", "phone"})
        self.assertEqual((claims["email"], claims["phone"]), (user.email, user.phone))

    def test_claim_values(self):
        """sub, iss, aud, iat, exp, jti, roles, scopes and kyc_tier carry the documented values."""
        before = int(time.time()) - 5
        user = cb.new_user(self.api)
        claims = cb.verify_jwt(user.access, self.jwks)
        self.assertEqual(claims["sub"], user.id)
        self.assertEqual(claims["iss"], self.issuer)
        self.assertIsInstance(claims["aud"], str)
        self.assertEqual(claims["aud"], cb.DEFAULT_AUDIENCE)
        self.assertIsInstance(claims["iat"], int)
        self.assertIsInstance(claims["exp"], int)
        self.assertGreaterEqual(claims["iat"], before)
        self.assertLessEqual(claims["iat"], int(time.time()) + 5)
        self.assertEqual(claims["exp"] - claims["iat"], cb.ACCESS_TTL_S)
        self.assertEqual(str(uuid.UUID(claims["jti"])), claims["jti"].lower())
        self.assertEqual(claims["roles"], ["customer"])
        self.assertEqual(sorted(claims["scopes"]), cb.role_scopes("customer"))
        self.assertEqual(len(claims["scopes"]), len(set(claims["scopes"])))
        self.assertEqual(claims["kyc_tier"], "NONE")

    def test_client_audience_is_plain_string(self):
        """With a clientId the aud claim is that clientId as a plain string, not an array."""
        client_id, _ = cb.create_client()
        user = cb.new_user(self.api, clientId=client_id)
        claims = cb.verify_jwt(user.access, self.jwks)
        self.assertIsInstance(claims["aud"], str)
        self.assertEqual(claims["aud"], client_id)

    def test_jti_unique_and_recorded(self):
        """Every issued access token has a fresh jti, recorded against its user and session."""
        user = cb.new_user(self.api)
        tokens = [user.access] + [cb.login_ok(self.api, user)["accessToken"] for _ in range(2)]
        jtis = [cb.jwt_claims(t)["jti"] for t in tokens]
        self.assertEqual(len(set(jtis)), 3)
        for jti in jtis:
            row = cb.db().one("SELECT user_id, session_id, client_id FROM corebank.auth_access_tokens"
                              " WHERE jti = %s", (jti,))
            self.assertIsNotNone(row, jti)
            self.assertEqual(str(row["user_id"]), user.id)
            self.assertIsNotNone(row["session_id"])

    def test_staff_roles_and_scopes(self):
        """A staff user made by the CLI carries its roles and the union of their scopes."""
        staff_id, address, password = cb.create_staff(["teller", "supervisor"])
        resp = self.api.login({"email": address, "password": password})
        self.assertEqual(resp.status, 200, resp)
        claims = cb.verify_jwt(resp.json["accessToken"], self.jwks)
        self.assertEqual(claims["sub"], staff_id)
        self.assertEqual(sorted(claims["roles"]), ["supervisor", "teller"])
        self.assertEqual(sorted(claims["scopes"]), cb.role_scopes("teller", "supervisor"))
        self.assertEqual(len(claims["scopes"]), len(set(claims["scopes"])))
        self.assertEqual(sorted(resp.json["user"]["roles"]), ["supervisor", "teller"])


class BearerFilterTest(unittest.TestCase):
    """Every bearer endpoint refuses every kind of bad token with 401 UNAUTHORIZED, no timestamp."""

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.user = cb.new_user(cls.api)
        cls.header, cls.claims, _, _ = cb.jwt_parts(cls.user.access)
        kid = cls.header["kid"]
        own_key = cb.new_rsa_key()
        head, payload, signature = cls.user.access.split(".")
        tampered = cb.b64url_encode(json.dumps(dict(cls.claims, roles=["admin"])).encode())
        jwk = [k for k in cls.api.jwks()["keys"] if k["kid"] == kid][0]
        revoked = cb.new_user(cls.api)
        cb.assert_message(cls.api.logout(revoked.access), 200, cb.MSG_LOGOUT)
        expired_in_db = cb.login_ok(cls.api, cls.user)["accessToken"]
        cb.db().expire_access_token(cb.jwt_claims(expired_in_db)["jti"])
        cls.bad_headers = {
            "no header": None,
            "Bearer without token": "Bearer",
            "Bearer with empty token": "Bearer ",
            "garbage": "Bearer garbage",
            "three empty parts": "Bearer ..",
            "not base64": "Bearer a!b.c@d.e#f",
            "Basic scheme": cb.basic_auth("user", "password"),
            "other scheme, real token": "Token " + cls.user.access,
            "alg none": "Bearer " + cb.unsigned_jwt(dict(cls.header, alg="none"), cls.claims),
            "alg none, no signature part": "Bearer " + cb.unsigned_jwt(
                {"alg": "none", "typ": "JWT"}, cls.claims)[:-1],
            "HS256 keyed with the public key": "Bearer " + cb.hs256_jwt(
                dict(cls.header, alg="HS256"), cls.claims, cb.public_pem(cb.jwk_public_key(jwk))),
            "wrong signature, same kid": "Bearer " + cb.sign_jwt(cls.header, cls.claims, own_key),
            "unknown kid": "Bearer " + cb.sign_jwt(dict(cls.header, kid="no-such-kid"), cls.claims, own_key),
            "tampered payload": f"Bearer {head}.{tampered}.{signature}",
            "truncated signature": "Bearer " + cls.user.access[:-6],
            "signature of another token": "Bearer " + f"{head}.{payload}." + revoked.access.split(".")[2],
            "revoked session": "Bearer " + revoked.access,
            "expired in the database": "Bearer " + expired_in_db,
        }
        cls.endpoints = [
            ("GET", "/auth/me", None),
            ("GET", "/auth/sessions", None),
            ("DELETE", f"/auth/sessions/{uuid.uuid4()}", None),
            ("POST", "/auth/logout", None),
            ("POST", "/auth/logout/all", None),
            ("POST", "/auth/password/change", {"currentPassword": "Wrong-pass-1", "newPassword": "Other-pass-2"}),
            ("POST", "/auth/deactivate", {"password": "Wrong-pass-1"}),
        ]

    def call(self, method, path, body, authorization):
        headers = {} if authorization is None else {"Authorization": authorization}
        if body is None:
            return self.api.http.request(method, path, headers=headers)
        return self.api.http.request(method, path, json_body=body, headers=headers)

    def test_bad_tokens_on_every_bearer_endpoint(self):
        """Missing, malformed, unsigned, wrongly signed, tampered, revoked and expired tokens are all 401."""
        for method, path, body in self.endpoints:
            for name, authorization in self.bad_headers.items():
                with self.subTest(endpoint=f"{method} {path}", token=name):
                    cb.assert_unauthorized(self.call(method, path, body, authorization))
        self.assertTrue(self.api.is_live(self.user.access))
        self.assertEqual(cb.db().user(self.user.id)["status"], "ACTIVE")

    def test_tokens_minted_with_the_service_key(self):
        """With the real signing key: an unchanged re-signing works; expired, foreign-issuer or unknown-jti tokens are 401.

        The private key is sealed and never leaves the extension (issue 13),
        so the tokens are minted by corebank_internal.sign_jwt as superuser.
        """
        def mint(claims):
            token = cb.db().one("SELECT corebank_internal.sign_jwt(%s::jsonb) AS token", (json.dumps(claims),))["token"]
            self.assertEqual(cb.jwt_parts(token)[0], self.header, "minted with the active key, as the real token")
            return token

        control = mint(self.claims)
        self.assertEqual(self.api.me(control).status, 200, "re-signing the real claims should be accepted")
        now = int(time.time())
        cases = {
            "expired": dict(self.claims, iat=now - 2 * cb.ACCESS_TTL_S, exp=now - 60),
            "foreign issuer": dict(self.claims, iss="https://attacker.example"),
            "unknown jti": dict(self.claims, jti=str(uuid.uuid4())),
        }
        for name, claims in cases.items():
            token = mint(claims)
            for method, path, body in self.endpoints:
                with self.subTest(endpoint=f"{method} {path}", token=name):
                    cb.assert_unauthorized(self.call(method, path, body, "Bearer " + token))

    def test_unauthorized_body_shape(self):
        """The bearer filter's 401 body has error, message and status, and no timestamp."""
        body = cb.assert_unauthorized(self.api.http.get("/auth/me"))
        self.assertEqual(set(body), {"error", "message", "status"})


if __name__ == "__main__":
    unittest.main()
