"""KYC tiers earned through verification sessions (issue 14, parts 4 and 5;
docs/identity.md, "KYC tiers").

Goal: a user starts a verification session through POST /auth/kyc/sessions,
completes it on the hosted page's API with the offline checks, and the next
access token says STANDARD; GET /auth/kyc shows the tier, its evidence and
what the next tier needs; ENHANCED and a fall go through core banking's
maker-checker with a compliance officer; a linked core customer gets the
session as its identity-document check; bad input on every new endpoint is a
4xx that writes nothing. Method: HTTP against the four services, rows read
from the database.
"""
import unittest
import uuid

import cbclient as cb
import corebanking as C
import verify_support as vs


def setUpModule():
    cb.require_identity_service()
    vs.require_verify_service()
    C.require_core()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


class KycTiersBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.id_api = cb.Identity()
        cls.http = cb.HttpClient(cb.ID_URL)
        cls.db = cb.db()

    def new_user(self, **names):
        names = names or {"firstName": "Ada", "lastName": "Lovelace"}
        return cb.new_user(self.id_api, **names)

    def kyc(self, token):
        resp = self.http.get("/auth/kyc", headers=bearer(token))
        self.assertEqual(resp.status, 200, resp)
        return resp.json

    def start(self, token, body=None, key=None):
        headers = bearer(token)
        if key is not None:
            headers["Idempotency-Key"] = key
        if body is None:
            return self.http.post("/auth/kyc/sessions", headers=headers)
        return self.http.post("/auth/kyc/sessions", json_body=body, headers=headers)

    def refreshed_claims(self, user):
        """The claims of the token pair a refresh issues now (the next token)."""
        resp = self.id_api.refresh(user.body["refreshToken"])
        self.assertEqual(resp.status, 200, resp)
        user.body = resp.json
        return cb.jwt_claims(resp.json["accessToken"]), resp.json["user"]

    def earn_standard(self, user):
        resp = self.start(user.body["accessToken"])
        self.assertEqual(resp.status, 201, resp)
        final = vs.complete_session(resp.json)
        self.assertEqual((final["status"], final["decision"]), ("completed", "approved"), final)
        return resp.json["sessionId"]

    def sessions_of(self, user_id):
        return self.db.scalar("SELECT count(*) FROM corebank.verify_sessions WHERE auth_user_id = %s", (user_id,))


