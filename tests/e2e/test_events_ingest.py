"""POST /v1/events: the type registry, the result envelope and dedupe.

Goal: every type of the specification's registry is accepted with its
required fields; each missing required field and each bad money field makes
that one event `invalid` with the exact documented error string, while the
rest of the batch is stored; unknown types and unknown or inactive platforms
are invalid; money strings and extra payload fields are stored verbatim;
a re-post (in the same batch or later) is `duplicate` and changes nothing;
the source is the key's callerId. Method: post batches with a fresh key and
read the results, the feed and the database.
"""
import unittest

import cbclient as cb
import events_support as es


def setUpModule():
    es.require_events_service()


class RegistryTest(unittest.TestCase):
    """Each registry type, valid and with each documented way to be invalid."""

    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)

    def test_every_registry_type_is_accepted(self):
        """All 21 types of the registry, with their required fields, are accepted in one batch."""
        self.assertEqual(len(es.VALID_PAYLOADS), 21)
        identity = {"platform": "web", "userId": es.unique("reg")}
        payloads = dict(es.VALID_PAYLOADS)
        payloads["identity.claimed"] = {"claimedType": "email", "claimedValue": es.unique("claim") + "@example.com"}
        events = [es.ev(t, payload, identity=identity) for t, payload in payloads.items()]
        data = self.api.ingest(events)
        self.assertEqual({k: data[k] for k in ("accepted", "duplicates", "invalid")},
                         {"accepted": 21, "duplicates": 0, "invalid": 0}, data)
        self.assertEqual([s for _, s, _ in es.statuses(data)], ["accepted"] * 21)
        self.assertEqual([r["eventId"] for r in data["results"]], [e["eventId"] for e in events],
                         "results come in request order")

    def test_each_missing_required_field(self):
        """Removing any one required field makes the event invalid, naming that field."""
        events, expected = [], []
        for event_type, payload in es.VALID_PAYLOADS.items():
            for field in payload:
                broken = {k: v for k, v in payload.items() if k != field}
                events.append(es.ev(event_type, broken))
                expected.append(f"missing required payload field '{field}'")
        self.assertGreater(len(events), 40)
        data = self.api.ingest(events)
        self.assertEqual(data["invalid"], len(events))
        self.assertEqual([e for _, _, e in es.statuses(data)], expected)

    def test_null_and_blank_required_fields_are_missing(self):
        """A required field that is null, empty or blank counts as missing."""
        data = self.api.ingest([es.ev("payment.failed", {"paymentId": None}),
                                es.ev("payment.failed", {"paymentId": ""}),
                                es.ev("payment.failed", {"paymentId": "  "}),
                                es.ev("payment.failed", {"paymentId": 0})])
        self.assertEqual([e for _, _, e in es.statuses(data)],
                         ["missing required payload field 'paymentId'"] * 3 + [None])

    def test_each_bad_money_field(self):
        """Each money field must be a decimal string >= 0: negatives, numbers, exponents, junk are invalid."""
        bad_values = ["-1", "-0.01", 10, 10.5, "1e3", "abc", "", "1.", ".5", "1,000.00", " 1", "+1", "0x10",
                      "1" * 65, None, True, ["1"]]
        events, expected = [], []
        for event_type, fields in es.MONEY_FIELDS.items():
            for field in fields:
                for value in bad_values:
                    payload = dict(es.VALID_PAYLOADS[event_type])
                    payload[field] = value
                    events.append(es.ev(event_type, payload))
                    missing = value is None or value == ""
                    expected.append(f"missing required payload field '{field}'" if missing else
                                    f"invalid money field '{field}': must be a decimal string >= 0")
        for start in range(0, len(events), es.BATCH_MAX):
            data = self.api.ingest(events[start:start + es.BATCH_MAX])
            self.assertEqual([e for _, _, e in es.statuses(data)], expected[start:start + es.BATCH_MAX])

    def test_good_money_values(self):
        """Zero, integers, fractions and leading zeros are money."""
        data = self.api.ingest([es.ev("payment.completed", {"paymentId": "p", "amount": v, "currency": "USD"})
                                for v in ["0", "0.00", "12", "007.50", "1234567890.123456789", "1" * 64]])
        self.assertEqual(data["accepted"], 6, data)

    def test_unknown_type(self):
        """A type outside the registry is invalid with `unknown event type '<type>'`."""
        data = self.api.ingest([es.ev("order.refunded", {"orderId": "o"}), es.ev("Page.Viewed", {"path": "/"})])
        self.assertEqual([e for _, _, e in es.statuses(data)],
                         ["unknown event type 'order.refunded'", "unknown event type 'Page.Viewed'"])

    def test_unknown_and_inactive_platform(self):
        """A platform outside the registry, or an inactive one, makes the event invalid."""
        retired = es.unique("retired")[:40]
        cb.db().execute("INSERT INTO corebank.event_platforms (name, active) VALUES (%s, false)", (retired,))
        try:
            data = self.api.ingest([
                es.ev("page.viewed", identity={"platform": "smart-tv", "userId": "u"}),
                es.ev("page.viewed", identity={"platform": retired, "userId": "u"}),
                es.ev("page.viewed", identity={"platform": "WEB", "userId": "u"}),
            ] + [es.ev("page.viewed", identity={"platform": p, "userId": "u"}) for p in es.PLATFORMS])
        finally:
            cb.db().execute("DELETE FROM corebank.event_platforms WHERE name = %s", (retired,))
        self.assertEqual([e for _, _, e in es.statuses(data)],
                         ["unknown platform 'smart-tv'", f"inactive platform '{retired}'", "unknown platform 'WEB'"]
                         + [None] * 6)

    def test_platform_is_checked_before_payload(self):
        """Order of checks: type, platform, required fields, money."""
        data = self.api.ingest([
            es.ev("no.such", {}, identity={"platform": "tv"}),
            es.ev("order.paid", {}, identity={"platform": "tv"}),
            es.ev("order.paid", {"total": "-1"}, identity={"platform": "web"}),
            es.ev("order.paid", {"orderId": "o", "subtotal": "x", "total": "-1", "currency": "USD"})])
        self.assertEqual([e for _, _, e in es.statuses(data)],
                         ["unknown event type 'no.such'", "unknown platform 'tv'",
                          "missing required payload field 'orderId'",
                          "invalid money field 'subtotal': must be a decimal string >= 0"])

    def test_field_rules(self):
        """consent status, claimedType, order items: the documented field rules."""
        data = self.api.ingest([
            es.ev("consent.updated", {"purpose": "marketing", "status": "GRANTED"}),
            es.ev("identity.claimed", {"claimedType": "sessionId", "claimedValue": "s"}),
            es.ev("identity.claimed", {"claimedType": "phone", "claimedValue": "not a phone"}),
            es.ev("order.created", {"orderId": "o", "total": "1", "currency": "USD", "items": [{"name": "x"}]}),
            es.ev("order.created", {"orderId": "o", "total": "1", "currency": "USD",
                                    "items": [{"productId": "p", "unitPrice": 2}]}),
            es.ev("order.created", {"orderId": "o", "total": "1", "currency": "USD", "items": "p1"}),
            es.ev("order.created", {"orderId": "o", "total": "1", "currency": "USD",
                                    "items": [{"productId": "p", "quantity": 3, "name": "Tea", "unitPrice": "0.50"}]}),
            es.ev("consent.updated", {"purpose": "marketing", "status": "revoked"}, identity={"platform": "web"}),
        ])
        self.assertEqual([e for _, _, e in es.statuses(data)], [
            "invalid payload field 'status': must be granted or revoked",
            "invalid payload field 'claimedType': must be one of userId, zbIdSubject, phone, email, nationalId",
            "invalid payload field 'claimedValue': is not a valid phone",
            "missing required payload field 'items[0].productId'",
            "invalid money field 'items[0].unitPrice': must be a decimal string >= 0",
            "invalid payload field 'items': must be an array of objects",
            None,
            "identity names no customer: consent.updated needs one of userId, zbIdSubject, phone, email, nationalId, "
            "sessionId",
        ])

    def test_one_bad_event_never_fails_the_batch(self):
        """A batch mixing good and bad events: the good ones are stored, each result is inline."""
        good = [es.ev("page.viewed") for _ in range(3)]
        bad = es.ev("page.viewed", {})
        data = self.api.ingest([good[0], bad, good[1], es.ev("nope"), good[2]])
        self.assertEqual((data["accepted"], data["invalid"], data["duplicates"]), (3, 2, 0))
        stored = cb.db().scalar("SELECT count(*) FROM corebank.events WHERE source = %s AND event_id = ANY(%s)",
                                (self.api.caller, [e["eventId"] for e in good + [bad]]))
        self.assertEqual(stored, 3)


