"""The current user and contact claims (issue 14, part 1; docs/identity.md,
"The current user and contact claims").

Goal: PATCH /auth/me changes names at once; an email or a phone becomes the
account's only through the 6-digit code sent to it (mail, or an SMS file in
<mail_dir>/sms), after which emailVerified (phoneVerified) is true, the new
email signs in and the old one does not, and the old address is told; a
value another account holds is 409 CONFLICT at the claim and, when two users
race for one email, at the second confirmation; bad input on every new
endpoint is a 4xx that writes nothing. A claim needs the password re-entered
(currentPassword; and totpCode or recoveryCode with TOTP enabled): a wrong
one is 401 INVALID_CREDENTIALS, counted as a failed login (the 5th locks),
writes no claim and sends nothing; a missing one is 400. Method: HTTP against the identity
service, codes read from the mail and SMS folders, rows read from the
database.
"""
import email
import email.policy
import os
import re
import time
import unittest

import cbclient as cb
import totp_support as totp

CODE = re.compile(r"\b([0-9]{6})\b")


def setUpModule():
    cb.require_identity_service()
    cb.require(cb.MAIL_DIR, "CB_MAIL_DIR")


def code_in(message):
    found = CODE.findall(cb.mail_text(message))
    if len(found) != 1:
        raise AssertionError(f"want one 6-digit code in the message, found {found}")
    return found[0]


def sms_to(phone, count=1, timeout=cb.MAIL_WAIT_S):
    """The SMS files to a phone in <CB_MAIL_DIR>/sms, oldest first, once there are count."""
    folder = os.path.join(cb.MAIL_DIR, "sms")
    deadline = time.monotonic() + timeout
    while True:
        found = []
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if name.endswith(".eml"):
                with open(os.path.join(folder, name), "rb") as handle:
                    message = email.message_from_bytes(handle.read(), policy=email.policy.default)
                if message["To"] == phone:
                    found.append(message)
        if len(found) >= count:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(found)} SMS file(s) to {phone} after {timeout} s, wanted {count}")
        time.sleep(0.2)


class MeTestBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()
        cls.http = cb.HttpClient(cb.ID_URL)
        cls.db = cb.db()

    def claim(self, user, kind, value, password=None, **factor):
        body = {kind: value, "currentPassword": user.password if password is None else password, **factor}
        return self.http.post(f"/auth/me/{kind}", token=user.access, json_body=body)

    def confirm(self, user, kind, code):
        return self.http.post(f"/auth/me/{kind}/confirm", token=user.access, json_body={"code": code})

    def claims_of(self, user):
        return self.db.scalar("SELECT count(*) FROM corebank.auth_contact_claims WHERE user_id = %s", (user.id,))

    def user_row(self, user):
        return self.db.one("SELECT email, phone, first_name, last_name, email_verified_at, phone_verified_at"
                           " FROM corebank.auth_users WHERE id = %s", (user.id,))


class NamesTest(MeTestBase):
    def test_names_are_patched_at_once(self):
        user = cb.new_user(self.api)
        resp = self.http.request("PATCH", "/auth/me", token=user.access, json_body={"firstName": "  Ada "})
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(resp.json["firstName"], "Ada")
        self.assertIsNone(resp.json["lastName"])
        resp = self.http.request("PATCH", "/auth/me", token=user.access, json_body={"lastName": "Lovelace"})
        self.assertEqual((resp.json["firstName"], resp.json["lastName"]), ("Ada", "Lovelace"))
        me = self.api.me(user.access).json
        self.assertEqual((me["firstName"], me["lastName"], me["emailVerified"], me["phoneVerified"]),
                         ("Ada", "Lovelace", False, False))
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.auth_audit WHERE user_id = %s"
                                        " AND event = 'profile_updated'", (user.id,)), 2)


