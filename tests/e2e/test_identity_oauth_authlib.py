"""A standard OAuth client library against the identity service (issue 14, part 6).

Debian's python3-authlib (requests client and JOSE), not hand-written HTTP:
discovery, the client-credentials grant, the access token verified against
the JWKS the discovery document names, introspection, and a wrong secret.
It failed with the camelCase-only token answer (authlib found no
`access_token`); the answer now carries RFC 6749 section 5.1's fields beside
the spec's (docs/identity.md, "OAuth clients").

authlib refuses plain HTTP unless AUTHLIB_INSECURE_TRANSPORT is set; the
test services listen on 127.0.0.1 without TLS (production has TLS in front).
"""

import os
import sys
import time
import unittest

os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")

from authlib.integrations.base_client import OAuthError  # noqa: E402
from authlib.integrations.requests_client import OAuth2Session  # noqa: E402
from authlib.jose import JsonWebKey, JsonWebToken  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402

SCOPES = ("kyc:validate", "introspect")


def setUpModule():
    cb.require_identity_service()


class AuthlibClientCredentialsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.client_id, cls.secret = cb.create_client(SCOPES)
        # Discovery: everything below comes from the document, not from our URLs.
        with OAuth2Session() as anonymous:
            resp = anonymous.get(cb.ID_URL + "/.well-known/openid-configuration", withhold_token=True, timeout=10)
        resp.raise_for_status()
        cls.metadata = resp.json()

    def session(self, secret=None, method="client_secret_basic"):
        return OAuth2Session(self.client_id, secret or self.secret, token_endpoint_auth_method=method,
                             scope="kyc:validate")

    def fetch(self, session):
        return session.fetch_token(self.metadata["token_endpoint"], grant_type="client_credentials", timeout=10)

    def test_discovery_lists_what_the_grant_uses(self):
        """The document names the token, introspection and JWKS endpoints and the grant and auth methods used here."""
        self.assertEqual(self.metadata["issuer"], cb.ID_URL)
        self.assertEqual(self.metadata["grant_types_supported"], ["client_credentials"])
        for key in ("token_endpoint_auth_methods_supported", "introspection_endpoint_auth_methods_supported"):
            self.assertEqual(sorted(self.metadata.get(key, [])), ["client_secret_basic", "client_secret_post"],
                             self.metadata)
        self.assertNotIn("authorization_endpoint", self.metadata)
        self.assertNotIn("userinfo_endpoint", self.metadata)

    def test_grant_with_basic_and_with_form_credentials(self):
        """authlib gets a Bearer token with either client authentication method; the spec's fields stay beside."""
        for method in ("client_secret_basic", "client_secret_post"):
            with self.subTest(method=method), self.session(method=method) as session:
                token = self.fetch(session)
                self.assertEqual(token["token_type"], "Bearer")
                self.assertEqual(token["expires_in"], 900)
                self.assertGreater(token["expires_at"], time.time())
                self.assertEqual(token["scope"], "kyc:validate")
                self.assertEqual(token["accessToken"], token["access_token"])
                self.assertEqual(token["tokenType"], "Bearer")
                self.assertEqual(token["expiresIn"], token["expires_in"])

    def test_token_verifies_against_the_jwks(self):
        """authlib's JOSE verifies the token with the published key of its kid, and its claims."""
        with self.session() as session:
            token = self.fetch(session)
            jwks = session.get(self.metadata["jwks_uri"], withhold_token=True, timeout=10).json()
        claims = JsonWebToken(["RS256"]).decode(
            token["access_token"], JsonWebKey.import_key_set(jwks),
            claims_options={"iss": {"essential": True, "value": self.metadata["issuer"]},
                            "sub": {"essential": True, "value": self.client_id}})
        claims.validate()
        self.assertEqual(claims["token_type"], "client")
        self.assertEqual(claims["client_id"], self.client_id)
        self.assertEqual(claims["scopes"], ["kyc:validate"])

    def test_introspection(self):
        """authlib's introspect_token, authenticated as the client, finds the token active, then not a forged one."""
        with self.session() as session:
            token = self.fetch(session)
            active = session.introspect_token(self.metadata["introspection_endpoint"],
                                              token=token["access_token"], timeout=10)
            forged = session.introspect_token(self.metadata["introspection_endpoint"],
                                              token=token["access_token"][:-4] + "AAAA", timeout=10)
        self.assertEqual(active.status_code, 200, active.text)
        facts = active.json()
        self.assertIs(facts["active"], True)
        self.assertEqual((facts["client_id"], facts["token_type"], facts["scope"]),
                         (self.client_id, "client", "kyc:validate"))
        self.assertEqual(forged.json(), {"active": False})

    def test_wrong_secret_is_an_oauth_error(self):
        """A wrong secret: authlib raises OAuthError carrying the spec's error code."""
        with self.session(secret="wrong-" + self.secret) as session:
            with self.assertRaises(OAuthError) as raised:
                self.fetch(session)
        self.assertEqual(raised.exception.error, "INVALID_CREDENTIALS")


if __name__ == "__main__":
    unittest.main()
