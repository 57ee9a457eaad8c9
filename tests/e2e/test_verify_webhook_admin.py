"""Webhook subscription management over HTTP (issue 14, part 7).

Goal: an API key with the scope webhooks:manage registers an endpoint (201,
the whsec_ secret shown once and never again), reads and lists it (paged,
newest first), pings it (a signed webhook.ping through the outbox),
rotates its secret with an overlap during which every delivery carries two
v1 signatures (the new secret's and the old one's, each verifying on its
own), without an overlap (the old secret stops verifying at once), reads its
delivery log, retries a failed delivery (a delivered one is 409) and disables
it (then ping and rotate are 409). A key without the scope is 403 on every
operation, no key 401. Bad input on every operation is a 4xx with the error
body and writes nothing; a loopback URL is refused by a tier that does not
allow private addresses, naming the address.
Method: a second corebankd on its own database (its outbox is its own) with
verify_webhook_allow_private = true, a 1 s backoff and 2 attempts, and a
loopback receiver; the main tier (private addresses refused) for the address
check; row counts read as superuser.
"""

import json
import re
import time
import unittest

import cbclient as cb
import verify_support as vs

SECRET = re.compile(r"whsec_[A-Za-z0-9_-]{43}")
ENDPOINT_FIELDS = {"id", "url", "description", "events", "status", "createdAt", "disabledAt", "secretRotatedAt",
                   "previousSecretExpiresAt"}
DELIVERY_FIELDS = {"id", "endpointId", "eventId", "eventType", "sessionId", "status", "attempts", "lastAttemptAt",
                   "lastHttpStatus", "lastError", "nextAttemptAt", "deliveredAt", "createdAt"}
UNKNOWN_ID = "7d4a4f4e-1c2b-4e5f-9a8b-0c1d2e3f4a5b"


def setUpModule():
    vs.require_verify_service()
    cb.require(cb.CLI, "CB_CLI")
    cb.require(cb.DATABASE_URL, "CB_DATABASE_URL")


def signatures(header):
    """The t and every v1 of a Verify-Signature header."""
    items = [part.strip().split("=", 1) for part in header.split(",")]
    return [v for k, v in items if k == "t"], [v for k, v in items if k == "v1"]


_documents = {}


def openapi_of(base_url):
    """The tier's own /openapi.json as a validator (tests/e2e/openapi_check.py), or None without it."""
    try:
        import openapi_check
    except ImportError:
        return None
    if base_url not in _documents:
        resp = cb.HttpClient(base_url).get("/openapi.json")
        _documents[base_url] = openapi_check.OpenApi(resp.json, "the isolated tier's /openapi.json",
                                                     error_schema="Error", closed=True)
    return _documents[base_url]


class Admin:
    """The webhook-endpoint API with one API key; every answer is checked against the OpenAPI document."""

    def __init__(self, base_url, key):
        self.http = cb.HttpClient(base_url)
        self.key = key
        self.openapi = openapi_of(base_url)

    def headers(self, extra=None):
        out = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        out.update(extra or {})
        return out

    def checked(self, method, path, resp):
        if self.openapi is not None:
            self.openapi.check(method, path.split("?", 1)[0], resp)
        return resp

    def get(self, path):
        return self.checked("GET", path, self.http.get(path, headers=self.headers()))

    def post(self, path, body=None, raw=None):
        if raw is not None:
            resp = self.http.post(path, body=raw, headers=self.headers({"Content-Type": "application/json"}))
        elif body is None:
            resp = self.http.post(path, headers=self.headers())
        else:
            resp = self.http.post(path, json_body=body, headers=self.headers())
        return self.checked("POST", path, resp)


