"""Issue 4's "done means", all through HTTP: a customer is onboarded, opens a
savings account on one of the 16 products, deposits, withdraws, transfers,
earns interest at month end, prints a passbook and pays a standing order,
with every posting balanced and visible in the journal.

Method: the engine's today is pinned (PUT /v1/platform/config todayOverride)
to the first day of a month two months back, where the account is opened and
all the customer's activity happens, so that the balance is constant for the
rest of the month; then to its last day, where the interest job runs (daily
accrual for every day and the month-end posting). The posted interest is
compared with a figure computed here independently (actual/365, 10^-6 minor
units half-even per day, half-even to cents at month end). Every posting is
checked in GET /v1/transactions, and the ledger with
`corebank.ledger_check_balances()`, `corebank.ledger_verify_chain()` and the
trial balance. The pin is always removed afterwards.
"""
import deposits_support as D
import corebanking as C


def setUpModule():
    C.require_core()


class DoneMeansStory(D.DepositsBase):
    def test_customer_account_money_interest_passbook_standing_order(self):
        """Onboard, open SAV-STD, deposit, withdraw, transfer, month-end interest, passbook, standing order."""
        first = D.month_start(2)
        last = D.month_end(first)
        days = (last - first).days + 1
        with self.pinned_today(first):
            # onboard: the customer, the CIF profile, KYC checks through the offline stub
            customer = C.ok(self.api.post("/v1/customers", token=self.teller, json_body={
                "type": "INDIVIDUAL", "firstName": "Chipo", "lastName": f"Ndlovu{C.uid()}", "dateOfBirth": "1988-02-29",
                "gender": "FEMALE", "nationalId": f"08-{C.uid()}", "nationality": "ZW", "branchCode": "HRE",
                "email": "chipo.ndlovu@example.com", "phone": "+263772000111",
                "profile": {"address": {"line1": "4 Fife Ave", "city": "Harare", "country": "ZW"},
                            "employment": {"status": "EMPLOYED", "employerName": "Econet"},
                            "declaredIncome": {"amountMinor": 250000, "frequency": "MONTHLY"}}}))
            self.assertEqual(customer["branchCode"], "HRE")
            self.assertEqual(customer["riskCategory"], "LOW")
            checks = C.ok(self.api.post(f"/v1/customers/{customer['id']}/kyc/checks", token=self.teller))
            self.assertEqual({c["source"] for c in checks}, {"STUB"})

            # open a savings account on SAV-STD (2.50% simple) with its opening deposit
            savings = self.open_account(customer["id"], "SAV-STD", initial=500_000)
            self.assertEqual(savings["status"], "ACTIVE")
            self.assertEqual(savings["productCode"], "SAV-STD")
            self.assertEqual(savings["accountType"], "SAVINGS")
            self.assertEqual(savings["openedOn"], str(first))
            self.assertEqual(savings["balanceMinor"], 500_000)
            current = self.open_account(customer["id"], "CUR-STD")

            postings = []
            deposit = self.deposit(savings["id"], 700_000, channel="BRANCH", narrative="Salary")
            postings.append(deposit)
            withdrawal = self.withdraw(savings["id"], 100_000, channel="ATM")
            postings.append(withdrawal)
            transfer = self.transfer(savings["id"], current["id"], 100_000, description="To current account")
            postings.append(transfer)
            for tx, type_ in zip(postings, ("DEPOSIT", "WITHDRAWAL", "TRANSFER")):
                self.assert_posted_and_balanced(tx, type_)
                self.assertEqual(tx["valueDate"], str(first))
                self.assertEqual(tx["operatorId"], self.teller.id)
            self.assertEqual(withdrawal["channel"], "ATM")
            self.assertEqual(self.account(savings["id"])["balanceMinor"], 1_000_000)
            self.assertEqual(self.account(current["id"])["balanceMinor"], 100_000)

        with self.pinned_today(last):
            # month end: the interest job accrues every day of the month and posts the month's interest
            run = C.ok(self.api.post(C.query("/v1/interest/run", date=str(last)), token=self.supervisor))
            self.assertEqual(run["runDate"], str(last))
            self.assertGreaterEqual(run["daysProcessed"], days)
            self.assertGreaterEqual(run["interestPostings"], 1)
            daily, expected = D.month_interest(1_000_000, days, "SIMPLE", 250)
            self.assertEqual(daily[0], 68_493_151)  # 1,000,000 x 2.5% / 365 = 68.493151 cents a day
            self.assertEqual(expected, D.divide_half_even(days * 68_493_151, D.MICRO))
            accruals = C.ok(self.api.get(C.query(f"/v1/accounts/{savings['id']}/interest/accruals",
                                                 **{"from": str(first), "to": str(last)})))
            self.assertEqual(len(accruals), days)
            self.assertEqual([int(a["accrualMicro"]) for a in accruals], daily)
            self.assertEqual(sum(a["journalMinor"] for a in accruals), expected)
            after = self.account(savings["id"])
            self.assertEqual(after["balanceMinor"], 1_000_000 + expected)
            self.assertEqual(after["accruedInterestMinor"], 0)
            self.assertEqual(after["interestProcessedThrough"], str(last))
            interest = C.ok(self.api.get(C.query("/v1/transactions",
                                                 reference=f"INT-{last:%Y%m}-{savings['accountNumber']}")))["content"]
            self.assertEqual(len(interest), 1)
            self.assertEqual(interest[0]["type"], "INTEREST_ACCRUAL")
            self.assertEqual(interest[0]["valueDate"], str(last))
            self.assertEqual([(t["currency"], t["debitMinor"], t["creditMinor"]) for t in interest[0]["totals"]],
                             [("USD", expected, expected)])
            self.assert_posted_and_balanced(interest[0], "INTEREST_ACCRUAL")
            # the current account paid its maintenance fee (CUR-STD: USD 5.00 a month)
            self.assertEqual(self.account(current["id"])["balanceMinor"], 100_000 - 500)
            fee = C.ok(self.api.get(C.query("/v1/transactions",
                                            reference=f"FEE-{last:%Y%m}-{current['accountNumber']}")))["content"]
            self.assertEqual([(t["type"], t["totals"][0]["debitMinor"]) for t in fee], [("FEE", 500)])

            # the statement shows every posting; its closing balance is the balance as of the month end
            statement = C.ok(self.api.get(C.query(f"/v1/accounts/{savings['id']}/statement",
                                                  **{"from": str(first), "to": str(last)})))
            self.assertEqual([(l["type"], l["side"], l["amountMinor"]) for l in statement["lines"]],
                             [("DEPOSIT", "CREDIT", 500_000), ("DEPOSIT", "CREDIT", 700_000),
                              ("WITHDRAWAL", "DEBIT", 100_000), ("TRANSFER", "DEBIT", 100_000),
                              ("INTEREST_ACCRUAL", "CREDIT", expected)])
            self.assertEqual(statement["openingBalanceMinor"], 0)
            self.assertEqual(statement["closingBalanceMinor"], 1_000_000 + expected)
            balance = C.ok(self.api.get(C.query(f"/v1/accounts/{savings['id']}/balance", asOf=str(last))))
            self.assertEqual(balance["balanceMinor"], statement["closingBalanceMinor"])

            # print a passbook: every line so far, then confirm the last printed one
            book = C.ok(self.api.post(f"/v1/accounts/{savings['id']}/passbooks", token=self.teller))
            self.assertEqual((book["bookNumber"], book["status"], book["unprintedLineCount"]), (1, "ACTIVE", 5))
            lines = C.ok(self.api.get(f"/v1/passbooks/{book['id']}/unprinted-lines"))
            self.assertEqual([l["lineNo"] for l in lines["lines"]], [1, 2, 3, 4, 5])
            self.assertEqual([l["entryId"] for l in lines["lines"]], [l["entryId"] for l in statement["lines"]])
            self.assertEqual(lines["openingBalanceCents"], 0)
            self.assertEqual(lines["closingBalanceCents"], 1_000_000 + expected)
            self.assertEqual(lines["openingBalanceCents"] + sum((l["creditCents"] or 0) - (l["debitCents"] or 0)
                                                                for l in lines["lines"]), lines["closingBalanceCents"])
            printed = C.ok(self.api.post(f"/v1/passbooks/{book['id']}/print-confirm", token=self.teller,
                                         json_body={"lastEntryId": lines["lines"][-1]["entryId"]}))
            self.assertEqual(printed["printedLineCount"], 5)
            self.assertEqual(printed["unprintedLineCount"], 0)
            self.assertEqual(printed["closingBalanceCents"], printed["ledgerBalanceCents"])

            # pay a standing order: due today; executing twice for the date pays once
            order = C.ok(self.api.post("/v1/standing-orders", token=self.teller, json_body={
                "sourceAccountId": savings["id"], "targetAccountId": current["id"], "amountMinor": 25_000,
                "frequency": "MONTHLY", "startDate": str(last), "description": "Rent"}))
            self.assertEqual((order["status"], order["nextRunDate"]), ("ACTIVE", str(last)))
            execute = C.query("/v1/standing-orders/execute", date=str(last))
            first_run = C.ok(self.api.post(execute, token=self.supervisor))
            mine = [r for r in first_run["results"] if r["standingOrderId"] == order["id"]]
            self.assertEqual(len(mine), 1)
            self.assertEqual(mine[0]["outcome"], "SUCCEEDED")
            paid = C.ok(self.api.get(f"/v1/transactions/{mine[0]['transactionId']}"))
            self.assert_posted_and_balanced(paid, "TRANSFER")
            self.assertEqual(paid["channel"], "STANDING_ORDER")
            second_run = C.ok(self.api.post(execute, token=self.supervisor))
            again = [r for r in second_run["results"] if r["standingOrderId"] == order["id"]]
            self.assertEqual([r["outcome"] for r in again], ["ALREADY_EXECUTED"])
            self.assertEqual(again[0]["transactionId"], paid["id"])
            self.assertEqual(C.count("transactions", "reference = %s", (paid["reference"],)), 1)
            self.assertEqual(self.account(savings["id"])["balanceMinor"], 1_000_000 + expected - 25_000)
            self.assertEqual(self.account(current["id"])["balanceMinor"], 100_000 - 500 + 25_000)
            listed = C.ok(self.api.get(C.query("/v1/standing-orders", accountId=savings["id"])))
            self.assertEqual(listed[0]["lastRunDate"], str(last))

            # the standing order's posting landed after printing: it stays unprinted
            book_now = C.ok(self.api.get(f"/v1/passbooks/{book['id']}"))
            self.assertEqual((book_now["printedLineCount"], book_now["unprintedLineCount"]), (5, 1))
            tail = C.ok(self.api.get(f"/v1/passbooks/{book['id']}/unprinted-lines"))
            self.assertEqual([(l["lineNo"], l["debitCents"]) for l in tail["lines"]], [(6, 25_000)])
            self.assertEqual(tail["openingBalanceCents"], printed["closingBalanceCents"])

        # every posting balanced and visible in the journal; the ledger is whole
        for tx in postings:
            self.assert_posted_and_balanced(C.ok(self.api.get(f"/v1/transactions/{tx['id']}")))
        self.assert_ledger_healthy()


if __name__ == "__main__":
    import unittest
    unittest.main()