class EmailClaimTest(MeTestBase):
    def test_email_changed_through_the_mailed_code(self):
        user = cb.new_user(self.api)
        new_address = cb.unique_email("moved")
        resp = self.claim(user, "email", "  " + new_address.upper() + " ")
        self.assertEqual(resp.status, 202, resp)
        self.assertEqual((resp.json["kind"], resp.json["value"]), ("email", new_address))
        code = code_in(cb.wait_for_mails(new_address)[0])
        self.assertEqual(self.api.me(user.access).json["email"], user.email, "pending: the email is unchanged")

        wrong = "000000" if code != "000000" else "111111"
        resp = self.confirm(user, "email", wrong)
        self.assertEqual((resp.status, resp.json["error"], resp.json["message"]),
                         (400, "VALIDATION_ERROR", "code: does not match (4 attempts left)"))
        resp = self.confirm(user, "email", code)
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual((resp.json["email"], resp.json["emailVerified"]), (new_address, True))
        resp = self.confirm(user, "email", code)
        self.assertEqual((resp.status, resp.json["error"]), (409, "CONFLICT"), "a code works once")

        # The old address is told; the new one signs in, the old one no longer does.
        notice = cb.wait_for_mails(user.email)
        self.assertTrue(any(new_address in cb.mail_text(m) for m in notice), "the old address is notified")
        self.assertEqual(self.api.login({"email": new_address, "password": user.password}).status, 200)
        self.assertEqual(self.api.login({"email": user.email, "password": user.password}).status, 401)
        # The code is stored only as its HMAC.
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.auth_contact_claims c WHERE c.user_id = %s"
                                        " AND (position(%s IN c::text) > 0"
                                        "      OR position(convert_to(%s, 'UTF8') IN c.code_hash) > 0)",
                                        (user.id, code, code)), 0)

    def test_confirming_the_registration_email_verifies_it_and_with_names_makes_basic(self):
        # emailVerified is the one record of a verified contact, which KYC's BASIC reads.
        user = cb.new_user(self.api, firstName="Ada", lastName="Lovelace")
        self.assertEqual(self.claim(user, "email", user.email).status, 202)
        resp = self.confirm(user, "email", code_in(cb.wait_for_mails(user.email)[0]))
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual((resp.json["email"], resp.json["emailVerified"], resp.json["kycTier"]),
                         (user.email, True, "BASIC"))
        self.assertEqual(len(cb.mails_to(user.email)), 1, "no change notice: the email did not change")

    def test_claiming_another_accounts_email_is_409_and_writes_nothing(self):
        owner, claimant = cb.new_user(self.api), cb.new_user(self.api)
        resp = self.claim(claimant, "email", owner.email.upper())
        self.assertEqual((resp.status, resp.json["error"], resp.json["message"]),
                         (409, "CONFLICT", "That email belongs to another account"))
        self.assertEqual(self.claims_of(claimant), 0)

    def test_two_users_race_for_one_email_and_the_second_confirmation_loses(self):
        first, second = cb.new_user(self.api), cb.new_user(self.api)
        prize = cb.unique_email("prize")
        self.assertEqual(self.claim(first, "email", prize).status, 202)
        first_code = code_in(cb.wait_for_mails(prize, 1)[0])
        self.assertEqual(self.claim(second, "email", prize).status, 202, "another user's pending claim does not block")
        mails = cb.wait_for_mails(prize, 2)
        second_code = [code_in(m) for m in mails if code_in(m) != first_code]
        self.assertEqual(len(second_code), 1, "two different codes were sent")
        self.assertEqual(self.confirm(second, "email", second_code[0]).status, 200)
        resp = self.confirm(first, "email", first_code)
        self.assertEqual((resp.status, resp.json["error"], resp.json["message"]),
                         (409, "CONFLICT", "That email belongs to another account"))
        self.assertEqual(self.user_row(first)["email"], first.email)


class PhoneClaimTest(MeTestBase):
    def test_phone_confirmed_through_the_sms_file(self):
        user = cb.new_user(self.api)
        phone = cb.unique_phone()
        self.assertEqual(self.claim(user, "phone", phone).status, 202)
        code = code_in(sms_to(phone)[0])
        resp = self.confirm(user, "phone", code)
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual((resp.json["phone"], resp.json["phoneVerified"]), (phone, True))
        self.assertEqual(self.api.login({"phone": phone, "password": user.password}).status, 200)