class IsolatedTierTest(vs.IsolatedWebhookTest):
    """The operations on a tier of their own, whose outbox nobody else drains."""

    @classmethod
    def setup_tier(cls):
        cls.admin = Admin(cls.tier.url, cls.tier.cli("key-create", "--service", "verify", "--scopes",
                                                     "webhooks:manage", "--name", "e2e-webhook-admin"))
        cls.sessions_key = cls.tier.cli("key-create", "--service", "verify", "--scopes",
                                        "sessions:read,sessions:write", "--name", "e2e-webhook-sessions")

    def count(self, sql):
        return self.tier_scalar(sql)

    def counts(self):
        return tuple(self.count(f"SELECT count(*) FROM corebank.{t}") for t in
                     ("verify_webhook_endpoints", "verify_webhook_events", "verify_webhook_deliveries"))

    def receiver(self, statuses=None):
        return self.new_receiver(statuses)

    def create(self, url, **extra):
        resp = self.admin.post("/v1/webhook-endpoints", dict(url=url, **extra))
        self.assertEqual(resp.status, 201, resp)
        return resp.json

    def pings(self, receiver, endpoint_id, count, timeout=vs.WEBHOOK_WAIT_S):
        """The first `count` webhook.ping requests for the endpoint, waiting for them."""
        deadline = time.monotonic() + timeout
        while True:
            found = [r for r in list(receiver.received)
                     if json.loads(r["body"]).get("data", {}).get("endpointId") == endpoint_id]
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(found)} pings for {endpoint_id} after {timeout} s, wanted {count}")
            time.sleep(0.1)

    def delivery(self, endpoint_id, delivery_id, statuses, timeout=vs.WEBHOOK_WAIT_S):
        """Polls the delivery log until the delivery's status is in `statuses`."""
        deadline = time.monotonic() + timeout
        while True:
            resp = self.admin.get(f"/v1/webhook-endpoints/{endpoint_id}/deliveries?limit=100")
            self.assertEqual(resp.status, 200, resp)
            for item in resp.json["data"]:
                if item["id"] == delivery_id and item["status"] in statuses:
                    return item
            if time.monotonic() > deadline:
                raise AssertionError(f"delivery {delivery_id} not in {statuses}: {resp!r}")
            time.sleep(0.2)

    def test_lifecycle_with_both_signatures_during_the_overlap(self):
        """Add, read, list, ping, rotate with and without overlap, log, retry refused, disable."""
        receiver = self.receiver()
        created = self.create(receiver.url, description="KYC results")
        self.assertRegex(created["secret"], SECRET)
        self.assertEqual(set(created) - {"secret"}, ENDPOINT_FIELDS)
        self.assertEqual((created["url"], created["description"], created["status"]),
                         (receiver.url, "KYC results", "active"))
        endpoint_id = created["id"]
        first_secret = created["secret"]
        read = self.admin.get(f"/v1/webhook-endpoints/{endpoint_id}")
        self.assertEqual(read.status, 200, read)
        self.assertNotIn("secret", read.json, "the secret is shown once only")
        self.assertEqual(read.json, {k: v for k, v in created.items() if k != "secret"})
        self.assertNotIn(first_secret, json.dumps(self.admin.get("/v1/webhook-endpoints?limit=100").json))

        # A ping arrives signed with the one secret.
        ping = self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/ping")
        self.assertEqual(ping.status, 202, ping)
        self.assertEqual(set(ping.json), DELIVERY_FIELDS)
        self.assertEqual((ping.json["eventType"], ping.json["status"]), ("webhook.ping", "pending"))
        got = self.pings(receiver, endpoint_id, 1)[0]
        self.assertEqual(json.loads(got["body"]), {"id": ping.json["eventId"], "type": "webhook.ping",
                                                   "createdAt": json.loads(got["body"])["createdAt"],
                                                   "data": {"endpointId": endpoint_id}})
        self.assertEqual(len(signatures(got["headers"]["Verify-Signature"])[1]), 1)
        self.assertTrue(vs.signature_valid(first_secret, got["headers"]["Verify-Signature"], got["body"]))
        self.delivery(endpoint_id, ping.json["id"], {"delivered"})

        # Rotation with an hour's overlap: two v1, each secret verifies alone.
        rotated = self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/rotate-secret", {"overlapSeconds": 3600})
        self.assertEqual(rotated.status, 200, rotated)
        second_secret = rotated.json["secret"]
        self.assertRegex(second_secret, SECRET)
        self.assertNotEqual(second_secret, first_secret)
        self.assertIsNotNone(rotated.json["previousSecretExpiresAt"])
        self.assertIsNotNone(rotated.json["secretRotatedAt"])
        ping = self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/ping")
        self.assertEqual(ping.status, 202, ping)
        got = self.pings(receiver, endpoint_id, 2)[1]
        header = got["headers"]["Verify-Signature"]
        stamps, v1 = signatures(header)
        self.assertEqual((len(stamps), len(v1)), (1, 2), header)
        self.assertTrue(vs.signature_valid(second_secret, header, got["body"]), "the new secret verifies")
        self.assertTrue(vs.signature_valid(first_secret, header, got["body"]), "the old secret verifies too")
        self.assertFalse(vs.signature_valid("whsec_" + "A" * 43, header, got["body"]), "another secret does not")
        # Each v1 on its own is one secret's signature, the new secret's first.
        self.assertEqual([[secret for secret in (second_secret, first_secret)
                           if vs.signature_valid(secret, f"t={stamps[0]},v1={one}", got["body"])] for one in v1],
                         [[second_secret], [first_secret]])

        # Rotation without overlap: the replaced secret stops verifying.
        rotated = self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/rotate-secret", {"overlapSeconds": 0})
        self.assertEqual(rotated.status, 200, rotated)
        self.assertIsNone(rotated.json["previousSecretExpiresAt"])
        third_secret = rotated.json["secret"]
        self.assertEqual(self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/ping").status, 202)
        got = self.pings(receiver, endpoint_id, 3)[2]
        header = got["headers"]["Verify-Signature"]
        self.assertEqual(len(signatures(header)[1]), 1, header)
        self.assertTrue(vs.signature_valid(third_secret, header, got["body"]))
        self.assertFalse(vs.signature_valid(second_secret, header, got["body"]))
        self.assertFalse(vs.signature_valid(first_secret, header, got["body"]))

        # The log, newest first; a delivered delivery is not retried.
        log = self.admin.get(f"/v1/webhook-endpoints/{endpoint_id}/deliveries?limit=2")
        self.assertEqual(log.status, 200, log)
        self.assertEqual((len(log.json["data"]), log.json["hasMore"]), (2, True))
        rest = self.admin.get(f"/v1/webhook-endpoints/{endpoint_id}/deliveries?limit=2"
                              f"&startingAfter={log.json['data'][1]['id']}")
        self.assertEqual((len(rest.json["data"]), rest.json["hasMore"]), (1, False), rest)
        delivered = self.delivery(endpoint_id, log.json["data"][0]["id"], {"delivered"})
        self.assertEqual((delivered["attempts"], delivered["lastHttpStatus"]), (1, 200))
        before = self.counts()
        cb.assert_error(self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/deliveries/{delivered['id']}/retry"),
                        409, "CONFLICT", "Webhook delivery was delivered; only a failed delivery can be retried")

        # Disable: then nothing more can be sent.
        disabled = self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/disable")
        self.assertEqual(disabled.status, 200, disabled)
        self.assertEqual(disabled.json["status"], "disabled")
        self.assertIsNotNone(disabled.json["disabledAt"])
        self.assertEqual(self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/disable").json, disabled.json,
                         "disabling again changes nothing")
        cb.assert_error(self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/ping"), 409, "CONFLICT",
                        "Webhook endpoint is disabled")
        cb.assert_error(self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/rotate-secret"), 409, "CONFLICT",
                        "Webhook endpoint is disabled")
        self.assertEqual(self.counts(), before)

    def test_a_failed_delivery_is_retried_on_request(self):
        """Two 500s spend the attempts (failed); a retry is one more attempt, which is delivered."""
        receiver = self.receiver(statuses=[500, 500])
        endpoint_id = self.create(receiver.url)["id"]
        ping = self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/ping")
        self.assertEqual(ping.status, 202, ping)
        failed = self.delivery(endpoint_id, ping.json["id"], {"failed"})
        self.assertEqual((failed["attempts"], failed["lastHttpStatus"], failed["lastError"], failed["nextAttemptAt"]),
                         (2, 500, "HTTP 500", None))
        retried = self.admin.post(f"/v1/webhook-endpoints/{endpoint_id}/deliveries/{ping.json['id']}/retry")
        self.assertEqual(retried.status, 202, retried)
        self.assertEqual(retried.json["status"], "pending")
        delivered = self.delivery(endpoint_id, ping.json["id"], {"delivered"})
        self.assertEqual((delivered["attempts"], delivered["lastHttpStatus"]), (3, 200))
        bodies = {r["body"] for r in self.pings(receiver, endpoint_id, 3)}
        self.assertEqual(len(bodies), 1, "every attempt sends the same body")

    def test_the_cli_registers_through_the_same_function(self):
        """`webhook-add --description` makes an endpoint the API reads; a URL the API refuses the CLI refuses alike."""
        url = f"http://127.0.0.1:9/cli-{cb.RUN_TAG}"
        secret = self.tier.cli("webhook-add", "--url", url, "--description", "added by the CLI")
        self.assertRegex(secret, SECRET)
        listed = self.admin.get("/v1/webhook-endpoints?limit=100").json["data"]
        mine = [e for e in listed if e["url"] == url]
        self.assertEqual([(e["description"], e["status"]) for e in mine], [("added by the CLI", "active")])
        before = self.counts()
        with self.assertRaises(AssertionError) as refused:
            self.tier.cli("webhook-add", "--url", "ftp://x.example.com/hook")
        self.assertIn("url: must be an absolute http or https URL of at most 2048 characters", str(refused.exception))
        cb.assert_error(self.admin.post("/v1/webhook-endpoints", {"url": "ftp://x.example.com/hook"}), 400,
                        "VALIDATION_ERROR", "url: must be an absolute http or https URL of at most 2048 characters")
        self.assertEqual(self.counts(), before)

    def test_events_limit_what_an_endpoint_receives(self):
        """An endpoint with events [session.cancelled] gets the cancellation only; one without gets both."""
        picky, every = self.receiver(), self.receiver()
        picky_id = self.create(picky.url, events=["session.cancelled"])["id"]
        self.assertEqual(self.admin.get(f"/v1/webhook-endpoints/{picky_id}").json["events"], ["session.cancelled"])
        every_id = self.create(every.url)["id"]
        self.assertIsNone(self.admin.get(f"/v1/webhook-endpoints/{every_id}").json["events"])
        sessions = vs.VerifyApi(key=self.sessions_key, base_url=self.tier.url)
        cancelled = vs.create_session(sessions, flow="liveness")["sessionId"]
        self.assertEqual(sessions.cancel(cancelled).status, 200)
        completed = vs.create_session(sessions, flow="liveness")
        page = vs.HostedApi(completed["sessionId"], vs.token_of(completed), base_url=self.tier.url)
        self.assertEqual(page.consent(True).status, 200)
        self.assertEqual(page.capture("selfie", vs.face_png(81)).status, 200)
        self.assertEqual(page.submit().status, 200)
        every.wait_for(cancelled)
        every.wait_for(completed["sessionId"])
        picky.wait_for(cancelled)
        log = self.admin.get(f"/v1/webhook-endpoints/{picky_id}/deliveries").json["data"]
        self.assertEqual([d["eventType"] for d in log], ["session.cancelled"])
        self.assertEqual(picky.for_session(completed["sessionId"]), [])

    def test_pages_newest_first(self):
        """limit and startingAfter walk the list without gaps or repeats."""
        made = [self.create(f"http://127.0.0.1:9/page-{i}-{cb.RUN_TAG}")["id"] for i in range(3)]
        seen, after = [], None
        while True:
            path = "/v1/webhook-endpoints?limit=2" + (f"&startingAfter={after}" if after else "")
            resp = self.admin.get(path)
            self.assertEqual(resp.status, 200, resp)
            seen += [item["id"] for item in resp.json["data"]]
            if not resp.json["hasMore"]:
                break
            after = resp.json["data"][-1]["id"]
        self.assertEqual(len(seen), len(set(seen)))
        self.assertEqual([i for i in seen if i in made], list(reversed(made)))

    def test_scopes(self):
        """Without webhooks:manage every operation is 403, without a key 401; nothing is written."""
        endpoint_id = self.create("http://127.0.0.1:9/scopes")["id"]
        before = self.counts()
        for key, status, code in ((self.sessions_key, 403, "FORBIDDEN"), (None, 401, "UNAUTHORIZED")):
            other = Admin(self.tier.url, key)
            for method, path, body in (
                    ("GET", "/v1/webhook-endpoints", None),
                    ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x"}),
                    ("GET", f"/v1/webhook-endpoints/{endpoint_id}", None),
                    ("POST", f"/v1/webhook-endpoints/{endpoint_id}/rotate-secret", {}),
                    ("POST", f"/v1/webhook-endpoints/{endpoint_id}/disable", None),
                    ("POST", f"/v1/webhook-endpoints/{endpoint_id}/ping", None),
                    ("GET", f"/v1/webhook-endpoints/{endpoint_id}/deliveries", None),
                    ("POST", f"/v1/webhook-endpoints/{endpoint_id}/deliveries/{UNKNOWN_ID}/retry", None)):
                with self.subTest(key=bool(key), path=path):
                    resp = other.get(path) if method == "GET" else other.post(path, body)
                    cb.assert_error(resp, status, code,
                                    "This API key lacks the 'webhooks:manage' scope" if key else None)
        self.assertEqual(self.counts(), before)
        self.assertEqual(self.admin.get(f"/v1/webhook-endpoints/{endpoint_id}").json["status"], "active")

    def test_bad_input_on_every_operation(self):
        """4xx with the error body, nothing written."""
        endpoint_id = self.create("http://127.0.0.1:9/bad-input")["id"]
        before = self.counts()
        base = f"/v1/webhook-endpoints/{endpoint_id}"
        cases = [
            ("POST", "/v1/webhook-endpoints", b"not json", 400, "BAD_REQUEST", "Malformed JSON request body"),
            ("POST", "/v1/webhook-endpoints", b"[]", 400, "BAD_REQUEST", "Malformed JSON request body"),
            ("POST", "/v1/webhook-endpoints", b"{}", 400, "VALIDATION_ERROR", "url: is required"),
            ("POST", "/v1/webhook-endpoints", {"url": "ftp://x.example.com"}, 400, "VALIDATION_ERROR",
             "url: must be an absolute http or https URL of at most 2048 characters"),
            ("POST", "/v1/webhook-endpoints", {"url": "/relative"}, 400, "VALIDATION_ERROR", None),
            ("POST", "/v1/webhook-endpoints", {"url": "http://x.example.com/" + "a" * 2100}, 400,
             "VALIDATION_ERROR", None),
            ("POST", "/v1/webhook-endpoints", {"url": 5}, 400, "VALIDATION_ERROR", "url: must be a string"),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "description": ""}, 400,
             "VALIDATION_ERROR", None),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "description": "a\nb"}, 400,
             "VALIDATION_ERROR", "description: must not contain control characters"),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "description": "d" * 501}, 400,
             "VALIDATION_ERROR", None),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "events": ["session.created"]}, 400,
             "VALIDATION_ERROR", "events: must be distinct known event types (session.completed, session.cancelled, "
                                 "session.expired or an identity.* type of the identity service)"),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x",
                                               "events": ["session.expired", "session.expired"]}, 400,
             "VALIDATION_ERROR", None),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "events": []}, 400, "VALIDATION_ERROR",
             None),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "events": "session.expired"}, 400,
             "VALIDATION_ERROR", None),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "events": [1]}, 400,
             "VALIDATION_ERROR", None),
            ("POST", "/v1/webhook-endpoints", {"url": "http://127.0.0.1:9/x", "secret": "mine"}, 400,
             "VALIDATION_ERROR", "secret: unknown field"),
            ("POST", "/v1/webhook-endpoints", b'{"url":"http://127.0.0.1:9/x","url":"http://127.0.0.1:9/y"}', 400,
             "BAD_REQUEST", None),
            ("POST", base + "/rotate-secret", {"overlapSeconds": 604801}, 400, "VALIDATION_ERROR", None),
            ("POST", base + "/rotate-secret", {"overlapSeconds": -1}, 400, "VALIDATION_ERROR", None),
            ("POST", base + "/rotate-secret", {"overlapSeconds": "60"}, 400, "VALIDATION_ERROR", None),
            ("POST", base + "/rotate-secret", {"overlapSeconds": 1.5}, 400, "VALIDATION_ERROR", None),
            ("POST", base + "/rotate-secret", {"overlap": 60}, 400, "VALIDATION_ERROR", "overlap: unknown field"),
            ("POST", base + "/rotate-secret", b"nope", 400, "BAD_REQUEST", "Malformed JSON request body"),
            ("POST", base + "/disable", {"reason": "x"}, 400, "BAD_REQUEST", None),
            ("POST", base + "/ping", {"x": 1}, 400, "BAD_REQUEST", None),
            ("POST", f"{base}/deliveries/{UNKNOWN_ID}/retry", {"x": 1}, 400, "BAD_REQUEST", None),
            ("GET", "/v1/webhook-endpoints?limit=0", None, 400, "VALIDATION_ERROR", None),
            ("GET", "/v1/webhook-endpoints?limit=101", None, 400, "VALIDATION_ERROR", None),
            ("GET", "/v1/webhook-endpoints?limit=ten", None, 400, "VALIDATION_ERROR", None),
            ("GET", "/v1/webhook-endpoints?startingAfter=nope", None, 400, "VALIDATION_ERROR", None),
            ("GET", f"/v1/webhook-endpoints?startingAfter={UNKNOWN_ID}", None, 400, "VALIDATION_ERROR",
             "startingAfter: names no webhook endpoint"),
            ("GET", "/v1/webhook-endpoints?page=2", None, 400, "VALIDATION_ERROR", "page: unknown query parameter"),
            ("GET", base + "/deliveries?limit=-1", None, 400, "VALIDATION_ERROR", None),
            ("GET", f"{base}/deliveries?startingAfter={UNKNOWN_ID}", None, 400, "VALIDATION_ERROR", None),
        ]
        for ident in ("nope", UNKNOWN_ID, "1" * 300):
            cases += [
                ("GET", f"/v1/webhook-endpoints/{ident}", None, 404, "NOT_FOUND", "Webhook endpoint not found"),
                ("POST", f"/v1/webhook-endpoints/{ident}/rotate-secret", None, 404, "NOT_FOUND",
                 "Webhook endpoint not found"),
                ("POST", f"/v1/webhook-endpoints/{ident}/disable", None, 404, "NOT_FOUND",
                 "Webhook endpoint not found"),
                ("POST", f"/v1/webhook-endpoints/{ident}/ping", None, 404, "NOT_FOUND", "Webhook endpoint not found"),
                ("GET", f"/v1/webhook-endpoints/{ident}/deliveries", None, 404, "NOT_FOUND",
                 "Webhook endpoint not found"),
                ("POST", f"{base}/deliveries/{ident}/retry", None, 404, "NOT_FOUND", "Webhook delivery not found"),
            ]
        for method, path, body, status, code, message in cases:
            with self.subTest(method=method, path=path[:80], body=str(body)[:60]):
                if method == "GET":
                    resp = self.admin.get(path)
                elif isinstance(body, bytes):
                    resp = self.admin.post(path, raw=body)
                else:
                    resp = self.admin.post(path, body)
                cb.assert_error(resp, status, code, message)
        self.assertEqual(self.counts(), before)
        resp = self.admin.post("/v1/webhook-endpoints", raw=b'{"url":"http://127.0.0.1:9/' + b"a" * 70000 + b'"}')
        cb.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
        self.assertEqual(self.counts(), before)


