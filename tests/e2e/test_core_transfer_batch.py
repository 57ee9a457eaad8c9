"""POST /v1/transfers/batch over HTTP (docs/design/batch-transfers.md).

Up to 8,000 transfers between deposit accounts in one request, one result per
transfer in request order: decided against the running balances, each by the
rules of POST /v1/transfers; linked chains post all or nothing
(LINKED_EVENT_FAILED, LINKED_EVENT_CHAIN_OPEN); cross-currency pairs and fixed
deposits are refused per item; every posted transfer is an ordinary TRANSFER
transaction with two entries and the token's user as maker and operator. The
whole request is refused, with nothing written, for bad input (400 naming the
first bad member as `transfers[3].amountMinor`), a missing or insufficient
key or token (401/403), a reused idempotency key (409), a body over
`batch_max_body_bytes` (413), a closed period (422) and the rate limit (429).

Every response is validated against the service's own /openapi.json by
corebanking.Core; balances and row counts are read back over HTTP and SQL.
"""
import datetime
import json
import re
import threading
import time

import cbclient as cb
import corebanking as C
import deposits_support as D

BATCH = "/v1/transfers/batch"
TRANSFERS_MAX = 8000
BATCH_MAX_BODY_BYTES = 4 * 1024 * 1024  # corebank.conf batch_max_body_bytes, default
AMOUNT_MAX = 10 ** 15
OTHER_MISSING_UUID = "00000000-0000-4000-8000-000000000001"


def setUpModule():
    C.require_core()


def ident(account):
    return account if isinstance(account, str) else account["id"]


def item(source, target, amount, **extra):
    """One transfer of a batch; source and target are accounts (dicts) or ids."""
    body = {"fromAccountId": ident(source), "toAccountId": ident(target), "amountMinor": amount}
    body.update(extra)
    return body


def lines(tx):
    return sorted((e["side"], e["glAccountCode"], e["currency"], e["amountMinor"], e["accountId"]) for e in tx["entries"])


class BatchBase(D.DepositsBase):
    """DepositsBase with the batch call and the checks of a batch response."""

    def batch(self, transfers, token=None, headers=None, key=C._UNSET, api=None, **top):
        body = {"transfers": transfers}
        body.update(top)
        return (api or self.api).post(BATCH, json_body=body, token=token or self.teller, headers=headers, key=key)

    def posted_batch(self, transfers, **kw):
        """The 200 body of a batch, with its results checked for order and counts."""
        body = C.ok(self.batch(transfers, **kw))
        self.assert_shape(body, len(transfers))
        return body

    def assert_shape(self, body, size):
        results = body["results"]
        self.assertEqual([r["index"] for r in results], list(range(size)), "results are not in request order")
        posted = sum(r["status"] == "POSTED" for r in results)
        self.assertEqual((body["postedCount"], body["failedCount"]), (posted, size - posted), body)

    def assert_statuses(self, body, expected):
        """expected: one entry per transfer, "POSTED" or the error code of a FAILED one."""
        got = [r["status"] if r["status"] == "POSTED" else r["error"] for r in body["results"]]
        self.assertEqual(got, expected, body)

    def failure(self, body, index, error, message=None):
        result = body["results"][index]
        self.assertEqual((result["status"], result.get("error")), ("FAILED", error), result)
        self.assertNotIn("transactionId", result)
        if isinstance(message, re.Pattern):
            self.assertRegex(result["message"], message)
        elif message is not None:
            self.assertEqual(result["message"], message)
        return result

    def balance(self, account):
        return self.account(ident(account))["balanceMinor"]

    def balances(self, *accounts):
        return [self.balance(a) for a in accounts]

    def assert_transfer(self, result, source, target, amount, operator=None, narrative=None):
        """The result's transaction: a POSTED TRANSFER, Dr source / Cr target, two entries, the operator recorded."""
        self.assertEqual(result["status"], "POSTED", result)
        self.assertRegex(result["transactionId"], C.UUID_RE)
        tx = C.get_tx(self.api, result["transactionId"])
        self.assert_posted_and_balanced(tx, "TRANSFER")
        self.assertEqual(tx["reference"], result["reference"])
        self.assertEqual(len(tx["entries"]), 2, tx)
        self.assertEqual(lines(tx), sorted([
            ("DEBIT", source["glAccountCode"], source["currency"], amount, source["id"]),
            ("CREDIT", target["glAccountCode"], target["currency"], amount, target["id"])]))
        operator = operator or self.teller
        self.assertEqual((tx["makerId"], tx["operatorId"]), (operator.id, operator.id))
        self.assertEqual(tx["valueDate"], str(D.real_today()))
        self.assertIsNone(tx["parkedChangeId"])
        if narrative is not None:
            self.assertEqual({e["narrative"] for e in tx["entries"]}, {narrative})
        return tx

    def freeze(self, account, reason="batch test"):
        return C.ok(self.api.put(f"/v1/accounts/{ident(account)}/freeze", json_body={"reason": reason},
                                 token=self.supervisor))

    def unfreeze(self, account):
        return C.ok(self.api.put(f"/v1/accounts/{ident(account)}/unfreeze", json_body={}, token=self.supervisor))

    def assert_invalid_first(self, resp, field):
        """400 VALIDATION_ERROR whose message names `field` first (`transfers[3].amountMinor: ...`)."""
        body = self.assert_error(resp, 400, "VALIDATION_ERROR")
        parts = cb.validation_parts(body["message"])
        if isinstance(field, re.Pattern):
            self.assertRegex(parts[0][0], field, body["message"])
        else:
            self.assertEqual(parts[0][0], field, body["message"])
        return body


