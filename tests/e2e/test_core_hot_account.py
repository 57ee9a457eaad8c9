"""A hot customer account over HTTP (issue 12 part 3, docs/design/posting-engine.md
section 3).

Goal: credits from many clients into one account at once all post, and the
balance the API shows is exact whether the credits went in place or into
credit stripes; the maintenance pass folds the stripes without moving the
balance; debits from the hot account racing each other never overdraw it:
exactly as many pass as the balance pays, the others are 422 "insufficient
funds". Method: 8 threads, each with its own keep-alive connection, post
transfers at the same instant; the expected figures are computed here; the
journal, the stripes and the balance checks are read with superuser SQL.
"""
import unittest

import cbclient as cb
import corebanking as C
from deposits_support import DepositsBase

THREADS = 8
CREDITS_PER_THREAD = 20
DEBITS_PER_THREAD = 5
DEBIT = 10_000


def setUpModule():
    C.require_core()


class HotAccountTest(DepositsBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # A key of its own: some 250 requests in a few seconds.
        cls.key = C.new_key(["write"], rate=1000000)["key"]

    def transfers(self, pairs_by_thread):
        """Post each thread's (from, to, amount) transfers at once; the responses per thread."""
        def worker(pairs):
            api = C.Core(self.key, keepalive=True)
            try:
                return [api.post("/v1/transfers", token=self.teller,
                                 json_body={"fromAccountId": f, "toAccountId": t, "amountMinor": a})
                        for f, t, a in pairs]
            finally:
                api.http.close()
        return cb.run_parallel([(lambda p=p: worker(p)) for p in pairs_by_thread], timeout=300)

    def journal_balance(self, account_id):
        return C.db().scalar("SELECT coalesce(sum(CASE WHEN side = 'C' THEN amount_minor ELSE -amount_minor END), 0)"
                             " FROM corebank.journal_entries WHERE ledger_account_id = %s", (account_id,))

    def test_credits_do_not_queue_and_debits_never_overdraw(self):
        """8 threads credit one account, the fold keeps its balance, racing debits pay exactly what it holds."""
        hot = self.funded_savings(amount=0)
        sources = [self.funded_savings(amount=1_000_000) for _ in range(THREADS)]
        sink = self.funded_savings(amount=0)

        amounts = [[(t * CREDITS_PER_THREAD + n) % 997 + 1 for n in range(CREDITS_PER_THREAD)] for t in range(THREADS)]
        results = self.transfers([[(sources[t]["id"], hot["id"], a) for a in amounts[t]] for t in range(THREADS)])
        failures = [repr(r) for chunk in results for r in chunk if r.status != 200]
        self.assertEqual(failures, [], "\n".join(failures[:5]))
        credited = sum(sum(chunk) for chunk in amounts)

        view = self.account(hot["id"])
        self.assertEqual(view["balanceMinor"], credited)
        self.assertEqual(self.journal_balance(hot["id"]), credited)
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_check_balances()"), 0,
                         C.balance_problems())

        # The maintenance pass folds the stripes: the balance does not move
        # and balance_minor alone holds it again.
        C.db().scalar("SELECT corebank.core_maintenance()::text")
        self.assertEqual(self.account(hot["id"])["balanceMinor"], credited)
        self.assertEqual(C.db().scalar("SELECT balance_minor FROM corebank.ledger_accounts WHERE id = %s",
                                       (hot["id"],)), credited)
        self.assertEqual(C.db().scalar("SELECT coalesce(sum(credit_minor), 0) FROM corebank.account_credit_stripes"
                                       " WHERE account_id = %s", (hot["id"],)), 0)

        # Debits racing each other: exactly what the balance pays.
        results = self.transfers([[(hot["id"], sink["id"], DEBIT)] * DEBITS_PER_THREAD for _ in range(THREADS)])
        statuses = [r for chunk in results for r in chunk]
        paid = [r for r in statuses if r.status == 200]
        refused = [r for r in statuses if r.status != 200]
        self.assertEqual(len(paid), min(credited // DEBIT, THREADS * DEBITS_PER_THREAD))
        for resp in refused:
            cb.assert_error(resp, 422, "UNPROCESSABLE",
                            f"insufficient funds in account {hot['accountNumber']}")
        left = credited - len(paid) * DEBIT
        self.assertGreaterEqual(left, 0)
        self.assertEqual(self.account(hot["id"])["balanceMinor"], left)
        self.assertEqual(self.account(sink["id"])["balanceMinor"], len(paid) * DEBIT)
        self.assertEqual(self.journal_balance(hot["id"]), left)
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_check_balances()"), 0,
                         C.balance_problems())
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_verify_chain()"), 0, C.chain_problems())


if __name__ == "__main__":
    unittest.main()
