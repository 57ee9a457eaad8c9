"""The staff second factor: TOTP enrolment, recovery codes, amr in tokens.

docs/identity.md ("Staff second factor") fixes: POST /auth/mfa/totp answers a
pending secret and its otpauth URI (201; 409 once enabled); a code of the
current step, or one step either side, confirms it and answers 10 recovery
codes; a code is accepted once; a wrong code to turn the factor off or to get
new recovery codes is a failed login (401, the 5th locks); malformed input is
400 and counts nothing; ./corebank staff create enrols roles of
staff_mfa_roles (admin) at once and prints the secret; every user token says
how its user signed in (amr).
"""

import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cbclient as cb  # noqa: E402
import corebanking as C  # noqa: E402
import totp_support as totp  # noqa: E402

RECOVERY_CODE = re.compile(r"^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def setUpModule():
    cb.require_identity_service()


class Mfa:
    """The second-factor endpoints of one signed-in user."""

    def __init__(self, api, access):
        self.http, self.access = api.http, access

    def state(self):
        return self.http.get("/auth/mfa", token=self.access)

    def enrol(self, **kw):
        return self.http.post("/auth/mfa/totp", token=self.access, **kw)

    def confirm(self, code, **kw):
        return self.http.post("/auth/mfa/totp/confirm", token=self.access, json_body={"code": code}, **kw)

    def disable(self, code):
        return self.http.delete("/auth/mfa/totp", token=self.access, json_body={"code": code})

    def new_codes(self, code):
        return self.http.post("/auth/mfa/recovery-codes", token=self.access, json_body={"code": code})


def failed_attempts(user_id):
    return cb.db().scalar("SELECT failed_attempts FROM corebank.auth_users WHERE id = %s", (user_id,))


def totp_rows(user_id):
    return cb.db().scalar("SELECT count(*) FROM corebank.auth_mfa_totp WHERE user_id = %s", (user_id,))


class EnrolmentTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def enrolled(self):
        """A fresh user with TOTP enabled: (user, mfa, authenticator, recovery codes)."""
        user = cb.new_user(self.api)
        mfa = Mfa(self.api, user.access)
        resp = mfa.enrol()
        self.assertEqual(resp.status, 201, resp)
        app = totp.Authenticator(resp.json["secret"])
        confirmed = mfa.confirm(app.next_code())
        self.assertEqual(confirmed.status, 200, confirmed)
        return user, mfa, app, confirmed.json["recoveryCodes"]

    def test_enrolment_confirmation_and_state(self):
        """A pending secret, replaced by a second start, is enabled by a current code, which answers 10 codes."""
        user = cb.new_user(self.api)
        mfa = Mfa(self.api, user.access)
        self.assertEqual(mfa.state().json, {"totp": {"enabled": False, "enrolledAt": None}, "recoveryCodesLeft": 0})
        first = mfa.enrol()
        self.assertEqual(first.status, 201, first)
        self.assertRegex(first.json["secret"], r"^[A-Z2-7]{32}$")
        second = mfa.enrol()
        self.assertEqual(second.status, 201, second)
        secret = second.json["secret"]
        self.assertNotEqual(secret, first.json["secret"])
        self.assertEqual(second.json["otpauthUri"],
                         f"otpauth://totp/corebank:{user.email.replace('@', '%40')}?secret={secret}"
                         "&issuer=corebank&algorithm=SHA1&digits=6&period=30")
        self.assertFalse(mfa.state().json["totp"]["enabled"], "pending until confirmed")
        # The first secret no longer confirms; the second one does.
        cb.assert_error(mfa.confirm(totp.code(first.json["secret"])), 400, "VALIDATION_ERROR",
                        "code: does not match the authenticator; check its clock and enter the current code")
        resp = mfa.confirm(totp.code(secret, -1))
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(set(resp.json), {"recoveryCodes"})
        self.assertEqual(len(resp.json["recoveryCodes"]), 10)
        for code in resp.json["recoveryCodes"]:
            self.assertRegex(code, RECOVERY_CODE)
        state = mfa.state().json
        self.assertTrue(state["totp"]["enabled"])
        cb.parse_iso8601(state["totp"]["enrolledAt"])
        self.assertEqual(state["recoveryCodesLeft"], 10)
        cb.assert_error(mfa.enrol(), 409, "CONFLICT")
        cb.assert_error(mfa.confirm(totp.code(secret)), 409, "CONFLICT")

    def test_the_secret_is_stored_sealed(self):
        """Neither the secret nor a recovery code is in any column of the database."""
        user = cb.new_user(self.api)
        mfa = Mfa(self.api, user.access)
        secret = mfa.enrol().json["secret"]
        codes = mfa.confirm(totp.code(secret)).json["recoveryCodes"]
        rows = cb.db().rows("SELECT t::text AS row FROM corebank.auth_mfa_totp t WHERE user_id = %s "
                            "UNION ALL SELECT r::text FROM corebank.auth_mfa_recovery_codes r WHERE user_id = %s",
                            (user.id, user.id))
        self.assertEqual(len(rows), 11)
        raw_hex = totp.base64.b32decode(secret).hex()
        for row in rows:
            self.assertNotIn(secret, row["row"])
            self.assertNotIn(raw_hex, row["row"])
            for code in codes:
                self.assertNotIn(code.replace("-", ""), row["row"])

    def test_a_code_is_accepted_once(self):
        """The confirming code's step, and the earlier ones, are refused afterwards (and counted)."""
        user, mfa, app, _ = self.enrolled()
        used = totp.code_at(app.secret, app.last_step)
        cb.assert_error(mfa.new_codes(used), 401, "INVALID_CREDENTIALS")
        self.assertEqual(failed_attempts(user.id), 1)
        resp = mfa.new_codes(app.next_code())
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(failed_attempts(user.id), 0, "a right code resets the counter")

    def test_recovery_codes_single_use_and_replaced(self):
        """A recovery code works once; a new set replaces the old one."""
        user, mfa, app, codes = self.enrolled()
        resp = mfa.new_codes(codes[0].upper())
        self.assertEqual(resp.status, 200, resp)
        fresh = resp.json["recoveryCodes"]
        self.assertEqual(len(set(fresh) & set(codes)), 0)
        cb.assert_error(mfa.new_codes(codes[1]), 401, "INVALID_CREDENTIALS")  # the old set is gone
        self.assertEqual(mfa.state().json["recoveryCodesLeft"], 10)
        resp = mfa.disable(fresh[0])
        cb.assert_message(resp, 200, "Two-factor authentication has been turned off")
        self.assertEqual(totp_rows(user.id), 0)
        self.assertEqual(mfa.state().json, {"totp": {"enabled": False, "enrolledAt": None}, "recoveryCodesLeft": 0})
        cb.assert_error(mfa.disable(fresh[1]), 409, "CONFLICT")

    def test_five_wrong_codes_lock_the_account(self):
        """Wrong codes to turn the factor off are failed logins: the 5th locks, then even the right code is 403."""
        user, mfa, app, codes = self.enrolled()
        for _ in range(4):
            cb.assert_error(mfa.disable("zzzzz-zzzzz"), 401, "INVALID_CREDENTIALS")
        cb.assert_error(mfa.disable(totp.code_at(app.secret, app.last_step)), 401, "INVALID_CREDENTIALS")
        cb.assert_error(mfa.disable(codes[0]), 403, "ACCOUNT_LOCKED")
        cb.assert_error(self.api.login(user.login_body()), 403, "ACCOUNT_LOCKED")
        self.assertEqual(totp_rows(user.id), 1, "still enabled")

    def test_bad_input_is_400_and_counts_nothing(self):
        """Malformed bodies and codes are 400 with the error body; nothing is written or counted."""
        user, mfa, app, codes = self.enrolled()
        cb.assert_error(mfa.enrol(json_body={"x": 1}), 400, "BAD_REQUEST")
        for body, message in (({"code": "12345"}, "code: must be 6 digits"),
                              ({"code": "abcde-fghjk"}, "code: must be 6 digits"),
                              ({}, "code: is required"),
                              ({"code": "123456", "extra": 1}, "extra: unknown field")):
            resp = self.api.http.post("/auth/mfa/totp/confirm", token=user.access, json_body=body)
            cb.assert_error(resp, 400, "VALIDATION_ERROR", message)
        for path, method in (("/auth/mfa/recovery-codes", "POST"), ("/auth/mfa/totp", "DELETE")):
            resp = self.api.http.request(method, path, token=user.access, json_body={"code": "12-34-56"})
            cb.assert_error(resp, 400, "VALIDATION_ERROR",
                            "code: must be a 6-digit code or a recovery code (xxxxx-xxxxx)")
            resp = self.api.http.request(method, path, token=user.access, body="{not json")
            cb.assert_error(resp, 400, "BAD_REQUEST", cb.MSG_MALFORMED_JSON)
        self.assertEqual(failed_attempts(user.id), 0)
        self.assertEqual(mfa.state().json["recoveryCodesLeft"], 10)

    def test_endpoints_need_a_user_token(self):
        """Without a valid bearer token every endpoint is 401 UNAUTHORIZED (no timestamp)."""
        for method, path in (("GET", "/auth/mfa"), ("POST", "/auth/mfa/totp"), ("DELETE", "/auth/mfa/totp"),
                             ("POST", "/auth/mfa/totp/confirm"), ("POST", "/auth/mfa/recovery-codes")):
            cb.assert_unauthorized(self.api.http.request(method, path, json_body={"code": "123456"}))


class StaffCreateTest(unittest.TestCase):

    def test_admin_is_enrolled_at_creation(self):
        """staff create prints the id, the TOTP secret and its URI for an admin; the factor is on at once."""
        address = cb.unique_email("admin")
        out = cb.cli("staff-create", "--email", address, "--password", cb.unique_password(), "--roles", "admin")
        lines = out.splitlines()
        self.assertEqual(len(lines), 3, out)
        self.assertRegex(lines[0], UUID)
        self.assertRegex(lines[1], r"^[A-Z2-7]{32}$")
        self.assertEqual(lines[2], f"otpauth://totp/corebank:{address.replace('@', '%40')}?secret={lines[1]}"
                                   "&issuer=corebank&algorithm=SHA1&digits=6&period=30")
        enabled = cb.db().scalar("SELECT enabled_at IS NOT NULL FROM corebank.auth_mfa_totp WHERE user_id = %s",
                                 (lines[0],))
        self.assertTrue(enabled)

    def test_teller_is_not_enrolled(self):
        """A teller's staff create prints the id alone."""
        user_id, _, _ = cb.create_staff(["teller"])
        self.assertEqual(totp_rows(user_id), 0)

    def test_admin_cannot_turn_the_factor_off(self):
        """DELETE /auth/mfa/totp is 403 FORBIDDEN for a role of staff_mfa_roles."""
        address, password = cb.unique_email("admin"), cb.unique_password()
        secret = cb.cli("staff-create", "--email", address, "--password", password, "--roles", "admin").split()[1]
        api = cb.Identity()
        login = api.login({"email": address, "password": password, **self.second_factor(secret)})
        self.assertEqual(login.status, 200, login)
        resp = Mfa(api, login.json["accessToken"]).disable(totp.code(secret, 1))
        cb.assert_error(resp, 403, "FORBIDDEN", "Your roles require a second factor (staff_mfa_roles); "
                                                "it cannot be turned off")

    def second_factor(self, secret):
        """The login fields that carry the second factor."""
        return {"totpCode": totp.code(secret)}


def new_admin():
    """An admin made by staff-create: (email, password, authenticator)."""
    address, password = cb.unique_email("admin"), cb.unique_password()
    secret = cb.cli("staff-create", "--email", address, "--password", password, "--roles", "admin").split()[1]
    return address, password, totp.Authenticator(secret)


class LoginTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.api = cb.Identity()

    def test_a_code_is_required_after_the_password(self):
        """Right password, no code: 401 MFA_REQUIRED, nothing counted; a wrong password is still INVALID_CREDENTIALS."""
        address, password, app = new_admin()
        cb.assert_error(self.api.login({"email": address, "password": password}), 401, "MFA_REQUIRED",
                        "A one-time code is required: send totpCode or recoveryCode")
        user_id = cb.db().user_by_email(address)["id"]
        self.assertEqual(failed_attempts(user_id), 0)
        cb.assert_error(self.api.login({"email": address, "password": password + "x", "totpCode": app.next_code()}),
                        401, "INVALID_CREDENTIALS")
        self.assertEqual(failed_attempts(user_id), 1, "the wrong password counted")

    def test_totp_login_says_otp_and_mfa_and_refresh_keeps_it(self):
        """A login with a current code has amr ["pwd","otp","mfa"]; the refreshed token too; the code is used."""
        address, password, app = new_admin()
        code = app.next_code()
        resp = self.api.login({"email": address, "password": password, "totpCode": code})
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(cb.jwt_claims(resp.json["accessToken"])["amr"], ["pwd", "otp", "mfa"])
        refreshed = self.api.refresh(resp.json["refreshToken"])
        self.assertEqual(refreshed.status, 200, refreshed)
        self.assertEqual(cb.jwt_claims(refreshed.json["accessToken"])["amr"], ["pwd", "otp", "mfa"])
        cb.assert_error(self.api.login({"email": address, "password": password, "totpCode": code}),
                        401, "INVALID_CREDENTIALS")

    def test_recovery_code_login_says_mfa_once(self):
        """A recovery code logs in once with amr ["pwd","mfa"]."""
        address, password, app = new_admin()
        first = self.api.login({"email": address, "password": password, "totpCode": app.next_code()}).json
        codes = Mfa(self.api, first["accessToken"]).new_codes(app.next_code()).json["recoveryCodes"]
        resp = self.api.login({"email": address, "password": password, "recoveryCode": codes[2].upper()})
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(cb.jwt_claims(resp.json["accessToken"])["amr"], ["pwd", "mfa"])
        cb.assert_error(self.api.login({"email": address, "password": password, "recoveryCode": codes[2]}),
                        401, "INVALID_CREDENTIALS")

    def test_five_wrong_codes_lock_the_account(self):
        """Wrong codes at login are failed logins: the 5th locks; then the right code answers 403."""
        address, password, app = new_admin()
        used = app.next_code()
        self.assertEqual(self.api.login({"email": address, "password": password, "totpCode": used}).status, 200)
        for _ in range(4):
            cb.assert_error(self.api.login({"email": address, "password": password, "totpCode": used}),
                            401, "INVALID_CREDENTIALS")
        cb.assert_error(self.api.login({"email": address, "password": password, "recoveryCode": "zzzzz-zzzzz"}),
                        401, "INVALID_CREDENTIALS")
        cb.assert_error(self.api.login({"email": address, "password": password, "totpCode": app.next_code()}),
                        403, "ACCOUNT_LOCKED")

    def test_bad_codes_are_400_and_count_nothing(self):
        """A malformed code, or both kinds at once, is 400 VALIDATION_ERROR before anything is counted."""
        address, password, app = new_admin()
        for extra, message in (({"totpCode": "12345"}, "totpCode: must be 6 digits"),
                               ({"recoveryCode": "abc"}, "recoveryCode: must be a recovery code (xxxxx-xxxxx)"),
                               ({"totpCode": "123456", "recoveryCode": "abcde-fghjk"},
                                "recoveryCode: send either totpCode or recoveryCode, not both")):
            resp = self.api.login({"email": address, "password": password, **extra})
            cb.assert_error(resp, 400, "VALIDATION_ERROR", message)
        self.assertEqual(failed_attempts(cb.db().user_by_email(address)["id"]), 0)

    def test_a_user_without_totp_ignores_the_fields(self):
        """A code sent by a user without TOTP is ignored: the login is a password login."""
        user = cb.new_user(self.api)
        resp = self.api.login(user.login_body(totpCode="123456"))
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(cb.jwt_claims(resp.json["accessToken"])["amr"], ["pwd"])


class CoreRefusalTest(unittest.TestCase):
    """The core tier accepts an admin's token only after a second factor (staff_mfa_roles, default admin)."""

    @classmethod
    def setUpClass(cls):
        cls.core = C.Core(C.admin_key())

    def put_config(self, token):
        hours = C.db().scalar("SELECT lapse_hours FROM corebank.platform_config")
        return self.core.put("/v1/platform/config", json_body={"makerCheckerLapseHours": hours}, token=token)

    def test_admin_token_without_second_factor_is_403(self):
        """An admin who signed in with a password alone is refused 403 FORBIDDEN, naming the second factor."""
        api = cb.Identity()
        user = cb.new_user(api)
        cb.db().execute("UPDATE corebank.auth_users SET roles = '{admin}' WHERE id = %s", (user.id,))
        token = cb.login_ok(api, user)["accessToken"]
        self.assertEqual(cb.jwt_claims(token)["amr"], ["pwd"])
        resp = self.put_config(token)
        cb.assert_error(resp, 403, "FORBIDDEN", re.compile("second factor is required for the role admin"))

    def test_admin_token_with_second_factor_is_accepted(self):
        """The same operation with a token issued after a TOTP code succeeds."""
        admin = C.new_staff("admin")
        self.assertEqual(cb.jwt_claims(admin.token)["amr"], ["pwd", "otp", "mfa"])
        resp = self.put_config(admin)
        self.assertEqual(resp.status, 200, resp)

    def test_other_roles_need_no_second_factor(self):
        """A branch manager's password-only token is judged as before (here: 403 for lacking the role, not the factor)."""
        manager = C.new_staff("branch_manager")
        self.assertEqual(cb.jwt_claims(manager.token)["amr"], ["pwd"])
        resp = self.put_config(manager)
        cb.assert_error(resp, 403, "FORBIDDEN")
        self.assertNotIn("second factor", resp.json["message"])


class AmrTest(unittest.TestCase):

    def test_password_tokens_say_pwd_and_refresh_keeps_it(self):
        """A registration's, a password login's and a refresh's token carry amr ["pwd"]."""
        api = cb.Identity()
        user = cb.new_user(api)
        self.assertEqual(cb.jwt_claims(user.access)["amr"], ["pwd"])
        pair = cb.login_ok(api, user)
        self.assertEqual(cb.jwt_claims(pair["accessToken"])["amr"], ["pwd"])
        refreshed = api.refresh(pair["refreshToken"])
        self.assertEqual(refreshed.status, 200, refreshed)
        self.assertEqual(cb.jwt_claims(refreshed.json["accessToken"])["amr"], ["pwd"])


if __name__ == "__main__":
    unittest.main()
