"""Idempotency-Key on every write of the verification service.

Goal: the same key and request within 24 hours returns the original
response (status, body, the first request's client token) with
Idempotent-Replayed: true and changes nothing; a different body, operation
or target under the key is 409; after 24 hours the key is forgotten; this
holds under concurrent retries of one key (exactly one session is created,
every retry answers with it); a refused request stores nothing; the hosted
page's writes are idempotent too, a submission retried while it runs is 409
and replays its outcome once done. Every write without the header is 400.
Method: HTTP against CB_VERIFY_URL; concurrent requests released together by
a barrier (cbclient.run_parallel); the key's age moved back in the database.
"""

import json
import unittest

import cbclient as cb
import verify_support as vs


def setUpModule():
    vs.require_verify_service()


class CreateIdempotencyTest(unittest.TestCase):

    def setUp(self):
        self.api = vs.VerifyApi()

    def test_replay_returns_the_original_response(self):
        """Same key and body (keys reordered, other spacing): 201, same session, same token, replay header."""
        key = vs.new_key()
        first = self.api.create({"flow": "liveness", "reference": "r-" + key, "metadata": {"a": 1, "b": "x"}},
                                idempotency_key=key)
        self.assertEqual(first.status, 201, first)
        raw = ' { "metadata" : { "b" : "x", "a" : 1 }, "reference" : "r-%s", "flow" : "liveness" } ' % key
        again = self.api.create(None, idempotency_key=key, raw=raw)
        self.assertEqual(again.status, 201, again)
        self.assertEqual(again.json, first.json, "the replay is the original response, client token included")
        self.assertEqual(again.header("Idempotent-Replayed"), "true")
        self.assertEqual(again.header("Location"), first.header("Location"))
        count = cb.db().scalar("SELECT count(*) FROM corebank.verify_sessions WHERE reference = %s", ("r-" + key,))
        self.assertEqual(count, 1, "a replay creates nothing")

    def test_replay_is_the_original_even_after_changes(self):
        """The replay is the response as it was, not the session as it is now."""
        key = vs.new_key()
        first = self.api.create({"flow": "liveness"}, idempotency_key=key).json
        self.assertEqual(self.api.cancel(first["sessionId"]).status, 200)
        again = self.api.create({"flow": "liveness"}, idempotency_key=key)
        self.assertEqual(again.json["status"], "pending")
        self.assertEqual(self.api.get(first["sessionId"]).json["status"], "cancelled")

    def test_different_body_is_conflict(self):
        """The same key with another body is 409 and creates nothing."""
        key = vs.new_key()
        self.assertEqual(self.api.create({"flow": "liveness", "reference": key}, idempotency_key=key).status, 201)
        for body in ({"flow": "document", "reference": key}, {"flow": "liveness", "reference": key + "x"},
                     {"flow": "liveness", "reference": key, "metadata": {}}):
            resp = self.api.create(body, idempotency_key=key)
            cb.assert_error(resp, 409, "CONFLICT",
                            "Idempotency-Key was already used with a different request; use a new key for a new request")
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.verify_sessions WHERE reference LIKE %s",
                                        (key + "%",)), 1)

    def test_key_is_scoped_to_the_api_key(self):
        """Another API key may use the same key string for its own request."""
        key = vs.new_key()
        mine = self.api.create({"flow": "liveness"}, idempotency_key=key).json
        other_key = cb.cli("key-create", "--service", "verify", "--scopes", "sessions:read,sessions:write",
                           "--name", "e2e-other-" + cb.RUN_TAG).strip()
        other_api = vs.VerifyApi(key=other_key)
        theirs = other_api.create({"flow": "liveness"}, idempotency_key=key)
        self.assertEqual(theirs.status, 201, theirs)
        self.assertIsNone(theirs.header("Idempotent-Replayed"))
        self.assertNotEqual(theirs.json["sessionId"], mine["sessionId"])

    def test_key_is_forgotten_after_24_hours(self):
        """After 24 hours the key is new: even another body creates a new session."""
        key = vs.new_key()
        first = self.api.create({"flow": "liveness"}, idempotency_key=key).json
        moved = cb.db().execute("UPDATE corebank.verify_idempotency_keys SET created_at = now() - interval '24 hours 1 second'"
                                " WHERE idem_key = %s", (key,))
        self.assertEqual(moved, 1)
        later = self.api.create({"flow": "document"}, idempotency_key=key)
        self.assertEqual(later.status, 201, later)
        self.assertIsNone(later.header("Idempotent-Replayed"))
        self.assertNotEqual(later.json["sessionId"], first["sessionId"])
        self.assertEqual(later.json["flow"], "document")

    def test_just_under_24_hours_still_replays(self):
        """At 23 h 59 min the key still replays."""
        key = vs.new_key()
        first = self.api.create({"flow": "liveness"}, idempotency_key=key).json
        cb.db().execute("UPDATE corebank.verify_idempotency_keys SET created_at = now() - interval '23 hours 59 minutes'"
                        " WHERE idem_key = %s", (key,))
        again = self.api.create({"flow": "liveness"}, idempotency_key=key)
        self.assertEqual(again.json["sessionId"], first["sessionId"])
        self.assertEqual(again.header("Idempotent-Replayed"), "true")

    def test_concurrent_retries_create_one_session(self):
        """12 simultaneous requests with one key: one session; every answer is 201 with it."""
        key = vs.new_key()
        body = {"flow": "liveness+facematch+document", "reference": "race-" + key}
        results = cb.run_parallel([lambda: vs.VerifyApi().create(body, idempotency_key=key) for _ in range(12)])
        for resp in results:
            self.assertEqual(resp.status, 201, resp)
        self.assertEqual(len({r.json["sessionId"] for r in results}), 1, "every retry names the same session")
        self.assertEqual(len({r.json["clientToken"] for r in results}), 1, "and the same client token")
        self.assertEqual(sum(1 for r in results if r.header("Idempotent-Replayed") is None), 1,
                         "exactly one request created it")
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.verify_sessions WHERE reference = %s",
                                        ("race-" + key,)), 1)

    def test_concurrent_different_bodies_one_wins(self):
        """Simultaneous requests with one key and different bodies: one 201, the others 409 or its replay."""
        key = vs.new_key()
        bodies = [{"flow": "liveness", "reference": f"body-{i}-{key}"} for i in range(6)]
        results = cb.run_parallel([lambda b=b: vs.VerifyApi().create(b, idempotency_key=key) for b in bodies])
        created = [r for r in results if r.status == 201 and r.header("Idempotent-Replayed") is None]
        self.assertEqual(len(created), 1, results)
        for resp in results:
            if resp is not created[0]:
                cb.assert_error(resp, 409, "CONFLICT")
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.verify_sessions WHERE reference LIKE %s",
                                        ("body-%-" + key,)), 1)

    def test_refused_request_is_not_stored(self):
        """A 400 is not remembered: the corrected request under the same key succeeds."""
        key = vs.new_key()
        cb.assert_error(self.api.create({"flow": "selfie"}, idempotency_key=key), 400, "VALIDATION_ERROR")
        resp = self.api.create({"flow": "liveness"}, idempotency_key=key)
        self.assertEqual(resp.status, 201, resp)

    def test_every_write_requires_the_header(self):
        """Create, cancel, consent and every hosted write are 400 without Idempotency-Key; reads need none."""
        session = vs.create_session(self.api, flow="liveness")
        sid = session["sessionId"]
        message = "Idempotency-Key: header is required on every write"
        cb.assert_error(self.api.create({"flow": "liveness"}, idempotency_key=""), 400, "VALIDATION_ERROR", message)
        cb.assert_error(self.api.cancel(sid, idempotency_key=""), 400, "VALIDATION_ERROR", message)
        cb.assert_error(self.api.consent(sid, {"granted": True, "version": "v1"}, idempotency_key=""), 400,
                        "VALIDATION_ERROR", message)
        page = vs.HostedApi(sid, vs.token_of(session))
        cb.assert_error(page.consent(True, idempotency_key=""), 400, "VALIDATION_ERROR", message)
        cb.assert_error(page.capture("selfie", vs.face_png(1), idempotency_key=""), 400, "VALIDATION_ERROR", message)
        cb.assert_error(page.submit(idempotency_key=""), 400, "VALIDATION_ERROR", message)
        bad = "has space"
        cb.assert_error(self.api.create({"flow": "liveness"}, idempotency_key=bad), 400, "VALIDATION_ERROR",
                        "Idempotency-Key: must be 1 to 255 printable ASCII characters without spaces")
        cb.assert_error(self.api.create({"flow": "liveness"}, idempotency_key="k" * 256), 400, "VALIDATION_ERROR")
        self.assertEqual(self.api.create({"flow": "liveness"}, idempotency_key="k" * 255).status, 201)
        self.assertEqual(self.api.get(sid).status, 200)
        self.assertEqual(page.state().status, 200)
        self.assertEqual(cb.db().scalar("SELECT status FROM corebank.verify_sessions WHERE id = %s", (sid,)), "pending")