class EarnedBySessionTest(KycTiersBase):
    def test_a_completed_session_makes_the_next_token_standard(self):
        """NONE at registration; the approved session raises the tier; refresh and login carry STANDARD."""
        user = self.new_user()
        user_id = user.body["user"]["id"]
        self.assertEqual(cb.jwt_claims(user.body["accessToken"])["kyc_tier"], "NONE")
        view = self.kyc(user.body["accessToken"])
        self.assertEqual((view["kycTier"], view["next"]["tier"], view["evidence"]), ("NONE", "BASIC", None))

        resp = self.start(user.body["accessToken"], {"redirectUrl": "https://app.example.com/kyc/done"}, key="kyc-e2e-1")
        self.assertEqual(resp.status, 201, resp)
        session = resp.json
        self.assertEqual((session["status"], session["flow"]), ("pending", "liveness+facematch+document"))
        self.assertEqual(vs.token_of(session), session["clientToken"])
        owner = self.db.one("SELECT auth_user_id::text, api_key_id FROM corebank.verify_sessions WHERE id = %s",
                            (session["sessionId"],))
        self.assertEqual(tuple(owner.values()), (user_id, None))
        replay = self.start(user.body["accessToken"], {"redirectUrl": "https://app.example.com/kyc/done"},
                            key="kyc-e2e-1")
        self.assertEqual((replay.status, replay.json["sessionId"], replay.header("Idempotent-Replayed")),
                         (201, session["sessionId"], "true"))
        self.assertEqual(self.sessions_of(user_id), 1)

        final = vs.complete_session(session)
        self.assertEqual((final["status"], final["decision"]), ("completed", "approved"))
        report = vs.VerifyApi().report(session["sessionId"])
        self.assertEqual((report.status, report.json["apiKeyId"]), (200, None))
        # The token issued before the decision still says NONE; the next one says STANDARD.
        self.assertEqual(cb.jwt_claims(user.body["accessToken"])["kyc_tier"], "NONE")
        claims, user_object = self.refreshed_claims(user)
        self.assertEqual((claims["kyc_tier"], user_object["kycTier"]), ("STANDARD", "STANDARD"))
        login = cb.login_ok(self.id_api, user)
        self.assertEqual(cb.jwt_claims(login["accessToken"])["kyc_tier"], "STANDARD")

        view = self.kyc(login["accessToken"])
        self.assertEqual(view["kycTier"], "STANDARD")
        self.assertEqual(view["evidence"]["source"], "verification_session")
        self.assertEqual(view["evidence"]["detail"]["sessionId"], session["sessionId"])
        self.assertEqual(view["next"]["tier"], "ENHANCED")
        self.assertEqual({r["code"]: r["met"] for r in view["next"]["requirements"]},
                         {"face_match": True, "compliance_approval": False})
        self.assertEqual([h["to"] for h in view["history"]], ["STANDARD"])
        audit = self.db.one("SELECT from_tier, to_tier, source, actor_id FROM corebank.auth_kyc_tier_changes "
                            "WHERE user_id = %s", (user_id,))
        self.assertEqual(tuple(audit.values()), ("NONE", "STANDARD", "verification_session", None))

        again = self.start(login["accessToken"])
        cb.assert_error(again, 409, "CONFLICT")
        self.assertEqual(self.sessions_of(user_id), 1)

    def test_a_declined_session_leaves_the_tier(self):
        """Pictures that do not match are never approved: the next token still says NONE, nothing is audited."""
        user = self.new_user()
        resp = self.start(user.body["accessToken"])
        self.assertEqual(resp.status, 201, resp)
        final = vs.complete_session(resp.json, selfie=vs.face_png(1), document=vs.document_png(2))
        self.assertNotEqual(final["decision"], "approved")
        claims, _ = self.refreshed_claims(user)
        self.assertEqual(claims["kyc_tier"], "NONE")
        self.assertEqual(self.db.scalar("SELECT count(*) FROM corebank.auth_kyc_tier_changes WHERE user_id = %s",
                                        (user.body["user"]["id"],)), 0)


class EarnedByContactTest(KycTiersBase):
    def test_a_followed_reset_link_makes_basic(self):
        """Names and the emailed reset link followed: the next token says BASIC; without names it stays NONE."""
        named, unnamed = self.new_user(), cb.new_user(self.id_api)
        for user, tier in ((named, "BASIC"), (unnamed, "NONE")):
            view = self.kyc(user.body["accessToken"])
            self.assertEqual(view["next"]["requirements"][1]["met"], False)
            seen = {token for message in cb.mails_to(user.email) for _, token in cb.reset_links(message)}
            cb.assert_message(self.id_api.forgot(user.email), 200, cb.MSG_FORGOT)
            mails = cb.wait_for_mails(user.email, count=1)
            token = ({t for message in mails for _, t in cb.reset_links(message)} - seen).pop()
            new_password = cb.unique_password()
            self.assertEqual(self.id_api.reset(token, new_password).status, 200)
            user.password = new_password
            login = cb.login_ok(self.id_api, user)
            self.assertEqual((cb.jwt_claims(login["accessToken"])["kyc_tier"], login["user"]["kycTier"]), (tier, tier))
        view = self.kyc(cb.login_ok(self.id_api, named)["accessToken"])
        self.assertEqual((view["evidence"]["source"], view["evidence"]["detail"]["contact"]), ("contact_proof", "email"))
        self.assertEqual(view["next"]["tier"], "STANDARD")


