"""The event service's API keys: X-API-Key, scopes, rate limit, source.

Goal: authentication and rate-limit failures are {detail: string} with 401,
403 or 429 (never the business envelope); ingest needs the `ingest` scope
and reads need `events:read`; a key of another service, a revoked key or an
unknown key is 401; a key over its per-minute limit is 429 with
Retry-After; the source of every event is the key's callerId.
Method: keys from the CLI with chosen scopes and limits; revocation and the
key's service are read or set in the database.
"""
import unittest

import cbclient as cb
import events_support as es


def setUpModule():
    es.require_events_service()


class ApiKeyTest(unittest.TestCase):
    def test_missing_key(self):
        http = cb.HttpClient(cb.EVENTS_URL)
        responses = [http.post("/v1/events", json_body={"events": [es.ev("page.viewed")]}), http.get("/v1/feed"),
                     http.get("/v1/platforms"), http.post("/v1/events", json_body={"events": []},
                                                          headers={"X-API-Key": "  "})]
        for resp in responses:
            es.assert_detail(resp, 401, "Missing API key: send it in the X-API-Key header")

    def test_unknown_key(self):
        es.assert_detail(es.Events("cb_events_not-a-real-key").post([es.ev("page.viewed")]), 401, "Invalid API key")
        es.assert_detail(es.Events("x" * 500).post([es.ev("page.viewed")]), 401, "Invalid API key")

    def test_key_of_another_service(self):
        """A core-banking key is not an events key."""
        core_key = cb.cli("key-create", "--service", "core", "--scopes", "read", "--name", es.unique("core")).strip()
        es.assert_detail(es.Events(core_key).post([es.ev("page.viewed")]), 401, "Invalid API key")

    def test_revoked_key(self):
        key, _ = es.make_key()
        api = es.Events(key)
        es.assert_success(api.post([es.ev("page.viewed")]))
        cb.db().execute("UPDATE corebank.api_keys SET status = 'REVOKED', revoked_at = now() WHERE key_hash = sha256(%s)",
                        (key.encode(),))
        es.assert_detail(api.post([es.ev("page.viewed")]), 401, "Invalid API key")

    def test_ingest_needs_ingest_scope(self):
        key, _ = es.make_key(scopes=("events:read",))
        api = es.Events(key)
        es.assert_detail(api.post([es.ev("page.viewed")]), 403, "This API key lacks the 'ingest' scope")
        es.assert_success(api.get("/v1/platforms"))
        es.assert_detail(api.put(f"/v1/loyalty/members/{es.unique('m')}", {"customerId": "cus_aaaaaaaaaaaaaaaaaaaa"}),
                         403, "This API key lacks the 'ingest' scope")

    def test_reads_need_read_scope(self):
        key, _ = es.make_key(scopes=("ingest",))
        api = es.Events(key)
        es.assert_success(api.post([es.ev("page.viewed")]))
        for path in ["/v1/feed", "/v1/platforms", "/v1/customers/lookup?email=a@b.c", "/v1/customers/cus_aaaaaaaaaaaaaaaaaaaa",
                     "/v1/customers/cus_aaaaaaaaaaaaaaaaaaaa/events", "/v1/customers/cus_aaaaaaaaaaaaaaaaaaaa/consents",
                     "/v1/customers/cus_aaaaaaaaaaaaaaaaaaaa/traits", "/v1/loyalty/members/m1"]:
            es.assert_detail(api.get(path), 403, "This API key lacks the 'events:read' scope")

    def test_rate_limit(self):
        """Over the key's per-minute limit: 429 {detail} with Retry-After; nothing is stored."""
        key, caller = es.make_key(rate_limit=3)
        api = es.Events(key, caller)
        cb.wait_for_window_room(60, 10)
        for _ in range(3):
            es.assert_success(api.post([es.ev("page.viewed")]))
        event = es.ev("page.viewed")
        resp = api.post([event])
        text = es.assert_detail(resp, 429)
        self.assertIn("3 requests per minute", text)
        retry_after = int(resp.header("Retry-After"))
        self.assertTrue(1 <= retry_after <= 60, retry_after)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.events WHERE source = %s AND event_id = %s",
                                        (caller, event["eventId"])), 0)

    def test_source_is_the_callers_id(self):
        """Events are stored under the key's callerId; two keys of one caller share dedupe."""
        caller = es.unique("shared-caller")
        key_a, _ = es.make_key(caller=caller)
        key_b, _ = es.make_key(caller=caller)
        event = es.ev("page.viewed")
        self.assertEqual(es.Events(key_a).ingest([event])["accepted"], 1)
        self.assertEqual(es.Events(key_b).ingest([event])["duplicates"], 1)
        self.assertEqual(cb.db().scalar("SELECT source FROM corebank.events WHERE event_id = %s", (event["eventId"],)),
                         caller)

    def test_auth_failure_is_not_the_business_envelope(self):
        resp = es.Events("nope").get("/v1/feed")
        self.assertNotIn("success", resp.json)


if __name__ == "__main__":
    unittest.main()
