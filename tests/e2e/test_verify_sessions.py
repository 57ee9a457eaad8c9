"""Verification sessions from creation to the signed webhook.

Goal: the whole life of a session through the service's HTTP API, as a
caller and a user's browser would drive it: create (201, the documented
fields, a hostedUrl carrying the client token), read (clientToken null),
the hosted page's API (consent, selfie, document, submit), the decision and
per-check results of the offline provider, the report for audit, search by
ID number and reference, expiry, and the session.completed / .expired
webhooks received, signed, by a test receiver on loopback. The subject is
checked at rest with the real data key: only AES-256-GCM ciphertext is in the
database, and it opens to exactly what was sent.
Method: HTTP against CB_VERIFY_URL; a loopback webhook receiver registered
with `corebankd webhook-add`; database reads (and, for expiry, moving a
session's clock back) as superuser through CB_DATABASE_URL.
"""

import base64
import json
import os
import re
import time
import unittest
import urllib.parse

import cbclient as cb
import verify_support as vs


def setUpModule():
    vs.require_verify_service()


class SessionLifecycleTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.receiver = vs.WebhookReceiver()
        cls.endpoint_id, cls.secret = vs.add_webhook(cls.receiver.url)

    @classmethod
    def tearDownClass(cls):
        vs.disable_webhook(cls.endpoint_id)
        cls.receiver.close()

    def setUp(self):
        self.api = vs.VerifyApi()

    def test_create_returns_the_documented_session(self):
        """201 with every field; pending; clientToken once; hostedUrl carries it in the fragment; Location."""
        before = time.time()
        resp = self.api.create({"flow": "liveness+facematch+document", "reference": "cust-" + cb.RUN_TAG,
                                "redirectUrl": "https://example.com/back", "metadata": {"orderId": "A-1", "n": 2}})
        self.assertEqual(resp.status, 201, resp)
        body = resp.json
        self.assertEqual(set(body), vs.SESSION_FIELDS)
        self.assertEqual(body["status"], "pending")
        self.assertEqual(body["flow"], "liveness+facematch+document")
        self.assertRegex(body["clientToken"], r"^vct_[A-Za-z0-9_-]{43}$")
        parts = urllib.parse.urlsplit(body["hostedUrl"])
        self.assertEqual(parts.path, f"/hosted/sessions/{body['sessionId']}")
        self.assertEqual(parts.fragment, f"token={body['clientToken']}")
        self.assertIsNone(body["decision"])
        self.assertEqual((body["decisionReasons"], body["checks"]), ([], []))
        self.assertEqual(body["metadata"], {"orderId": "A-1", "n": 2})
        self.assertEqual(body["consent"], {"required": True, "status": "not_recorded", "channel": None, "recordedAt": None})
        self.assertEqual(resp.header("Location"), f"/v1/sessions/{body['sessionId']}")
        self.assertIsNone(resp.header("Idempotent-Replayed"))
        created = cb.parse_iso8601(body["createdAt"]).timestamp()
        expires = cb.parse_iso8601(body["expiresAt"]).timestamp()
        self.assertLess(abs(created - before), 60)
        self.assertAlmostEqual(expires - created, vs.SESSION_LIFETIME_S, delta=1)

        got = self.api.get(body["sessionId"])
        self.assertEqual(got.status, 200, got)
        self.assertIsNone(got.json["clientToken"], "later reads never show the client token")
        self.assertEqual(got.json["hostedUrl"], body["hostedUrl"].split("#")[0])
        self.assertEqual({k: v for k, v in got.json.items() if k not in ("clientToken", "hostedUrl")},
                         {k: v for k, v in body.items() if k not in ("clientToken", "hostedUrl")})

    def test_full_flow_to_signed_webhook(self):
        """Consent, selfie, document, submit: completed and approved, checks per type, session.completed signed."""
        session = vs.create_session(self.api, subject={"name": "Ada Lovelace", "idNumber": "63-123456 A 42"})
        sid = session["sessionId"]
        page = vs.HostedApi(sid, vs.token_of(session))

        state = page.state()
        self.assertEqual(state.status, 200, state)
        self.assertEqual(state.json["captures"], {"selfie": "required", "document": "required"})
        self.assertEqual(state.json["consent"], "not_recorded")
        self.assertIn("biometric", state.json["consentText"])
        self.assertNotIn("subject", state.json)

        self.assertEqual(page.consent(True).json["consent"], "granted")
        self.assertEqual(page.capture("selfie", vs.face_png(7)).json["captures"]["selfie"], "received")
        self.assertEqual(page.capture("document", vs.document_png(7)).json["captures"]["document"], "received")
        done = page.submit()
        self.assertEqual(done.status, 200, done)
        self.assertEqual((done.json["status"], done.json["decision"]), ("completed", "approved"))

        final = self.api.get(sid).json
        self.assertEqual(final["status"], "completed")
        self.assertEqual(final["decision"], "approved")
        self.assertEqual(final["decisionReasons"], ["liveness_pass", "facematch_pass", "document_pass"])
        self.assertEqual([c["type"] for c in final["checks"]], ["liveness", "facematch", "document"])
        for check in final["checks"]:
            self.assertEqual((check["status"], check["provider"]), ("pass", "offline"))
        self.assertIn("score", final["checks"][0])
        self.assertIn("similarity", final["checks"][1])
        self.assertNotIn("score", final["checks"][1])
        self.assertIsNotNone(final["completedAt"])

        delivered = self.receiver.wait_for(sid, accepted_only=True)[0]
        event = json.loads(delivered["body"])
        self.assertEqual(set(event), {"id", "type", "createdAt", "data"})
        self.assertEqual(event["type"], "session.completed")
        self.assertEqual(event["data"], {"sessionId": sid})
        cb.parse_iso8601(event["createdAt"])
        header = delivered["headers"]["Verify-Signature"]
        self.assertRegex(header, r"^t=\d+,v1=[0-9a-f]{64}$")
        self.assertTrue(vs.signature_valid(self.secret, header, delivered["body"]))
        self.assertFalse(vs.signature_valid("whsec_" + "x" * 43, header, delivered["body"]), "another secret fails")
        self.assertFalse(vs.signature_valid(self.secret, header, delivered["body"] + b" "), "a tampered body fails")
        self.assertEqual(delivered["headers"]["Verify-Event-Id"], event["id"])
        self.assertEqual(delivered["headers"]["Content-Type"], "application/json")

    def test_declined_and_review_decisions(self):
        """Different pictures do not match (review or declined, never approved); a blank selfie is declined."""
        mismatch = vs.complete_session(vs.create_session(self.api), selfie=vs.face_png(1), document=vs.document_png(2))
        self.assertIn(mismatch["decision"], ("review", "declined"))
        blank = vs.complete_session(vs.create_session(self.api, flow="liveness"), selfie=vs.flat_png())
        self.assertEqual(blank["decision"], "declined")
        report = self.api.report(blank["sessionId"]).json
        self.assertEqual(report["checks"][0]["status"], "fail")
        self.assertIn("image_uniform", report["checks"][0]["reasons"])
        self.assertEqual(report["decisionReasons"], ["liveness_fail"])

    def test_report_is_the_audit_record(self):
        """The report: per-check detail, consent evidence, capture digests, masked subject, webhooks, timeline."""
        selfie, document = vs.face_png(9), vs.document_png(9)
        session = vs.create_session(self.api, reference="audit-" + cb.RUN_TAG,
                                    subject={"firstName": "Grace", "lastName": "Hopper", "idNumber": "AB-998877",
                                             "dateOfBirth": "1906-12-09", "country": "US"})
        vs.complete_session(session, selfie=selfie, document=document)
        self.receiver.wait_for(session["sessionId"], accepted_only=True)
        # The receiver has answered 2xx; the sender records the delivery just
        # after, so read the report until that record is there (bounded).
        deadline = time.time() + 10
        while True:
            resp = self.api.report(session["sessionId"])
            self.assertEqual(resp.status, 200, resp)
            report = resp.json
            deliveries = [d["status"] for h in report.get("webhooks", []) for d in h.get("deliveries", [])]
            if "delivered" in deliveries or time.time() > deadline:
                break
            time.sleep(0.1)
        self.assertEqual(report["status"], "completed")
        self.assertEqual(report["provider"], "offline")
        self.assertEqual(report["subject"], {"provided": True, "masked": {
            "firstName": "G***", "lastName": "H***", "idNumber": "****8877", "dateOfBirth": "1906-**-**", "country": "US"}})
        self.assertNotIn("Hopper", resp.body.decode())
        self.assertNotIn("998877", resp.body.decode())
        consent = report["consent"]
        self.assertEqual((consent["status"], consent["channel"], consent["version"]), ("granted", "hosted_page", "2026-11-v1"))
        self.assertRegex(consent["textSha256"], r"^[0-9a-f]{64}$")
        captures = {c["kind"]: c for c in report["captures"]}
        self.assertEqual(captures["selfie"]["sha256"], cb.sha256(selfie).hex())
        self.assertEqual(captures["document"]["sha256"], cb.sha256(document).hex())
        self.assertEqual((captures["document"]["width"], captures["document"]["height"]), (640, 404))
        self.assertEqual(captures["selfie"]["bytes"], len(selfie))
        self.assertFalse(captures["selfie"]["imageRetained"], "images are dropped once the session is completed")
        self.assertEqual([c["type"] for c in report["checks"]], ["liveness", "facematch", "document"])
        for check in report["checks"]:
            self.assertTrue(check["reasons"], check)
            self.assertIsInstance(check["measurements"], dict)
        self.assertEqual([e["event"] for e in report["timeline"]],
                         ["created", "consent_granted", "capture_received", "capture_received", "submitted", "completed"])
        hooks = report["webhooks"]
        self.assertEqual(len(hooks), 1)
        self.assertEqual(hooks[0]["type"], "session.completed")
        self.assertIn("delivered", [d["status"] for d in hooks[0]["deliveries"]])

    def test_subject_is_sealed_at_rest(self):
        """The database holds only AES-256-GCM ciphertext of the subject (opening with the data key gives it back)."""
        name, id_number = f"Ada Tokenized {cb.RUN_TAG}", f"TK-{cb.RUN_TAG}-42"
        subject = {"name": name, "idNumber": id_number, "email": f"ada.{cb.RUN_TAG}@example.com"}
        session = vs.create_session(self.api, subject=subject)
        vs.complete_session(session)
        sid = session["sessionId"]
        db = cb.db()
        for table in ("verify_sessions", "verify_consents", "verify_captures", "verify_session_events",
                      "verify_idempotency_keys", "verify_webhook_events", "verify_webhook_deliveries"):
            count = db.scalar(f"SELECT count(*) FROM corebank.{table} t WHERE strpos(t::text, %s) > 0"
                              f" OR strpos(t::text, %s) > 0 OR strpos(t::text, %s) > 0",
                              (name, id_number, id_number.encode().hex()))
            self.assertEqual(count, 0, f"plaintext subject data found in {table}")
        row = db.one("SELECT subject_sealed, subject_lookup FROM corebank.verify_sessions WHERE id = %s", (sid,))
        sealed = bytes(row["subject_sealed"])
        self.assertNotIn(name.encode(), sealed)
        self.assertEqual(len(bytes(row["subject_lookup"])), 32)
        key_file = cb.require(vs.DATA_KEY_FILE, "CB_DATA_KEY_FILE")
        try:
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        except ImportError:
            self.skipTest("python3-cryptography is not installed")
        with open(key_file, "rb") as handle:
            key = base64.b64decode(handle.read().strip())
        opened = AESGCM(key).decrypt(sealed[:12], sealed[12:], f"verify.subject:{sid}".encode())
        self.assertEqual(json.loads(opened), subject)
        with self.assertRaises(Exception, msg="the seal is bound to its session"):
            AESGCM(key).decrypt(sealed[:12], sealed[12:], b"verify.subject:" + vs.new_key().encode())

    def test_search_by_id_number_and_reference(self):
        """Search finds sessions by ID number (through its lookup token, any formatting) and by reference."""
        id_number = f"SRCH{cb.RUN_TAG}"
        reference = "search-" + vs.new_key()
        first = vs.create_session(self.api, flow="liveness", reference=reference, subject={"idNumber": id_number})
        time.sleep(0.01)  # distinct createdAt milliseconds for the paging below
        second = vs.create_session(self.api, flow="document", subject={"idNumber": id_number.lower()})
        found = self.api.search({"idNumber": f" {id_number[:3]}-{id_number[3:]} "})
        self.assertEqual(found.status, 200, found)
        self.assertEqual([s["sessionId"] for s in found.json["data"]], [second["sessionId"], first["sessionId"]])
        self.assertTrue(all(s["clientToken"] is None for s in found.json["data"]))
        by_reference = self.api.search({"reference": reference, "status": "pending"})
        self.assertEqual([s["sessionId"] for s in by_reference.json["data"]], [first["sessionId"]])
        self.assertEqual(self.api.search({"reference": reference, "status": "completed"}).json["data"], [])
        page = self.api.search({"idNumber": id_number, "limit": 1})
        self.assertEqual(len(page.json["data"]), 1)
        older = self.api.search({"idNumber": id_number, "createdBefore": page.json["data"][0]["createdAt"]})
        self.assertEqual([s["sessionId"] for s in older.json["data"]], [first["sessionId"]])

    def test_expiry_sends_session_expired(self):
        """A session past its expiry reads as expired at once; maintenance stores it and sends session.expired."""
        session = vs.create_session(self.api, flow="liveness")
        sid = session["sessionId"]
        page = vs.HostedApi(sid, vs.token_of(session))
        self.assertEqual(page.consent(True).status, 200)
        self.assertEqual(page.capture("selfie", vs.face_png(3)).status, 200)
        cb.db().execute("UPDATE corebank.verify_sessions SET created_at = created_at - interval '2 hours',"
                        " updated_at = updated_at - interval '2 hours', expires_at = expires_at - interval '2 hours',"
                        " client_token_expires_at = client_token_expires_at - interval '2 hours' WHERE id = %s", (sid,))
        self.assertEqual(self.api.get(sid).json["status"], "expired", "expired as soon as expiresAt has passed")
        cb.assert_error(page.submit(), 401, "UNAUTHORIZED")  # the token lived 15 minutes of those 2 hours
        delivered = self.receiver.wait_for(sid, timeout=vs.MAINTENANCE_INTERVAL_S + vs.WEBHOOK_WAIT_S)[0]
        self.assertEqual(json.loads(delivered["body"])["type"], "session.expired")
        self.assertTrue(vs.signature_valid(self.secret, delivered["headers"]["Verify-Signature"], delivered["body"]))
        stored = cb.db().one("SELECT status, expired_at IS NOT NULL AS stamped FROM corebank.verify_sessions WHERE id = %s",
                             (sid,))
        self.assertEqual((stored["status"], stored["stamped"]), ("expired", True))
        report = self.api.report(sid).json
        self.assertFalse(report["captures"][0]["imageRetained"], "an expired session keeps no image")
        self.assertEqual(report["timeline"][-1]["event"], "expired")

    def test_document_only_flow_needs_no_consent(self):
        """A document-only flow: no consent step, no selfie; the document is checked."""
        session = vs.create_session(self.api, flow="document")
        self.assertFalse(session["consent"]["required"])
        page = vs.HostedApi(session["sessionId"], vs.token_of(session))
        self.assertEqual(page.state().json["captures"], {"selfie": "not_needed", "document": "required"})
        self.assertEqual(page.capture("document", vs.document_png(5)).status, 200)
        done = page.submit().json
        self.assertEqual((done["status"], done["decision"]), ("completed", "approved"))
        self.assertEqual(self.api.get(session["sessionId"]).json["decisionReasons"], ["document_pass"])

    def test_consent_through_the_api(self):
        """The caller may record consent it collected; the page then starts at the capture."""
        session = vs.create_session(self.api, flow="liveness")
        resp = self.api.consent(session["sessionId"], {"granted": True, "version": "app-2026.1",
                                                       "text": "I agree to the face check.", "ip": "198.51.100.4"})
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(resp.json["consent"]["status"], "granted")
        self.assertEqual(resp.json["consent"]["channel"], "api")
        page = vs.HostedApi(session["sessionId"], vs.token_of(session))
        self.assertEqual(page.state().json["consent"], "granted")
        cb.assert_error(page.consent(True), 409, "CONFLICT", "Consent is already recorded for this session")
        report = self.api.report(session["sessionId"]).json
        self.assertEqual(report["consent"]["ip"], "198.51.100.4")
        self.assertEqual(report["consent"]["textSha256"], cb.sha256(b"I agree to the face check.").hex())

    def test_health_and_openapi(self):
        """GET /health and GET /openapi.json are public; the document lists exactly the served routes."""
        http = cb.HttpClient(vs.VERIFY_URL)
        self.assertEqual(http.get("/health").json["status"], "UP")
        resp = http.get("/openapi.json")
        self.assertEqual(resp.status, 200, resp)
        document = resp.json
        self.assertTrue(document["openapi"].startswith("3.1"))
        self.assertIn("sessionEvent", document["webhooks"])
        documented = {(m.upper(), p) for p, item in document["paths"].items() for m in item
                      if m in ("get", "post", "put", "delete", "patch")}
        import subprocess
        lines = subprocess.run([cb.require(cb.CLI, "CB_CLI"), "routes"], check=True, capture_output=True,
                               text=True, timeout=30).stdout.splitlines()
        served = {(line.split()[1], line.split()[2]) for line in lines if line.startswith("verify ")}
        self.assertEqual(served, documented)


if __name__ == "__main__":
    unittest.main()