class MixedBatchTest(BatchBase):
    def test_mixed_batch(self):
        """Posted and failed transfers side by side: results in order, counts, TRANSFER transactions, balances."""
        customer = self.individual()
        a = self.funded_savings(100_000, customer=customer)
        b = self.funded_savings(0, customer=customer)
        c = self.open_account(customer["id"], "CUR-STD")
        frozen = self.funded_savings(5_000)
        self.freeze(frozen)
        reference = f"INV-{C.uid()}"
        before = C.table_counts("transactions", "journal_entries")
        body = self.posted_batch([
            item(a, b, 2_500, currency="USD", reference=reference, narrative="rent"),
            item(b, c, 100),
            item(a, D.MISSING_UUID, 1),
            item(frozen, a, 1),
            item(a, c, AMOUNT_MAX),
            item(c, frozen, 50),
        ])
        self.assert_statuses(body, ["POSTED", "POSTED", "NOT_FOUND", "UNPROCESSABLE", "UNPROCESSABLE", "POSTED"])
        self.assertEqual((body["postedCount"], body["failedCount"]), (3, 3))
        results = body["results"]
        self.assertEqual(results[0]["reference"], reference)
        self.assert_transfer(results[0], a, b, 2_500, narrative="rent")
        self.assert_transfer(results[1], b, c, 100, narrative=f"Transfer {b['accountNumber']} to {c['accountNumber']}")
        self.assert_transfer(results[5], c, frozen, 50)
        self.failure(body, 2, "NOT_FOUND", "toAccountId: account not found")
        self.assertIn(frozen["accountNumber"], self.failure(body, 3, "UNPROCESSABLE", re.compile("FROZEN"))["message"])
        self.failure(body, 4, "UNPROCESSABLE", f"insufficient funds in account {a['accountNumber']}")
        # a default reference is the next TRANSACTION number; every reference is its own
        numbering = {n["entityType"]: n for n in C.ok(self.api.get("/v1/platform/numbering"))}["TRANSACTION"]
        for index in (1, 5):
            self.assertRegex(results[index]["reference"], "^" + re.escape(numbering["prefix"]) + r"\d+$")
        self.assertEqual(len({results[i]["reference"] for i in (0, 1, 5)}), 3)
        tx = C.get_tx(self.api, results[1]["transactionId"])
        self.assertEqual((tx["channel"], tx["branchId"], tx["description"]), ("BRANCH", b["branchId"], None))
        # only the posted ones were written
        after = C.table_counts("transactions", "journal_entries")
        self.assertEqual((after["transactions"] - before["transactions"],
                          after["journal_entries"] - before["journal_entries"]), (3, 6))
        self.assertEqual(self.balances(a, b, c, frozen), [97_500, 2_400, 50, 5_050])
        balance = C.ok(self.api.get(f"/v1/accounts/{a['id']}/balance"))
        self.assertEqual((balance["balanceMinor"], balance["currentBalanceMinor"]), (97_500, 97_500))
        statement = C.ok(self.api.get(f"/v1/accounts/{b['id']}/statement"))
        self.assertIn(results[0]["transactionId"], [line["transactionId"] for line in statement["lines"]])
        self.assertIn(results[1]["transactionId"], [line["transactionId"] for line in statement["lines"]])
        self.assertEqual(statement["closingBalanceMinor"], 2_400)
        self.assert_ledger_healthy()

    def test_running_balances(self):
        """Transfers are decided in request order against the balances the posted ones before them left."""
        a = self.funded_savings(1_000)
        b = self.funded_savings(0)
        c = self.funded_savings(0)
        body = self.posted_batch([
            item(a, b, 600),  # a 400
            item(a, b, 600),  # refused: a has 400
            item(b, c, 600),  # b got 600 from transfer 0
            item(c, a, 250),  # a 650
            item(a, b, 650),  # a 0
            item(a, c, 1),    # refused: a has 0
        ])
        self.assert_statuses(body, ["POSTED", "UNPROCESSABLE", "POSTED", "POSTED", "POSTED", "UNPROCESSABLE"])
        self.failure(body, 1, "UNPROCESSABLE", f"insufficient funds in account {a['accountNumber']}")
        self.assertEqual(self.balances(a, b, c), [0, 650, 350])
        self.assert_transfer(body["results"][4], a, b, 650)

    def test_minimum_balance_and_internal_accounts(self):
        """The source keeps its product minimum; an internal account has none and may go below zero."""
        customer = self.individual()
        plus = self.open_account(customer["id"], "SAV-PLUS", initial=20_000)  # minimum balance 5,000
        target = self.funded_savings(0, customer=customer)
        nostro = C.ok(self.api.post("/v1/accounts", token=self.teller, json_body={"productCode": "NOSTRO-USD"}))
        body = self.posted_batch([
            item(plus, target, 15_001),
            item(plus, target, 15_000),
            item(nostro, target, 7_000),
            item(target, nostro, 1),
        ])
        self.assert_statuses(body, ["UNPROCESSABLE", "POSTED", "POSTED", "POSTED"])
        message = self.failure(body, 0, "UNPROCESSABLE")["message"]
        self.assertIn("minimum balance", message)
        self.assertIn(plus["accountNumber"], message)
        self.assertEqual(self.balances(plus, target, nostro), [5_000, 21_999, -6_999])
        self.assert_transfer(body["results"][2], nostro, target, 7_000)

    def test_unknown_and_non_deposit_accounts(self):
        """An id that is no deposit account fails that transfer with NOT_FOUND; the others post."""
        a = self.funded_savings(1_000)
        b = self.funded_savings(0)
        gl_cash = C.ok(self.api.get(C.query("/v1/gl/accounts", code="1000", currency="USD")))
        gl_cash = (gl_cash["content"] if isinstance(gl_cash, dict) else gl_cash)[0]
        customer = self.individual()
        body = self.posted_batch([
            item(D.MISSING_UUID, a, 1),
            item(a, D.MISSING_UUID, 1),
            item(D.MISSING_UUID, OTHER_MISSING_UUID, 1),
            item(a, gl_cash["id"], 1),
            item(customer["id"], a, 1),
            item(a["id"].upper(), b, 10),
        ])
        self.assert_statuses(body, ["NOT_FOUND"] * 5 + ["POSTED"])
        self.failure(body, 0, "NOT_FOUND", "fromAccountId: account not found")
        self.failure(body, 1, "NOT_FOUND", "toAccountId: account not found")
        self.failure(body, 2, "NOT_FOUND", "fromAccountId: account not found")
        self.failure(body, 3, "NOT_FOUND", "toAccountId: account not found")
        self.failure(body, 4, "NOT_FOUND", "fromAccountId: account not found")
        self.assert_transfer(body["results"][5], a, b, 10)
        self.assertEqual(self.balances(a, b), [990, 10])


