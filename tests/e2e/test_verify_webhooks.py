"""Webhook delivery of the verification service: retries, backoff, crashes.

Goal: a non-2xx answer or a timeout is a failed attempt, retried after
base * 2^(n-1) seconds with the same event id and body and a fresh, valid
signature; a 2xx ends the retries; after attempts_max the delivery is
failed and nothing more is sent; an event queued while the receiver is down
survives a SIGKILL of the tier and arrives after the restart (the outbox is
durable); every endpoint gets its own signature; a disabled endpoint gets
nothing; SIGTERM stops the tier cleanly.
Method: a second corebankd on its own database and ports (so that no other
process shares its outbox) with a 1 s timeout, backoff 1 s doubling up to
4 s and 4 attempts; loopback receivers that answer with chosen statuses or
stall; sessions driven through the hosted API; the outbox read as superuser.
"""

import json
import os
import subprocess
import time
import unittest

import cbclient as cb
import verify_support as vs

# The receivers listen on loopback, which webhook-add refuses unless
# verify_webhook_allow_private is true (issue 13).
SETTINGS = {"CORE_VERIFY_WEBHOOK_TIMEOUT_MS": 1000, "CORE_VERIFY_WEBHOOK_BACKOFF_BASE_S": 1,
            "CORE_VERIFY_WEBHOOK_BACKOFF_MAX_S": 4, "CORE_VERIFY_WEBHOOK_ATTEMPTS_MAX": 4,
            "CORE_VERIFY_WEBHOOK_ALLOW_PRIVATE": "true"}


def setUpModule():
    vs.require_verify_service()
    cb.require(cb.CLI, "CB_CLI")
    cb.require(cb.DATABASE_URL, "CB_DATABASE_URL")


class PrivateWebhookUrlTest(unittest.TestCase):
    """webhook-add refuses URLs into loopback, link-local or private ranges by default (issue 13)."""

    def webhook_add(self, url, allow_private):
        env = dict(os.environ, DATABASE_URL=cb.DATABASE_URL, CORE_VERIFY_WEBHOOK_ALLOW_PRIVATE=allow_private)
        return subprocess.run([cb.CLI, "webhook-add", "--url", url], env=env, capture_output=True, text=True,
                              timeout=60)

    def test_non_public_hosts_are_refused_by_default(self):
        """Loopback, the metadata address, a private range and localhost: exit 2, the address named, no endpoint."""
        for url in (f"http://127.0.0.1:9/hook-{cb.RUN_TAG}", f"http://169.254.169.254/hook-{cb.RUN_TAG}",
                    f"http://10.20.30.40/hook-{cb.RUN_TAG}", f"http://[::1]:9/hook-{cb.RUN_TAG}",
                    f"http://localhost:9/hook-{cb.RUN_TAG}"):
            with self.subTest(url=url):
                done = self.webhook_add(url, "false")
                self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
                self.assertIn("verify_webhook_allow_private", done.stderr)
                self.assertEqual(done.stdout, "")
                self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.verify_webhook_endpoints"
                                                " WHERE url = %s", (url,)), 0)

    def test_allowed_when_the_setting_is_true(self):
        """With verify_webhook_allow_private = true the same loopback URL is registered."""
        url = f"http://127.0.0.1:9/allowed-{cb.RUN_TAG}"
        done = self.webhook_add(url, "true")
        self.assertEqual(done.returncode, 0, done.stderr)
        endpoint_id = cb.db().scalar("SELECT id::text FROM corebank.verify_webhook_endpoints WHERE url = %s", (url,))
        self.assertIsNotNone(endpoint_id)
        cb.cli("webhook-disable", "--id", endpoint_id)


