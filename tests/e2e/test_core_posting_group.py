"""Single transfers posted in groups (docs/design/posting-group.md).

Goal: when many POST /v1/transfers arrive at once, the tier posts them
together in one call of corebank.core_postings, and nobody can tell from the
answers: every 200 answer is one transaction in the journal, exactly once,
and nothing is in the journal that was not answered; balances are the opening
ones plus the answered transfers; transfers that together would overdraw an
account pass exactly as far as its balance pays and the rest get the single
path's 422 body, while the others of the same moment post; concurrent
requests under one Idempotency-Key post once and all answer the same
transaction; a replay of an earlier key answers the stored response; a key
reused with another body, malformed requests and unknown accounts get, in a
busy moment, the same error bodies as alone. Method: 16 threads, each with
its own keep-alive connection, send one request each at the same instant
(cbclient.run_parallel), several rounds; the expected figures are computed
here, the journal and xmin (which database transaction wrote a row) are read
with superuser SQL, and "alone" is the same request sent by itself afterwards
(a request alone is a group of one: the single call).

The check that groups formed at all (some transaction wrote two or more
answered transfers) reads CORE_POSTING_GROUP_LANES from this process's
environment, as corebankd does from its own, and is skipped at 0.
"""
import os
import unittest

import cbclient as cb
import corebanking as C
from deposits_support import DepositsBase, MISSING_UUID

THREADS = 16
ROUNDS = 4


def setUpModule():
    C.require_core()


def grouping_on():
    return os.environ.get("CORE_POSTING_GROUP_LANES", "2").strip() != "0"


def error_parts(resp):
    """An error body without its timestamp: what must equal the single path's."""
    body = resp.json
    return resp.status, {k: v for k, v in body.items() if k != "timestamp"}


