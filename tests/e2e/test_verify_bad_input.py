"""Bad input on every endpoint of the verification service.

Goal: whatever a client sends, the answer is a documented error in the
{error, message, status, timestamp} body, never a 500, and nothing is
stored: malformed JSON and non-objects are 400 BAD_REQUEST; typed, bounded
fields are 400 VALIDATION_ERROR naming each failing field; unknown fields
are refused; JSON bodies over 64 KiB and images over verify_image_bytes_max
are 413; empty, non-image, truncated and tiny images are 400 with the
reason; bad path parameters, unknown paths and wrong methods are 400, 404 and
405. Method: one table of cases per endpoint, each sent over HTTP and
checked with cbclient.assert_error; database counts before and after.
"""

import json
import unittest

import cbclient as cb
import verify_support as vs

IMAGE_BYTES_MAX = 5242880      # corebank.conf verify_image_bytes_max
JSON_BODY_BYTES_MAX = 65536


def setUpModule():
    vs.require_verify_service()


def sessions_count():
    return cb.db().scalar("SELECT count(*) FROM corebank.verify_sessions")


class CreateBadInputTest(unittest.TestCase):

    def setUp(self):
        self.api = vs.VerifyApi()

    def test_malformed_bodies(self):
        """Not JSON, not an object, empty, truncated: 400 BAD_REQUEST Malformed JSON request body."""
        before = sessions_count()
        for raw in (b"", b"not json", b"[1,2]", b'"flow"', b"null", b'{"flow":"liveness"', b"\xff\xfe{}",
                    b'{"flow":"liveness"} trailing'):
            with self.subTest(raw=raw[:20]):
                cb.assert_error(self.api.create(None, raw=raw), 400, "BAD_REQUEST", "Malformed JSON request body")
        self.assertEqual(sessions_count(), before)

    def test_field_rules(self):
        """Each bad field is named with its reason."""
        cases = [
            ({}, "flow", "is required"),
            ({"flow": None}, "flow", "is required"),
            ({"flow": 1}, "flow", "must be a string"),
            ({"flow": ""}, "flow", "is required"),
            ({"flow": "selfie"}, "flow", None),
            ({"flow": "liveness+liveness"}, "flow", None),
            ({"flow": "LIVENESS"}, "flow", None),
            ({"flow": "liveness", "reference": 5}, "reference", "must be a string"),
            ({"flow": "liveness", "reference": "   "}, "reference", "must not be blank"),
            ({"flow": "liveness", "reference": "r" * 201}, "reference", "must be at most 200 characters"),
            ({"flow": "liveness", "reference": "r" * 10000}, "reference", "must be at most 200 characters"),
            ({"flow": "liveness", "reference": "a\u0000b"}, "reference", "must not contain NUL characters"),
            ({"flow": "liveness", "redirectUrl": "ftp://example.com"}, "redirectUrl", "must be an absolute http or https URL"),
            ({"flow": "liveness", "redirectUrl": "/relative"}, "redirectUrl", "must be an absolute http or https URL"),
            ({"flow": "liveness", "redirectUrl": "https://exa mple.com"}, "redirectUrl", None),
            ({"flow": "liveness", "redirectUrl": "https://e.com/" + "x" * 2048}, "redirectUrl", None),
            ({"flow": "liveness", "redirectUrl": {}}, "redirectUrl", "must be a string"),
            ({"flow": "liveness", "metadata": "x"}, "metadata", "must be an object"),
            ({"flow": "liveness", "metadata": [1]}, "metadata", "must be an object"),
            ({"flow": "liveness", "metadata": {"a": {"b": 1}}}, "metadata.a", None),
            ({"flow": "liveness", "metadata": {"a": [1]}}, "metadata.a", None),
            ({"flow": "liveness", "metadata": {"a": "v" * 501}}, "metadata.a", "must be at most 500 characters"),
            ({"flow": "liveness", "metadata": {"k" * 41: 1}}, "metadata", "keys must be 1 to 40 characters"),
            ({"flow": "liveness", "metadata": {"": 1}}, "metadata", "keys must be 1 to 40 characters"),
            ({"flow": "liveness", "metadata": {f"k{i}": i for i in range(51)}}, "metadata", "must have at most 50 keys"),
            ({"flow": "liveness", "metadata": {f"k{i}": "v" * 400 for i in range(30)}}, "metadata", None),
            ({"flow": "liveness", "metadata": {"a": "x\u0000"}}, "metadata.a", "must not contain NUL characters"),
            ({"flow": "liveness", "subject": "Ada"}, "subject", "must be an object"),
            ({"flow": "liveness", "subject": {"name": 5}}, "subject.name", "must be a string"),
            ({"flow": "liveness", "subject": {"name": "n" * 201}}, "subject.name", "must be at most 200 characters"),
            ({"flow": "liveness", "subject": {"idNumber": "12<34"}}, "subject.idNumber", None),
            ({"flow": "liveness", "subject": {"idNumber": "---"}}, "subject.idNumber", None),
            ({"flow": "liveness", "subject": {"dateOfBirth": "1990-13-01"}}, "subject.dateOfBirth", None),
            ({"flow": "liveness", "subject": {"dateOfBirth": "2001-02-29"}}, "subject.dateOfBirth", None),
            ({"flow": "liveness", "subject": {"country": "Zimbabwe"}}, "subject.country", None),
            ({"flow": "liveness", "subject": {"email": "nobody"}}, "subject.email", None),
            ({"flow": "liveness", "subject": {"ssn": "x"}}, "subject.ssn", "unknown field"),
            ({"flow": "liveness", "clientToken": "mine"}, "clientToken", "unknown field"),
            ({"flow": "liveness", "status": "completed"}, "status", "unknown field"),
        ]
        before = sessions_count()
        for body, field, reason in cases:
            with self.subTest(body=json.dumps(body)[:80]):
                cb.assert_validation(self.api.create(body), field, reason=reason)
        self.assertEqual(sessions_count(), before, "no refused request stored a session")

    def test_duplicated_keys(self):
        """A key named twice in one object is 400 BAD_REQUEST, even with the same value: no session is created."""
        before = sessions_count()
        for raw in (b'{"flow": "liveness", "flow": "liveness"}',
                    b'{"flow": "liveness", "metadata": {"a": "1", "a": "1"}}',
                    b'{"flow": "liveness", "reference": "r", "flow": "liveness+facematch"}'):
            with self.subTest(raw=raw):
                cb.assert_error(self.api.create(None, raw=raw), 400, "BAD_REQUEST", "Malformed JSON request body")
        self.assertEqual(sessions_count(), before)

    def test_several_problems_in_one_answer(self):
        """Every failing field is listed in one message."""
        resp = self.api.create({"flow": "x", "reference": "", "metadata": 1, "extra": True})
        cb.assert_validation(resp, "flow", "reference", "metadata", "extra")

    def test_hostile_shapes(self):
        """Deep nesting, thousands of fields, a body over 64 KiB: refused cleanly."""
        deep = b'{"flow":"liveness","metadata":' + b"[" * 100000 + b"]" * 100000 + b"}"
        self.assertIn(self.api.create(None, raw=deep).status, (400, 413))
        many = {"flow": "liveness", **{f"f{i}": i for i in range(5000)}}
        resp = self.api.create(many)
        self.assertIn(resp.status, (400, 413), resp)
        cb.assert_error(resp, resp.status, ("VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"))
        big = {"flow": "liveness", "reference": "r", "metadata": {"a": "x" * 300}, "pad": "p" * (JSON_BODY_BYTES_MAX + 10)}
        cb.assert_error(self.api.create(big), 413, "PAYLOAD_TOO_LARGE", f"Request body exceeds {JSON_BODY_BYTES_MAX} bytes")


