"""Concurrent posts to POST /v1/events.

Goal: dedupe holds under concurrency: the same batch posted by several
clients at once is stored exactly once, each event `accepted` in exactly one
response and `duplicate` in all others; batches that overlap in opposite
orders all complete (a deadlock between them is retried, never reported);
concurrent events naming the same new identifiers end on one customer, never
on two. Method: threads posting at once behind a barrier, then counts in
the responses and in the database.
"""
import threading
import unittest

import cbclient as cb
import events_support as es

CLIENTS = 8


def setUpModule():
    es.require_events_service()


def run_together(bodies, key):
    """POST each body from its own thread, all released at once; returns the responses in order."""
    barrier = threading.Barrier(len(bodies))
    responses = [None] * len(bodies)

    def worker(index):
        api = es.Events(key)
        barrier.wait()
        responses[index] = api.post(bodies[index])

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses


class ConcurrentPostsTest(unittest.TestCase):
    def test_same_batch_from_many_clients(self):
        """The same 200-event batch from 8 clients at once: stored once, accepted exactly once per event."""
        key, caller = es.make_key()
        users = [es.unique("cc") for _ in range(20)]
        batch = [es.ev("page.viewed", {"path": f"/{i}"},
                       identity={"platform": "web", "userId": users[i % 20], "email": f"{users[i % 20]}@example.com"})
                 for i in range(200)]
        responses = run_together([batch] * CLIENTS, key)
        datas = [es.assert_success(r) for r in responses]
        self.assertEqual(sum(d["accepted"] for d in datas), 200)
        self.assertEqual(sum(d["duplicates"] for d in datas), 200 * (CLIENTS - 1))
        self.assertEqual(sum(d["invalid"] for d in datas), 0)
        for index, event in enumerate(batch):
            outcomes = [d["results"][index]["status"] for d in datas]
            self.assertEqual(sorted(outcomes), ["accepted"] + ["duplicate"] * (CLIENTS - 1), event["eventId"])
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.events WHERE source = %s", (caller,)), 200)
        owners = cb.db().scalar("SELECT count(DISTINCT coalesce(c.merged_into, c.id))"
                                " FROM corebank.customer_identifiers i JOIN corebank.customers_graph c ON c.id = i.customer_id"
                                " WHERE i.kind = 'user:web' AND i.value = ANY(%s)", (users,))
        self.assertEqual(owners, 20, "one customer per user, however many clients raced")
        per_user = cb.db().rows("SELECT i.value, count(DISTINCT e.customer_id) AS customers FROM corebank.events e"
                                " JOIN corebank.customer_identifiers i ON i.kind = 'user:web'"
                                " AND i.value = e.identity->>'userId' WHERE e.source = %s GROUP BY i.value", (caller,))
        self.assertTrue(all(r["customers"] == 1 for r in per_user), per_user)

    def test_overlapping_batches_in_opposite_orders(self):
        """Two pairs of batches sharing events in opposite orders: all 200, each event accepted once."""
        key, caller = es.make_key()
        events = [es.ev("notification.sent", identity={"platform": "ios", "userId": es.unique("ov")}) for _ in range(120)]
        forward, backward = events[:100], list(reversed(events[20:]))
        responses = run_together([forward, backward, forward, backward], key)
        datas = [es.assert_success(r) for r in responses]
        self.assertEqual(sum(d["accepted"] for d in datas), 120)
        self.assertEqual(sum(d["accepted"] + d["duplicates"] for d in datas), 400)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.events WHERE source = %s", (caller,)), 120)

    def test_new_identifier_raced_by_several_events(self):
        """8 events with different new userIds and one new email, at once: one customer owns them all."""
        key, _ = es.make_key()
        email = es.unique("race") + "@example.com"
        users = [es.unique("racer") for _ in range(CLIENTS)]
        bodies = [[es.ev("identity.registered", {}, identity={"platform": "web", "userId": u, "email": email})] for u in users]
        datas = [es.assert_success(r) for r in run_together(bodies, key)]
        self.assertEqual(sum(d["accepted"] for d in datas), CLIENTS)
        owners = cb.db().scalar("SELECT count(DISTINCT coalesce(c.merged_into, c.id))"
                                " FROM corebank.customer_identifiers i JOIN corebank.customers_graph c ON c.id = i.customer_id"
                                " WHERE (i.kind = 'user:web' AND i.value = ANY(%s)) OR (i.kind = 'email' AND i.value = %s)",
                                (users, email))
        self.assertEqual(owners, 1)

    def test_many_clients_many_batches(self):
        """8 clients, each with its own batches and shared customers: every event accepted exactly once."""
        key, caller = es.make_key()
        shared = [es.unique("shared") for _ in range(30)]
        phones = [cb.unique_phone() for _ in range(30)]
        bodies = [[es.ev("page.viewed", identity={"platform": "android", "userId": shared[(c * 7 + i) % 30],
                                                  "phone": phones[(c * 7 + i) % 30]})
                   for i in range(150)] for c in range(CLIENTS)]
        datas = [es.assert_success(r) for r in run_together(bodies, key)]
        self.assertEqual(sum(d["accepted"] for d in datas), 150 * CLIENTS)
        self.assertEqual(cb.db().scalar("SELECT count(*) FROM corebank.events WHERE source = %s", (caller,)), 150 * CLIENTS)


if __name__ == "__main__":
    unittest.main()