class PostingGroupTest(DepositsBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # A key of its own: a few hundred requests in seconds.
        cls.key = C.new_key(["write"], rate=1000000)["key"]

    # ------------------------------------------------------------ helpers

    def burst(self, requests):
        """Send each (body, headers) on its own thread and connection at the same instant; responses in order."""
        def send(body, headers):
            api = C.Core(self.key, keepalive=True)
            try:
                return api.post("/v1/transfers", token=self.teller, json_body=body, headers=headers)
            finally:
                api.http.close()
        return cb.run_parallel([(lambda b=b, h=h: send(b, h)) for b, h in requests], timeout=300)

    def alone(self, body, headers=None):
        return self.api.post("/v1/transfers", token=self.teller, json_body=body, headers=headers)

    def balance(self, account_id):
        return self.account(account_id)["balanceMinor"]

    def assert_in_journal_once(self, answers):
        """Every answered transaction is one row with its two entries; returns how many database transactions wrote them."""
        ids = [a["id"] for a in answers]
        self.assertEqual(len(set(ids)), len(ids), "two answers name one transaction")
        rows = C.db().rows("SELECT id::text AS id, xmin::text AS xid, (SELECT count(*) FROM corebank.journal_entries e"
                           " WHERE e.transaction_id = t.id) AS entries FROM corebank.transactions t"
                           " WHERE id = ANY(%s::uuid[])", (ids,))
        self.assertEqual(sorted(r["id"] for r in rows), sorted(ids))
        self.assertTrue(all(r["entries"] == 2 for r in rows), rows)
        return len({r["xid"] for r in rows})

    def assert_ledger_checks_clean(self):
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_check_balances()"), 0,
                         C.balance_problems())
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_verify_chain()"), 0, C.chain_problems())

    # ------------------------------------------------------------ tests

    def test_concurrent_transfers_post_once_with_exact_balances(self):
        """16 at once, 4 rounds, between four accounts and into one hot account: journal and balances exact."""
        opening = 1_000_000
        accounts = [self.funded_savings(amount=opening) for _ in range(4)]
        hot = self.funded_savings(amount=0)
        expected = {a["id"]: opening for a in accounts}
        expected[hot["id"]] = 0
        tag = f"PG-{C.uid()}"
        answered = []
        for round_ in range(ROUNDS):
            requests = []
            for t in range(THREADS):
                source = accounts[t % 4]["id"]
                # Half into the hot account, half around the ring of four.
                target = hot["id"] if t % 2 == 0 else accounts[(t + 1) % 4]["id"]
                amount = 100 + round_ * THREADS + t
                requests.append(({"fromAccountId": source, "toAccountId": target, "amountMinor": amount,
                                  "reference": f"{tag}-{round_}-{t}"}, None))
            responses = self.burst(requests)
            for (body, _), resp in zip(requests, responses):
                tx = C.ok(resp)
                self.assertEqual(tx["reference"], body["reference"])
                self.assertEqual(tx["status"], "POSTED")
                expected[body["fromAccountId"]] -= body["amountMinor"]
                expected[body["toAccountId"]] += body["amountMinor"]
                answered.append(tx)
        self.assertEqual(len(answered), ROUNDS * THREADS)
        writers = self.assert_in_journal_once(answered)
        # Nothing in the journal that was not answered.
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.transactions WHERE reference LIKE %s",
                                       (f"{tag}-%",)), len(answered))
        for account_id, balance in expected.items():
            self.assertEqual(self.balance(account_id), balance, account_id)
        self.assert_ledger_checks_clean()
        if grouping_on():
            self.assertLess(writers, len(answered),
                            "every transfer was its own database transaction: no group formed")

    def test_overdrawing_transfers_get_the_single_paths_error_while_others_post(self):
        """Four debits of 4,000 from 10,000 in one moment: two pass, two get the single path's 422; others post."""
        for round_ in range(2):
            poor = self.funded_savings(amount=10_000)
            sink = self.funded_savings(amount=0)
            rich = [self.funded_savings(amount=100_000) for _ in range(4)]
            requests = []
            for t in range(THREADS):
                if t % 4 == round_:  # the racing debits sit at different places in the burst each round
                    requests.append(({"fromAccountId": poor["id"], "toAccountId": sink["id"], "amountMinor": 4_000},
                                     None))
                else:
                    requests.append(({"fromAccountId": rich[t % 4]["id"], "toAccountId": sink["id"],
                                      "amountMinor": 1_000}, None))
            responses = self.burst(requests)
            racing = [r for (b, _), r in zip(requests, responses) if b["fromAccountId"] == poor["id"]]
            others = [r for (b, _), r in zip(requests, responses) if b["fromAccountId"] != poor["id"]]
            self.assertEqual(len(racing), 4)
            paid = [r for r in racing if r.status == 200]
            refused = [r for r in racing if r.status != 200]
            self.assertEqual(len(paid), 2, [repr(r) for r in racing])
            # The single path's answer to the same overdraw, asked alone now.
            alone = self.alone({"fromAccountId": poor["id"], "toAccountId": sink["id"], "amountMinor": 4_000})
            cb.assert_error(alone, 422, "UNPROCESSABLE", f"insufficient funds in account {poor['accountNumber']}")
            for resp in refused:
                self.assertEqual(error_parts(resp), error_parts(alone))
            answered = [C.ok(r) for r in paid] + [C.ok(r) for r in others]
            self.assertEqual(len(others), THREADS - 4)
            self.assert_in_journal_once(answered)
            self.assertEqual(self.balance(poor["id"]), 2_000)
            self.assertEqual(self.balance(sink["id"]), 2 * 4_000 + (THREADS - 4) * 1_000)
            for k, account in enumerate(rich):
                debits = 0 if k == round_ else THREADS // 4
                self.assertEqual(self.balance(account["id"]), 100_000 - debits * 1_000)
        self.assert_ledger_checks_clean()

    def test_concurrent_requests_under_one_key_post_once(self):
        """16 at once under one Idempotency-Key, 2 rounds: one posting, every answer that transaction; a replay too."""
        for _ in range(2):
            source = self.funded_savings(amount=100_000)
            target = self.funded_savings(amount=0)
            key = f"pg-{C.uid()}"
            body = {"fromAccountId": source["id"], "toAccountId": target["id"], "amountMinor": 7_000}
            # Half share the key; the other half are transfers of their own in the same moment.
            others = [self.funded_savings(amount=10_000) for _ in range(THREADS // 2)]
            requests = []
            for t in range(THREADS):
                if t % 2 == 0:
                    requests.append((body, {"Idempotency-Key": key}))
                else:
                    requests.append(({"fromAccountId": others[t // 2]["id"], "toAccountId": target["id"],
                                      "amountMinor": 500}, None))
            responses = self.burst(requests)
            shared = [C.ok(r) for (_, h), r in zip(requests, responses) if h]
            own = [C.ok(r) for (_, h), r in zip(requests, responses) if not h]
            self.assertEqual({tx["id"] for tx in shared}, {shared[0]["id"]}, "one key answered two transactions")
            for tx in shared:
                self.assertEqual(tx, shared[0])
            self.assert_in_journal_once([shared[0]] + own)
            self.assertEqual(self.balance(source["id"]), 100_000 - 7_000)
            self.assertEqual(self.balance(target["id"]), 7_000 + len(own) * 500)
            replay = C.ok(self.alone(body, {"Idempotency-Key": key}))
            self.assertEqual(replay, shared[0])
        self.assert_ledger_checks_clean()

    def test_replays_and_a_reused_key_in_a_busy_moment(self):
        """An earlier key replays its stored response and a key reused with another body is 409, as alone."""
        source = self.funded_savings(amount=100_000)
        target = self.funded_savings(amount=0)
        keys = [f"pg-{C.uid()}" for _ in range(3)]
        bodies = [{"fromAccountId": source["id"], "toAccountId": target["id"], "amountMinor": 1_000 + n}
                  for n in range(3)]
        first = [C.ok(self.alone(b, {"Idempotency-Key": k})) for b, k in zip(bodies, keys)]
        others = [self.funded_savings(amount=10_000) for _ in range(THREADS)]
        requests = []
        for t in range(THREADS):
            if t in (0, 5, 10):  # replays
                n = t // 5
                requests.append((bodies[n], {"Idempotency-Key": keys[n]}))
            elif t in (3, 12):  # the first key with another amount
                requests.append(({**bodies[0], "amountMinor": 999}, {"Idempotency-Key": keys[0]}))
            else:
                requests.append(({"fromAccountId": others[t]["id"], "toAccountId": target["id"],
                                  "amountMinor": 300}, None))
        responses = self.burst(requests)
        conflict_alone = self.alone({**bodies[0], "amountMinor": 999}, {"Idempotency-Key": keys[0]})
        cb.assert_error(conflict_alone, 409, "CONFLICT")
        posted = []
        for t, resp in enumerate(responses):
            if t in (0, 5, 10):
                self.assertEqual(C.ok(resp), first[t // 5])
            elif t in (3, 12):
                self.assertEqual(error_parts(resp), error_parts(conflict_alone))
            else:
                posted.append(C.ok(resp))
        self.assert_in_journal_once(first + posted)
        self.assertEqual(self.balance(source["id"]), 100_000 - sum(b["amountMinor"] for b in bodies))
        self.assertEqual(self.balance(target["id"]), sum(b["amountMinor"] for b in bodies) + 300 * len(posted))

    def test_bad_requests_in_a_busy_moment_answer_as_alone(self):
        """Malformed requests and unknown accounts among good transfers get the bodies they get alone."""
        source = self.funded_savings(amount=100_000)
        target = self.funded_savings(amount=0)
        frozen = self.funded_savings(amount=50_000)
        C.ok(self.api.put(f"/v1/accounts/{frozen['id']}/freeze", token=self.supervisor,
                          json_body={"reason": "posting group e2e"}))
        bad = [
            {"fromAccountId": MISSING_UUID, "toAccountId": target["id"], "amountMinor": 100},   # unknown source
            {"fromAccountId": source["id"], "toAccountId": MISSING_UUID, "amountMinor": 100},   # unknown target
            {"fromAccountId": source["id"], "toAccountId": target["id"], "amountMinor": 1.5},   # not an integer
            {"fromAccountId": source["id"], "toAccountId": source["id"], "amountMinor": 100},   # same account
            {"fromAccountId": source["id"], "amountMinor": 100},                                # no target
            {"fromAccountId": frozen["id"], "toAccountId": target["id"], "amountMinor": 100},   # frozen source
            {"fromAccountId": source["id"], "toAccountId": target["id"], "amountMinor": 100,
             "currency": "ZWG"},                                                                # wrong currency
        ]
        expected_alone = []
        good_count = 0
        requests = []
        for t in range(THREADS):
            if t % 2 == 1 and t // 2 < len(bad):
                requests.append((bad[t // 2], None))
            else:
                requests.append(({"fromAccountId": source["id"], "toAccountId": target["id"], "amountMinor": 10},
                                 None))
                good_count += 1
        responses = self.burst(requests)
        for (body, _), resp in zip(requests, responses):
            if body in bad:
                expected_alone.append((body, resp))
        posted = [C.ok(r) for (b, _), r in zip(requests, responses) if b not in bad]
        self.assertEqual(len(posted), good_count)
        statuses = set()
        for body, resp in expected_alone:
            alone = self.alone(body)
            self.assertGreaterEqual(alone.status, 400, repr(alone))
            self.assertLess(alone.status, 500, repr(alone))
            self.assertEqual(error_parts(resp), error_parts(alone), body)
            statuses.add(alone.status)
        self.assertTrue({400, 404} <= statuses, statuses)
        self.assert_in_journal_once(posted)
        self.assertEqual(self.balance(source["id"]), 100_000 - 10 * good_count)
        self.assertEqual(self.balance(target["id"]), 10 * good_count)
        self.assertEqual(self.balance(frozen["id"]), 50_000)


if __name__ == "__main__":
    unittest.main()