class WriteIdempotencyTest(unittest.TestCase):

    def setUp(self):
        self.api = vs.VerifyApi()

    def test_cancel_replays_and_conflicts(self):
        """A retried cancel replays its 200; the key on another session, or another body, is 409."""
        first = vs.create_session(self.api, flow="liveness")
        second = vs.create_session(self.api, flow="liveness")
        key = vs.new_key()
        done = self.api.cancel(first["sessionId"], {"reason": "duplicate"}, idempotency_key=key)
        self.assertEqual(done.status, 200, done)
        again = self.api.cancel(first["sessionId"], {"reason": "duplicate"}, idempotency_key=key)
        self.assertEqual((again.status, again.header("Idempotent-Replayed")), (200, "true"))
        self.assertEqual(again.json, done.json)
        cb.assert_error(self.api.cancel(first["sessionId"], {"reason": "other"}, idempotency_key=key), 409, "CONFLICT")
        cb.assert_error(self.api.cancel(second["sessionId"], {"reason": "duplicate"}, idempotency_key=key), 409, "CONFLICT")
        self.assertEqual(self.api.get(second["sessionId"]).json["status"], "pending")
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.verify_webhook_events WHERE session_id = %s",
                                        (first["sessionId"],)), 1, "one cancellation event, however often retried")

    def test_hosted_writes_are_idempotent(self):
        """The page's consent and capture replay under their key; another image under the key is 409."""
        session = vs.create_session(self.api, flow="liveness")
        page = vs.HostedApi(session["sessionId"], vs.token_of(session))
        consent_key = vs.new_key()
        self.assertEqual(page.consent(True, idempotency_key=consent_key).status, 200)
        again = page.consent(True, idempotency_key=consent_key)
        self.assertEqual((again.status, again.header("Idempotent-Replayed")), (200, "true"))
        capture_key = vs.new_key()
        image = vs.face_png(21)
        self.assertEqual(page.capture("selfie", image, idempotency_key=capture_key).status, 200)
        self.assertEqual(page.capture("selfie", image, idempotency_key=capture_key).header("Idempotent-Replayed"), "true")
        cb.assert_error(page.capture("selfie", vs.face_png(22), idempotency_key=capture_key), 409, "CONFLICT")
        report = self.api.report(session["sessionId"]).json
        self.assertEqual(report["captures"][0]["attempts"], 1, "the replayed upload was stored once")
        self.assertEqual(report["captures"][0]["sha256"], cb.sha256(image).hex())

    def test_concurrent_submissions_run_the_checks_once(self):
        """Simultaneous submits with one key: one runs, the others are 409 (in progress) or replay it."""
        session = vs.create_session(self.api)
        page = vs.HostedApi(session["sessionId"], vs.token_of(session))
        self.assertEqual(page.consent(True).status, 200)
        self.assertEqual(page.capture("selfie", vs.face_png(31)).status, 200)
        self.assertEqual(page.capture("document", vs.document_png(31)).status, 200)
        key = vs.new_key()
        token = vs.token_of(session)
        results = cb.run_parallel([lambda: vs.HostedApi(session["sessionId"], token).submit(idempotency_key=key)
                                   for _ in range(6)])
        ok = [r for r in results if r.status == 200]
        self.assertGreaterEqual(len(ok), 1, results)
        for resp in results:
            if resp.status != 200:
                cb.assert_error(resp, 409, "CONFLICT",
                                "A request with this Idempotency-Key is still being processed; retry it shortly")
        self.assertEqual({r.json["decision"] for r in ok}, {"approved"})
        final = page.submit(idempotency_key=key)
        self.assertEqual((final.status, final.header("Idempotent-Replayed")), (200, "true"))
        events = cb.db().scalar("SELECT count(*) FROM corebank.verify_session_events WHERE session_id = %s"
                                " AND event = 'submitted'", (session["sessionId"],))
        self.assertEqual(events, 1, "the checks ran once")
        # A new key cannot submit a completed session.
        cb.assert_error(page.submit(), 409, "CONFLICT")


if __name__ == "__main__":
    unittest.main()