class StorageTest(unittest.TestCase):
    """What is stored: verbatim money, extra fields, defaults, the source."""

    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)

    def stored(self, event_id):
        return cb.db().one("SELECT source, type, schema_version, occurred_at, platform, identity, payload::text AS payload"
                           " FROM corebank.events WHERE source = %s AND event_id = %s", (self.api.caller, event_id))

    def test_money_and_extra_fields_are_stored_verbatim(self):
        """Money strings keep their exact text; extra payload fields, numbers included, are kept as sent."""
        body = ('{"events":[{"eventId":"%s","type":"order.paid","occurredAt":"2026-11-21T10:00:00Z",'
                '"identity":{"platform":"web","userId":"verbatim"},'
                '"payload":{"orderId":"o","subtotal":"007.50","total":"7.500","currency":"USD",'
                '"fee":1.50,"big":123456789012345678901234567890,"nested":{"a":[1,2.0,"3"]}}}]}')
        event_id = es.unique("verbatim")
        data = es.assert_success(self.api.post_raw(body % event_id))
        self.assertEqual(data["accepted"], 1)
        payload = self.stored(event_id)["payload"]
        for fragment in ('"subtotal": "007.50"', '"total": "7.500"', '"fee": 1.50',
                         '"big": 123456789012345678901234567890', '"a": [1, 2.0, "3"]'):
            self.assertIn(fragment, payload)
        feed_text = es.raw_json(self.api.get(f"/v1/customers/{self.customer('verbatim')}/events"))
        self.assertIn('"fee": 1.50', feed_text, "reads return the stored numbers exactly")

    def customer(self, user_id):
        return self.api.customer_of(userId=user_id, platform="web")["customerId"]

    def test_defaults_and_source(self):
        """schemaVersion defaults to 1, payload to {}; the source is the key's callerId."""
        event_id = es.unique("defaults")
        body = {"events": [{"eventId": event_id, "type": "identity.registered", "occurredAt": "2026-11-21T10:00:00.25Z",
                            "identity": {"platform": "ios", "userId": es.unique("u")}}]}
        es.assert_success(self.api.http.post("/v1/events", json_body=body, headers=self.api.headers()))
        row = self.stored(event_id)
        self.assertEqual((row["source"], row["schema_version"], row["payload"], row["platform"]),
                         (self.api.caller, 1, "{}", "ios"))
        self.assertEqual(row["occurred_at"].isoformat(), "2026-11-21T10:00:00.250000+00:00")

    def test_schema_version_and_null_payload(self):
        """An explicit schemaVersion is stored; a null payload is the empty object."""
        event_id = es.unique("v3")
        data = self.api.ingest([es.ev("identity.registered", None, event_id=event_id, schemaVersion=3) | {"payload": None}])
        self.assertEqual(data["accepted"], 1)
        row = self.stored(event_id)
        self.assertEqual((row["schema_version"], row["payload"]), (3, "{}"))