class AccountStateTest(BatchBase):
    def test_state_table(self):
        """FROZEN takes credits only; CLOSED and PENDING_ACTIVATION take nothing; each refusal names the account."""
        customer = self.individual()
        a = self.funded_savings(10_000, customer=customer)
        frozen = self.funded_savings(1_000, customer=customer)
        self.freeze(frozen)
        closed = self.funded_savings(0, customer=customer)
        C.ok(self.api.put(f"/v1/accounts/{closed['id']}/close", json_body={}, token=self.teller))
        pending = self.open_account(customer["id"], "TRUST-USD")
        self.assertEqual(pending["status"], "PENDING_ACTIVATION")
        body = self.posted_batch([
            item(frozen, a, 1),
            item(a, frozen, 100),
            item(closed, a, 1),
            item(a, closed, 1),
            item(pending, a, 1),
            item(a, pending, 1),
        ])
        self.assert_statuses(body, ["UNPROCESSABLE", "POSTED", "UNPROCESSABLE", "UNPROCESSABLE", "UNPROCESSABLE",
                                    "UNPROCESSABLE"])
        for index, account, state in ((0, frozen, "FROZEN"), (2, closed, "CLOSED"), (3, closed, "CLOSED"),
                                      (4, pending, "PENDING_ACTIVATION"), (5, pending, "PENDING_ACTIVATION")):
            message = self.failure(body, index, "UNPROCESSABLE")["message"]
            self.assertIn(account["accountNumber"], message)
            self.assertIn(state, message)
        self.assertEqual(self.balances(a, frozen, closed, pending), [9_900, 1_100, 0, 0])
        self.assertEqual(self.account(frozen["id"])["status"], "FROZEN")

    def test_dormant_accounts(self):
        """As POST /v1/transfers: a DORMANT source is reactivated; a DORMANT target is woken only by a transfer
        between two accounts of its own customer, else it takes the credit and stays DORMANT."""
        long_ago = D.real_today() - datetime.timedelta(days=200)
        owner = self.individual()
        other = self.individual()
        with self.pinned_today(long_ago):
            source = self.open_account(owner["id"], "CUR-STD", initial=10_000)
            target = self.open_account(owner["id"], "CUR-STD")
            own_target = self.open_account(other["id"], "CUR-STD")
        today = str(D.real_today())
        run = C.ok(self.api.post(C.query("/v1/dormancy/run", date=today), token=self.supervisor))
        marked = {a["accountId"] for a in run["accounts"]}
        self.assertLessEqual({source["id"], target["id"], own_target["id"]}, marked)
        active = self.funded_savings(5_000, customer=other)
        body = self.posted_batch([item(source, active, 1_000), item(active, target, 400),
                                  item(active, own_target, 300)])
        self.assert_statuses(body, ["POSTED", "POSTED", "POSTED"])
        revived = self.account(source["id"])
        self.assertEqual((revived["status"], revived["dormantSince"], revived["lastCustomerActivityOn"]),
                         ("ACTIVE", None, today))
        still = self.account(target["id"])
        self.assertEqual((still["status"], still["balanceMinor"]), ("DORMANT", 400))
        woken = self.account(own_target["id"])
        self.assertEqual((woken["status"], woken["balanceMinor"]), ("ACTIVE", 300))
        history = C.ok(self.api.get(f"/v1/accounts/{source['id']}/status-history"))
        self.assertEqual((history[-1]["fromStatus"], history[-1]["toStatus"], history[-1]["actorId"]),
                         ("DORMANT", "ACTIVE", self.teller.id))
        # leave nothing for later dormancy runs
        C.ok(self.api.put(f"/v1/accounts/{target['id']}/reactivate", token=self.teller))
        for account, amount in ((source, 9_000), (target, 400), (own_target, 300)):
            self.withdraw(account["id"], amount)
            C.ok(self.api.put(f"/v1/accounts/{account['id']}/close", token=self.teller))

    def test_dormant_source_of_a_failed_transfer_stays_dormant(self):
        """A DORMANT source whose transfer fails, on its own or with its chain, is not reactivated."""
        long_ago = D.real_today() - datetime.timedelta(days=200)
        customer = self.individual()
        with self.pinned_today(long_ago):
            alone = self.open_account(customer["id"], "CUR-STD", initial=1_000)
            chained = self.open_account(customer["id"], "CUR-STD", initial=1_000)
        run = C.ok(self.api.post(C.query("/v1/dormancy/run", date=str(D.real_today())), token=self.supervisor))
        self.assertLessEqual({alone["id"], chained["id"]}, {a["accountId"] for a in run["accounts"]})
        target = self.funded_savings(0, customer=customer)
        body = self.posted_batch([item(alone, target, 5_000), item(chained, target, 100, linked=True),
                                  item(target, D.MISSING_UUID, 1)])
        self.assert_statuses(body, ["UNPROCESSABLE", "LINKED_EVENT_FAILED", "NOT_FOUND"])
        for account in (alone, chained):
            after = self.account(account["id"])
            self.assertEqual((after["status"], after["balanceMinor"], after["lastCustomerActivityOn"]),
                             ("DORMANT", 1_000, str(long_ago)))
            history = C.ok(self.api.get(f"/v1/accounts/{account['id']}/status-history"))
            self.assertEqual(history[-1]["toStatus"], "DORMANT")
        self.assertEqual(self.balance(target), 0)
        for account in (alone, chained):
            C.ok(self.api.put(f"/v1/accounts/{account['id']}/reactivate", token=self.teller))
            self.withdraw(account["id"], 1_000)
            C.ok(self.api.put(f"/v1/accounts/{account['id']}/close", token=self.teller))

    def test_cross_currency_and_fixed_deposits_are_refused(self):
        """Cross-currency pairs and fixed deposits fail UNPROCESSABLE pointing to POST /v1/transfers."""
        customer = self.individual()
        usd = self.funded_savings(100_000, customer=customer)
        other = self.funded_savings(0, customer=customer)
        zwg = self.open_account(customer["id"], "CUR-ZWG")
        zwg_funded = self.open_account(customer["id"], "CUR-ZWG")
        self.deposit(zwg_funded["id"], 9_000)
        fixed = self.open_account(customer["id"], "FD-3M", initial=200_000)
        body = self.posted_batch([
            item(usd, zwg, 100),
            item(zwg_funded, usd, 100),
            item(fixed, usd, 100),
            item(usd, fixed, 100),
            item(usd, other, 100, currency="ZWG"),
            item(usd, other, 100, currency="USD"),
            item(zwg_funded, zwg, 250, currency="ZWG"),
        ])
        self.assert_statuses(body, ["UNPROCESSABLE"] * 5 + ["POSTED", "POSTED"])
        for index in range(4):
            self.assertIn("/v1/transfers", self.failure(body, index, "UNPROCESSABLE")["message"])
        self.assertIn("USD", self.failure(body, 4, "UNPROCESSABLE")["message"])
        self.assertEqual(self.balances(usd, other, zwg, zwg_funded, fixed), [99_900, 100, 250, 8_750, 200_000])
        zwg_tx = self.assert_transfer(body["results"][6], zwg_funded, zwg, 250)
        self.assertEqual({e["currency"] for e in zwg_tx["entries"]}, {"ZWG"})


