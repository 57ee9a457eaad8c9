"""Single checks over HTTP (issue 14, part 7): liveness, document and face match
on images the caller captured in its own UI.

Goal: POST /v1/checks/{liveness,document,facematch} with base64 images
answers 201 with the hosted flow's provider result for the same images (the
same offline scoring: a check and a session completed with the same pictures
get the same score and reasons), the consent recorded, the images described
and not kept; GET /v1/checks/{id} reads it back; the Idempotency-Key works
as on session creation (same key and body: the first answer with
Idempotent-Replayed, another body: 409, another check type: 409); a
biometric check without granted consent is refused (422, or 400 without a
consent object) and writes nothing; bad input on every operation is a 4xx
with the error body and writes nothing; scopes sessions:write and
sessions:read (403 without).
Method: the main tier; images generated as in the session tests; row counts
read as superuser.
"""

import base64
import json
import re
import unittest

import cbclient as cb
import verify_support as vs

CONSENT = {"granted": True, "version": "2026-11-v1", "text": "I agree to a face check.", "ip": "203.0.113.9",
           "userAgent": "e2e-app/1.0"}
CHECK_FIELDS = {"checkId", "type", "status", "result", "provider", "reference", "consent", "images", "createdAt"}
IMAGE_BYTES_MAX = 5242880


def setUpModule():
    vs.require_verify_service()


def b64(data):
    return base64.b64encode(data).decode()


def counts():
    return (cb.db().scalar("SELECT count(*) FROM corebank.verify_checks"),
            cb.db().scalar("SELECT count(*) FROM corebank.verify_idempotency_keys"))