class IdentityBadInputTest(KycTiersBase):
    def test_bad_input_is_4xx_and_writes_nothing(self):
        user = self.new_user()
        token = user.body["accessToken"]
        user_id = user.body["user"]["id"]
        cb.assert_unauthorized(self.http.get("/auth/kyc"))
        cb.assert_unauthorized(self.http.post("/auth/kyc/sessions", json_body={}))
        cb.assert_unauthorized(self.http.post("/auth/kyc/sessions", headers=bearer("not.a.token")))
        cases = [
            ({"body": "{not json"}, 400, "BAD_REQUEST"),
            ({"body": "[]"}, 400, "BAD_REQUEST"),
            ({"json_body": {"flow": "liveness"}}, 400, "VALIDATION_ERROR"),
            ({"json_body": {"redirectUrl": "javascript:alert(1)"}}, 400, "VALIDATION_ERROR"),
            ({"json_body": {"redirectUrl": 7}}, 400, "VALIDATION_ERROR"),
            ({"json_body": {"redirectUrl": "https://x.example/" + "a" * 2100}}, 400, "VALIDATION_ERROR"),
        ]
        for kw, status, code in cases:
            resp = self.http.post("/auth/kyc/sessions", headers=bearer(token), **kw)
            cb.assert_error(resp, status, code)
        for key in ("has space", "x" * 256, "caf\u00e9"):
            headers = bearer(token)
            headers["Idempotency-Key"] = key
            cb.assert_error(self.http.post("/auth/kyc/sessions", json_body={}, headers=headers), 400, "VALIDATION_ERROR")
        self.assertEqual(self.sessions_of(user_id), 0)
        self.assertEqual(self.kyc(token)["sessions"], [])

    def test_sixth_session_in_a_day_is_429(self):
        user = self.new_user()
        for _ in range(5):
            self.assertEqual(self.start(user.body["accessToken"]).status, 201)
        cb.assert_error(self.start(user.body["accessToken"]), 429, "RATE_LIMIT_EXCEEDED")
        self.assertEqual(self.sessions_of(user.body["user"]["id"]), 5)