class DedupeTest(unittest.TestCase):
    """(source, eventId) is stored once; re-posts are duplicates and change nothing."""

    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)

    def test_duplicate_within_a_batch(self):
        """The same eventId twice in one batch: accepted, then duplicate."""
        event = es.ev("page.viewed")
        data = self.api.ingest([event, event, dict(event, payload={"path": "/other"})])
        self.assertEqual([s for _, s, _ in es.statuses(data)], ["accepted", "duplicate", "duplicate"])
        self.assertEqual((data["accepted"], data["duplicates"], data["invalid"]), (1, 2, 0))

    def test_repost_is_a_duplicate_and_changes_nothing(self):
        """Re-posting a batch (even with other content) reports duplicates and leaves the stored events alone."""
        user = es.unique("dup-user")
        events = [es.ev("page.viewed", {"path": f"/p{i}"}, identity={"platform": "web", "userId": user}) for i in range(5)]
        first = self.api.ingest(events)
        self.assertEqual(first["accepted"], 5)
        changed = [dict(e, payload={"path": "/changed"},
                        identity={"platform": "web", "userId": user, "email": f"{user}@example.com"}) for e in events]
        again = self.api.ingest(changed)
        self.assertEqual((again["accepted"], again["duplicates"], again["invalid"]), (0, 5, 0))
        self.assertEqual([s for _, s, _ in es.statuses(again)], ["duplicate"] * 5)
        paths = cb.db().rows("SELECT payload->>'path' AS p FROM corebank.events WHERE source = %s AND event_id = ANY(%s)"
                             " ORDER BY p", (self.api.caller, [e["eventId"] for e in events]))
        self.assertEqual([r["p"] for r in paths], [f"/p{i}" for i in range(5)])
        self.assertIsNone(cb.db().scalar("SELECT customer_id FROM corebank.customer_identifiers"
                                         " WHERE kind = 'email' AND value = %s", (f"{user}@example.com",)),
                          "a duplicate attaches no identifier")

    def test_same_event_id_from_another_source(self):
        """Dedupe is per source: another caller's eventId is another event."""
        event = es.ev("page.viewed")
        self.assertEqual(self.api.ingest([event])["accepted"], 1)
        other_key, _ = es.make_key()
        self.assertEqual(es.Events(other_key).ingest([event])["accepted"], 1)

    def test_invalid_then_valid_same_id(self):
        """An eventId that was only ever invalid is not a duplicate later."""
        event_id = es.unique("retry")
        first = self.api.ingest([es.ev("page.viewed", {}, event_id=event_id)])
        self.assertEqual(first["invalid"], 1)
        second = self.api.ingest([es.ev("page.viewed", event_id=event_id)])
        self.assertEqual(second["accepted"], 1)

    def test_reemit_for_reconciliation(self):
        """Re-emitting a whole day of events with the same ids: each one comes back duplicate."""
        events = [es.ev("notification.sent") for _ in range(50)]
        self.api.ingest(events[:30])
        data = self.api.ingest(events)
        self.assertEqual((data["accepted"], data["duplicates"]), (20, 30))
        self.assertEqual([s for _, s, _ in es.statuses(data)], ["duplicate"] * 30 + ["accepted"] * 20)


if __name__ == "__main__":
    unittest.main()