class OtherEndpointsBadInputTest(unittest.TestCase):

    def setUp(self):
        self.api = vs.VerifyApi()
        self.session = vs.create_session(self.api, flow="liveness+facematch")
        self.sid = self.session["sessionId"]
        self.page = vs.HostedApi(self.sid, vs.token_of(self.session))

    def test_cancel_body(self):
        """Cancel takes an optional {reason} of at most 500 characters and nothing else."""
        cb.assert_error(self.api.cancel(self.sid, raw=b"nope"), 400, "BAD_REQUEST")
        cb.assert_error(self.api.cancel(self.sid, raw=b"[]"), 400, "BAD_REQUEST")
        cb.assert_validation(self.api.cancel(self.sid, {"reason": 5}), "reason", reason="must be a string")
        cb.assert_validation(self.api.cancel(self.sid, {"reason": "r" * 501}), "reason")
        cb.assert_validation(self.api.cancel(self.sid, {"force": True}), "force", reason="unknown field")
        self.assertEqual(self.api.get(self.sid).json["status"], "pending")

    def test_consent_body(self):
        """API consent needs granted (boolean) and a version; text, ip, userAgent are bounded."""
        for body, field in (({}, "granted"), ({"granted": "yes", "version": "v1"}, "granted"),
                            ({"granted": True}, "version"), ({"granted": True, "version": "v 1"}, "version"),
                            ({"granted": True, "version": "v" * 51}, "version"),
                            ({"granted": True, "version": "v1", "text": "t" * 20001}, "text"),
                            ({"granted": True, "version": "v1", "ip": "1" * 65}, "ip"),
                            ({"granted": True, "version": "v1", "extra": 1}, "extra")):
            with self.subTest(body=body):
                cb.assert_validation(self.api.consent(self.sid, body), field)
        self.assertEqual(self.api.get(self.sid).json["consent"]["status"], "not_recorded")

    def test_search_body(self):
        """Search filters are typed and bounded; a date-time out of range is 400, never the database's 500."""
        for body, field in (({"limit": 0}, "limit"), ({"limit": 101}, "limit"), ({"limit": "5"}, "limit"),
                            ({"status": "done"}, "status"), ({"createdBefore": "yesterday"}, "createdBefore"),
                            ({"createdBefore": "2026-02-30T00:00:00Z"}, "createdBefore"),
                            ({"createdBefore": "2024-01-01T10:00:00+25:00"}, "createdBefore"),
                            ({"createdBefore": "2024-01-01T10:00:00-15:00"}, "createdBefore"),
                            ({"createdBefore": "2024-01-01T10:00:00+02:60"}, "createdBefore"),
                            ({"createdBefore": "2024-01-01T25:00:00Z"}, "createdBefore"),
                            ({"createdBefore": "2024-01-01T10:60:00Z"}, "createdBefore"),
                            ({"createdBefore": "2024-01-01T10:00:61Z"}, "createdBefore"),
                            ({"idNumber": "<x>"}, "idNumber"), ({"sort": "asc"}, "sort")):
            with self.subTest(body=body):
                cb.assert_validation(self.api.search(body), field)

    def test_path_parameters(self):
        """A session id of any shape that names no session: 404 on the API (ids are opaque to clients), 401 on
        the page's API (the client token binds one session); unknown kinds are 400."""
        for bad in ("not-a-uuid", "00000000-0000-4000-8000-00000000000g", "%00", "..%2F..%2Fetc", "x" * 300,
                    "%FF%FE", "00000000-0000-4000-8000-000000000000", self.sid.upper() + "0"):
            with self.subTest(id=bad):
                cb.assert_error(self.api.get(bad), 404, "NOT_FOUND", "Session not found")
                cb.assert_error(self.api.report(bad), 404, "NOT_FOUND", "Session not found")
                cb.assert_error(self.api.cancel(bad), 404, "NOT_FOUND", "Session not found")
                cb.assert_error(self.api.consent(bad, {"granted": True, "version": "v1"}), 404, "NOT_FOUND",
                                "Session not found")
                cb.assert_error(vs.HostedApi(bad, vs.token_of(self.session)).state(), 401, "UNAUTHORIZED")
        self.page.consent(True)
        cb.assert_validation(self.page.capture("passport", vs.face_png(1)), "kind", reason="must be selfie or document")

    def test_hosted_consent_body(self):
        """The page's consent is {granted: boolean} and nothing else."""
        http = cb.HttpClient(vs.VERIFY_URL)
        headers = {"Authorization": f"Bearer {self.page.token}", "Idempotency-Key": vs.new_key()}
        cb.assert_error(http.post(f"/v1/hosted/sessions/{self.sid}/consent", body=b"yes", headers=headers), 400,
                        "BAD_REQUEST")
        headers["Idempotency-Key"] = vs.new_key()
        cb.assert_error(http.post(f"/v1/hosted/sessions/{self.sid}/consent", body=b'{"granted": true, "granted": true}',
                                  headers=headers), 400, "BAD_REQUEST", "Malformed JSON request body")
        for body, field in (({}, "granted"), ({"granted": 1}, "granted"), ({"granted": True, "version": "x"}, "version")):
            with self.subTest(body=body):
                headers["Idempotency-Key"] = vs.new_key()
                cb.assert_validation(http.post(f"/v1/hosted/sessions/{self.sid}/consent", json_body=body,
                                               headers=headers), field)
        self.assertEqual(self.page.state().json["consent"], "not_recorded")

    def test_images(self):
        """Empty, not an image, truncated, tiny, too large: refused with the reason; nothing stored."""
        self.assertEqual(self.page.consent(True).status, 200)
        good = vs.face_png(8)
        cases = [(b"", "image: is empty"),
                 (b"GIF89a" + b"\0" * 100, "image: is not a PNG or JPEG image"),
                 (b"<svg/>", "image: is not a PNG or JPEG image"),
                 (good[:len(good) // 2], "image: is not a readable PNG image"),
                 (b"\xff\xd8\xff\xe0" + b"\0" * 64, "image: is not a readable JPEG image"),
                 (vs.face_png(8, width=63, height=200), "image: is too small: at least 64 x 64 pixels are needed")]
        for data, message in cases:
            with self.subTest(message=message):
                cb.assert_error(self.page.capture("selfie", data), 400, "VALIDATION_ERROR", message)
        too_large = b"\x89PNG\r\n\x1a\n" + b"\0" * (IMAGE_BYTES_MAX - 7)
        cb.assert_error(self.page.capture("selfie", too_large), 413, "PAYLOAD_TOO_LARGE",
                        f"image: must be at most {IMAGE_BYTES_MAX} bytes")
        far_too_large = self.page.http.send_streaming(
            "POST", f"/v1/hosted/sessions/{self.sid}/captures/selfie", b"\0" * (IMAGE_BYTES_MAX + 200000),
            headers={"Authorization": f"Bearer {self.page.token}", "Idempotency-Key": vs.new_key()})
        if far_too_large is not None:  # the server may close before the client finished sending
            cb.assert_error(far_too_large, 413, "PAYLOAD_TOO_LARGE")
        self.assertEqual(self.page.state().json["captures"]["selfie"], "required", "nothing was stored")
        # Content-Type is not trusted: a PNG sent as image/jpeg is read as the PNG it is.
        self.assertEqual(self.page.capture("selfie", good, content_type="image/jpeg").status, 200)
        self.assertEqual(self.api.report(self.sid).json["captures"][0]["format"], "png")

    def test_rules_on_the_page(self):
        """Before consent no capture (422); a kind the flow does not take (422); submit needs every image (422)."""
        cb.assert_error(self.page.capture("selfie", vs.face_png(9)), 422, "UNPROCESSABLE",
                        "Consent must be recorded before biometric capture")
        cb.assert_error(self.page.submit(), 422, "UNPROCESSABLE", "Consent must be recorded before the checks can run")
        self.page.consent(True)
        cb.assert_error(self.page.submit(), 422, "UNPROCESSABLE",
                        "selfie: an image is required; document: an image is required")
        liveness = vs.create_session(self.api, flow="liveness")
        page = vs.HostedApi(liveness["sessionId"], vs.token_of(liveness))
        page.consent(True)
        cb.assert_error(page.capture("document", vs.document_png(9)), 422, "UNPROCESSABLE",
                        "kind: the liveness flow captures no document image")
        http = cb.HttpClient(vs.VERIFY_URL)
        cb.assert_error(http.post(f"/v1/hosted/sessions/{self.sid}/submit", body=b'{"force":true}',
                                  headers={"Authorization": f"Bearer {self.page.token}",
                                           "Idempotency-Key": vs.new_key()}),
                        400, "BAD_REQUEST", "This operation takes no request body")

    def test_capture_attempts_are_bounded(self):
        """At most 10 images of a kind per session (retakes included)."""
        self.page.consent(True)
        for i in range(10):
            self.assertEqual(self.page.capture("selfie", vs.face_png(100 + i)).status, 200)
        cb.assert_error(self.page.capture("selfie", vs.face_png(200)), 422, "UNPROCESSABLE",
                        "selfie: at most 10 captures per session; start a new session")

    def test_unknown_paths_and_methods(self):
        """Unknown paths are 404 and wrong methods 405 with Allow, in the error body."""
        http = cb.HttpClient(vs.VERIFY_URL)
        cb.assert_error(http.get("/v1/nothing-here"), 404, "NOT_FOUND")
        resp = http.delete(f"/v1/sessions/{self.sid}", headers={"Authorization": f"Bearer {self.api.key}"})
        cb.assert_error(resp, 405, "METHOD_NOT_ALLOWED")
        self.assertIn("GET", resp.header("Allow"))
        cb.assert_error(http.get("/v1/sessions"), 405, "METHOD_NOT_ALLOWED")


if __name__ == "__main__":
    unittest.main()
