"""Standing orders over HTTP, every endpoint of 01-core-banking.md: list by
account (accountId required), create, pause, resume, cancel, and execute for a
date with a result that says what ran, what failed and why. Executing twice
for the same date never pays twice, also when the two executions run at once.
"""
import datetime
import threading

import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


class StandingOrdersTest(D.DepositsBase):
    def pair(self, balance=100_000):
        customer = self.individual()
        source = self.open_account(customer["id"], "SAV-TIER", initial=balance or None)
        target = self.open_account(customer["id"], "CUR-STD")
        return customer, source, target

    def create(self, source, target, amount=10_000, **extra):
        body = {"sourceAccountId": source["id"], "targetAccountId": target["id"], "amountMinor": amount,
                "frequency": "MONTHLY", "startDate": str(D.real_today())}
        body.update(extra)
        return C.ok(self.api.post("/v1/standing-orders", json_body=body, token=self.teller))

    def execute(self, date=None, token=None):
        return C.ok(self.api.post(C.query("/v1/standing-orders/execute", date=str(date or D.real_today())),
                                  token=token or self.supervisor))

    @staticmethod
    def result_of(run, order):
        return [r for r in run["results"] if r["standingOrderId"] == order["id"]]

    def test_create_list_get(self):
        """An order is ACTIVE, due on its start date; listed for its source and its target, newest first."""
        _, source, target = self.pair()
        order = self.create(source, target, reference=f"rent-{C.uid()}", description="Rent", currency="usd")
        self.assertEqual((order["status"], order["frequency"], order["nextRunDate"], order["lastRunDate"]),
                         ("ACTIVE", "MONTHLY", str(D.real_today()), None))
        self.assertEqual((order["sourceAccountNumber"], order["targetAccountNumber"], order["currency"],
                          order["amount"]), (source["accountNumber"], target["accountNumber"], "USD", "100.00"))
        self.assertTrue(order["reference"].startswith("RENT-"))
        self.assertEqual(order["createdBy"], self.teller.id)
        second = self.create(source, target, amount=500, frequency="WEEKLY")
        self.assertRegex(second["reference"], r"^SO\d{8}$")
        for account in (source, target):
            listed = C.ok(self.api.get(C.query("/v1/standing-orders", accountId=account["id"])))
            self.assertEqual([o["id"] for o in listed], [second["id"], order["id"]])
        self.assertEqual(C.ok(self.api.get(f"/v1/standing-orders/{order['id']}")), order)
        self.assert_error(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": source["id"], "targetAccountId": target["id"], "amountMinor": 1, "frequency": "DAILY",
            "startDate": str(D.real_today()), "reference": order["reference"]}), 409, "CONFLICT")

    def test_pay_to_a_beneficiary(self):
        """beneficiaryId names a payee of the source's customer with an account in this bank."""
        customer, source, _ = self.pair()
        landlord = self.funded_savings(0, product="CUR-STD")
        beneficiary = C.ok(self.api.post(f"/v1/customers/{customer['id']}/beneficiaries", token=self.teller,
                                         json_body={"name": "Landlord", "accountNumber": landlord["accountNumber"]}))
        order = C.ok(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": source["id"], "beneficiaryId": beneficiary["id"], "amountMinor": 2_000,
            "frequency": "MONTHLY", "startDate": str(D.real_today())}))
        self.assertEqual((order["targetAccountId"], order["beneficiaryId"]), (landlord["id"], beneficiary["id"]))
        external = C.ok(self.api.post(f"/v1/customers/{customer['id']}/beneficiaries", token=self.teller, json_body={
            "name": "Elsewhere", "accountNumber": "998877", "bankSwiftCode": "CBZKZWHX", "currency": "USD"}))
        self.assert_error(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": source["id"], "beneficiaryId": external["id"], "amountMinor": 1, "frequency": "MONTHLY",
            "startDate": str(D.real_today())}), 422, "UNPROCESSABLE")
        stranger, _, _ = self.pair()
        theirs = C.ok(self.api.post(f"/v1/customers/{stranger['id']}/beneficiaries", token=self.teller,
                                    json_body={"name": "L", "accountNumber": landlord["accountNumber"]}))
        self.assert_error(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": source["id"], "beneficiaryId": theirs["id"], "amountMinor": 1, "frequency": "MONTHLY",
            "startDate": str(D.real_today())}), 422, "UNPROCESSABLE", "another customer")

    def test_pause_resume_cancel(self):
        """ACTIVE <-> PAUSED; CANCELLED is terminal; other moves are 409; a paused order is not executed."""
        _, source, target = self.pair()
        order = self.create(source, target)
        base = f"/v1/standing-orders/{order['id']}"
        paused = C.ok(self.api.put(f"{base}/pause", token=self.teller))
        self.assertEqual((paused["status"], paused["updatedBy"]), ("PAUSED", self.teller.id))
        self.assert_error(self.api.put(f"{base}/pause", token=self.teller), 409, "CONFLICT")
        self.assertEqual(self.result_of(self.execute(), order), [])
        self.assertEqual(self.account(target["id"])["balanceMinor"], 0)
        self.assertEqual(C.ok(self.api.put(f"{base}/resume", token=self.teller))["status"], "ACTIVE")
        self.assert_error(self.api.put(f"{base}/resume", token=self.teller), 409, "CONFLICT")
        cancelled = C.ok(self.api.put(f"{base}/cancel", token=self.teller))
        self.assertEqual((cancelled["status"], cancelled["nextRunDate"]), ("CANCELLED", None))
        for verb in ("pause", "resume", "cancel"):
            self.assert_error(self.api.put(f"{base}/{verb}", token=self.teller), 409, "CONFLICT")
        self.assertEqual(self.result_of(self.execute(), order), [])

    def test_execute_pays_once_per_date(self):
        """Due today: SUCCEEDED with a TRANSFER; executing again for the date: ALREADY_EXECUTED, nothing paid."""
        _, source, target = self.pair()
        order = self.create(source, target, amount=12_500)
        run = self.execute()
        mine = self.result_of(run, order)
        self.assertEqual(len(mine), 1)
        self.assertEqual((mine[0]["outcome"], mine[0]["scheduledDate"], mine[0]["amountMinor"], mine[0]["reason"]),
                         ("SUCCEEDED", str(D.real_today()), 12_500, None))
        self.assertEqual(run["date"], str(D.real_today()))
        self.assertGreaterEqual(run["succeeded"], 1)
        self.assertEqual(run["due"], run["succeeded"] + run["failed"] + run["alreadyExecuted"])
        tx = C.ok(self.api.get(f"/v1/transactions/{mine[0]['transactionId']}"))
        self.assert_posted_and_balanced(tx, "TRANSFER")
        self.assertEqual((tx["channel"], tx["reference"]),
                         ("STANDING_ORDER", f"SO-{order['reference']}-{D.real_today():%Y%m%d}"))
        self.assertEqual(tx["operatorId"], self.supervisor.id)
        after = C.ok(self.api.get(f"/v1/standing-orders/{order['id']}"))
        self.assertEqual((after["lastRunDate"], after["consecutiveFailures"]), (str(D.real_today()), 0))
        self.assertGreater(after["nextRunDate"], str(D.real_today()))
        again = self.result_of(self.execute(), order)
        self.assertEqual([(r["outcome"], r["transactionId"]) for r in again], [("ALREADY_EXECUTED", tx["id"])])
        self.assertEqual(self.account(target["id"])["balanceMinor"], 12_500)
        self.assertEqual(self.account(source["id"])["balanceMinor"], 100_000 - 12_500)

    def test_concurrent_executions_pay_once(self):
        """Two executions for the same date at the same time: the order is paid exactly once."""
        _, source, target = self.pair()
        order = self.create(source, target, amount=3_000, frequency="DAILY")
        answers = []

        def run():
            answers.append(C.Core(C.admin_key()).post(C.query("/v1/standing-orders/execute",
                                                              date=str(D.real_today()))))

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        outcomes = [r["outcome"] for resp in answers if resp.status == 200
                    for r in resp.json["results"] if r["standingOrderId"] == order["id"]]
        self.assertEqual(outcomes.count("SUCCEEDED"), 1, [repr(a) for a in answers])
        self.assertEqual(self.account(target["id"])["balanceMinor"], 3_000)
        self.assertEqual(C.count("standing_order_executions", "standing_order_id = %s", (order["id"],)), 1)

    def test_failure_is_reported_and_retried(self):
        """Insufficient funds: FAILED with the reason, the others still run, next run date unchanged."""
        _, poor, target = self.pair(balance=1_000)
        _, rich, rich_target = self.pair()
        failing = self.create(poor, target, amount=5_000)
        paying = self.create(rich, rich_target, amount=5_000)
        run = self.execute()
        failed = self.result_of(run, failing)[0]
        self.assertEqual((failed["outcome"], failed["transactionId"], failed["nextRunDate"]),
                         ("FAILED", None, str(D.real_today())))
        self.assertTrue(failed["reason"])
        self.assertEqual(self.result_of(run, paying)[0]["outcome"], "SUCCEEDED")
        after = C.ok(self.api.get(f"/v1/standing-orders/{failing['id']}"))
        self.assertEqual((after["status"], after["consecutiveFailures"], after["lastFailureReason"]),
                         ("ACTIVE", 1, failed["reason"]))
        self.assertEqual(self.account(poor["id"])["balanceMinor"], 1_000)
        repeated = self.result_of(self.execute(), failing)
        self.assertEqual([r["outcome"] for r in repeated], ["ALREADY_EXECUTED"])
        self.assertIn("FAILED", repeated[0]["reason"])

    def test_end_date_completes_the_order(self):
        """An order whose next date passes its end date is COMPLETED after paying."""
        _, source, target = self.pair()
        today = str(D.real_today())
        order = self.create(source, target, amount=1_000, endDate=today)
        self.assertEqual(self.result_of(self.execute(), order)[0]["outcome"], "SUCCEEDED")
        done = C.ok(self.api.get(f"/v1/standing-orders/{order['id']}"))
        self.assertEqual((done["status"], done["nextRunDate"]), ("COMPLETED", None))
        self.assert_error(self.api.put(f"/v1/standing-orders/{order['id']}/pause", token=self.teller), 409, "CONFLICT")

    def test_create_rules(self):
        """Business refusals: start in the past (400), currencies differ, a CLOSED account (422), unknown (404)."""
        customer, source, target = self.pair()
        zwg = self.open_account(customer["id"], "CUR-ZWG")
        yesterday = str(D.real_today() - datetime.timedelta(days=1))
        self.assert_invalid(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": source["id"], "targetAccountId": target["id"], "amountMinor": 1, "frequency": "DAILY",
            "startDate": yesterday}), "startDate")
        self.assert_error(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": source["id"], "targetAccountId": zwg["id"], "amountMinor": 1, "frequency": "DAILY",
            "startDate": str(D.real_today())}), 422, "UNPROCESSABLE", "one currency")
        C.ok(self.api.put(f"/v1/accounts/{zwg['id']}/close", token=self.teller))
        self.assert_error(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": zwg["id"], "targetAccountId": target["id"], "amountMinor": 1, "frequency": "DAILY",
            "startDate": str(D.real_today())}), 422, "UNPROCESSABLE")
        self.assert_error(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": D.MISSING_UUID, "targetAccountId": target["id"], "amountMinor": 1, "frequency": "DAILY",
            "startDate": str(D.real_today())}), 404, "NOT_FOUND")

    def test_bad_input(self):
        """Every field, query and path problem is 400; the spec's required query parameters are required."""
        _, source, target = self.pair()
        body = {"sourceAccountId": source["id"], "targetAccountId": target["id"], "amountMinor": 100,
                "frequency": "MONTHLY", "startDate": str(D.real_today())}
        cases = [({**body, "amountMinor": 1.5}, "amountMinor"), ({**body, "amountMinor": 0}, "amountMinor"),
                 ({k: v for k, v in body.items() if k != "amountMinor"}, "amountMinor"),
                 ({**body, "frequency": "HOURLY"}, "frequency"), ({**body, "startDate": "2026-02-30"}, "startDate"),
                 ({**body, "endDate": "2000-01-01"}, "endDate"), ({**body, "targetAccountId": source["id"]},
                                                                  "targetAccountId"),
                 ({k: v for k, v in body.items() if k != "targetAccountId"}, "targetAccountId"),
                 ({**body, "beneficiaryId": D.MISSING_UUID}, "targetAccountId"),
                 ({**body, "reference": "rent 1"}, "reference"), ({**body, "currency": "EUR"}, "currency"),
                 ({**body, "status": "PAUSED"}, "status")]
        for request, field in cases:
            self.assert_invalid(self.api.post("/v1/standing-orders", json_body=request, token=self.teller), field)
        self.assert_error(self.api.get("/v1/standing-orders"), 400, "BAD_REQUEST", "accountId: is required")
        self.assert_error(self.api.get("/v1/standing-orders?accountId=42"), 400, "BAD_REQUEST", "accountId")
        self.assert_error(self.api.get(C.query("/v1/standing-orders", accountId=D.MISSING_UUID)), 404, "NOT_FOUND")
        self.assert_error(self.api.post("/v1/standing-orders/execute", token=self.supervisor), 400, "BAD_REQUEST",
                          "date: is required")
        self.assert_error(self.api.post("/v1/standing-orders/execute?date=31-12-2026", token=self.supervisor), 400,
                          "BAD_REQUEST", "date")
        tomorrow = str(D.real_today() + datetime.timedelta(days=1))
        self.assert_error(self.api.post(C.query("/v1/standing-orders/execute", date=tomorrow), token=self.supervisor),
                          422, "UNPROCESSABLE")
        self.assert_error(self.api.put("/v1/standing-orders/so-1/pause", token=self.teller), 400, "BAD_REQUEST")
        self.assert_error(self.api.put(f"/v1/standing-orders/{D.MISSING_UUID}/cancel", token=self.teller), 404,
                          "NOT_FOUND")
        self.assert_error(self.api.get(f"/v1/standing-orders/{D.MISSING_UUID}"), 404, "NOT_FOUND")
        order = self.create(source, target)
        self.assert_error(self.api.put(f"/v1/standing-orders/{order['id']}/pause", json_body={"until": "x"},
                                       token=self.teller), 400, "BAD_REQUEST", "takes no request body")


if __name__ == "__main__":
    import unittest
    unittest.main()