class LinkedChainTest(BatchBase):
    def test_a_chain_posts_together(self):
        """A chain posts when every transfer of it can: a later one may spend what an earlier one brought."""
        a = self.funded_savings(1_000)
        b = self.funded_savings(0)
        c = self.funded_savings(0)
        body = self.posted_batch([item(a, b, 500, linked=True), item(b, c, 500, linked=True), item(c, a, 100),
                                  item(a, b, 1, linked=True), item(a, b, 2, linked=False)])
        self.assert_statuses(body, ["POSTED"] * 5)
        self.assertEqual(self.balances(a, b, c), [597, 3, 400])

    def test_one_failure_fails_the_whole_chain(self):
        """The failing transfer reports its own error, the rest of its chain LINKED_EVENT_FAILED naming it."""
        a = self.funded_savings(1_000)
        b = self.funded_savings(0)
        c = self.funded_savings(0)
        frozen = self.funded_savings(1_000)
        self.freeze(frozen)
        before = C.count("transactions")
        body = self.posted_batch([
            item(a, c, 100),                 # 0 posts
            item(a, b, 500, linked=True),    # 1 chain 1..3
            item(b, c, 500, linked=True),    # 2
            item(frozen, c, 1),              # 3 fails: FROZEN
            item(a, c, 900),                 # 4 posts: the chain's 500 never left a
            item(b, c, 1),                   # 5 fails: the chain's 500 never reached b
        ])
        self.assert_statuses(body, ["POSTED", "LINKED_EVENT_FAILED", "LINKED_EVENT_FAILED", "UNPROCESSABLE", "POSTED",
                                    "UNPROCESSABLE"])
        for index in (1, 2):
            self.assertRegex(self.failure(body, index, "LINKED_EVENT_FAILED")["message"], r"(?<!\d)3(?!\d)")
        self.assertIn("FROZEN", self.failure(body, 3, "UNPROCESSABLE")["message"])
        self.failure(body, 5, "UNPROCESSABLE", f"insufficient funds in account {b['accountNumber']}")
        self.assertEqual(C.count("transactions") - before, 2)
        self.assertEqual(self.balances(a, b, c, frozen), [0, 0, 1_000, 1_000])

    def test_first_and_last_transfer_of_a_chain_failing(self):
        """A chain fails whichever of its transfers fails, the first or the last (running balances included)."""
        a = self.funded_savings(1_000)
        b = self.funded_savings(0)
        c = self.funded_savings(0)
        body = self.posted_batch([
            item(a, b, 5_000, linked=True),  # 0 fails: insufficient funds
            item(a, c, 1),                   # 1 LINKED_EVENT_FAILED
            item(a, b, 1_000, linked=True),  # 2 LINKED_EVENT_FAILED
            item(b, c, 1_001),               # 3 fails: b holds only the 1,000 of transfer 2
            item(a, b, 1_000),               # 4 posts: nothing of either chain moved
        ])
        self.assert_statuses(body, ["UNPROCESSABLE", "LINKED_EVENT_FAILED", "LINKED_EVENT_FAILED", "UNPROCESSABLE",
                                    "POSTED"])
        self.assertRegex(self.failure(body, 1, "LINKED_EVENT_FAILED")["message"], r"(?<!\d)0(?!\d)")
        self.assertRegex(self.failure(body, 2, "LINKED_EVENT_FAILED")["message"], r"(?<!\d)3(?!\d)")
        self.failure(body, 3, "UNPROCESSABLE", f"insufficient funds in account {b['accountNumber']}")
        self.assertEqual(self.balances(a, b, c), [0, 1_000, 0])

    def test_not_found_in_a_chain_fails_it(self):
        """A NOT_FOUND transfer fails its chain like any other refusal."""
        a = self.funded_savings(1_000)
        b = self.funded_savings(0)
        body = self.posted_batch([item(a, b, 10, linked=True), item(a, D.MISSING_UUID, 10, linked=True),
                                  item(a, b, 10)])
        self.assert_statuses(body, ["LINKED_EVENT_FAILED", "NOT_FOUND", "LINKED_EVENT_FAILED"])
        self.assertEqual(self.balances(a, b), [1_000, 0])

    def test_open_chain_at_the_end_fails_as_a_whole(self):
        """`linked: true` on the last transfer leaves its chain open: every transfer of it LINKED_EVENT_CHAIN_OPEN."""
        a = self.funded_savings(1_000)
        b = self.funded_savings(0)
        body = self.posted_batch([item(a, b, 1), item(a, b, 2, linked=True), item(a, b, 3, linked=True)])
        self.assert_statuses(body, ["POSTED", "LINKED_EVENT_CHAIN_OPEN", "LINKED_EVENT_CHAIN_OPEN"])
        self.assertEqual((body["postedCount"], body["failedCount"]), (1, 2))
        alone = self.posted_batch([item(a, b, 4, linked=True)])
        self.assert_statuses(alone, ["LINKED_EVENT_CHAIN_OPEN"])
        self.assertEqual((alone["postedCount"], alone["failedCount"]), (0, 1))
        self.assertEqual(self.balances(a, b), [999, 1])


