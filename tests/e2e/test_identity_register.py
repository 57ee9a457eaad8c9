"""Registration: POST /auth/register (docs/identity.md, "Rules" and "Token pair").

Each test registers fresh users through the HTTP API and checks the answer,
the issued token and, where it matters, the rows in corebank.auth_users.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402


def setUpModule():
    cb.require_identity_service()


# The reason a guessable new password is refused with (httpd/src/auth/password_quality.hpp).
TOO_GUESSABLE = "is too easy to guess (a common password, a dictionary word or a simple pattern)"


class RegisterTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def register_ok(self, body):
        resp = self.api.register(body)
        self.assertEqual(resp.status, 201, resp)
        return resp.json

    # ------------------------------------------------------------ success shape

    def test_register_returns_201_token_pair(self):
        """A registration answers 201 with exactly the token pair fields the docs list."""
        address, phone, password = cb.unique_email(), cb.unique_phone(), cb.unique_password()
        body = self.register_ok({"email": address, "phone": phone, "password": password,
                                 "firstName": "Ada", "lastName": "Lovelace"})
        self.assertEqual(set(body), cb.TOKEN_PAIR_FIELDS)
        self.assertEqual(body["tokenType"], "Bearer")
        self.assertEqual(body["expiresIn"], cb.ACCESS_TTL_S)
        self.assertIsInstance(body["accessToken"], str)
        self.assertIsInstance(body["refreshToken"], str)
        self.assertNotEqual(body["accessToken"], body["refreshToken"])
        claims = cb.jwt_claims(body["accessToken"])
        self.assertEqual(claims["exp"] - claims["iat"], body["expiresIn"])

    def test_register_user_object(self):
        """The user object carries id, phone, email, names, kycTier NONE and roles [customer]."""
        address, phone = cb.unique_email(), cb.unique_phone()
        body = self.register_ok({"email": address, "phone": phone, "password": cb.unique_password(),
                                 "firstName": "Grace", "lastName": "Hopper"})
        user = body["user"]
        self.assertEqual(set(user), cb.USER_FIELDS)
        self.assertRegex(user["id"], r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
        self.assertEqual(user["email"], address)
        self.assertEqual(user["phone"], phone)
        self.assertEqual(user["firstName"], "Grace")
        self.assertEqual(user["lastName"], "Hopper")
        self.assertEqual(user["kycTier"], "NONE")
        self.assertEqual(user["roles"], ["customer"])
        self.assertEqual(cb.jwt_claims(body["accessToken"])["sub"], user["id"])

    def test_register_absent_fields_are_null(self):
        """Fields the registration left out are JSON null in the user object."""
        body = self.register_ok({"phone": cb.unique_phone(), "password": cb.unique_password()})
        user = body["user"]
        self.assertEqual(set(user), cb.USER_FIELDS)
        self.assertIsNone(user["email"])
        self.assertIsNone(user["firstName"])
        self.assertIsNone(user["lastName"])

    def test_register_stores_only_a_password_hash(self):
        """The database holds an argon2id hash, never the password, and the default row values."""
        address, password = cb.unique_email(), cb.unique_password()
        body = self.register_ok({"email": address, "password": password})
        row = cb.db().user(body["user"]["id"])
        self.assertIsNotNone(row)
        self.assertTrue(row["password_hash"].startswith("$argon2id$"), row["password_hash"][:20])
        self.assertNotIn(password, row["password_hash"])
        self.assertEqual(row["status"], "ACTIVE")
        self.assertEqual(row["kyc_tier"], "NONE")
        self.assertEqual(list(row["roles"]), ["customer"])
        self.assertEqual(row["failed_attempts"], 0)
        self.assertIsNone(row["locked_until"])

    def test_register_records_channel_on_session(self):
        """The free-form channel label is recorded on the session the registration opens."""
        body = self.register_ok({"email": cb.unique_email(), "password": cb.unique_password(),
                                 "channel": "kiosk-7"})
        sessions = self.api.sessions(body["accessToken"])
        self.assertEqual(sessions.status, 200, sessions)
        self.assertEqual(len(sessions.json), 1)
        self.assertEqual(sessions.json[0]["channel"], "kiosk-7")
        self.assertEqual(cb.db().scalar("SELECT channel FROM corebank.auth_sessions WHERE user_id = %s",
                                        (body["user"]["id"],)), "kiosk-7")

    def test_register_access_token_works_at_once(self):
        """The access token from registration authenticates GET /auth/me for the same user."""
        body = self.register_ok({"email": cb.unique_email(), "password": cb.unique_password()})
        me = self.api.me(body["accessToken"])
        self.assertEqual(me.status, 200, me)
        self.assertEqual(me.json["id"], body["user"]["id"])
        self.assertEqual(me.json["status"], "ACTIVE")
        self.assertIsNone(me.json["branchCode"])
        cb.parse_iso8601(me.json["createdAt"])

    # ------------------------------------------------------------ email and phone

    def test_email_is_trimmed_and_lowercased(self):
        """An email is stored trimmed and lower-cased, and login with another case works."""
        address = cb.unique_email()
        password = cb.unique_password()
        body = self.register_ok({"email": "  " + address.upper() + "  ", "password": password})
        self.assertEqual(body["user"]["email"], address)
        self.assertEqual(cb.db().user(body["user"]["id"])["email"], address)
        self.assertEqual(cb.jwt_claims(body["accessToken"])["email"], address)
        login = self.api.login({"email": address.title(), "password": password})
        self.assertEqual(login.status, 200, login)

    def test_either_email_or_phone_required(self):
        """Without email and phone the answer is 400 BAD_REQUEST with the fixed message."""
        resp = self.api.register({"password": cb.unique_password(), "firstName": "Nobody"})
        cb.assert_error(resp, 400, "BAD_REQUEST", cb.MSG_EITHER_EMAIL_OR_PHONE)

    def test_phone_only_registration(self):
        """A phone alone is enough to register, and that phone then logs in."""
        phone, password = cb.unique_phone(), cb.unique_password()
        body = self.register_ok({"phone": phone, "password": password})
        self.assertEqual(body["user"]["phone"], phone)
        self.assertEqual(self.api.login({"phone": phone, "password": password}).status, 200)

    def test_phone_regex_accepts_boundaries(self):
        """Phones of 10 and 15 digits, with or without '+', are accepted."""
        for phone in (cb.unique_phone(plus=False, digits=10), cb.unique_phone(plus=True, digits=10),
                      cb.unique_phone(plus=False, digits=15), cb.unique_phone(plus=True, digits=15)):
            with self.subTest(phone=phone):
                body = self.register_ok({"phone": phone, "password": cb.unique_password()})
                self.assertEqual(body["user"]["phone"], phone)

    def test_phone_regex_rejects_bad_values(self):
        """Phones that do not match ^\\+?[0-9]{10,15}$ are refused and nothing is written."""
        digits = cb.unique_phone(plus=False, digits=12)
        bad = ["123456789", "+123456789", "1234567890123456", "+1234567890123456",
               "++" + digits, digits[:6] + " " + digits[6:], digits[:6] + "-" + digits[6:],
               "(" + digits[:3] + ")" + digits[3:], digits[:-1] + "x", "-" + digits,
               digits + "+", "+", "phone", "\uff11" * 12, digits + "\n"]
        for phone in bad:
            with self.subTest(phone=phone):
                address = cb.unique_email("badphone")
                resp = self.api.register({"email": address, "phone": phone,
                                          "password": cb.unique_password()})
                cb.assert_validation(resp, "phone")
                self.assertIsNone(cb.db().user_by_email(address))

    # ------------------------------------------------------------ password length

    def test_password_length_boundaries(self):
        """Passwords of 8 and 128 characters are accepted; 7 and 129 are refused."""
        for length, ok in ((7, False), (8, True), (128, True), (129, False)):
            with self.subTest(length=length):
                address = cb.unique_email("pwlen")
                password = ("Ab1-" + "x" * 200)[:length]
                resp = self.api.register({"email": address, "password": password})
                if ok:
                    self.assertEqual(resp.status, 201, resp)
                    self.assertEqual(self.api.login({"email": address, "password": password}).status, 200)
                else:
                    cb.assert_validation(resp, "password")
                    self.assertIsNone(cb.db().user_by_email(address))

    def test_password_length_counts_characters_not_bytes(self):
        """Password length is in characters: 128 two-byte letters pass, 7 emoji (28 bytes) do not."""
        address = cb.unique_email("pwchars")
        # Sixteen different letters: one letter 128 times is refused as too guessable.
        password = "".join("\u00e9\u00e8\u00ea\u00eb\u00e0\u00e2\u00e4\u00ee\u00ef\u00f4\u00f6\u00f9\u00fb\u00fc\u00e7\u00f1"[i % 16]
                           for i in range(128))
        resp = self.api.register({"email": address, "password": password})
        self.assertEqual(resp.status, 201, resp)
        self.assertEqual(self.api.login({"email": address, "password": password}).status, 200)
        resp = self.api.register({"email": cb.unique_email("pwchars"), "password": "\U0001F600" * 7})
        cb.assert_validation(resp, "password")

    def test_common_and_dictionary_passwords_are_refused(self):
        """A common password, a dictionary word, or one with digits and a symbol added, is
        400 VALIDATION_ERROR `password: is too easy to guess (...)` and creates no user (issue 13)."""
        for password in ("password123!", "sunshine1", "Password1", "qwerty123!"):
            with self.subTest(password=password):
                address = cb.unique_email("pwweak")
                resp = self.api.register({"email": address, "password": password})
                cb.assert_validation(resp, "password", reason=TOO_GUESSABLE)
                self.assertIsNone(cb.db().user_by_email(address))
        self.register_ok({"email": cb.unique_email("pwstrong"), "password": "tangerine otter lamp 92"})

    # ------------------------------------------------------------ duplicates

    def test_duplicate_email_conflict_case_insensitive(self):
        """A second registration of an email, in any case or padding, is 409 CONFLICT."""
        address = cb.unique_email()
        self.register_ok({"email": address, "password": cb.unique_password()})
        for variant in (address, address.upper(), "  " + address.capitalize() + " "):
            with self.subTest(variant=variant):
                resp = self.api.register({"email": variant, "password": cb.unique_password()})
                body = cb.assert_error(resp, 409, "CONFLICT")
                self.assertRegex(body["message"].lower(), r"log in")
                self.assertIn("email", body["message"].lower())
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.auth_users WHERE email = %s",
                                        (address,)), 1)

    def test_duplicate_phone_conflict_with_and_without_plus(self):
        """A phone is one number with or without '+': a second registration is 409 CONFLICT."""
        digits = cb.unique_phone(plus=False)
        first = self.register_ok({"phone": "+" + digits, "password": cb.unique_password()})
        for variant in ("+" + digits, digits):
            with self.subTest(variant=variant):
                resp = self.api.register({"phone": variant, "email": cb.unique_email(),
                                          "password": cb.unique_password()})
                body = cb.assert_error(resp, 409, "CONFLICT")
                self.assertRegex(body["message"].lower(), r"log in")
                self.assertIn("phone", body["message"].lower())
        row = cb.db().one("SELECT id FROM corebank.auth_users WHERE phone_key = %s", (digits,))
        self.assertEqual(str(row["id"]), first["user"]["id"])

    def test_duplicate_phone_registered_without_plus(self):
        """A phone registered without '+' blocks the same number with '+'."""
        digits = cb.unique_phone(plus=False)
        self.register_ok({"phone": digits, "password": cb.unique_password()})
        resp = self.api.register({"phone": "+" + digits, "password": cb.unique_password()})
        cb.assert_error(resp, 409, "CONFLICT")

    def test_conflicting_email_leaves_phone_unclaimed(self):
        """A registration refused for its email writes nothing, so its phone stays free."""
        address = cb.unique_email()
        self.register_ok({"email": address, "password": cb.unique_password()})
        phone = cb.unique_phone()
        resp = self.api.register({"email": address, "phone": phone, "password": cb.unique_password()})
        cb.assert_error(resp, 409, "CONFLICT")
        self.register_ok({"phone": phone, "password": cb.unique_password()})

    # ------------------------------------------------------------ clientId and audience

    def test_unknown_client_id_rejected_and_nothing_written(self):
        """An unknown clientId is 400 'Unknown clientId' and no user row is created."""
        address, phone = cb.unique_email(), cb.unique_phone(plus=False)
        resp = self.api.register({"email": address, "phone": phone, "password": cb.unique_password(),
                                  "clientId": cb.unique_client_id("nosuch")})
        cb.assert_error(resp, 400, "BAD_REQUEST", cb.MSG_UNKNOWN_CLIENT)
        self.assertIsNone(cb.db().user_by_email(address))
        self.assertIsNone(cb.db().one("SELECT id FROM corebank.auth_users WHERE phone_key = %s", (phone,)))
        # The same email and phone register fine afterwards: nothing was half-created.
        self.register_ok({"email": address, "phone": phone, "password": cb.unique_password()})

    def test_disabled_client_id_rejected(self):
        """A clientId naming a client that is not ACTIVE is 400 'Unknown clientId'."""
        client_id, _ = cb.create_client()
        cb.db().execute("UPDATE corebank.auth_oauth_clients SET status = 'DISABLED' WHERE client_id = %s",
                        (client_id,))
        address = cb.unique_email()
        resp = self.api.register({"email": address, "password": cb.unique_password(), "clientId": client_id})
        cb.assert_error(resp, 400, "BAD_REQUEST", cb.MSG_UNKNOWN_CLIENT)
        self.assertIsNone(cb.db().user_by_email(address))

    def test_client_id_becomes_audience(self):
        """With an ACTIVE clientId the token's aud is that clientId and the session records it."""
        client_id, _ = cb.create_client()
        body = self.register_ok({"email": cb.unique_email(), "password": cb.unique_password(),
                                 "clientId": client_id})
        claims = cb.jwt_claims(body["accessToken"])
        self.assertEqual(claims["aud"], client_id)
        row = cb.db().one("SELECT audience, client_id FROM corebank.auth_sessions WHERE user_id = %s",
                          (body["user"]["id"],))
        self.assertEqual(row["audience"], client_id)
        self.assertEqual(row["client_id"], client_id)

    def test_default_audience_without_client_id(self):
        """Without clientId the token's aud is the default audience 'corebank'."""
        body = self.register_ok({"email": cb.unique_email(), "password": cb.unique_password()})
        self.assertEqual(cb.jwt_claims(body["accessToken"])["aud"], cb.DEFAULT_AUDIENCE)

    # ------------------------------------------------------------ unicode in names

    def test_unicode_names_round_trip(self):
        """Emoji, accents, CJK and right-to-left marks in names come back unchanged."""
        first = "Zo\u00eb \U0001F600 \u674e"
        last = "\u200f\u05db\u05d4\u05df\u202e abc\u202c"
        body = self.register_ok({"email": cb.unique_email(), "password": cb.unique_password(),
                                 "firstName": first, "lastName": last})
        self.assertEqual(body["user"]["firstName"], first)
        self.assertEqual(body["user"]["lastName"], last)
        me = self.api.me(body["accessToken"]).json
        self.assertEqual((me["firstName"], me["lastName"]), (first, last))
        row = cb.db().user(body["user"]["id"])
        self.assertEqual((row["first_name"], row["last_name"]), (first, last))

    def test_escaped_surrogate_pair_decodes_to_one_character(self):
        """A name sent as JSON \\u escapes of a surrogate pair is stored as the one emoji."""
        raw = ('{"email":"%s","password":"%s","firstName":"\\ud83d\\ude00"}'
               % (cb.unique_email(), cb.unique_password()))
        resp = self.api.http.post("/auth/register", body=raw)
        self.assertEqual(resp.status, 201, resp)
        self.assertEqual(resp.json["user"]["firstName"], "\U0001F600")

    def test_name_length_limit(self):
        """Names up to 100 characters are accepted; 101 is a VALIDATION_ERROR."""
        ok = self.register_ok({"email": cb.unique_email(), "password": cb.unique_password(),
                               "firstName": "\u00e9" * 100, "lastName": "b" * 100})
        self.assertEqual(ok["user"]["firstName"], "\u00e9" * 100)
        for field in ("firstName", "lastName"):
            with self.subTest(field=field):
                resp = self.api.register({"email": cb.unique_email(), "password": cb.unique_password(),
                                          field: "a" * 101})
                cb.assert_validation(resp, field)

    def test_email_length_limit(self):
        """An email of 254 characters is accepted; 255 is a VALIDATION_ERROR."""
        address = cb.long_email(254)
        self.assertEqual(len(address), 254)
        body = self.register_ok({"email": address, "password": cb.unique_password()})
        self.assertEqual(body["user"]["email"], address)
        resp = self.api.register({"email": cb.long_email(255), "password": cb.unique_password()})
        cb.assert_validation(resp, "email")


if __name__ == "__main__":
    unittest.main()