class WebhookDeliveryTest(vs.IsolatedWebhookTest):

    SETTINGS = SETTINGS

    @classmethod
    def setup_tier(cls):
        key = cls.tier.cli("key-create", "--service", "verify", "--scopes", "sessions:read,sessions:write",
                           "--name", "e2e-webhooks")
        cls.api = vs.VerifyApi(key=key, base_url=cls.tier.url)

    def setUp(self):
        super().setUp()
        self.endpoints = []

    def tearDown(self):
        for endpoint_id in self.endpoints:
            self.tier.cli("webhook-disable", "--id", endpoint_id)
        super().tearDown()

    def receiver(self, statuses=None, delay_s=0.0):
        receiver = self.new_receiver(statuses, delay_s)
        secret = self.register(receiver.url)
        return receiver, secret

    def register(self, url):
        secret = self.tier.cli("webhook-add", "--url", url)
        endpoint = json.loads(self.tier.cli("webhook-list"))[-1]
        self.assertEqual(endpoint["url"], url)
        self.endpoints.append(endpoint["id"])
        return secret

    def completed_session(self):
        session = vs.create_session(self.api, flow="liveness")
        page = vs.HostedApi(session["sessionId"], vs.token_of(session), base_url=self.tier.url)
        self.assertEqual(page.consent(True).status, 200)
        self.assertEqual(page.capture("selfie", vs.face_png(61)).status, 200)
        self.assertEqual(page.submit().status, 200)
        return session["sessionId"]

    def deliveries(self, session_id):
        import psycopg2
        import psycopg2.extras
        conn = psycopg2.connect(self.tier.admin_url)
        try:
            with conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor) as cur:
                cur.execute("SELECT e.id::text AS event_id, d.status, d.attempts, d.last_http_status, d.last_error"
                            " FROM corebank.verify_webhook_deliveries d"
                            " JOIN corebank.verify_webhook_events e ON e.id = d.event_id WHERE e.session_id = %s"
                            " ORDER BY d.created_at", (session_id,))
                return cur.fetchall()
        finally:
            conn.close()

    def wait_delivery(self, session_id, predicate, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            rows = self.deliveries(session_id)
            if rows and predicate(rows):
                return rows
            if time.monotonic() > deadline:
                raise AssertionError(f"deliveries of {session_id}: {rows}\n{self.tier.log_tail()}")
            time.sleep(0.2)

    def test_non_2xx_is_retried_with_backoff_and_a_stable_id(self):
        """500, 503, then 200: three attempts, one event id, each signed anew, 1 s then 2 s apart."""
        receiver, secret = self.receiver(statuses=[500, 503])
        sid = self.completed_session()
        attempts = receiver.wait_for(sid, count=3, timeout=30)
        self.assertEqual([a["status"] for a in attempts], [500, 503, 200])
        bodies = {a["body"] for a in attempts}
        self.assertEqual(len(bodies), 1, "every attempt sends the same bytes")
        self.assertEqual(len({json.loads(a["body"])["id"] for a in attempts}), 1, "the event id is stable")
        for attempt in attempts:
            self.assertTrue(vs.signature_valid(secret, attempt["headers"]["Verify-Signature"], attempt["body"]))
        first_gap = attempts[1]["at"] - attempts[0]["at"]
        second_gap = attempts[2]["at"] - attempts[1]["at"]
        self.assertGreaterEqual(first_gap, 0.9, "the first retry waits base (1 s)")
        self.assertGreaterEqual(second_gap, 1.9, "the second waits twice as long")
        rows = self.wait_delivery(sid, lambda r: r[0]["status"] == "delivered")
        self.assertEqual((rows[0]["attempts"], rows[0]["last_http_status"]), (3, 200))
        time.sleep(2.5)
        self.assertEqual(len(receiver.for_session(sid)), 3, "nothing is sent after the 2xx")

    def test_timeout_is_a_failed_attempt(self):
        """A receiver slower than the 1 s timeout fails the attempt; the retry is delivered."""
        receiver, secret = self.receiver(delay_s=0)
        receiver.delay_s = 2.5
        sid = self.completed_session()
        receiver.wait_for(sid, count=1, timeout=15)
        receiver.delay_s = 0
        rows = self.wait_delivery(sid, lambda r: r[0]["status"] == "delivered", timeout=20)
        self.assertGreaterEqual(rows[0]["attempts"], 2)
        arrived = receiver.for_session(sid)
        self.assertEqual(len({json.loads(a["body"])["id"] for a in arrived}), 1)

    def test_gives_up_after_attempts_max(self):
        """Always 500: four attempts, then failed, then silence."""
        receiver, _ = self.receiver(statuses=[500] * 10)
        sid = self.completed_session()
        rows = self.wait_delivery(sid, lambda r: r[0]["status"] == "failed", timeout=30)
        self.assertEqual((rows[0]["attempts"], rows[0]["last_http_status"]), (4, 500))
        self.assertEqual(rows[0]["last_error"], "HTTP 500")
        time.sleep(4.5)
        self.assertEqual(len(receiver.for_session(sid)), 4)

    def test_refused_connection_and_redirect_are_failures(self):
        """A port nobody listens on and a 302 are failed attempts, recorded with the reason."""
        closed = vs.WebhookReceiver()
        url = closed.url
        closed.close()
        self.register(url)
        redirecting, _ = self.receiver(statuses=[302] * 10)
        sid = self.completed_session()
        rows = self.wait_delivery(sid, lambda r: len(r) == 2 and all(x["attempts"] >= 2 for x in r), timeout=20)
        errors = [x["last_error"] for x in rows]
        self.assertIn("HTTP 302", errors)
        self.assertTrue(any("connect" in e.lower() for e in errors), errors)
        self.assertTrue(all(x["status"] in ("pending", "failed") for x in rows))
        self.assertGreaterEqual(len(redirecting.for_session(sid)), 2)

    def test_every_endpoint_gets_its_own_signature(self):
        """Two endpoints, two secrets: each receiver verifies with its own secret, not the other's."""
        first, first_secret = self.receiver()
        second, second_secret = self.receiver()
        sid = self.completed_session()
        a = first.wait_for(sid)[0]
        b = second.wait_for(sid)[0]
        self.assertEqual(a["body"], b["body"])
        self.assertTrue(vs.signature_valid(first_secret, a["headers"]["Verify-Signature"], a["body"]))
        self.assertTrue(vs.signature_valid(second_secret, b["headers"]["Verify-Signature"], b["body"]))
        self.assertFalse(vs.signature_valid(second_secret, a["headers"]["Verify-Signature"], a["body"]))

    def test_disabled_endpoint_gets_nothing(self):
        """Events after webhook-disable are not sent to that endpoint."""
        receiver, _ = self.receiver()
        self.tier.cli("webhook-disable", "--id", self.endpoints.pop())
        watcher, _ = self.receiver()
        sid = self.completed_session()
        watcher.wait_for(sid)
        time.sleep(1.5)
        self.assertEqual(receiver.for_session(sid), [])

    def test_queued_event_survives_a_crash(self):
        """Receiver down, event queued and failing; SIGKILL the tier; restart: the same event arrives."""
        receiver = vs.WebhookReceiver()
        port_url = receiver.url
        secret = self.register(port_url)
        receiver.close()  # down: connections are refused
        sid = self.completed_session()
        rows = self.wait_delivery(sid, lambda r: r[0]["attempts"] >= 1 and r[0]["status"] == "pending", timeout=15)
        event_id = rows[0]["event_id"]
        self.tier.kill()
        back = _ReceiverOnPort(port_url)
        self.receivers.append(back)
        self.tier.start()
        arrived = back.wait_for(sid, timeout=30)[0]
        self.assertEqual(json.loads(arrived["body"])["id"], event_id, "the event kept its id across the crash")
        self.assertTrue(vs.signature_valid(secret, arrived["headers"]["Verify-Signature"], arrived["body"]))
        self.wait_delivery(sid, lambda r: r[0]["status"] == "delivered")

    def test_sigterm_stops_cleanly(self):
        """SIGTERM: exit status 0 within the suite's 10 s, even with a receiver that stalls."""
        receiver, _ = self.receiver(delay_s=20)
        self.completed_session()
        time.sleep(0.3)
        started = time.monotonic()
        self.assertEqual(self.tier.stop(), 0)
        self.assertLess(time.monotonic() - started, 10)
        self.tier.start()


class _ReceiverOnPort(vs.WebhookReceiver):
    """A WebhookReceiver bound to the port (and path) of an earlier one's URL."""

    def __init__(self, url):
        import http.server
        import threading
        import urllib.parse
        super().__init__()
        self.server.shutdown()
        self.server.server_close()
        port = urllib.parse.urlsplit(url).port
        handler = self.server.RequestHandlerClass
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.server.daemon_threads = True
        self.url = url
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()


if __name__ == "__main__":
    unittest.main()