class CoreBankingTiersTest(KycTiersBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.api = C.Core(C.admin_key())
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")
        cls.other_supervisor = C.new_staff("supervisor")
        cls.compliance = C.new_staff("compliance_officer")

    def parked_count(self):
        return self.db.scalar("SELECT count(*) FROM corebank.parked_changes")

    def test_enhanced_and_a_fall_need_a_compliance_officer(self):
        user = self.new_user()
        user_id = user.body["user"]["id"]
        self.earn_standard(user)
        # An auditor may not ask for it: 403, nothing parked.
        before = self.parked_count()
        cb.assert_error(self.api.post(f"/v1/identity-users/{user_id}/kyc-tier", json_body={"tier": "ENHANCED"},
                                      token=C.new_staff("auditor")), 403, "FORBIDDEN")
        self.assertEqual(self.parked_count(), before)
        change = C.ok(self.api.post(f"/v1/identity-users/{user_id}/kyc-tier", json_body={"tier": "enhanced"},
                                    token=self.supervisor))
        self.assertEqual((change["operation"], change["status"]), ("identity.kyc_tier.set", "PENDING"))
        refused = self.api.post(f"/v1/approvals/{change['id']}/approve", json_body={}, token=self.other_supervisor)
        cb.assert_error(refused, 403, "FORBIDDEN")
        self.assertEqual(self.refreshed_claims(user)[0]["kyc_tier"], "STANDARD")
        approved = C.approve(self.api, self.compliance, change["id"])
        self.assertEqual(approved["result"]["kycTier"], "ENHANCED")
        self.assertEqual(self.refreshed_claims(user)[0]["kyc_tier"], "ENHANCED")

        missing_reason = self.api.post(f"/v1/identity-users/{user_id}/kyc-tier", json_body={"tier": "NONE"},
                                       token=self.supervisor)
        cb.assert_error(missing_reason, 400, "VALIDATION_ERROR", "reason: is required to lower a tier")
        fall = C.ok(self.api.post(f"/v1/identity-users/{user_id}/kyc-tier",
                                  json_body={"tier": "NONE", "reason": "document reported stolen"},
                                  token=self.supervisor))
        C.approve(self.api, self.compliance, fall["id"])
        claims, _ = self.refreshed_claims(user)
        self.assertEqual(claims["kyc_tier"], "NONE")
        rows = self.db.rows("SELECT to_tier, source, reason FROM corebank.auth_kyc_tier_changes WHERE user_id = %s "
                            "ORDER BY id", (user_id,))
        self.assertEqual([tuple(r.values()) for r in rows],
                         [("STANDARD", "verification_session", None), ("ENHANCED", "maker_checker", None),
                          ("NONE", "maker_checker", "document reported stolen")])

    def test_a_linked_customer_gets_the_session_as_its_identity_check(self):
        user = self.new_user()
        user_id = user.body["user"]["id"]
        session_id = self.earn_standard(user)
        customer = C.new_individual(self.api, self.teller)
        self.assertEqual(customer["kycStatus"], "PENDING")
        change = C.ok(self.api.put(f"/v1/customers/{customer['id']}/identity-user", json_body={"userId": user_id},
                                   token=self.teller))
        self.assertEqual((change["operation"], change["status"]), ("customer.identity_user.link", "PENDING"))
        approved = C.approve(self.api, self.supervisor, change["id"])
        self.assertEqual((approved["result"]["kycStatus"], approved["result"]["kycTier"]), ("VERIFIED", "STANDARD"))
        check = self.db.one("SELECT check_type, source, outcome, verify_session_id::text FROM corebank.kyc_checks "
                            "WHERE customer_id = %s", (customer["id"],))
        self.assertEqual(tuple(check.values()), ("IDENTITY_DOCUMENT", "VERIFICATION_SESSION", "CLEAR", session_id))
        self.assertEqual(C.ok(self.api.get(f"/v1/customers/{customer['id']}"))["kycStatus"], "VERIFIED")

    def test_bad_input_is_4xx_and_parks_nothing(self):
        user = self.new_user()
        user_id = user.body["user"]["id"]
        customer = C.new_individual(self.api, self.teller)
        before = self.parked_count()
        tier_path = f"/v1/identity-users/{user_id}/kyc-tier"
        link_path = f"/v1/customers/{customer['id']}/identity-user"
        cases = [
            ("POST", "/v1/identity-users/not-a-uuid/kyc-tier", {"json_body": {"tier": "ENHANCED"}}, 400, "BAD_REQUEST"),
            ("POST", tier_path, {"body": "{not json"}, 400, "BAD_REQUEST"),
            ("POST", tier_path, {"json_body": {}}, 400, "VALIDATION_ERROR"),
            ("POST", tier_path, {"json_body": {"tier": "GOLD"}}, 400, "VALIDATION_ERROR"),
            ("POST", tier_path, {"json_body": {"tier": "ENHANCED", "extra": 1}}, 400, "VALIDATION_ERROR"),
            ("POST", tier_path, {"json_body": {"tier": "ENHANCED", "reason": "r" * 501}}, 400, "VALIDATION_ERROR"),
            ("POST", tier_path, {"json_body": {"tier": "STANDARD"}}, 422, "UNPROCESSABLE"),
            ("POST", tier_path, {"json_body": {"tier": "ENHANCED"}}, 422, "UNPROCESSABLE"),
            ("POST", tier_path, {"json_body": {"tier": "NONE", "reason": "x"}}, 422, "UNPROCESSABLE"),
            ("POST", f"/v1/identity-users/{uuid.uuid4()}/kyc-tier", {"json_body": {"tier": "ENHANCED"}}, 404, "NOT_FOUND"),
            ("PUT", "/v1/customers/not-a-uuid/identity-user", {"json_body": {"userId": user_id}}, 400, "BAD_REQUEST"),
            ("PUT", link_path, {"json_body": {}}, 400, "VALIDATION_ERROR"),
            ("PUT", link_path, {"json_body": {"userId": "nope"}}, 400, "VALIDATION_ERROR"),
            ("PUT", link_path, {"json_body": {"userId": user_id, "x": 1}}, 400, "VALIDATION_ERROR"),
            ("PUT", link_path, {"json_body": {"userId": str(uuid.uuid4())}}, 404, "NOT_FOUND"),
            ("PUT", f"/v1/customers/{uuid.uuid4()}/identity-user", {"json_body": {"userId": user_id}}, 404, "NOT_FOUND"),
            ("PUT", link_path, {"json_body": {"userId": self.teller.id}}, 404, "NOT_FOUND"),
        ]
        for method, path, kw, status, code in cases:
            resp = self.api.request(method, path, token=self.supervisor, **kw)
            with self.subTest(method=method, path=path, kw=kw):
                cb.assert_error(resp, status, code)
        self.assertEqual(self.parked_count(), before)


if __name__ == "__main__":
    unittest.main()
