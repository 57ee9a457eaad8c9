"""Cancelling verification sessions.

Goal: only a pending or processing session can be cancelled; the answer is
the session with status cancelled, cancelledBy caller and the reason; the
images are dropped, the hosted page shows the end, its writes are refused,
and session.cancelled is delivered signed; a completed, cancelled or expired
session is 409 with a message naming its status; an unknown session is 404.
Method: HTTP against CB_VERIFY_URL; a processing session is made by starting
a submission through the database's own function (the offline checks finish
too fast to catch one in flight), an expired one by moving its clock back.
"""

import json
import unittest

import cbclient as cb
import verify_support as vs


def setUpModule():
    vs.require_verify_service()


class CancelTest(unittest.TestCase):

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

    def test_cancel_pending(self):
        """A pending session is cancelled: 200 body, images dropped, page ends, webhook signed."""
        session = vs.create_session(self.api, flow="liveness")
        sid = session["sessionId"]
        page = vs.HostedApi(sid, vs.token_of(session))
        page.consent(True)
        self.assertEqual(page.capture("selfie", vs.face_png(2)).status, 200)
        resp = self.api.cancel(sid, {"reason": "customer abandoned the signup"})
        self.assertEqual(resp.status, 200, resp)
        body = resp.json
        self.assertEqual(set(body), vs.SESSION_FIELDS)
        self.assertEqual((body["status"], body["cancelledBy"], body["cancellationReason"]),
                         ("cancelled", "caller", "customer abandoned the signup"))
        self.assertIsNotNone(body["cancelledAt"])
        self.assertIsNone(body["clientToken"])
        self.assertIsNone(body["decision"])
        report = self.api.report(sid).json
        self.assertFalse(report["captures"][0]["imageRetained"])
        self.assertEqual(report["timeline"][-1]["event"], "cancelled")
        self.assertEqual(page.state().json["status"], "cancelled", "the page shows the end")
        cb.assert_error(page.capture("selfie", vs.face_png(3)), 409, "CONFLICT",
                        "Session is already cancelled; only a pending or processing session can be changed")
        cb.assert_error(page.submit(), 409, "CONFLICT")
        delivered = self.receiver.wait_for(sid)[0]
        self.assertEqual(json.loads(delivered["body"])["type"], "session.cancelled")
        self.assertTrue(vs.signature_valid(self.secret, delivered["headers"]["Verify-Signature"], delivered["body"]))

    def test_cancel_without_body(self):
        """The body is optional; the reason then says the caller cancelled."""
        session = vs.create_session(self.api, flow="document")
        resp = self.api.cancel(session["sessionId"])
        self.assertEqual(resp.status, 200, resp)
        self.assertEqual(resp.json["cancellationReason"], "cancelled by the caller")
        resp = self.api.cancel(vs.create_session(self.api, flow="document")["sessionId"], raw=b"{}")
        self.assertEqual(resp.status, 200, resp)

    def test_cancel_processing(self):
        """A processing session can be cancelled; results arriving afterwards are dropped."""
        session = vs.create_session(self.api, flow="liveness")
        sid = session["sessionId"]
        token = vs.token_of(session)
        page = vs.HostedApi(sid, token)
        page.consent(True)
        page.capture("selfie", vs.face_png(4))
        begun = cb.db().scalar("SELECT corebank.verify_hosted_submit_begin(%s, sha256(%s::bytea), 'e2e-begin', "
                               "sha256('x'::bytea))::text", (sid, token.encode()))
        self.assertEqual(json.loads(begun)["checks"], ["liveness"])
        self.assertEqual(self.api.get(sid).json["status"], "processing")
        cb.assert_error(page.submit(), 409, "CONFLICT", "Session is being processed; wait for its result")
        resp = self.api.cancel(sid)
        self.assertEqual((resp.status, resp.json["status"]), (200, "cancelled"))
        late = cb.db().scalar("SELECT corebank.verify_hosted_submit_finish(%s, sha256(%s::bytea), 'e2e-begin', 'offline',"
                              " '[{\"type\":\"liveness\",\"status\":\"pass\",\"score\":0.9}]')::text", (sid, token.encode()))
        self.assertEqual(json.loads(late)["body"]["status"], "cancelled")
        self.assertIsNone(self.api.get(sid).json["decision"])

    def test_terminal_sessions_cannot_be_cancelled(self):
        """Completed, cancelled and expired sessions are 409 with their status in the message."""
        completed = vs.complete_session(vs.create_session(self.api, flow="document"))
        cb.assert_error(self.api.cancel(completed["sessionId"]), 409, "CONFLICT",
                        "Session is already completed; only a pending or processing session can be cancelled")
        cancelled = vs.create_session(self.api, flow="document")
        self.assertEqual(self.api.cancel(cancelled["sessionId"]).status, 200)
        cb.assert_error(self.api.cancel(cancelled["sessionId"]), 409, "CONFLICT",
                        "Session is already cancelled; only a pending or processing session can be cancelled")
        expired = vs.create_session(self.api, flow="document")
        cb.db().execute("UPDATE corebank.verify_sessions SET created_at = created_at - interval '2 hours',"
                        " updated_at = updated_at - interval '2 hours', expires_at = expires_at - interval '2 hours',"
                        " client_token_expires_at = client_token_expires_at - interval '2 hours' WHERE id = %s",
                        (expired["sessionId"],))
        cb.assert_error(self.api.cancel(expired["sessionId"]), 409, "CONFLICT", "Session has expired")
        self.assertEqual(self.api.get(completed["sessionId"]).json["status"], "completed")

    def test_cancel_unknown_or_malformed(self):
        """An unknown session is 404, and so is a session id that is no UUID (ids are opaque to clients)."""
        cb.assert_error(self.api.cancel("00000000-0000-4000-8000-000000000000"), 404, "NOT_FOUND", "Session not found")
        cb.assert_error(self.api.get("00000000-0000-4000-8000-000000000000"), 404, "NOT_FOUND", "Session not found")
        cb.assert_error(self.api.report("00000000-0000-4000-8000-000000000000"), 404, "NOT_FOUND", "Session not found")
        cb.assert_error(self.api.cancel("not-a-uuid"), 404, "NOT_FOUND", "Session not found")


if __name__ == "__main__":
    unittest.main()
