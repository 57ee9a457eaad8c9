"""Concurrent postings through HTTP to one hot GL pair.

8 threads each capture, approve and post 25 journals on the same two GL
accounts at the same time. Every request must succeed (no 500, no deadlock,
no serialization failure), and afterwards the GL balances must equal the sum
posted, exactly, with the hash chain and the balances verifying in SQL
(issue 3: "concurrent postings to one account keep its balance exact").
"""
import unittest

import cbclient as cb
import corebanking as C

THREADS = 8
PER_THREAD = 25


def setUpModule():
    C.require_core()


class HotAccountConcurrencyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # A key of its own with a generous limit: 600+ requests in well under a minute.
        cls.key = C.new_key(["write"], rate=1000000)["key"]
        cls.api = C.Core(cls.key)
        admin = C.new_staff("admin")
        admin_api = C.Core(C.admin_key())  # creating GL accounts needs the admin scope
        # The hot pair is used by the hot test only, so its balances are exact.
        cls.asset = C.new_gl_account(admin_api, admin, "ASSET")
        cls.liability = C.new_gl_account(admin_api, admin, "LIABILITY")
        cls.other_asset = C.new_gl_account(admin_api, admin, "ASSET")
        cls.other_liability = C.new_gl_account(admin_api, admin, "LIABILITY")
        cls.tellers = [C.new_staff("teller") for _ in range(THREADS)]
        cls.supervisors = [C.new_staff("supervisor") for _ in range(2)]

    def worker(self, index, amounts, failures):
        api = C.Core(self.key, keepalive=True)
        teller = self.tellers[index]
        checker = self.supervisors[index % 2]
        posted = []
        try:
            for n in range(PER_THREAD):
                amount = amounts[n]
                body = C.journal(self.asset["id"], self.liability["id"], amount=amount,
                                 reference=f"HOT-{C.RUN_TAG}-{index}-{n}")
                steps = []
                resp = api.post("/v1/transactions", json_body=body, token=teller)
                steps.append(resp)
                if resp.status == 200:
                    tx = resp.json
                    resp = api.post(f"/v1/approvals/{tx['parkedChangeId']}/approve", json_body={}, token=checker)
                    steps.append(resp)
                    if resp.status == 200:
                        resp = api.post(f"/v1/transactions/{tx['id']}/post", token=teller)
                        steps.append(resp)
                        if resp.status == 200 and resp.json["status"] == "POSTED":
                            posted.append((tx["id"], amount))
                            continue
                failures.append(f"thread {index} journal {n}: {steps[-1]!r}")
        except BaseException as exc:  # reported in the main thread
            failures.append(f"thread {index}: {exc!r}")
        finally:
            api.http.close()
        return posted

    def test_parallel_posts_to_one_hot_pair_are_exact(self):
        """8 threads x 25 capture+approve+post to one GL pair: all 200, balances exact, chain verifies."""
        before_entries = C.count("journal_entries")
        failures = []
        amounts = [[(i * PER_THREAD + n) % 997 + 1 for n in range(PER_THREAD)] for i in range(THREADS)]
        results = cb.run_parallel([
            (lambda i=i: self.worker(i, amounts[i], failures)) for i in range(THREADS)], timeout=600)
        self.assertEqual(failures, [], "\n".join(failures[:10]))
        posted = [item for chunk in results for item in chunk]
        self.assertEqual(len(posted), THREADS * PER_THREAD)
        self.assertEqual(len({tx_id for tx_id, _ in posted}), THREADS * PER_THREAD)
        expected = sum(amount for _, amount in posted)
        self.assertEqual(expected, sum(sum(chunk) for chunk in amounts))

        asset = C.gl_account(self.api, self.asset["id"])
        liability = C.gl_account(self.api, self.liability["id"])
        self.assertEqual(asset["balanceMinor"], expected)
        self.assertEqual(liability["balanceMinor"], expected)
        self.assertEqual(asset["balance"], f"{expected // 100}.{expected % 100:02d}")

        sums = C.db().one("SELECT sum(amount_minor) FILTER (WHERE side = 'D') AS d,"
                          " sum(amount_minor) FILTER (WHERE side = 'C') AS c, count(*) AS n"
                          " FROM corebank.journal_entries WHERE gl_account_id IN (%s, %s)",
                          (self.asset["id"], self.liability["id"]))
        self.assertEqual((sums["d"], sums["c"], sums["n"]), (expected, expected, 2 * THREADS * PER_THREAD))
        self.assertGreaterEqual(C.count("journal_entries") - before_entries, 2 * THREADS * PER_THREAD)
        hashes = C.db().scalar("SELECT count(DISTINCT hash) FROM corebank.transactions WHERE id = ANY(%s::uuid[])",
                               ([tx_id for tx_id, _ in posted],))
        self.assertEqual(hashes, THREADS * PER_THREAD)
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_verify_chain()"), 0, C.chain_problems())
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_check_balances()"), 0,
                         C.balance_problems())
        for currency, (debits, credits) in C.trial_balance_sums().items():
            self.assertEqual(debits, credits, currency)

    def test_parallel_posts_of_one_released_journal_post_once(self):
        """Eight simultaneous posts of one released journal: exactly one 200, the others 409, two entries."""
        tx = C.capture(self.api, self.tellers[0], C.journal(self.other_asset["id"], self.other_liability["id"],
                                                          amount=7))
        C.approve(self.api, self.supervisors[0], tx["parkedChangeId"])
        key = self.key
        results = cb.run_parallel([
            (lambda t=t: C.Core(key).post(f"/v1/transactions/{tx['id']}/post", token=t))
            for t in self.tellers])
        statuses = sorted(r.status for r in results)
        self.assertEqual(statuses, [200] + [409] * (THREADS - 1), results)
        for resp in results:
            if resp.status == 409:
                cb.assert_error(resp, 409, "CONFLICT")
        self.assertEqual(C.count("journal_entries", "transaction_id = %s", (tx["id"],)), 2)

    def test_parallel_approvals_of_one_change_apply_once(self):
        """Two supervisors approving one change at once: one 200, one 409, one decision recorded."""
        tx = C.capture(self.api, self.tellers[1], C.journal(self.other_asset["id"], self.other_liability["id"],
                                                          amount=9))
        key = self.key
        results = cb.run_parallel([
            (lambda s=s: C.Core(key).post(f"/v1/approvals/{tx['parkedChangeId']}/approve", json_body={}, token=s))
            for s in self.supervisors])
        self.assertEqual(sorted(r.status for r in results), [200, 409], results)
        row = C.db().one("SELECT status, checker_id FROM corebank.parked_changes WHERE id = %s",
                         (tx["parkedChangeId"],))
        self.assertEqual(row["status"], "APPROVED")
        winner = [r for r in results if r.status == 200][0].json["checkerId"]
        self.assertEqual(str(row["checker_id"]), winner)


if __name__ == "__main__":
    unittest.main()
