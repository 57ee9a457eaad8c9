"""Deposits, withdrawals, transfers and fees over HTTP: each one balanced
posting with its transaction type, channel, operator and branch, visible in
the journal; minimum balance and account-state rules; idempotency keys; fixed
deposits (one deposit, early-withdrawal penalty); cross-currency transfers at
the dated exchange rate through the FX position accounts, balanced per
currency; and the Exchange Rates resource (docs/core-banking.md, Money).
"""
import datetime
import threading

import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


def lines(tx):
    return sorted((e["side"], e["glAccountCode"], e["currency"], e["amountMinor"], e["accountId"]) for e in tx["entries"])


class PostingsTest(D.DepositsBase):
    def test_deposit(self):
        """DEPOSIT: Dr cash 1000 / Cr the account's control GL; channel, operator, branch recorded."""
        account = self.funded_savings(0)
        tx = self.deposit(account["id"], 12_345, channel="mobile", reference=f"DEP-{C.uid()}", description="Cash in")
        self.assert_posted_and_balanced(tx, "DEPOSIT")
        self.assertEqual(lines(tx), sorted([("DEBIT", "1000", "USD", 12_345, None),
                                            ("CREDIT", "2000", "USD", 12_345, account["id"])]))
        self.assertEqual((tx["channel"], tx["operatorId"], tx["branchId"], tx["description"]),
                         ("MOBILE", self.teller.id, account["branchId"], "Cash in"))
        self.assertEqual(tx["valueDate"], str(D.real_today()))
        self.assertEqual(self.account(account["id"])["balanceMinor"], 12_345)
        hre = C.branches(self.api)["HRE"]
        elsewhere = self.deposit(account["id"], 1, branchCode="hre")
        self.assertEqual(elsewhere["branchId"], hre["id"])
        self.assert_error(self.api.post("/v1/deposits", token=self.teller, json_body={
            "accountId": account["id"], "amountMinor": 1, "sourceGlAccountCode": "4100"}), 422, "UNPROCESSABLE")
        self.assert_error(self.api.post("/v1/deposits", token=self.teller, json_body={
            "accountId": account["id"], "amountMinor": 1, "currency": "ZWG"}), 422, "UNPROCESSABLE", "is in USD")

    def test_withdrawal_with_fee_and_minimum_balance(self):
        """SAV-PLUS: the withdrawal fee is an extra credit line of the same posting; the minimum balance holds."""
        customer = self.individual()
        account = self.open_account(customer["id"], "SAV-PLUS", initial=20_000)  # minimum balance 5,000
        tx = self.withdraw(account["id"], 10_000)
        self.assert_posted_and_balanced(tx, "WITHDRAWAL")
        self.assertEqual(lines(tx), sorted([("DEBIT", "2000", "USD", 10_100, account["id"]),
                                            ("CREDIT", "1000", "USD", 10_000, None),
                                            ("CREDIT", "4100", "USD", 100, None)]))
        self.assertEqual(self.account(account["id"])["balanceMinor"], 9_900)
        before = C.ledger_counts()
        self.assert_error(self.api.post("/v1/withdrawals", token=self.teller, json_body={
            "accountId": account["id"], "amountMinor": 4_801}), 422, "UNPROCESSABLE")
        self.assertEqual(C.ledger_counts(), before)
        self.assert_posted_and_balanced(self.withdraw(account["id"], 4_800), "WITHDRAWAL")
        self.assertEqual(self.account(account["id"])["balanceMinor"], 5_000)

    def test_fixed_deposit_single_deposit_and_penalty(self):
        """FD-3M takes one deposit; a withdrawal before maturity pays the 2% penalty in the same posting."""
        customer = self.individual()
        fixed = self.open_account(customer["id"], "FD-3M", initial=200_000)
        self.assert_error(self.api.post("/v1/deposits", token=self.teller, json_body={
            "accountId": fixed["id"], "amountMinor": 100}), 422, "UNPROCESSABLE", "single deposit")
        tx = self.withdraw(fixed["id"], 50_000)
        self.assertEqual(lines(tx), sorted([("DEBIT", "2020", "USD", 51_000, fixed["id"]),
                                            ("CREDIT", "1000", "USD", 50_000, None),
                                            ("CREDIT", "4100", "USD", 1_000, None)]))
        self.assertEqual(self.account(fixed["id"])["balanceMinor"], 149_000)

    def test_transfer_same_currency(self):
        """TRANSFER: Dr from / Cr to; the source keeps its minimum; same-account and bad currency refused."""
        customer = self.individual()
        source = self.open_account(customer["id"], "SAV-STD", initial=50_000)
        target = self.open_account(customer["id"], "CUR-STD")
        tx = self.transfer(source["id"], target["id"], 30_000, narrative="Move to current")
        self.assert_posted_and_balanced(tx, "TRANSFER")
        self.assertEqual(lines(tx), sorted([("DEBIT", "2000", "USD", 30_000, source["id"]),
                                            ("CREDIT", "2010", "USD", 30_000, target["id"])]))
        self.assertEqual({e["narrative"] for e in tx["entries"]}, {"Move to current"})
        self.assert_error(self.api.post("/v1/transfers", token=self.teller, json_body={
            "fromAccountId": source["id"], "toAccountId": target["id"], "amountMinor": 19_001}), 422, "UNPROCESSABLE")
        self.assert_invalid(self.api.post("/v1/transfers", token=self.teller, json_body={
            "fromAccountId": source["id"], "toAccountId": source["id"], "amountMinor": 1}), "toAccountId")
        self.assertEqual((self.account(source["id"])["balanceMinor"], self.account(target["id"])["balanceMinor"]),
                         (20_000, 30_000))

    def test_fee(self):
        """FEE: Dr account / Cr 4100 (or another INCOME account); description required."""
        account = self.funded_savings(10_000)
        tx = self.fee(account["id"], 250, "Statement reprint")
        self.assert_posted_and_balanced(tx, "FEE")
        self.assertEqual(lines(tx), sorted([("DEBIT", "2000", "USD", 250, account["id"]),
                                            ("CREDIT", "4100", "USD", 250, None)]))
        self.assert_invalid(self.api.post("/v1/fees", token=self.teller, json_body={
            "accountId": account["id"], "amountMinor": 250}), "description")
        self.assert_error(self.api.post("/v1/fees", token=self.teller, json_body={
            "accountId": account["id"], "amountMinor": 250, "description": "x", "incomeGlAccountCode": "1000"}),
            422, "UNPROCESSABLE")

    def test_internal_accounts_move_money_by_transfer_only(self):
        """NOSTRO takes no cash deposit or fee but funds a transfer; it has no minimum."""
        nostro = C.ok(self.api.post("/v1/accounts", token=self.teller, json_body={"productCode": "NOSTRO-USD"}))
        self.assert_error(self.api.post("/v1/deposits", token=self.teller, json_body={
            "accountId": nostro["id"], "amountMinor": 100}), 422, "UNPROCESSABLE", "transfer only")
        target = self.funded_savings(0)
        tx = self.transfer(nostro["id"], target["id"], 7_000)
        self.assert_posted_and_balanced(tx, "TRANSFER")
        self.assertEqual(self.account(nostro["id"])["balanceMinor"], -7_000)

    def test_bad_input_and_unknown_accounts(self):
        """Money is an integer amountMinor; every field problem is 400; unknown accounts 404; nothing posts."""
        account = self.funded_savings(1_000)
        before = C.ledger_counts()
        base = {"accountId": account["id"], "amountMinor": 100}
        cases = [("/v1/deposits", {**base, "amountMinor": 1.5}, "amountMinor"),
                 ("/v1/deposits", {**base, "amountMinor": "100"}, "amountMinor"),
                 ("/v1/deposits", {**base, "amountMinor": 0}, "amountMinor"),
                 ("/v1/deposits", {**base, "amountMinor": -1}, "amountMinor"),
                 ("/v1/deposits", {**base, "amountMinor": 10 ** 15 + 1}, "amountMinor"),
                 ("/v1/deposits", {"accountId": account["id"], "amount": "1.00"}, "amount"),
                 ("/v1/deposits", {"amountMinor": 100}, "accountId"),
                 ("/v1/deposits", {**base, "accountId": "AC1"}, "accountId"),
                 ("/v1/deposits", {**base, "currency": "EUR"}, "currency"),
                 ("/v1/deposits", {**base, "valueDate": "2026-02-30"}, "valueDate"),
                 ("/v1/deposits", {**base, "channel": "over the counter"}, "channel"),
                 ("/v1/deposits", {**base, "reference": "R" * 65}, "reference"),
                 ("/v1/deposits", {**base, "destinationGlAccountCode": "1000"}, "destinationGlAccountCode"),
                 ("/v1/withdrawals", {**base, "sourceGlAccountCode": "1000"}, "sourceGlAccountCode"),
                 ("/v1/withdrawals", {**base, "type": "DEPOSIT"}, "type"),
                 ("/v1/transfers", {"fromAccountId": account["id"], "amountMinor": 1}, "toAccountId"),
                 ("/v1/transfers", {**base}, "fromAccountId"),
                 ("/v1/fees", {**base, "description": " "}, "description"),
                 ("/v1/fees", {**base, "description": "x", "narrative": "y"}, "narrative")]
        for path, body, field in cases:
            self.assert_invalid(self.api.post(path, json_body=body, token=self.teller), field)
        for path in ("/v1/deposits", "/v1/withdrawals", "/v1/transfers", "/v1/fees"):
            self.assert_error(self.api.post(path, body="amountMinor=5", token=self.teller), 400, "BAD_REQUEST",
                              "Malformed JSON request body")
        for path, body in (("/v1/deposits", {"accountId": D.MISSING_UUID, "amountMinor": 1}),
                           ("/v1/withdrawals", {"accountId": D.MISSING_UUID, "amountMinor": 1}),
                           ("/v1/fees", {"accountId": D.MISSING_UUID, "amountMinor": 1, "description": "x"}),
                           ("/v1/transfers", {"fromAccountId": account["id"], "toAccountId": D.MISSING_UUID,
                                              "amountMinor": 1})):
            self.assert_error(self.api.post(path, json_body=body, token=self.teller), 404, "NOT_FOUND",
                              "Account not found")
        future = str(D.real_today() + datetime.timedelta(days=1))
        self.assert_error(self.api.post("/v1/deposits", json_body={**base, "valueDate": future}, token=self.teller),
                          422, "UNPROCESSABLE")
        self.assertEqual(C.ledger_counts(), before)


