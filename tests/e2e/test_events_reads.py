"""The event service's reads: lookup, customer, events, consents, traits, feed.

Goal: customer lookup takes exactly one selector (invalid_selector
otherwise; unknown_platform for a userId on a platform outside the
registry; not_found when nothing matches) and normalises like ingest; a
customer's events and the global feed page in occurredAt order with an
opaque cursor (a bad one is invalid_request); consent state follows
occurredAt; traits only add up stored money strings; identity.claimed merges
are visible through every read. Method: ingest through HTTP with a fresh
key, then read through HTTP.
"""
import base64
import datetime
import random
import unittest

import events_support as es


def setUpModule():
    es.require_events_service()


class ReadsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)
        cls.user = es.unique("reader")
        cls.email = f"{cls.user}@Example.COM"
        cls.phone = "07" + es.unique("")[-8:].translate(str.maketrans("abcdef", "123456"))
        cls.api.ingest([es.ev("identity.registered", {}, identity={
            "platform": "android", "userId": cls.user, "email": cls.email, "phone": cls.phone,
            "nationalId": f"63-{cls.user[-6:]}", "displayName": "Rita Reader"})])

    # lookup
    def test_lookup_by_each_selector(self):
        """userId+platform, email (any case), phone (any spelling) and nationalId find the same customer."""
        by_user = self.api.customer_of(userId=self.user, platform="android")
        self.assertRegex(by_user["customerId"], r"^cus_[a-z2-7]{20}$")
        self.assertEqual(by_user["displayName"], "Rita Reader")
        self.assertIs(by_user["isGuest"], False)
        for selector in [{"email": f"  {self.email.upper()}"}, {"phone": "+263 " + self.phone[1:]},
                         {"nationalId": f"63{self.user[-6:]}".lower()}]:
            self.assertEqual(self.api.customer_of(**selector)["customerId"], by_user["customerId"], selector)
        types = sorted(i["type"] for i in by_user["identifiers"])
        self.assertEqual(types, ["email", "nationalId", "phone", "userId"])
        self.assertEqual(set(by_user), {"customerId", "displayName", "isGuest", "createdAt", "updatedAt", "identifiers",
                                        "consents", "loyaltyMemberIds", "mergedCustomerIds"})

    def test_lookup_selector_rules(self):
        """Exactly one selector: none, two, userId without platform, platform alone are invalid_selector."""
        es.assert_business(self.api.get("/v1/customers/lookup"), 422, "invalid_selector")
        es.assert_business(self.api.lookup(email="a@b.c", phone="0771234567"), 422, "invalid_selector")
        es.assert_business(self.api.lookup(userId=self.user), 422, "invalid_selector")
        es.assert_business(self.api.lookup(platform="web"), 422, "invalid_selector")
        es.assert_business(self.api.lookup(email="a@b.c", platform="web"), 422, "invalid_selector")
        error = es.assert_business(self.api.lookup(email="a@b.c", sessionId="s"), 422, "invalid_selector")
        self.assertEqual(sorted(error["detail"]["selectors"]), ["email", "sessionId"])

    def test_lookup_unknown_platform_and_not_found(self):
        es.assert_business(self.api.lookup(userId=self.user, platform="smart-tv"), 422, "unknown_platform")
        es.assert_business(self.api.lookup(userId=self.user, platform="web"), 404, "not_found")
        es.assert_business(self.api.lookup(email=es.unique("nobody") + "@example.com"), 404, "not_found")
        es.assert_business(self.api.lookup(phone="not a number"), 422, "invalid_request")
        es.assert_validation(self.api.lookup(email="e" * 400), ("string_too_long", ["query", "email"]))

    # customer
    def test_customer_by_id_and_unknown_ids(self):
        customer = self.api.customer_of(userId=self.user, platform="android")
        self.assertEqual(es.assert_success(self.api.get(f"/v1/customers/{customer['customerId']}")), customer)
        es.assert_business(self.api.get("/v1/customers/cus_aaaaaaaaaaaaaaaaaaaa"), 404, "not_found")
        es.assert_business(self.api.get("/v1/customers/not-an-id"), 404, "not_found")
        es.assert_business(self.api.get("/v1/customers/not-an-id/traits"), 404, "not_found")

    def test_customer_events_paging(self):
        """A customer's events, oldest occurredAt first, paged with nextCursor; no event twice."""
        identity = {"platform": "web", "userId": es.unique("pager")}
        times = ["2026-05-0%dT10:00:00Z" % d for d in (4, 1, 3, 2, 5)]
        events = [es.ev("page.viewed", {"path": f"/{t}"}, identity=identity, occurred=t) for t in times]
        self.api.ingest(events)
        customer = self.api.customer_of(userId=identity["userId"], platform="web")["customerId"]
        seen, cursor, pages = [], None, 0
        while True:
            path = f"/v1/customers/{customer}/events?limit=2" + (f"&cursor={cursor}" if cursor else "")
            page = es.assert_success(self.api.get(path))
            self.assertEqual(page["customerId"], customer)
            seen += [item["occurredAt"] for item in page["items"]]
            pages += 1
            cursor = page["nextCursor"]
            if cursor is None:
                break
        self.assertEqual(seen, sorted(times))
        self.assertEqual(pages, 3)
        item = es.assert_success(self.api.get(f"/v1/customers/{customer}/events?limit=1"))["items"][0]
        self.assertEqual(set(item), {"sequence", "source", "eventId", "type", "schemaVersion", "occurredAt",
                                     "receivedAt", "platform", "customerId", "identity", "payload"})
        self.assertEqual(item["source"], self.api.caller)

    def test_bad_page_parameters(self):
        customer = self.api.customer_of(userId=self.user, platform="android")["customerId"]
        for limit, kind in [("0", "greater_than_equal"), ("501", "less_than_equal"), ("ten", "int_parsing")]:
            es.assert_validation(self.api.get(f"/v1/feed?limit={limit}"), (kind, ["query", "limit"]))
        es.assert_business(self.api.get("/v1/feed?cursor=bm90IGEgY3Vyc29y"), 422, "invalid_request")
        es.assert_business(self.api.get(f"/v1/customers/{customer}/events?cursor=abc"), 422, "invalid_request")
        es.assert_business(self.api.get(f"/v1/customers/{customer}/events?cursor=%%%"), 400, "bad_request")
        es.assert_success(self.api.get("/v1/feed?limit=500"))

    # feed
    def test_feed_order_and_cursor(self):
        """The global stream in occurredAt order; following nextCursor reads each event once."""
        marker = es.unique("feed")
        # A second of its own, far in the past, so other runs' events never interleave.
        start = datetime.datetime(1901, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(
            seconds=random.randrange(60 * 365 * 86400) * 10)
        stamp = lambda s: (start + datetime.timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%SZ")
        events = [es.ev("page.viewed", {"path": f"/{marker}/{s}"}, occurred=stamp(s)) for s in (5, 1, 4, 2, 3, 3)]
        self.api.ingest(events)
        micros = int((start - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)).total_seconds()) * 1000000
        cursor_text = base64.urlsafe_b64encode(f"v1:{micros}:0".encode()).decode().rstrip("=")
        page = es.assert_success(self.api.get(f"/v1/feed?limit=4&cursor={cursor_text}"))
        self.assertEqual([i["occurredAt"] for i in page["items"]], [stamp(s) for s in (1, 2, 3, 3)])
        self.assertEqual([i["eventId"] for i in page["items"][2:]], [events[4]["eventId"], events[5]["eventId"]],
                         "equal occurredAt: ingest order")
        rest = es.assert_success(self.api.get(f"/v1/feed?limit=2&cursor={page['nextCursor']}"))
        self.assertEqual([i["occurredAt"] for i in rest["items"]], [stamp(s) for s in (4, 5)])
        self.assertTrue(all(i["payload"]["path"].startswith(f"/{marker}/") for i in page["items"] + rest["items"]))

    # consents
    def test_consent_state_follows_occurred_at(self):
        identity = {"platform": "ios", "userId": es.unique("consenter")}
        self.api.ingest([
            es.ev("consent.updated", {"purpose": "marketing", "status": "granted"}, identity=identity, occurred="2026-01-02T00:00:00Z"),
            es.ev("consent.updated", {"purpose": "marketing", "status": "revoked"}, identity=identity, occurred="2026-01-01T00:00:00Z"),
            es.ev("consent.updated", {"purpose": "sms", "status": "revoked"}, identity=identity, occurred="2026-01-01T00:00:00Z")])
        older = es.ev("consent.updated", {"purpose": "sms", "status": "granted"}, identity=identity, occurred="2025-12-31T00:00:00Z")
        self.assertEqual(self.api.ingest([older])["accepted"], 1, "an older decision is still an accepted event")
        customer = self.api.customer_of(userId=identity["userId"], platform="ios")["customerId"]
        data = es.assert_success(self.api.get(f"/v1/customers/{customer}/consents"))
        self.assertEqual([(c["purpose"], c["status"], c["occurredAt"]) for c in data["consents"]],
                         [("marketing", "granted", "2026-01-02T00:00:00Z"), ("sms", "revoked", "2026-01-01T00:00:00Z")])
        self.assertEqual(data["consents"][0]["source"], self.api.caller)

    # traits
    def test_traits_sum_stored_money(self):
        identity = {"platform": "pos", "userId": es.unique("payer")}
        self.api.ingest([
            es.ev("order.paid", {"orderId": "1", "subtotal": "0.10", "total": "0.10", "currency": "USD"}, identity=identity),
            es.ev("order.paid", {"orderId": "2", "subtotal": "0.20", "total": "0.20", "currency": "USD"}, identity=identity),
            es.ev("payment.completed", {"paymentId": "p", "amount": "19.999", "currency": "USD"}, identity=identity),
            es.ev("billpay.completed", {"transactionId": "t", "amount": "5", "total": "5.25", "currency": "ZWG",
                                        "channel": "water"}, identity=identity),
            es.ev("loan.disbursed", {"applicationId": "a", "amount": "100", "currency": "USD"}, identity=identity)])
        customer = self.api.customer_of(userId=identity["userId"], platform="pos")["customerId"]
        traits = es.assert_success(self.api.get(f"/v1/customers/{customer}/traits"))
        self.assertEqual(traits["totalPaid"], {"USD": "20.299", "ZWG": "5.25"})
        self.assertEqual(traits["sums"]["order.paid.subtotal"], {"USD": "0.30"})
        self.assertEqual(traits["sums"]["loan.disbursed.amount"], {"USD": "100"})
        self.assertEqual(traits["customerId"], customer)

    # merges through every read
    def test_claim_merges_and_reads_follow(self):
        guest = {"platform": "web", "email": es.unique("guest") + "@example.com", "isGuest": True}
        member = {"platform": "web", "userId": es.unique("member")}
        self.api.ingest([es.ev("order.paid", {"orderId": "g", "subtotal": "3", "total": "3", "currency": "USD"}, identity=guest),
                         es.ev("identity.registered", {}, identity=member)])
        loser = self.api.customer_of(email=guest["email"])["customerId"]
        winner = self.api.customer_of(userId=member["userId"], platform="web")["customerId"]
        self.assertNotEqual(loser, winner)
        self.api.ingest([es.ev("identity.claimed", {"claimedType": "email", "claimedValue": guest["email"]}, identity=member)])
        self.assertEqual(self.api.customer_of(email=guest["email"])["customerId"], winner)
        merged = es.assert_success(self.api.get(f"/v1/customers/{loser}"))
        self.assertEqual(merged["customerId"], winner, "the merged customer's id reads as the survivor")
        self.assertEqual(merged["mergedCustomerIds"], [loser])
        items = es.assert_success(self.api.get(f"/v1/customers/{winner}/events"))["items"]
        self.assertEqual(sorted(i["type"] for i in items), ["identity.claimed", "identity.registered", "order.paid"])
        self.assertTrue(all(i["customerId"] == winner for i in items))
        traits = es.assert_success(self.api.get(f"/v1/customers/{winner}/traits"))
        self.assertEqual(traits["totalPaid"], {"USD": "3"})

    def test_platforms(self):
        data = es.assert_success(self.api.get("/v1/platforms"))
        active = sorted(p["name"] for p in data["platforms"] if p["active"])
        self.assertEqual(active, sorted(es.PLATFORMS))
        self.assertEqual(data["homeCountryCallingCode"], "263")


if __name__ == "__main__":
    unittest.main()