class IdempotencyTest(BatchBase):
    def test_replay_returns_the_first_response_and_posts_nothing(self):
        """The same batch under the same key returns the first response, even after the accounts changed."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        frozen = self.funded_savings(1_000)
        self.freeze(frozen)
        key = f"batch-{C.uid()}"
        transfers = [item(a, b, 1_000), item(frozen, b, 1)]
        first = self.posted_batch(transfers, headers={"Idempotency-Key": key})
        self.assert_statuses(first, ["POSTED", "UNPROCESSABLE"])
        self.unfreeze(frozen)
        before = C.ledger_counts()
        again = self.posted_batch(transfers, headers={"Idempotency-Key": key})
        self.assertEqual(again, first)
        in_body = self.posted_batch(transfers, idempotencyKey=key)
        self.assertEqual(in_body, first)
        both = self.posted_batch(transfers, idempotencyKey=key, headers={"Idempotency-Key": key})
        self.assertEqual(both, first)
        self.assertEqual(C.ledger_counts(), before)
        self.assertEqual(self.balances(a, b, frozen), [9_000, 1_000, 1_000])

    def test_key_reused_for_another_request_is_409(self):
        """The key with another batch is 409 CONFLICT; nothing written."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        key = f"batch-{C.uid()}"
        self.posted_batch([item(a, b, 1_000)], headers={"Idempotency-Key": key})
        before = C.ledger_counts()
        for transfers, extra in (([item(a, b, 1_001)], {}), ([item(a, b, 1_000), item(a, b, 1)], {}),
                                 ([item(a, b, 1_000)], {"channel": "MOBILE"})):
            self.assert_error(self.batch(transfers, headers={"Idempotency-Key": key}, **extra), 409, "CONFLICT")
        self.assertEqual(C.ledger_counts(), before)
        self.assertEqual(self.balances(a, b), [9_000, 1_000])

    def test_header_and_body_key_must_agree(self):
        """Idempotency-Key and idempotencyKey differing is 400 BAD_REQUEST, as on POST /v1/transfers; bad header
        lengths 400."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        before = C.ledger_counts()
        resp = self.batch([item(a, b, 1)], idempotencyKey="one", headers={"Idempotency-Key": "two"})
        self.assert_error(resp, 400, "BAD_REQUEST", "Idempotency-Key header and idempotencyKey field differ")
        self.assert_error(self.batch([item(a, b, 1)], headers={"Idempotency-Key": "k" * 129}), 400,
                          ("BAD_REQUEST", "VALIDATION_ERROR"))
        self.assertEqual(C.ledger_counts(), before)
        self.assertEqual(self.balances(a, b), [10_000, 0])

    def test_a_refused_request_does_not_take_the_key(self):
        """A 400 under a key stores nothing: the key then serves a valid batch, once."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        key = f"batch-{C.uid()}"
        self.assert_invalid_first(self.batch([item(a, b, -1)], headers={"Idempotency-Key": key}),
                                  "transfers[0].amountMinor")
        first = self.posted_batch([item(a, b, 5)], headers={"Idempotency-Key": key})
        self.assertEqual(self.posted_batch([item(a, b, 5)], headers={"Idempotency-Key": key}), first)
        self.assertEqual(self.balances(a, b), [9_995, 5])

    def test_concurrent_repeats_post_once(self):
        """Six simultaneous copies of one keyed batch: one posting, every 200 the same response."""
        a = self.funded_savings(100_000)
        b = self.funded_savings(0)
        key = f"batch-{C.uid()}"
        transfers = [item(a, b, 10 + i) for i in range(20)]
        answers = []

        def send():
            answers.append(C.Core(C.admin_key(), validate=False).post(
                BATCH, token=self.teller, headers={"Idempotency-Key": key}, json_body={"transfers": transfers}))

        threads = [threading.Thread(target=send) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(answers), 6)
        self.assertTrue(all(r.status in (200, 503) for r in answers), [repr(r) for r in answers])
        for resp in answers:
            C.openapi().check("POST", BATCH, resp)
        bodies = [r.json for r in answers if r.status == 200]
        self.assertTrue(bodies)
        self.assertTrue(all(body == bodies[0] for body in bodies), bodies)
        self.assertEqual(self.balances(a, b), [100_000 - sum(range(10, 30)), sum(range(10, 30))])


