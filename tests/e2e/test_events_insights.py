"""The event service's parity and insight reads (docs/events.md, "Parity", "Insights").

Goal: a producer reconciles what it sent with GET /v1/parity, computing the
documented checksum (sum mod 2^64 of the first 8 bytes of sha256(eventId),
as 16 hex digits) from its own ids, per hour or day and type; duplicates and
invalid events never count, a refused batch writes nothing, and a lost event
shows as exactly one differing window. GET /v1/customers/{id}/insights gives
first/last seen, counts by type and exact money totals per day and in total,
and a merged customer's id reads the survivor with both histories. Bad
query values are 422 validation details, unknown customers 404 not_found,
and scopes apply. Method: ingest through HTTP with a fresh key (its own
source), then read through HTTP.
"""
import collections
import hashlib
import unittest
import urllib.parse

import events_support as es

TWO_TO_64 = 2 ** 64


def id_term(event_id):
    """The documented per-event term: first 8 bytes of sha256(UTF-8 eventId), big-endian unsigned."""
    return int.from_bytes(hashlib.sha256(event_id.encode("utf-8")).digest()[:8], "big")


def checksum_hex(event_ids):
    return format(sum(id_term(i) for i in event_ids) % TWO_TO_64, "016x")


def expected_windows(sent, granularity):
    """{(windowStart, type): (count, checksum)} from (eventId, type, occurredAt) the producer stored."""
    groups = collections.defaultdict(list)
    for event_id, event_type, occurred in sent:
        start = occurred[:13] + ":00:00Z" if granularity == "hour" else occurred[:10] + "T00:00:00Z"
        groups[(start, event_type)].append(event_id)
    return {key: (len(ids), checksum_hex(ids)) for key, ids in groups.items()}


def setUpModule():
    es.require_events_service()


class ParityTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)
        cls.sent = []  # (eventId, type, occurredAt) of every stored event
        types = ["page.viewed", "order.paid", "payment.completed", "notification.sent"]
        events = []
        for i in range(120):
            event_type = types[i % len(types)]
            occurred = f"2026-11-{21 + i % 2:02d}T{(i * 7) % 24:02d}:{i % 60:02d}:{(i * 13) % 60:02d}Z"
            envelope = es.ev(event_type, occurred=occurred, event_id=f"par-{i}-{es.unique('p')}")
            events.append(envelope)
            cls.sent.append((envelope["eventId"], event_type, occurred))
        first = cls.api.ingest(events[:70] + [events[3]])
        assert (first["accepted"], first["duplicates"]) == (70, 1), first
        invalid = es.ev("no.such.type", occurred="2026-11-21T05:00:00Z")
        second = cls.api.ingest(events[60:] + [invalid])
        assert (second["accepted"], second["duplicates"], second["invalid"]) == (50, 10, 1), second

    def parity(self, api=None, **query):
        text = urllib.parse.urlencode(query)
        return (api or self.api).get(f"/v1/parity?{text}")

    def windows(self, data):
        return {(w["windowStart"], w["type"]): (w["count"], w["checksum"]) for w in data["windows"]}

    def test_hourly_parity_matches_what_the_producer_computes(self):
        """Per hour and type, count and checksum equal the producer's own computation from what it sent."""
        data = es.assert_success(self.parity(**{"from": "2026-11-21T00:00:00Z", "to": "2026-11-23T00:00:00Z"}))
        self.assertEqual(data["source"], self.api.caller)
        self.assertEqual(data["granularity"], "hour")
        self.assertEqual(self.windows(data), expected_windows(self.sent, "hour"))
        self.assertEqual(data["count"], 120)
        self.assertEqual(data["checksum"], checksum_hex(i for i, _, _ in self.sent))
        starts = [(w["windowStart"], w["type"]) for w in data["windows"]]
        self.assertEqual(starts, sorted(starts))

    def test_daily_parity_and_type_filter(self):
        """By day the same sums hold; ?type= keeps one type."""
        query = {"from": "2026-11-21T00:00:00Z", "to": "2026-11-23T00:00:00Z", "granularity": "day"}
        data = es.assert_success(self.parity(**query))
        self.assertEqual(self.windows(data), expected_windows(self.sent, "day"))
        only = es.assert_success(self.parity(**query, type="order.paid"))
        self.assertEqual(self.windows(only), {k: v for k, v in expected_windows(self.sent, "day").items()
                                              if k[1] == "order.paid"})
        self.assertEqual(only["count"], 30)

    def test_a_lost_event_shows_as_one_window(self):
        """A producer that believes it stored one more event finds exactly the window that differs."""
        believed = self.sent + [("par-never-arrived", "order.paid", "2026-11-22T13:20:00Z")]
        data = es.assert_success(self.parity(**{"from": "2026-11-22T00:00:00Z", "to": "2026-11-23T00:00:00Z"}))
        mine = {k: v for k, v in expected_windows(believed, "hour").items() if k[0].startswith("2026-11-22")}
        differing = {k for k in set(mine) | set(self.windows(data)) if mine.get(k) != self.windows(data).get(k)}
        self.assertEqual(differing, {("2026-11-22T13:00:00Z", "order.paid")})

    def test_refused_batch_and_reposts_write_nothing(self):
        """A 422 batch (one malformed envelope) and a re-post of stored events leave parity unchanged."""
        query = {"from": "2026-11-21T00:00:00Z", "to": "2026-11-23T00:00:00Z"}
        before = es.assert_success(self.parity(**query))
        bad = es.ev("page.viewed", occurred="2026-11-21T06:00:00Z", identity={"userId": "no-platform"})
        good = es.ev("page.viewed", occurred="2026-11-21T06:00:00Z")
        es.assert_validation(self.api.post([good, bad]), ("missing", ["body", "events", 1, "identity", "platform"]))
        repost = self.api.ingest([es.ev(t, occurred=o, event_id=i) for i, t, o in self.sent[:10]])
        self.assertEqual(repost["duplicates"], 10)
        self.assertEqual(es.assert_success(self.parity(**query)), before)

    def test_another_source_by_name(self):
        """?source= reads another producer's parity; a read-only key of another caller can ask."""
        key, _ = es.make_key(scopes=("events:read",))
        reader = es.Events(key)
        data = es.assert_success(self.parity(api=reader, source=self.api.caller,
                                             **{"from": "2026-11-21T00:00:00Z", "to": "2026-11-23T00:00:00Z"}))
        self.assertEqual(data["count"], 120)
        own = es.assert_success(self.parity(api=reader, **{"from": "2026-11-21T00:00:00Z",
                                                           "to": "2026-11-23T00:00:00Z"}))
        self.assertEqual((own["count"], own["checksum"], own["windows"]), (0, "0000000000000000", []))

    def test_bad_queries(self):
        """Missing, malformed, misaligned and too long ranges are 422 validation details."""
        ok_from, ok_to = "2026-11-21T00:00:00Z", "2026-11-22T00:00:00Z"
        es.assert_validation(self.parity(), ("missing", ["query", "from"]), ("missing", ["query", "to"]))
        es.assert_validation(self.parity(**{"from": "2026-11-21", "to": ok_to}),
                             ("datetime_format", ["query", "from"]))
        es.assert_validation(self.parity(**{"from": "2026-11-21T00:00:00+00:00", "to": ok_to}),
                             ("datetime_format", ["query", "from"]))
        es.assert_validation(self.parity(**{"from": "2026-11-21T10:30:00Z", "to": ok_to}),
                             ("value_error", ["query", "from"]))
        es.assert_validation(self.parity(**{"from": ok_from, "to": "2026-11-21T12:00:00Z", "granularity": "day"}),
                             ("value_error", ["query", "to"]))
        es.assert_validation(self.parity(**{"from": ok_from, "to": ok_to, "granularity": "week"}),
                             ("value_error", ["query", "granularity"]))
        es.assert_validation(self.parity(**{"from": ok_to, "to": ok_from}), ("value_error", ["query", "to"]))
        es.assert_validation(self.parity(**{"from": "2026-11-01T00:00:00Z", "to": "2026-11-08T01:00:00Z"}),
                             ("value_error", ["query", "to"]))
        es.assert_validation(self.parity(**{"from": "2026-10-01T00:00:00Z", "to": "2026-11-02T00:00:00Z",
                                            "granularity": "day"}), ("value_error", ["query", "to"]))
        es.assert_validation(self.parity(**{"from": ok_from, "to": ok_to, "source": "no spaces"}),
                             ("string_pattern_mismatch", ["query", "source"]))
        es.assert_validation(self.parity(**{"from": ok_from, "to": ok_to, "type": "t" * 61}),
                             ("string_too_long", ["query", "type"]))
        # The bounds themselves are accepted.
        es.assert_success(self.parity(**{"from": "2026-11-01T00:00:00Z", "to": "2026-11-08T00:00:00Z"}))
        es.assert_success(self.parity(**{"from": "2026-10-01T00:00:00Z", "to": "2026-11-01T00:00:00Z",
                                         "granularity": "day"}))

    def test_scopes(self):
        """Parity needs events:read; no key is 401."""
        key, _ = es.make_key(scopes=("ingest",))
        query = "from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z"
        es.assert_detail(es.Events(key).get(f"/v1/parity?{query}"), 403,
                         "This API key lacks the 'events:read' scope")
        es.assert_detail(es.Events(None).get(f"/v1/parity?{query}"), 401)


class InsightsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)
        cls.ann = {"platform": "web", "userId": es.unique("ann")}
        order = {"orderId": "o", "subtotal": "0.10", "total": "0.10", "currency": "USD"}
        cls.api.ingest([
            es.ev("order.paid", order, identity=cls.ann, occurred="2026-11-21T10:05:00Z"),
            es.ev("order.paid", dict(order, subtotal="0.20", total="0.20"), identity=cls.ann,
                  occurred="2026-11-21T23:59:59.5Z"),
            es.ev("page.viewed", identity=cls.ann, occurred="2026-11-22T08:00:00Z"),
            es.ev("payment.completed", {"paymentId": "p", "amount": "7.5", "currency": "ZWG"}, identity=cls.ann,
                  occurred="2026-11-23T09:00:00Z"),
        ])
        cls.ann_id = cls.api.customer_of(userId=cls.ann["userId"], platform="web")["customerId"]

    def insights(self, customer_id, **query):
        return self.api.get(f"/v1/customers/{customer_id}/insights?{urllib.parse.urlencode(query)}")

    def test_insights_of_a_customer(self):
        """First/last seen, counts by type, exact money totals, per day inside the window."""
        data = es.assert_success(self.insights(self.ann_id, **{"from": "2026-11-21", "to": "2026-11-22"}))
        self.assertEqual(data["customerId"], self.ann_id)
        self.assertEqual((data["firstSeenAt"], data["lastSeenAt"]), ("2026-11-21T10:05:00Z", "2026-11-23T09:00:00Z"))
        self.assertEqual((data["from"], data["to"], data["eventCount"]), ("2026-11-21", "2026-11-22", 3))
        self.assertEqual(data["countsByType"], {"order.paid": 2, "page.viewed": 1})
        self.assertEqual(data["money"], {"order.paid.subtotal": {"USD": "0.30"}, "order.paid.total": {"USD": "0.30"}})
        self.assertEqual(data["totalPaid"], {"USD": "0.30"})
        self.assertEqual(data["days"], [
            {"day": "2026-11-21", "eventCount": 2, "countsByType": {"order.paid": 2},
             "money": {"order.paid.subtotal": {"USD": "0.30"}, "order.paid.total": {"USD": "0.30"}}},
            {"day": "2026-11-22", "eventCount": 1, "countsByType": {"page.viewed": 1}, "money": {}}])

    def test_merge_reads_both_histories_under_the_survivor(self):
        """After cal claims dan's email, dan's id reads cal's insights holding both histories."""
        cal = {"platform": "web", "userId": es.unique("cal")}
        dan_email = f"{es.unique('dan')}@example.com"
        dan = {"platform": "ios", "userId": es.unique("dan"), "email": dan_email}
        self.api.ingest([
            es.ev("order.paid", {"orderId": "c", "subtotal": "0.30", "total": "0.30", "currency": "USD"},
                  identity=cal, occurred="2026-11-21T10:05:00Z"),
            es.ev("payment.completed", {"paymentId": "p", "amount": "7.5", "currency": "ZWG"}, identity=cal,
                  occurred="2026-11-23T09:00:00Z"),
            es.ev("payment.completed", {"paymentId": "q", "amount": "1.25", "currency": "USD"}, identity=dan,
                  occurred="2026-11-20T12:00:00Z"),
            es.ev("page.viewed", identity=dan, occurred="2026-11-21T11:00:00Z")])
        cal_id = self.api.customer_of(userId=cal["userId"], platform="web")["customerId"]
        dan_id = self.api.customer_of(email=dan_email)["customerId"]
        claim = es.ev("identity.claimed", {"claimedType": "email", "claimedValue": dan_email},
                      identity=cal, occurred="2026-11-23T10:00:00Z")
        self.assertEqual(self.api.ingest([claim])["accepted"], 1)
        data = es.assert_success(self.insights(dan_id, **{"from": "2026-11-20", "to": "2026-11-23"}))
        self.assertEqual(data["customerId"], cal_id)
        self.assertEqual((data["firstSeenAt"], data["lastSeenAt"]), ("2026-11-20T12:00:00Z", "2026-11-23T10:00:00Z"))
        self.assertEqual(data["countsByType"], {"identity.claimed": 1, "order.paid": 1, "page.viewed": 1,
                                                "payment.completed": 2})
        self.assertEqual(data["money"]["payment.completed.amount"], {"USD": "1.25", "ZWG": "7.5"})
        self.assertEqual(data["totalPaid"], {"USD": "1.55", "ZWG": "7.5"})
        self.assertEqual(es.assert_success(self.insights(cal_id, **{"from": "2026-11-20", "to": "2026-11-23"})), data)

    def test_empty_window(self):
        """A window without events: zero counts, empty objects, first/last seen still overall."""
        data = es.assert_success(self.insights(self.ann_id, **{"from": "2026-01-01", "to": "2026-01-31"}))
        self.assertEqual((data["eventCount"], data["countsByType"], data["money"], data["days"]), (0, {}, {}, []))
        self.assertEqual((data["firstSeenAt"], data["lastSeenAt"]), ("2026-11-21T10:05:00Z", "2026-11-23T09:00:00Z"))

    def test_bad_input_and_unknown_customers(self):
        """422 for bad days and ranges; 404 not_found for unknown or malformed customer ids."""
        es.assert_validation(self.insights(self.ann_id), ("missing", ["query", "from"]), ("missing", ["query", "to"]))
        es.assert_validation(self.insights(self.ann_id, **{"from": "2026-02-30", "to": "2026-03-01"}),
                             ("date_parsing", ["query", "from"]))
        es.assert_validation(self.insights(self.ann_id, **{"from": "2026-11-21T00:00:00Z", "to": "2026-11-22"}),
                             ("date_parsing", ["query", "from"]))
        es.assert_validation(self.insights(self.ann_id, **{"from": "2026-11-22", "to": "2026-11-21"}),
                             ("value_error", ["query", "to"]))
        es.assert_validation(self.insights(self.ann_id, **{"from": "2026-01-01", "to": "2026-04-03"}),
                             ("value_error", ["query", "to"]))
        es.assert_success(self.insights(self.ann_id, **{"from": "2026-01-01", "to": "2026-04-02"}))
        es.assert_business(self.insights("cus_aaaaaaaaaaaaaaaaaaaa", **{"from": "2026-11-21", "to": "2026-11-22"}),
                           404, "not_found")
        es.assert_business(self.insights("nobody", **{"from": "2026-11-21", "to": "2026-11-22"}), 404, "not_found")


if __name__ == "__main__":
    unittest.main()
