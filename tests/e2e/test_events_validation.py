"""POST /v1/events: malformed requests and the batch limits.

Goal: a request whose shape is wrong anywhere is refused whole with 422
{detail: [{type, loc, msg, input}]}, loc being the path to the field
(body, events, index, field...), and stores nothing; the batch holds 1 to
500 envelopes; eventId is 1..120 and type 1..60 characters; occurredAt is
ISO 8601 UTC with a trailing Z; identity.platform is required; the body is
at most 1 MiB. Method: post bad bodies, check the detail items and that no
event of the request was stored.
"""
import json
import unittest

import cbclient as cb
import events_support as es


def setUpModule():
    es.require_events_service()


class ShapeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)

    def refused(self, body, *expected, raw=False):
        resp = self.api.post_raw(body) if raw else self.api.http.post("/v1/events", json_body=body,
                                                                         headers=self.api.headers())
        return es.assert_validation(resp, *expected)

    def nothing_stored(self, events):
        ids = [e["eventId"] for e in events if isinstance(e, dict) and isinstance(e.get("eventId"), str)]
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.events WHERE source = %s AND event_id = ANY(%s)",
                                        (self.api.caller, ids)), 0)

    def test_not_json(self):
        """Invalid JSON: json_invalid at body."""
        items = self.refused('{"events": [', raw=True)
        self.assertEqual(items[0]["type"], "json_invalid")
        self.assertEqual(items[0]["loc"][0], "body")

    def test_invalid_utf8(self):
        """Bytes that are not UTF-8 are not JSON."""
        items = self.refused(b'{"events": "\xff\xfe"}', raw=True)
        self.assertEqual(items[0]["type"], "json_invalid")

    def test_duplicated_keys(self):
        """A key named twice in one object is json_invalid (duplicate key), even with the same value; nothing stored."""
        event = es.ev("page.viewed")
        text = json.dumps({"events": [event]})
        envelope = json.dumps(event)
        twice = envelope[:-1] + ', "eventId": ' + json.dumps(event["eventId"]) + "}"
        for raw in (text[:-1] + ', "events": ' + json.dumps([event]) + "}", text.replace(envelope, twice)):
            with self.subTest(raw=raw[:60]):
                items = self.refused(raw, raw=True)
                self.assertEqual(items[0]["type"], "json_invalid")
                self.assertIn("duplicate key", items[0]["ctx"]["error"])
        self.nothing_stored([event])
        resp = self.api.http.request("PUT", f"/v1/loyalty/members/{es.unique('m')}",
                                     body=b'{"customerId": "x", "customerId": "x"}', headers=self.api.headers())
        self.assertEqual(es.assert_validation(resp)[0]["type"], "json_invalid")

    def test_echoed_input_is_bounded(self):
        """`input` is null when it would take more than 1 KiB (docs/events.md), also for deep nesting."""
        deep = "[" * 50000 + "]" * 50000
        for path in (f"/v1/loyalty/members/{es.unique('m')}", "/v1/events"):
            with self.subTest(path=path):
                resp = self.api.http.request("PUT" if "loyalty" in path else "POST", path,
                                             body='{"zzDeep": ' + deep + "}", headers=self.api.headers())
                items = es.assert_validation(resp)
                self.assertLess(len(resp.body), 4096, "the deep value is not echoed")
                deep_items = [i for i in items if i["loc"][-1] == "zzDeep"]
                self.assertTrue(deep_items, items)
                self.assertIsNone(deep_items[0]["input"])

    def test_invalid_utf8_in_the_path_is_echoed_safely(self):
        """A member id that is not UTF-8 once decoded is 422 string_pattern_mismatch, never 500."""
        for method in ("GET", "PUT"):
            with self.subTest(method=method):
                resp = self.api.http.request(method, "/v1/loyalty/members/%FF%FE", headers=self.api.headers(),
                                             **({"json_body": {"customerId": "x"}} if method == "PUT" else {}))
                items = es.assert_validation(resp, ("string_pattern_mismatch", ["path", "memberId"]))
                self.assertIsNotNone(items)

    def test_empty_body(self):
        """No body at all: body is missing."""
        self.refused("", ("missing", ["body"]), raw=True)

    def test_body_not_an_object(self):
        self.refused([], ("dict_type", ["body"]))
        self.refused("events", ("dict_type", ["body"]))

    def test_events_missing_or_wrong_type(self):
        self.refused({}, ("missing", ["body", "events"]))
        self.refused({"events": None}, ("missing", ["body", "events"]))
        self.refused({"events": {"eventId": "x"}}, ("list_type", ["body", "events"]))

    def test_unknown_top_level_field(self):
        """Only `events` is allowed: the source never comes from the body."""
        self.refused({"events": [es.ev("page.viewed")], "source": "evil"}, ("extra_forbidden", ["body", "source"]))

    def test_batch_bounds(self):
        """0 and 501 envelopes are refused; 1 and 500 are accepted."""
        items = self.refused({"events": []}, ("too_short", ["body", "events"]))
        self.assertEqual(items[0]["msg"], "List should have at least 1 item after validation, not 0")
        batch = [es.ev("page.viewed") for _ in range(501)]
        items = self.refused({"events": batch}, ("too_long", ["body", "events"]))
        self.assertEqual(items[0]["msg"], "List should have at most 500 items after validation, not 501")
        self.nothing_stored(batch)
        self.assertEqual(self.api.ingest(batch[:500])["accepted"], 500)
        self.assertEqual(self.api.ingest([es.ev("page.viewed")])["accepted"], 1)

    def test_envelope_not_an_object(self):
        event = es.ev("page.viewed")
        self.refused({"events": [event, "x", 3]}, ("dict_type", ["body", "events", 1]), ("dict_type", ["body", "events", 2]))
        self.nothing_stored([event])

    def test_event_id_rules(self):
        """eventId: required string of 1 to 120 characters (Unicode characters, not bytes)."""
        for value, kind in [(None, "missing"), (5, "string_type"), ("", "string_too_short"), ("x" * 121, "string_too_long")]:
            event = es.ev("page.viewed")
            if value is None:
                del event["eventId"]
            else:
                event["eventId"] = value
            items = self.refused({"events": [es.ev("page.viewed"), event]}, (kind, ["body", "events", 1, "eventId"]))
            if kind == "string_too_long":
                self.assertEqual(items[0]["msg"], "String should have at most 120 characters")
        self.assertEqual(self.api.ingest([es.ev("page.viewed", event_id="é" * 120)])["accepted"], 1)

    def test_type_rules(self):
        """type: required string of 1 to 60 characters."""
        self.refused({"events": [es.ev("x" * 61)]}, ("string_too_long", ["body", "events", 0, "type"]))
        self.refused({"events": [es.ev("")]}, ("string_too_short", ["body", "events", 0, "type"]))
        self.refused({"events": [es.ev("page.viewed") | {"type": ["page.viewed"]}]},
                     ("string_type", ["body", "events", 0, "type"]))
        self.assertEqual(self.api.ingest([es.ev("x" * 60)])["invalid"], 1, "60 characters pass the shape check")

    def test_schema_version_rules(self):
        """schemaVersion: an integer of at least 1."""
        for value, kind in [("1", "int_type"), (1.5, "int_type"), (True, "int_type"), (0, "greater_than_equal"),
                            (-3, "greater_than_equal"), (2 ** 31, "less_than_equal")]:
            self.refused({"events": [es.ev("page.viewed", schemaVersion=value)]},
                         (kind, ["body", "events", 0, "schemaVersion"]))

    def test_occurred_at_rules(self):
        """occurredAt: when present, ISO 8601 UTC ending in Z, a real date and time."""
        good = ["2026-11-21T10:00:00Z", "2026-11-21T10:00:00.1Z", "2026-11-21T10:00:00.123456789Z", "2024-02-29T23:59:59Z"]
        self.assertEqual(self.api.ingest([es.ev("page.viewed", occurred=o) for o in good])["accepted"], len(good))
        bad = ["2026-11-21T10:00:00", "2026-11-21T10:00:00+00:00", "2026-11-21 10:00:00Z", "2026-11-21", "21/11/2026",
               "2026-02-30T10:00:00Z", "2025-02-29T10:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T10:60:00Z",
               "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00.1234567890Z", "0000-01-01T00:00:00Z", "2026-11-21t10:00:00z",
               "now"]
        for value in bad:
            self.refused({"events": [es.ev("page.viewed", occurred=value)]},
                         ("datetime_format", ["body", "events", 0, "occurredAt"]))
        self.refused({"events": [es.ev("page.viewed", occurred=1700000000)]},
                     ("string_type", ["body", "events", 0, "occurredAt"]))

    def test_envelope_without_occurred_at_is_stamped(self):
        """No occurredAt (absent or null) is no 422: stored with the receive time, and the result says so.

        The envelope table of 03-verification-and-events.md marks eventId, type
        and identity.platform required, not occurredAt (docs/events.md).
        """
        absent = es.ev("page.viewed")
        del absent["occurredAt"]
        null = es.ev("page.viewed", occurred=None)
        dated = es.ev("page.viewed")
        before = cb.db().scalar("SELECT now()")
        data = self.api.ingest([absent, null, dated])
        after = cb.db().scalar("SELECT now()")
        note = "occurredAt was absent: the receive time was stored"
        self.assertEqual(data["accepted"], 3, data)
        self.assertEqual([r.get("note") for r in data["results"]], [note, note, None])
        for event in (absent, null):
            row = cb.db().one("SELECT occurred_at, received_at FROM corebank.events WHERE event_id = %s",
                              (event["eventId"],))
            occurred = row["occurred_at"]
            self.assertEqual(occurred, row["received_at"], "the receive time is stored")
            self.assertTrue(before <= occurred <= after, (before, occurred, after))
        again = self.api.ingest([absent])
        self.assertEqual(again["results"], [{"eventId": absent["eventId"], "status": "duplicate"}],
                         "a duplicate keeps the stored time and has no note")

    def test_identity_rules(self):
        """identity: required object; platform required; identity fields are strings, isGuest a boolean."""
        event = es.ev("page.viewed")
        del event["identity"]
        self.refused({"events": [event]}, ("missing", ["body", "events", 0, "identity"]))
        self.refused({"events": [es.ev("page.viewed", identity="web")]}, ("dict_type", ["body", "events", 0, "identity"]))
        self.refused({"events": [es.ev("page.viewed", identity={"userId": "u"})]},
                     ("missing", ["body", "events", 0, "identity", "platform"]))
        self.refused({"events": [es.ev("page.viewed", identity={"platform": 7})]},
                     ("string_type", ["body", "events", 0, "identity", "platform"]))
        self.refused({"events": [es.ev("page.viewed", identity={"platform": ""})]},
                     ("string_too_short", ["body", "events", 0, "identity", "platform"]))
        self.refused({"events": [es.ev("page.viewed", identity={"platform": "web", "userId": 12})]},
                     ("string_type", ["body", "events", 0, "identity", "userId"]))
        self.refused({"events": [es.ev("page.viewed", identity={"platform": "web", "isGuest": "yes"})]},
                     ("bool_type", ["body", "events", 0, "identity", "isGuest"]))
        self.refused({"events": [es.ev("page.viewed", identity={"platform": "web", "email": "e" * 321})]},
                     ("string_too_long", ["body", "events", 0, "identity", "email"]))
        self.refused({"events": [es.ev("page.viewed", identity={"platform": "web", "userID": "typo"})]},
                     ("extra_forbidden", ["body", "events", 0, "identity", "userID"]))

    def test_payload_rules(self):
        """payload: an object (default {}); any fields inside; not deeper than 32 levels; no NUL characters."""
        self.refused({"events": [es.ev("page.viewed", ["/"])]}, ("dict_type", ["body", "events", 0, "payload"]))
        self.refused({"events": [es.ev("page.viewed", "/")]}, ("dict_type", ["body", "events", 0, "payload"]))
        deep = {"path": "/"}
        node = deep
        for _ in range(40):
            node["x"] = {}
            node = node["x"]
        self.refused({"events": [es.ev("page.viewed", deep)]}, ("value_error", ["body", "events", 0, "payload"]))
        self.refused({"events": [es.ev("page.viewed", {"path": "/a\u0000b"})]},
                     ("string_type", ["body", "events", 0, "payload"]))
        self.assertEqual(self.api.ingest([es.ev("page.viewed", {"path": "/", "any": {"thing": [1, None, True]}})])
                         ["accepted"], 1)

    def test_nul_in_event_id(self):
        self.refused({"events": [es.ev("page.viewed", event_id="a\u0000b")]},
                     ("string_type", ["body", "events", 0, "eventId"]))

    def test_extra_envelope_field(self):
        """Envelope fields beyond the specification's are refused (a typo must not be ignored)."""
        self.refused({"events": [es.ev("page.viewed", occuredAt="2026-01-01T00:00:00Z")]},
                     ("extra_forbidden", ["body", "events", 0, "occuredAt"]))

    def test_every_problem_is_listed(self):
        """Several problems in several events come back together, each with its own loc."""
        events = [es.ev("page.viewed"), es.ev("", identity={}), es.ev("page.viewed", occurred="x")]
        items = self.refused({"events": events},
                             ("string_too_short", ["body", "events", 1, "type"]),
                             ("missing", ["body", "events", 1, "identity", "platform"]),
                             ("datetime_format", ["body", "events", 2, "occurredAt"]))
        self.assertEqual(len(items), 3, items)
        self.nothing_stored(events)

    def test_input_is_echoed(self):
        """input is the offending value (for missing: the object it is missing from)."""
        items = self.refused({"events": [es.ev("page.viewed", occurred="yesterday")]},
                             ("datetime_format", ["body", "events", 0, "occurredAt"]))
        self.assertEqual(items[0]["input"], "yesterday")

    def test_body_size_limit(self):
        """A body over 1 MiB is refused with 413 in the business envelope; just under it is accepted."""
        filler = "x" * 2000
        events = [es.ev("page.viewed", {"path": "/", "pad": filler}) for _ in range(500)]
        body = json.dumps({"events": events})
        self.assertGreater(len(body), 1024 * 1024)
        resp = self.api.http.send_streaming("POST", "/v1/events", body.encode(), headers={"X-API-Key": self.api.key})
        if resp is not None:
            es.assert_business(resp, 413, "payload_too_large")
        self.nothing_stored(events)
        pad = "y" * 10000
        small = [es.ev("page.viewed", {"path": "/", "pad": pad}) for _ in range(100)]
        body = json.dumps({"events": small})
        self.assertLess(len(body), 1024 * 1024)
        self.assertEqual(es.assert_success(self.api.post_raw(body))["accepted"], 100)

    def test_auth_comes_before_validation(self):
        """Without a key, a malformed body still gets 401 {detail}."""
        es.assert_detail(es.Events(None).post_raw("not json"), 401)


if __name__ == "__main__":
    unittest.main()