class AuthorisationTest(BatchBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.manager = C.new_staff("branch_manager")
        cls.read_key = C.new_key(["read"])["key"]
        cls.write_key = C.new_key(["write"])["key"]

    def test_key_token_and_role(self):
        """No or an unknown key 401, a read key 403, no or a bad token 401, a role without the operation 403."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        transfers = [item(a, b, 1)]
        before = C.ledger_counts()
        cb.assert_error(self.batch(transfers, key=None), 401, "UNAUTHORIZED")
        cb.assert_error(self.batch(transfers, key="cb_core_not-a-key"), 401, "UNAUTHORIZED")
        self.assert_error(self.batch(transfers, key=self.read_key), 403, "FORBIDDEN", "scope")
        cb.assert_error(self.api.post(BATCH, json_body={"transfers": transfers}), 401, "UNAUTHORIZED")
        cb.assert_error(self.batch(transfers, token="not.a.token"), 401, "UNAUTHORIZED")
        for staff in (self.auditor, self.compliance):
            with self.subTest(roles=staff.roles):
                self.assert_error(self.batch(transfers, token=staff), 403, "FORBIDDEN", "roles")
        self.assertEqual(C.ledger_counts(), before)
        self.assertEqual(self.balances(a, b), [10_000, 0])
        for staff in (self.teller, self.supervisor, self.manager, self.admin):
            with self.subTest(roles=staff.roles):
                body = self.posted_batch(transfers, token=staff, key=self.write_key)
                self.assert_transfer(body["results"][0], a, b, 1, operator=staff)
        self.assertEqual(self.balances(a, b), [9_996, 4])

    def test_actor_comes_from_the_token(self):
        """Maker and operator are the token's user; operatorId or makerId in the body is an unknown member (400)."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        before = C.ledger_counts()
        for extra in ({"operatorId": self.admin.id}, {"makerId": self.admin.id}):
            name = next(iter(extra))
            with self.subTest(member=name):
                self.assert_invalid_first(self.batch([item(a, b, 1)], **extra), name)
                self.assert_invalid_first(self.batch([item(a, b, 1, **extra)]), f"transfers[0].{name}")
        self.assertEqual(C.ledger_counts(), before)
        body = self.posted_batch([item(a, b, 1)], token=self.teller)
        self.assert_transfer(body["results"][0], a, b, 1, operator=self.teller)

    def test_branch_is_the_staff_members_else_the_accounts(self):
        """Branch of a posted transfer: the acting staff member's branch, else the source account's."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        codes = C.branches(self.api)
        other = next(code for code in ("HRE", "BYO", "MUT") if codes[code]["id"] != a["branchId"])
        branch_teller = C.new_staff("teller", branch=other)
        body = self.posted_batch([item(a, b, 1)], token=branch_teller, channel="mobile.app_1")
        tx = self.assert_transfer(body["results"][0], a, b, 1, operator=branch_teller)
        self.assertEqual((tx["branchId"], tx["channel"]), (codes[other]["id"], "MOBILE.APP_1"))
        body = self.posted_batch([item(a, b, 1)])
        tx = C.get_tx(self.api, body["results"][0]["transactionId"])
        self.assertEqual(tx["branchId"], a["branchId"])

    def test_rate_limit(self):
        """A batch is one request of the key's per-minute limit: over it 429 with Retry-After, nothing written."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        api = C.Core(C.new_key(["write"], rate=1)["key"])
        cb.wait_for_window_room(60, 15)
        self.posted_batch([item(a, b, 1), item(a, b, 2)], api=api)
        before = C.ledger_counts()
        resp = self.batch([item(a, b, 3)], api=api)
        self.assert_error(resp, 429, "RATE_LIMIT_EXCEEDED")
        self.assertRegex(resp.header("Retry-After") or "", r"^\d+$")
        self.assertEqual(C.ledger_counts(), before)
        self.assertEqual(self.balances(a, b), [9_997, 3])


class ValidationTest(BatchBase):
    def valid(self):
        if not hasattr(self, "_accounts"):
            self._accounts = (self.funded_savings(10_000), self.funded_savings(0))
        a, b = self._accounts
        return [item(a, b, 1 + i) for i in range(6)]

    def with_item(self, index, change):
        transfers = self.valid()
        transfers[index] = change(dict(transfers[index]))
        return transfers

    def cases(self):
        """(label, request body, the field named first)."""
        self.valid()
        a, b = self._accounts

        def set_(**members):
            return lambda t: {**t, **members}

        def drop(name):
            return lambda t: {k: v for k, v in t.items() if k != name}

        at = "transfers[3]"
        rows = [
            ("transfers missing", {}, "transfers"),
            ("transfers null", {"transfers": None}, "transfers"),
            ("transfers an object", {"transfers": {"0": item(a, b, 1)}}, "transfers"),
            ("transfers a string", {"transfers": "x"}, "transfers"),
            ("transfers empty", {"transfers": []}, "transfers"),
            ("item a number", {"transfers": self.with_item(3, lambda t: 5)}, at),
            ("item an array", {"transfers": self.with_item(3, lambda t: [t])}, at),
            ("item a string", {"transfers": self.with_item(3, lambda t: "x")}, at),
        ]
        item_cases = [
            ("fromAccountId", drop("fromAccountId")), ("fromAccountId", set_(fromAccountId=None)),
            ("fromAccountId", set_(fromAccountId="AC1")), ("fromAccountId", set_(fromAccountId=5)),
            ("fromAccountId", set_(fromAccountId="")), ("fromAccountId", set_(fromAccountId=a["id"][:-1] + "g")),
            ("toAccountId", drop("toAccountId")), ("toAccountId", set_(toAccountId="nope")),
            ("toAccountId", set_(toAccountId=a["id"])), ("toAccountId", set_(toAccountId=a["id"].upper())),
            ("amountMinor", drop("amountMinor")), ("amountMinor", set_(amountMinor=None)),
            ("amountMinor", set_(amountMinor=0)), ("amountMinor", set_(amountMinor=-1)),
            ("amountMinor", set_(amountMinor=1.5)), ("amountMinor", set_(amountMinor=100.0)),
            ("amountMinor", set_(amountMinor="100")), ("amountMinor", set_(amountMinor=True)),
            ("amountMinor", set_(amountMinor=AMOUNT_MAX + 1)), ("amountMinor", set_(amountMinor=2 ** 64)),
            ("amountMinor", set_(amountMinor=-2 ** 63)), ("amountMinor", set_(amountMinor=[1])),
            ("currency", set_(currency="EUR")), ("currency", set_(currency="US")), ("currency", set_(currency=5)),
            ("currency", set_(currency="")),
            ("reference", set_(reference="R" * 65)), ("reference", set_(reference=7)),
            ("reference", set_(reference="line\nbreak")), ("narrative", set_(narrative="N" * 401)),
            ("narrative", set_(narrative={"text": "x"})),
            ("linked", set_(linked="yes")), ("linked", set_(linked=1)), ("linked", set_(linked="true")),
            ("zzUnknown", set_(zzUnknown=1)), ("operatorId", set_(operatorId=self.teller.id)),
            ("valueDate", set_(valueDate=str(D.real_today()))), ("branchId", set_(branchId=a["branchId"])),
            ("description", set_(description="x")),
        ]
        for number, (name, change) in enumerate(item_cases):
            changed = change({})
            label = f"item {name} {changed.get(name, 'missing')!r}"[:60] + f" #{number}"
            rows.append((label, {"transfers": self.with_item(3, change)}, f"{at}.{name}"))
        rows.append(("amount instead of amountMinor",
                     {"transfers": self.with_item(3, lambda t: {**drop("amountMinor")(t), "amount": "1.00"})},
                     re.compile(r"^transfers\[3\]\.amount(Minor)?$")))
        for value in ("over the counter", "C" * 33, "", 5, "caf\u00e9"):
            rows.append((f"channel {value!r}"[:40], {"transfers": self.valid(), "channel": value}, "channel"))
        for value in ("", "k" * 129, 5):
            rows.append((f"idempotencyKey {value!r}"[:40], {"transfers": self.valid(), "idempotencyKey": value},
                         "idempotencyKey"))
        for name in ("zzUnknown", "operatorId", "makerId", "valueDate", "branchCode"):
            rows.append((f"top-level {name}", {"transfers": self.valid(), name: "x"}, name))
        transfers = self.with_item(3, set_(amountMinor=-5))
        transfers[5] = {**transfers[5], "fromAccountId": "bad"}
        rows.append(("first of two bad items", {"transfers": transfers}, f"{at}.amountMinor"))
        return rows

    def test_every_rule_is_400_naming_the_first_bad_member(self):
        """Each rule of the request table: 400 VALIDATION_ERROR `transfers[3].field: reason`; nothing written."""
        rows = self.cases()
        a, b = self._accounts
        before = C.ledger_counts()
        for label, body, field in rows:
            with self.subTest(case=label):
                resp = self.api.post(BATCH, json_body=body, token=self.teller)
                self.assert_invalid_first(resp, field)
        self.assertEqual(C.ledger_counts(), before)
        self.assertEqual(self.balances(a, b), [10_000, 0])

    def test_malformed_json_is_400(self):
        """A body that is not JSON, or not an object, is 400 with the error body; nothing written."""
        before = C.ledger_counts()
        for raw in ("{", '{"transfers": [}', "[]", '"transfers"', "null", ""):
            with self.subTest(body=raw):
                resp = self.api.post(BATCH, body=raw, token=self.teller)
                self.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))
        self.assertEqual(C.ledger_counts(), before)

    def test_blank_reference_and_narrative_take_the_defaults(self):
        """As on POST /v1/transfers, reference and narrative are trimmed of spaces and blank ones are absent."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        body = self.posted_batch([item(a, b, 3, reference="", narrative="   "),
                                  item(a, b, 4, reference="  INV-9 ", narrative=" rent ")])
        self.assert_statuses(body, ["POSTED", "POSTED"])
        self.assertRegex(body["results"][0]["reference"], r"^TX[0-9]{10}$")
        self.assert_transfer(body["results"][0], a, b, 3,
                             narrative=f"Transfer {a['accountNumber']} to {b['accountNumber']}")
        self.assertEqual(body["results"][1]["reference"], "INV-9")
        self.assert_transfer(body["results"][1], a, b, 4, narrative="rent")

    def test_limits_are_inclusive(self):
        """amountMinor 10^15, a 64-character reference, 400-character narrative, 32-character channel and
        128-character key are accepted (the huge amount then fails as insufficient funds, not as input)."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        reference = f"R{C.uid()}".ljust(64, "R")
        narrative = "\U0001F3E6" * 400  # characters, not bytes
        body = self.posted_batch([
            item(a, b, AMOUNT_MAX),
            item(a, b, 7, reference=reference, narrative=narrative, currency="usd", linked=False),
        ], channel="C" * 32, idempotencyKey="k" * 100 + C.uid() + "k" * 18)
        self.assert_statuses(body, ["UNPROCESSABLE", "POSTED"])
        self.failure(body, 0, "UNPROCESSABLE", f"insufficient funds in account {a['accountNumber']}")
        self.assertEqual(body["results"][1]["reference"], reference)
        tx = self.assert_transfer(body["results"][1], a, b, 7, narrative=narrative)
        self.assertEqual(tx["channel"], "C" * 32)