class IdempotencyTest(D.DepositsBase):
    def test_same_key_same_request_posts_once(self):
        """A repeat with the same Idempotency-Key returns the first transaction and posts nothing."""
        account = self.funded_savings(0)
        key = f"idem-{C.uid()}"
        body = {"accountId": account["id"], "amountMinor": 4_000}
        first = C.ok(self.api.post("/v1/deposits", json_body=body, token=self.teller, headers={"Idempotency-Key": key}))
        again = C.ok(self.api.post("/v1/deposits", json_body=body, token=self.teller, headers={"Idempotency-Key": key}))
        self.assertEqual(again["id"], first["id"])
        self.assertEqual(self.account(account["id"])["balanceMinor"], 4_000)
        self.assert_error(self.api.post("/v1/deposits", json_body={**body, "amountMinor": 4_001}, token=self.teller,
                                        headers={"Idempotency-Key": key}), 409, "CONFLICT")
        self.assert_error(self.api.post("/v1/withdrawals", json_body=body, token=self.teller,
                                        headers={"Idempotency-Key": key}), 409, "CONFLICT")
        field = C.ok(self.api.post("/v1/deposits", json_body={**body, "idempotencyKey": key}, token=self.teller))
        self.assertEqual(field["id"], first["id"])
        self.assert_error(self.api.post("/v1/deposits", json_body={**body, "idempotencyKey": "other"}, token=self.teller,
                                        headers={"Idempotency-Key": key}), 400, "BAD_REQUEST",
                          "Idempotency-Key header and idempotencyKey field differ")
        self.assert_error(self.api.post("/v1/deposits", json_body=body, token=self.teller,
                                        headers={"Idempotency-Key": "k" * 129}), 400, "BAD_REQUEST")
        self.assertEqual(self.account(account["id"])["balanceMinor"], 4_000)

    def test_concurrent_repeats_post_once(self):
        """Eight concurrent withdrawals under one key: one posting, every answer the same transaction."""
        account = self.funded_savings(100_000)
        key = f"idem-{C.uid()}"
        answers = []

        def send():
            resp = C.Core(C.admin_key()).post("/v1/withdrawals", token=self.teller, headers={"Idempotency-Key": key},
                                              json_body={"accountId": account["id"], "amountMinor": 10_000})
            answers.append(resp)

        threads = [threading.Thread(target=send) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ids = {C.ok(r)["id"] for r in answers if r.status == 200}
        self.assertEqual(len(ids), 1, [repr(r) for r in answers])
        self.assertTrue(all(r.status in (200, 503) for r in answers), [repr(r) for r in answers])
        self.assertEqual(self.account(account["id"])["balanceMinor"], 90_000)


class ExchangeRatesTest(D.DepositsBase):
    def usd_zwg_rate(self):
        """The USD->ZWG rate in force today, setting one when there is none."""
        resp = self.api.get("/v1/exchange-rates/USD/ZWG")
        if resp.status == 200:
            return resp.json
        set_ = self.api.post("/v1/exchange-rates", token=self.supervisor,
                             json_body={"fromCurrency": "usd", "toCurrency": "zwg", "rate": "26.7531"})
        if set_.status not in (200, 409):
            raise AssertionError(repr(set_))
        return C.ok(self.api.get("/v1/exchange-rates/USD/ZWG"))

    def test_set_list_get_and_inverse(self):
        """Dated rates: set once per pair and date (409 again), the rate in force, history, the derived inverse."""
        day = datetime.date(1990 + int(C.uid()[:6], 16) % 30, 1, 1) + datetime.timedelta(days=int(C.uid()[:4], 16) % 360)
        resp = self.api.post("/v1/exchange-rates", token=self.supervisor,
                             json_body={"fromCurrency": "ZWG", "toCurrency": "USD", "rate": "0.0377358490",
                                        "effectiveDate": str(day)})
        if resp.status == 409:
            self.skipTest(f"a ZWG/USD rate for {day} exists already")
        rate = C.ok(resp)
        self.assertEqual((rate["fromCurrency"], rate["toCurrency"], rate["rate"], rate["effectiveDate"], rate["derived"]),
                         ("ZWG", "USD", "0.0377358490", str(day), False))
        self.assertEqual(rate["createdBy"], self.supervisor.id)
        self.assert_error(self.api.post("/v1/exchange-rates", token=self.supervisor, json_body={
            "fromCurrency": "ZWG", "toCurrency": "USD", "rate": "0.04", "effectiveDate": str(day)}), 409, "CONFLICT")
        in_force = C.ok(self.api.get(C.query("/v1/exchange-rates/ZWG/USD", date=str(day))))
        self.assertEqual(in_force["id"], rate["id"])
        inverse = C.ok(self.api.get(C.query("/v1/exchange-rates/usd/zwg", date=str(day))))
        if inverse["derived"]:
            self.assertEqual((inverse["fromCurrency"], inverse["toCurrency"], inverse["rate"]),
                             ("USD", "ZWG", "26.5000000398"))
        listed = C.ok(self.api.get(C.query("/v1/exchange-rates", date=str(day), **{"from": "ZWG"})))
        self.assertEqual([(r["fromCurrency"], r["toCurrency"]) for r in listed], [("ZWG", "USD")])
        history = C.ok(self.api.get(C.query("/v1/exchange-rates", history="true", to="USD")))
        self.assertIn(rate["id"], [r["id"] for r in history])
        self.assert_error(self.api.get(C.query("/v1/exchange-rates/USD/ZWG", date="1900-01-01")), 422, "UNPROCESSABLE",
                          "No exchange rate")

    def test_bad_input(self):
        """Rates are positive decimals of at most 10 places between two different currencies."""
        for body, field in (({"toCurrency": "ZWG", "rate": "1"}, "fromCurrency"),
                            ({"fromCurrency": "USD", "toCurrency": "USD", "rate": "1"}, "toCurrency"),
                            ({"fromCurrency": "USD", "toCurrency": "EUR", "rate": "1"}, "toCurrency"),
                            ({"fromCurrency": "USD", "toCurrency": "ZWG"}, "rate"),
                            ({"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "-1"}, "rate"),
                            ({"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "0"}, "rate"),
                            ({"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "1.00000000001"}, "rate"),
                            ({"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "1", "effectiveDate": "soon"},
                             "effectiveDate"),
                            ({"fromCurrency": "USD", "toCurrency": "ZWG", "rate": "1", "source": "RBZ"}, "source")):
            self.assert_invalid(self.api.post("/v1/exchange-rates", json_body=body, token=self.supervisor), field)
        self.assert_error(self.api.get("/v1/exchange-rates/USD/EUR"), 400, "BAD_REQUEST")
        self.assert_error(self.api.get("/v1/exchange-rates/USD/USD"), 400, "BAD_REQUEST")
        self.assert_error(self.api.get("/v1/exchange-rates?history=yes"), 400, "BAD_REQUEST", "history")
        self.assert_error(self.api.post("/v1/exchange-rates", token=self.teller, json_body={
            "fromCurrency": "USD", "toCurrency": "ZWG", "rate": "1"}), 403, "FORBIDDEN")

    def test_cross_currency_transfer(self):
        """USD -> ZWG at the rate in force: four lines through FX position 2900, balanced per currency."""
        rate = self.usd_zwg_rate()
        customer = self.individual()
        usd = self.open_account(customer["id"], "SAV-TIER", initial=100_000)
        zwg = self.open_account(customer["id"], "CUR-ZWG")
        tx = self.transfer(usd["id"], zwg["id"], 10_001)
        whole, _, fraction = rate["rate"].partition(".")
        scale = 10 ** len(fraction)
        converted = D.divide_half_even(10_001 * int(whole + fraction), scale)
        self.assert_posted_and_balanced(tx, "TRANSFER")
        self.assertEqual(lines(tx), sorted([("DEBIT", "2000", "USD", 10_001, usd["id"]),
                                            ("CREDIT", "2900", "USD", 10_001, None),
                                            ("DEBIT", "2900", "ZWG", converted, None),
                                            ("CREDIT", "2010", "ZWG", converted, zwg["id"])]))
        self.assertEqual(sorted((t["currency"], t["debitMinor"], t["creditMinor"]) for t in tx["totals"]),
                         [("USD", 10_001, 10_001), ("ZWG", converted, converted)])
        self.assertTrue(all(rate["rate"].rstrip("0").rstrip(".") in e["narrative"] for e in tx["entries"]
                            if e["narrative"] and e["glAccountCode"] == "2900"))
        self.assertEqual(self.account(zwg["id"])["balanceMinor"], converted)
        self.assert_ledger_healthy()


if __name__ == "__main__":
    import unittest
    unittest.main()