class BadInputTest(MeTestBase):
    """Every new operation: bad input is a 4xx with the error body, and nothing is written."""

    CASES = [
        ("PATCH", "/auth/me", b"{", 400, "BAD_REQUEST"),
        ("PATCH", "/auth/me", {}, 400, "VALIDATION_ERROR"),
        ("PATCH", "/auth/me", {"firstName": ""}, 400, "VALIDATION_ERROR"),
        ("PATCH", "/auth/me", {"firstName": "x" * 101}, 400, "VALIDATION_ERROR"),
        ("PATCH", "/auth/me", {"firstName": 7}, 400, "VALIDATION_ERROR"),
        ("PATCH", "/auth/me", {"firstName": None}, 400, "VALIDATION_ERROR"),
        ("PATCH", "/auth/me", {"firstName": "Ada", "email": "a@b.test"}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email", b"[]", 400, "BAD_REQUEST"),
        ("POST", "/auth/me/email", {}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email", {"email": "not-an-email"}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email", {"email": "a" * 250 + "@b.test"}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email", {"email": "a@b.test", "x": 1}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/phone", {"phone": "12345"}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/phone", {"phone": 263771000000}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email/confirm", {"code": "12345"}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email/confirm", {"code": "abcdef"}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email/confirm", {}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email/confirm", {"code": "123456"}, 409, "CONFLICT"),
        ("POST", "/auth/me/phone/confirm", {"code": 123456}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/phone/confirm", {"code": "123456"}, 409, "CONFLICT"),
        ("POST", "/auth/me/email", {"email": "a@b.test"}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email", {"email": "a@b.test", "currentPassword": ""}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email", {"email": "a@b.test", "currentPassword": 7}, 400, "VALIDATION_ERROR"),
        ("POST", "/auth/me/email", {"email": "a@b.test", "currentPassword": "pw", "totpCode": "12"}, 400,
         "VALIDATION_ERROR"),
        ("POST", "/auth/me/phone", {"phone": "+263771000000"}, 400, "VALIDATION_ERROR"),
    ]

    def test_bad_input_on_every_new_endpoint_writes_nothing(self):
        user = cb.new_user(self.api)
        before = (self.user_row(user), self.claims_of(user),
                  self.db.scalar("SELECT count(*) FROM corebank.auth_audit WHERE user_id = %s", (user.id,)))
        for method, path, body, status, error in self.CASES:
            with self.subTest(method=method, path=path, body=body):
                kw = {"body": body} if isinstance(body, bytes) else {"json_body": body}
                resp = self.http.request(method, path, token=user.access, **kw)
                self.assertEqual((resp.status, resp.json["error"]), (status, error), resp)
        for method, path in (("PATCH", "/auth/me"), ("POST", "/auth/me/email"), ("POST", "/auth/me/phone"),
                             ("POST", "/auth/me/email/confirm"), ("POST", "/auth/me/phone/confirm")):
            with self.subTest(method=method, path=path, token=None):
                resp = self.http.request(method, path, json_body={"firstName": "Ada"})
                self.assertEqual((resp.status, resp.json["error"]), (401, "UNAUTHORIZED"))
        after = (self.user_row(user), self.claims_of(user),
                 self.db.scalar("SELECT count(*) FROM corebank.auth_audit WHERE user_id = %s", (user.id,)))
        self.assertEqual(after, before, "a refused request wrote nothing")


class ReauthenticationTest(MeTestBase):
    """A stolen access token alone cannot move the email: the password is re-entered."""

    def failed_attempts(self, user):
        return self.db.scalar("SELECT failed_attempts FROM corebank.auth_users WHERE id = %s", (user.id,))

    def test_a_wrong_password_is_401_counted_and_sends_nothing(self):
        user = cb.new_user(self.api)
        target = cb.unique_email("stolen")
        resp = self.claim(user, "email", target, password=user.password + "x")
        self.assertEqual((resp.status, resp.json["error"]), (401, "INVALID_CREDENTIALS"), resp)
        self.assertEqual((self.claims_of(user), self.failed_attempts(user)), (0, 1))
        # Without the password, another account's email is not told either (no 409).
        other = cb.new_user(self.api)
        resp = self.claim(user, "email", other.email, password="not the password")
        self.assertEqual(resp.status, 401, resp)
        # A right claim queued after the refused one arrives; the refused one never does.
        later = cb.unique_email("later")
        self.assertEqual(self.claim(user, "email", later).status, 202)
        cb.wait_for_mails(later)
        self.assertEqual(cb.mails_to(target), [], "nothing was sent to the address of a refused claim")
        self.assertEqual(self.failed_attempts(user), 0, "the right password clears the count")

    def test_without_the_password_is_400(self):
        user = cb.new_user(self.api)
        resp = self.http.post("/auth/me/email", token=user.access, json_body={"email": cb.unique_email("nopw")})
        self.assertEqual((resp.status, resp.json["error"]), (400, "VALIDATION_ERROR"), resp)
        self.assertIn("currentPassword", resp.json["message"])
        self.assertEqual((self.claims_of(user), self.failed_attempts(user)), (0, 0))

    def test_the_fifth_wrong_password_locks_the_account(self):
        user = cb.new_user(self.api)
        for attempt in range(5):
            resp = self.claim(user, "phone", cb.unique_phone(), password=f"wrong {attempt}")
            self.assertEqual(resp.status, 401, (attempt, resp))
        self.assertTrue(self.db.scalar("SELECT locked_until > now() FROM corebank.auth_users WHERE id = %s",
                                       (user.id,)))
        resp = self.claim(user, "phone", cb.unique_phone())
        self.assertEqual((resp.status, resp.json["error"]), (403, "ACCOUNT_LOCKED"), resp)
        self.assertEqual(self.claims_of(user), 0)

    def test_with_totp_enabled_a_code_is_needed_too(self):
        user = cb.new_user(self.api)
        resp = self.http.post("/auth/mfa/totp", token=user.access)
        self.assertEqual(resp.status, 201, resp)
        app = totp.Authenticator(resp.json["secret"])
        resp = self.http.post("/auth/mfa/totp/confirm", token=user.access, json_body={"code": app.next_code()})
        self.assertEqual(resp.status, 200, resp)
        recovery = resp.json["recoveryCodes"]
        resp = self.claim(user, "email", cb.unique_email("mfa"))
        self.assertEqual((resp.status, resp.json["error"]), (401, "MFA_REQUIRED"), resp)
        self.assertEqual((self.claims_of(user), self.failed_attempts(user)), (0, 0))
        self.assertEqual(self.claim(user, "email", cb.unique_email("mfa"), totpCode=app.next_code()).status, 202)
        self.assertEqual(self.claim(user, "email", cb.unique_email("mfa"), recoveryCode=recovery[0]).status, 202)
        resp = self.claim(user, "email", cb.unique_email("mfa"), recoveryCode=recovery[0])
        self.assertEqual((resp.status, resp.json["error"]), (401, "INVALID_CREDENTIALS"), "a used recovery code")
        self.assertEqual(self.failed_attempts(user), 1)


if __name__ == "__main__":
    unittest.main()