class PrivateAddressTest(vs.IsolatedWebhookTest):
    """A tier with verify_webhook_allow_private = false (the default) refuses private addresses."""

    SETTINGS = {"CORE_VERIFY_WEBHOOK_ALLOW_PRIVATE": "false"}

    @classmethod
    def setup_tier(cls):
        cls.admin = Admin(cls.tier.url, cls.tier.cli("key-create", "--service", "verify", "--scopes",
                                                     "webhooks:manage", "--name", "e2e-webhook-private"))

    def endpoints(self):
        return self.tier_scalar("SELECT count(*) FROM corebank.verify_webhook_endpoints")

    def test_loopback_metadata_and_private_urls_are_refused(self):
        """400 VALIDATION_ERROR "url: ..." naming the address; nothing stored."""
        before = self.endpoints()
        for url, address in (("http://127.0.0.1:9/h", "127.0.0.1"), ("http://169.254.169.254/h", "169.254.169.254"),
                             ("http://10.20.30.40/h", "10.20.30.40"), ("http://[::1]:9/h", "::1"),
                             ("http://localhost:9/h", "127.0.0.1|::1")):
            with self.subTest(url=url):
                resp = self.admin.post("/v1/webhook-endpoints", {"url": url})
                cb.assert_error(resp, 400, "VALIDATION_ERROR", re.compile(address))
                self.assertTrue(resp.json["message"].startswith("url: "), resp)
        self.assertEqual(self.endpoints(), before)


if __name__ == "__main__":
    unittest.main()