class ChecksTest(unittest.TestCase):

    def setUp(self):
        self.api = vs.VerifyApi()
        self.http = self.api.http

    def post(self, type_, body, key=None, api_key=None, raw=None):
        headers = {"Authorization": f"Bearer {api_key or self.api.key}"}
        if key is not False:
            headers["Idempotency-Key"] = key or vs.new_key()
        if raw is not None:
            headers["Content-Type"] = "application/json"
            return self.http.post(f"/v1/checks/{type_}", body=raw, headers=headers)
        return self.http.post(f"/v1/checks/{type_}", json_body=body, headers=headers)

    def get(self, check_id, api_key=None):
        return self.http.get(f"/v1/checks/{check_id}", headers={"Authorization": f"Bearer {api_key or self.api.key}"})

    def session_checks(self, flow, selfie=None, document=None):
        """The checks of a session completed on the hosted page with these images."""
        session = vs.create_session(self.api, flow=flow)
        vs.complete_session(session, selfie=selfie, document=document)
        return {c["type"]: c for c in vs.wait_status(self.api, session["sessionId"], {"completed"})["checks"]}

    def test_liveness_scores_as_the_hosted_flow(self):
        """201, the result the hosted flow gives the same selfie, the consent recorded, read back."""
        selfie = vs.face_png(71)
        resp = self.post("liveness", {"selfie": b64(selfie), "consent": CONSENT, "reference": "cust-71"})
        self.assertEqual(resp.status, 201, resp)
        body = resp.json
        self.assertEqual(set(body), CHECK_FIELDS)
        self.assertEqual(resp.header("Location"), f"/v1/checks/{body['checkId']}")
        self.assertEqual((body["type"], body["provider"], body["reference"]), ("liveness", "offline", "cust-71"))
        self.assertEqual(body["status"], body["result"]["status"])
        hosted = self.session_checks("liveness", selfie=selfie)["liveness"]
        for field in ("status", "score", "provider"):
            self.assertEqual(body["result"][field], hosted[field], field)
        self.assertEqual(body["consent"]["version"], CONSENT["version"])
        self.assertEqual(body["consent"]["ip"], CONSENT["ip"])
        import hashlib
        self.assertEqual(body["consent"]["textSha256"], hashlib.sha256(CONSENT["text"].encode()).hexdigest())
        self.assertEqual(body["images"], [{"kind": "selfie", "format": "png", "width": 320, "height": 320,
                                           "bytes": len(selfie), "sha256": hashlib.sha256(selfie).hexdigest()}])
        read = self.get(body["checkId"])
        self.assertEqual(read.status, 200, read)
        self.assertEqual(read.json, body)
        stored = cb.db().one("SELECT result::text AS r, images::text AS i FROM corebank.verify_checks WHERE id = %s",
                             (body["checkId"],))
        self.assertNotIn(b64(selfie)[:40], stored["r"] + stored["i"], "the image is not stored")

    def test_facematch_and_document(self):
        """A face match reads both images, a document check one and needs no consent."""
        selfie, document = vs.face_png(72), vs.document_png(72)
        match = self.post("facematch", {"selfie": b64(selfie), "document": b64(document), "consent": CONSENT})
        self.assertEqual(match.status, 201, match)
        self.assertEqual([i["kind"] for i in match.json["images"]], ["selfie", "document"])
        hosted = self.session_checks("facematch+document", selfie=selfie, document=document)
        self.assertEqual(match.json["result"]["similarity"], hosted["facematch"]["similarity"])
        self.assertEqual(match.json["status"], hosted["facematch"]["status"])
        doc = self.post("document", {"document": b64(document)})
        self.assertEqual(doc.status, 201, doc)
        self.assertEqual((doc.json["result"]["score"], doc.json["status"]),
                         (hosted["document"]["score"], hosted["document"]["status"]))
        self.assertIsNone(doc.json["consent"])
        flat = self.post("document", {"document": b64(vs.flat_png(600, 380))})
        self.assertEqual(flat.status, 201, flat)
        self.assertEqual(flat.json["status"], "fail")
        self.assertIn("image_uniform", flat.json["result"]["reasons"])

    def test_idempotency_as_session_creation(self):
        """Same key and body: the first answer; another body or check type: 409; nothing more stored."""
        key = vs.new_key()
        body = {"selfie": b64(vs.face_png(73)), "consent": CONSENT}
        first = self.post("liveness", body, key=key)
        self.assertEqual(first.status, 201, first)
        before = counts()
        again = self.post("liveness", dict(reversed(list(body.items()))), key=key)
        self.assertEqual(again.status, 201, again)
        self.assertEqual(again.header("Idempotent-Replayed"), "true")
        self.assertEqual(again.json, first.json)
        cb.assert_error(self.post("liveness", {"selfie": b64(vs.face_png(74)), "consent": CONSENT}, key=key), 409,
                        "CONFLICT", "Idempotency-Key was already used with a different request; use a new key for a "
                                    "new request")
        cb.assert_error(self.post("document", {"document": b64(vs.document_png(73))}, key=key), 409, "CONFLICT")
        self.assertEqual(counts(), before)
        cb.assert_error(self.post("liveness", body, key=False), 400, "VALIDATION_ERROR",
                        "Idempotency-Key: header is required on every write")

    def test_consent_is_required_for_a_face(self):
        """Declined consent is 422, missing consent 400; nothing stored."""
        before = counts()
        for type_, body, status, code, message in (
                ("liveness", {"selfie": b64(vs.face_png(75)), "consent": dict(CONSENT, granted=False)}, 422,
                 "UNPROCESSABLE", "consent: the user's consent must be granted before a biometric check"),
                ("facematch", {"selfie": b64(vs.face_png(75)), "document": b64(vs.document_png(75)),
                               "consent": dict(CONSENT, granted=False)}, 422, "UNPROCESSABLE", None),
                # Refused before any image is decoded: this "image" would be a 400 if it were read.
                ("liveness", {"selfie": b64(b"not an image at all"), "consent": dict(CONSENT, granted=False)}, 422,
                 "UNPROCESSABLE", "consent: the user's consent must be granted before a biometric check"),
                ("liveness", {"selfie": b64(vs.face_png(75))}, 400, "VALIDATION_ERROR",
                 "consent: is required: a liveness check processes the user's face"),
                ("facematch", {"selfie": b64(vs.face_png(75)), "document": b64(vs.document_png(75))}, 400,
                 "VALIDATION_ERROR", None)):
            with self.subTest(type=type_, status=status):
                cb.assert_error(self.post(type_, body), status, code, message)
        self.assertEqual(counts(), before)

    def test_bad_input_on_every_operation(self):
        """4xx with the error body, nothing written."""
        before = counts()
        face, doc = b64(vs.face_png(76)), b64(vs.document_png(76))
        cases = [
            ("liveness", None, b"not json", 400, "BAD_REQUEST", "Malformed JSON request body"),
            ("liveness", None, b"[]", 400, "BAD_REQUEST", "Malformed JSON request body"),
            ("document", None, b'{"document":"a","document":"b"}', 400, "BAD_REQUEST", None),
            ("liveness", {"consent": CONSENT}, None, 400, "VALIDATION_ERROR", "selfie: is required"),
            ("liveness", {"selfie": 5, "consent": CONSENT}, None, 400, "VALIDATION_ERROR", "selfie: must be a base64 string"),
            ("liveness", {"selfie": "***", "consent": CONSENT}, None, 400, "VALIDATION_ERROR",
             re.compile(r"^selfie: must be a non-empty image in base64")),
            ("liveness", {"selfie": "", "consent": CONSENT}, None, 400, "VALIDATION_ERROR", None),
            ("liveness", {"selfie": b64(b"GIF89a not a png"), "consent": CONSENT}, None, 400, "VALIDATION_ERROR",
             re.compile(r"^selfie: ")),
            ("liveness", {"selfie": b64(vs.flat_png(20, 20)), "consent": CONSENT}, None, 400, "VALIDATION_ERROR",
             re.compile(r"^selfie: is too small")),
            ("liveness", {"selfie": face, "document": doc, "consent": CONSENT}, None, 400, "VALIDATION_ERROR",
             "document: a liveness check reads no document image"),
            ("document", {"document": doc, "selfie": face}, None, 400, "VALIDATION_ERROR",
             "selfie: a document check reads no selfie"),
            ("facematch", {"selfie": face, "consent": CONSENT}, None, 400, "VALIDATION_ERROR", "document: is required"),
            ("liveness", {"selfie": face, "consent": CONSENT, "extra": 1}, None, 400, "VALIDATION_ERROR",
             "extra: unknown field"),
            ("liveness", {"selfie": face, "consent": "yes"}, None, 400, "VALIDATION_ERROR", re.compile("^consent: must be")),
            ("liveness", {"selfie": face, "consent": {"granted": True}}, None, 400, "VALIDATION_ERROR",
             "consent.version: is required"),
            ("liveness", {"selfie": face, "consent": dict(CONSENT, version="bad version!")}, None, 400,
             "VALIDATION_ERROR", re.compile("^consent.version: ")),
            ("liveness", {"selfie": face, "consent": dict(CONSENT, granted="yes")}, None, 400, "VALIDATION_ERROR",
             re.compile("^consent.granted: ")),
            ("liveness", {"selfie": face, "consent": CONSENT, "reference": ""}, None, 400, "VALIDATION_ERROR",
             "reference: must be a string of 1 to 200 characters"),
            ("liveness", {"selfie": face, "consent": CONSENT, "reference": "r" * 201}, None, 400,
             "VALIDATION_ERROR", None),
            ("document", {"document": "A" * ((IMAGE_BYTES_MAX + 2) // 3 * 4 + 4)}, None, 413, "PAYLOAD_TOO_LARGE",
             None),
        ]
        for type_, body, raw, status, code, message in cases:
            with self.subTest(type=type_, body=str(body or raw)[:80]):
                cb.assert_error(self.post(type_, body, raw=raw), status, code, message)
        for ident in ("nope", "7d4a4f4e-1c2b-4e5f-9a8b-0c1d2e3f4a5b", "1" * 300):
            with self.subTest(id=ident):
                cb.assert_error(self.get(ident), 404, "NOT_FOUND", "Check not found")
        cb.assert_error(self.http.post("/v1/checks/retina", json_body={},
                                       headers={"Authorization": f"Bearer {self.api.key}",
                                                "Idempotency-Key": vs.new_key()}), 405, "METHOD_NOT_ALLOWED")
        self.assertEqual(counts(), before)

    def test_scopes(self):
        """sessions:write creates, sessions:read reads; without them 403, without a key 401."""
        created = self.post("document", {"document": b64(vs.document_png(77))})
        self.assertEqual(created.status, 201, created)
        read_only = vs.api_key(scopes=("sessions:read",))
        write_only = vs.api_key(scopes=("sessions:write",))
        before = counts()
        cb.assert_error(self.post("document", {"document": b64(vs.document_png(77))}, api_key=read_only), 403,
                        "FORBIDDEN", "This API key lacks the 'sessions:write' scope")
        cb.assert_error(self.get(created.json["checkId"], api_key=write_only), 403, "FORBIDDEN",
                        "This API key lacks the 'sessions:read' scope")
        self.assertEqual(self.get(created.json["checkId"], api_key=read_only).status, 200)
        cb.assert_error(self.http.post("/v1/checks/document", json_body={"document": "x"},
                                       headers={"Idempotency-Key": vs.new_key()}), 401, "UNAUTHORIZED")
        self.assertEqual(counts(), before)


if __name__ == "__main__":
    unittest.main()