class LimitsTest(BatchBase):
    def test_8000_transfers_in_one_request(self):
        """8,000 transfers (a body over the service's 1 MiB) post in one request; 8,001 are 400."""
        sources = [self.funded_savings(100_000) for _ in range(4)]
        targets = [self.funded_savings(0) for _ in range(4)]
        transfers = []
        expected = {a["id"]: 100_000 for a in sources}
        expected.update({a["id"]: 0 for a in targets})
        for i in range(TRANSFERS_MAX):
            source, target = sources[i % 4], targets[(i // 4) % 4]
            amount = 1 + i % 7
            transfers.append(item(source, target, amount))
            expected[source["id"]] -= amount
            expected[target["id"]] += amount
        size = len(json.dumps({"transfers": transfers}).encode())
        self.assertGreater(size, C.MAX_BODY_BYTES, "the 8,000 batch should be over the service's general limit")
        before = C.table_counts("transactions", "journal_entries")
        started = time.monotonic()
        body = self.posted_batch(transfers)
        elapsed = time.monotonic() - started
        self.assertEqual((body["postedCount"], body["failedCount"]), (TRANSFERS_MAX, 0),
                         [r for r in body["results"] if r["status"] != "POSTED"][:3])
        self.assertEqual(len({r["transactionId"] for r in body["results"]}), TRANSFERS_MAX)
        self.assertEqual(len({r["reference"] for r in body["results"]}), TRANSFERS_MAX)
        after = C.table_counts("transactions", "journal_entries")
        self.assertEqual((after["transactions"] - before["transactions"],
                          after["journal_entries"] - before["journal_entries"]), (TRANSFERS_MAX, 2 * TRANSFERS_MAX))
        self.assertEqual({a["id"]: self.balance(a) for a in sources + targets}, expected)
        for index in (0, TRANSFERS_MAX - 1):
            self.assert_transfer(body["results"][index], sources[index % 4], targets[(index // 4) % 4],
                                 1 + index % 7)
        self.assert_ledger_healthy()
        print(f"\n  8,000 transfers: {size} bytes, {elapsed:.2f} s", flush=True)
        counts = C.ledger_counts()
        resp = self.batch(transfers + [item(sources[0], targets[0], 1)])
        self.assert_invalid_first(resp, "transfers")
        self.assertEqual(C.ledger_counts(), counts)

    def send_raw(self, path, raw):
        headers = {"X-API-Key": self.api.key, "Authorization": f"Bearer {self.teller.token}"}
        return self.api.http.send_streaming("POST", path, raw, headers=headers)

    def test_body_over_the_batch_limit_is_413(self):
        """A body over batch_max_body_bytes is 413 with the error body; one just under it is read; nothing written."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        valid = json.dumps({"transfers": [item(a, b, 1)]}).encode()
        before = C.ledger_counts()
        over = valid[:-1] + b" " * (BATCH_MAX_BODY_BYTES + 1 - len(valid)) + b"}"
        self.assertEqual(len(over), BATCH_MAX_BODY_BYTES + 1)
        resp = self.send_raw(BATCH, over)
        self.assertIsNotNone(resp, "the server closed without an answer")
        self.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
        C.openapi().check("POST", BATCH, resp)
        huge = b'{"transfers": [], "x": "' + b"z" * (BATCH_MAX_BODY_BYTES + 1024 * 1024) + b'"}'
        resp = self.send_raw(BATCH, huge)
        self.assertIsNotNone(resp, "the server closed without an answer")
        self.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
        self.assertEqual(C.ledger_counts(), before)
        # exactly at the limit: read and posted
        at_limit = valid[:-1] + b" " * (BATCH_MAX_BODY_BYTES - len(valid)) + b"}"
        self.assertEqual(len(at_limit), BATCH_MAX_BODY_BYTES)
        resp = self.send_raw(BATCH, at_limit)
        self.assertIsNotNone(resp, "the server closed without an answer")
        body = C.ok(resp)
        self.assert_statuses(body, ["POSTED"])
        self.assertEqual(self.balances(a, b), [9_999, 1])

    def test_the_batch_limit_is_for_the_batch_only(self):
        """POST /v1/transfers keeps the service's 1 MiB limit."""
        before = C.ledger_counts()
        raw = b'{"narrative": "' + b"x" * (C.MAX_BODY_BYTES + 100) + b'"}'
        resp = self.send_raw("/v1/transfers", raw)
        self.assertIsNotNone(resp, "the server closed without an answer")
        self.assert_error(resp, 413, "PAYLOAD_TOO_LARGE")
        self.assertEqual(C.ledger_counts(), before)


class ConcurrencyTest(BatchBase):
    def test_batches_over_the_same_accounts_in_any_order(self):
        """Four batches at once over the same accounts in different orders: no deadlock, every cent accounted for."""
        accounts = [self.funded_savings(50_000) for _ in range(4)]
        plans = []
        for k in range(4):
            order = accounts[k:] + accounts[:k]
            plans.append([item(order[i % 4], order[(i + 1) % 4], 1 + (i + k) % 5) for i in range(200)])
        answers = [None] * 4

        def send(k):
            answers[k] = C.Core(C.admin_key(), validate=False).post(BATCH, token=self.teller,
                                                                    json_body={"transfers": plans[k]})

        threads = [threading.Thread(target=send, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        expected = {a["id"]: 50_000 for a in accounts}
        for k, resp in enumerate(answers):
            self.assertIsNotNone(resp, f"batch {k} got no answer")
            C.openapi().check("POST", BATCH, resp)
            body = C.ok(resp)
            self.assertEqual(body["failedCount"], 0, body)
            for transfer in plans[k]:
                expected[transfer["fromAccountId"]] -= transfer["amountMinor"]
                expected[transfer["toAccountId"]] += transfer["amountMinor"]
        self.assertEqual({a["id"]: self.balance(a) for a in accounts}, expected)
        self.assert_ledger_healthy()


class ClosedPeriodTest(BatchBase):
    def test_closed_period_is_422(self):
        """With the business date in a closed month the whole batch is 422 `accounting period YYYY-MM is closed`."""
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        manager = C.new_staff("branch_manager")
        month = C.unique_past_month()
        change = C.ok(self.api.post(f"/v1/periods/{month}/close", token=manager))
        C.approve(self.api, self.admin, change["id"])
        try:
            before = C.ledger_counts()
            with self.pinned_today(f"{month}-15"):
                resp = self.batch([item(a, b, 1), item(a, b, 2)], headers={"Idempotency-Key": f"batch-{C.uid()}"})
            self.assert_error(resp, 422, "UNPROCESSABLE", f"accounting period {month} is closed")
            self.assertEqual(resp.json["message"], f"accounting period {month} is closed")
            self.assertEqual(C.ledger_counts(), before)
            self.assertEqual(self.balances(a, b), [10_000, 0])
        finally:
            reopen = C.ok(self.api.post(f"/v1/periods/{month}/reopen", token=manager))
            C.approve(self.api, self.admin, reopen["id"])


if __name__ == "__main__":
    import unittest
    unittest.main()


class StatementTimeoutTest(BatchBase):
    def test_a_batch_may_wait_longer_than_a_single_transfer(self):
        """A batch waits for account locks under batch_statement_timeout_ms (60 s), not statement_timeout_ms (5 s):
        with an account locked for 6.5 s elsewhere, a single transfer is cancelled (503) and the batch posts."""
        import psycopg2
        a = self.funded_savings(10_000)
        b = self.funded_savings(0)
        holder = psycopg2.connect(cb.DATABASE_URL)
        try:
            with holder.cursor() as cur:
                cur.execute("SELECT 1 FROM corebank.ledger_accounts WHERE id = %s FOR UPDATE", (a["id"],))
            answers = {}

            def send(name, path, body):
                answers[name] = C.Core(C.admin_key(), validate=False).post(path, token=self.teller, json_body=body)

            threads = [threading.Thread(target=send, args=("single", "/v1/transfers",
                                                           {"fromAccountId": a["id"], "toAccountId": b["id"],
                                                            "amountMinor": 1})),
                       threading.Thread(target=send, args=("batch", BATCH, {"transfers": [item(a, b, 2)]}))]
            for t in threads:
                t.start()
            time.sleep(6.5)
            holder.rollback()
            for t in threads:
                t.join()
        finally:
            holder.close()
        self.assert_error(answers["single"], 503, "SERVICE_UNAVAILABLE")
        body = C.ok(answers["batch"])
        self.assert_statuses(body, ["POSTED"])
        self.assertEqual(self.balances(a, b), [10_000 - 2, 2])

