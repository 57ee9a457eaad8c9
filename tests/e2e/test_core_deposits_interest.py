"""Interest over HTTP: a month of daily accrual and the month-end posting,
against figures computed here independently, for simple, compound and tiered
products (docs/design/deposits.md, Interest).

Method: the engine's today is pinned to the first day of a month three months
back (PUT /v1/platform/config todayOverride, always restored); accounts are
opened there with USD 10,000.00 each and nothing else moves, so the balance is
constant. POST /v1/interest/run?date= at mid-month and at the month end
(today pinned to each) accrues every day once. Each account's daily accruals
(GET .../interest/accruals, 10^-6 minor units) must equal the independent
computation (actual/365; per day half-even at 10^-6; compound on balance plus
the month's accrual; tiers as bands), and the month-end INTEREST_ACCRUAL
posting (Dr 2100 / Cr account) must be the month's accrual rounded half-even
to cents. One account has its interest posted mid-month on request
(POST /v1/accounts/{id}/interest/post) and accrues on the new balance after.
"""
import datetime

import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


SAV_TIER = ((0, 100), (100_000, 200), (1_000_000, 300))
MM_TIERS = ((0, 500), (5_000_000, 600))


class MonthOfInterest(D.DepositsBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.first = D.month_start(3)
        cls.last = D.month_end(cls.first)
        cls.days = (cls.last - cls.first).days + 1
        cls.middle = cls.first + datetime.timedelta(days=9)
        cls.results = {}
        self = cls("test_simple_interest")  # an instance, for the helpers of DepositsBase
        with self.pinned_today(cls.first):
            customer = self.individual(branchCode="GWE")
            cls.customer = customer
            cls.simple = self.open_account(customer["id"], "SAV-STD", initial=1_000_000)
            cls.compound = self.open_account(customer["id"], "SAV-PLUS", initial=1_000_000)
            cls.tiered = self.open_account(customer["id"], "SAV-TIER", initial=1_000_000)
            cls.money_market = self.open_account(customer["id"], "MM-USD", initial=6_000_000)
            cls.current = self.open_account(customer["id"], "CUR-ZWG")
            cls.posted_early = self.open_account(customer["id"], "SAV-STD", initial=1_000_000)
        with self.pinned_today(cls.middle):
            cls.results["middle"] = C.ok(cls.api.post(C.query("/v1/interest/run", date=str(cls.middle)),
                                                      token=cls.supervisor))
            cls.results["post_now"] = C.ok(cls.api.post(f"/v1/accounts/{cls.posted_early['id']}/interest/post",
                                                         token=cls.supervisor))
        with self.pinned_today(cls.last):
            cls.results["end"] = C.ok(cls.api.post(C.query("/v1/interest/run", date=str(cls.last))))
            cls.results["again"] = C.ok(cls.api.post(C.query("/v1/interest/run", date=str(cls.last)),
                                                     token=cls.supervisor))

    def accruals(self, account):
        return C.ok(self.api.get(C.query(f"/v1/accounts/{account['id']}/interest/accruals",
                                         **{"from": str(self.first), "to": str(self.last)})))

    def month_posting(self, account):
        found = C.ok(self.api.get(C.query("/v1/transactions",
                                          reference=f"INT-{self.last:%Y%m}-{account['accountNumber']}")))["content"]
        self.assertEqual(len(found), 1, found)
        self.assert_posted_and_balanced(found[0], "INTEREST_ACCRUAL")
        self.assertEqual(found[0]["valueDate"], str(self.last))
        self.assertEqual(found[0]["channel"], "SYSTEM")
        lines = {(e["side"], e["glAccountCode"], e["accountId"]): e["amountMinor"] for e in found[0]["entries"]}
        return found[0], lines

    def check(self, account, method, rate_bp, balance, tiers=()):
        daily, posted = D.month_interest(balance, self.days, method, rate_bp, tiers)
        accruals = self.accruals(account)
        self.assertEqual([a["date"] for a in accruals],
                         [str(self.first + datetime.timedelta(days=i)) for i in range(self.days)])
        self.assertEqual([a["balanceMinor"] for a in accruals], [balance] * self.days)
        self.assertEqual([int(a["accrualMicro"]) for a in accruals], daily)
        cumulative = 0
        for accrual, day in zip(accruals, daily):
            cumulative += day
            self.assertEqual(int(accrual["cumulativeMicro"]), cumulative)
        self.assertEqual(sum(a["journalMinor"] for a in accruals), posted)
        tx, lines = self.month_posting(account)
        self.assertEqual(lines, {("DEBIT", "2100", None): posted, ("CREDIT", account["glAccountCode"], account["id"]): posted})
        after = self.account(account["id"])
        self.assertEqual(after["balanceMinor"], balance + posted)
        self.assertEqual((after["accruedInterestMinor"], after["interestProcessedThrough"]), (0, str(self.last)))
        return daily, posted

    def test_simple_interest(self):
        """SAV-STD 2.50% simple on USD 10,000.00: 68.493151 cents a day, the month rounded half-even."""
        daily, posted = self.check(self.simple, "SIMPLE", 250, 1_000_000)
        self.assertEqual(set(daily), {68_493_151})
        self.assertEqual(posted, D.divide_half_even(68_493_151 * self.days, D.MICRO))
        self.assertEqual(posted, {28: 1918, 29: 1986, 30: 2055, 31: 2123}[self.days])

    def test_compound_interest(self):
        """SAV-PLUS 3.00% compounding daily on balance plus the month's accrual so far."""
        daily, posted = self.check(self.compound, "COMPOUND", 300, 1_000_000)
        self.assertEqual(daily[0], 82_191_781)  # 1,000,000 x 3% / 365
        self.assertTrue(all(a < b for a, b in zip(daily, daily[1:])), "compound accruals must grow")
        simple_total = D.divide_half_even(82_191_781 * self.days, D.MICRO)
        self.assertGreaterEqual(posted, simple_total)

    def test_tiered_interest(self):
        """SAV-TIER bands: 1% to USD 1,000, 2% to 10,000, 3% above: 52.054795 cents a day on USD 10,000."""
        daily, posted = self.check(self.tiered, "SIMPLE", 0, 1_000_000, SAV_TIER)
        self.assertEqual(set(daily), {52_054_795})  # (100,000 x 1% + 900,000 x 2%) / 365, the contract's example
        if self.days == 30:
            self.assertEqual(posted, 1562)  # 1,561.643850 cents
        self.assertEqual({a["rateBp"] for a in self.accruals(self.tiered)}, {190})

    def test_compound_tiered_interest(self):
        """MM-USD: compound with bands 5% to USD 50,000 and 6% above, on USD 60,000."""
        daily, _ = self.check(self.money_market, "COMPOUND", 0, 6_000_000, MM_TIERS)
        self.assertEqual(daily[0], D.divide_half_even((5_000_000 * 500 + 1_000_000 * 600) * D.MICRO, D.YEAR))

    def test_no_interest_product_accrues_nothing(self):
        """CUR-ZWG earns no interest: no accrual rows; it is processed through the month end all the same."""
        self.assertEqual(self.accruals(self.current), [])
        self.assertEqual(self.account(self.current["id"])["interestProcessedThrough"], str(self.last))

    def test_post_now_then_accrue_on_the_new_balance(self):
        """Interest posted mid-month on request; the rest of the month accrues on the higher balance."""
        first_part = D.divide_half_even(10 * 68_493_151, D.MICRO)
        self.assertEqual(first_part, 685)
        after_post = self.results["post_now"]
        self.assertEqual((after_post["balanceMinor"], after_post["accruedInterestMinor"]), (1_000_685, 0))
        accruals = self.accruals(self.posted_early)
        self.assertEqual([a["balanceMinor"] for a in accruals], [1_000_000] * 10 + [1_000_685] * (self.days - 10))
        rest = D.divide_half_even(D.daily_micro(1_000_685, 0, "SIMPLE", 250) * (self.days - 10), D.MICRO)
        tx, lines = self.month_posting(self.posted_early)
        self.assertEqual(tx["totals"][0]["creditMinor"], rest)
        self.assertEqual(self.account(self.posted_early["id"])["balanceMinor"], 1_000_685 + rest)
        now = C.ok(self.api.get(C.query("/v1/transactions", type="INTEREST_ACCRUAL",
                                        **{"from": str(self.middle), "to": str(self.middle)}, size=200)))["content"]
        early = [t for t in now if any(e["accountId"] == self.posted_early["id"] for e in t["entries"])]
        self.assertEqual([t["totals"][0]["creditMinor"] for t in early], [685])

    def test_daily_accrual_journals(self):
        """Each day's accrual is one balanced INTEREST_ACCRUAL per currency and branch: Dr 5000 / Cr 2100."""
        reference = f"ACR-{self.first:%Y%m%d}-USD-GWE"
        found = C.ok(self.api.get(C.query("/v1/transactions", reference=reference)))["content"]
        self.assertEqual(len(found), 1)
        self.assert_posted_and_balanced(found[0], "INTEREST_ACCRUAL")
        self.assertEqual({(e["side"], e["glAccountCode"]) for e in found[0]["entries"]},
                         {("DEBIT", "5000"), ("CREDIT", "2100")})
        mine = sum(self.accruals(a)[0]["journalMinor"]
                   for a in (self.simple, self.compound, self.tiered, self.money_market, self.posted_early))
        self.assertGreaterEqual(found[0]["totals"][0]["debitMinor"], mine)

    def test_runs_report_what_they_did_and_never_accrue_twice(self):
        """The month-end run reports postings; a second run for the same date processes nothing."""
        end, again = self.results["end"], self.results["again"]
        self.assertEqual(end["runDate"], str(self.last))
        self.assertGreaterEqual(end["interestPostings"], 5)
        self.assertGreaterEqual(end["daysProcessed"], self.days - 10)
        self.assertTrue(any(x["currency"] == "USD" and x["amountMinor"] > 0 for x in end["interestPostedMinor"]))
        self.assertEqual(again["daysProcessed"], 0)
        self.assertEqual((again["accountsAccrued"], again["interestPostings"], again["accrualTransactions"]), (0, 0, 0))
        self.assertEqual(len(self.accruals(self.simple)), self.days)
        self.assert_ledger_healthy()

    def test_run_date_rules(self):
        """date is required and not after the business date (422); the job takes no body."""
        resp = self.api.post("/v1/interest/run", token=self.supervisor)
        self.assert_error(resp, 400, "BAD_REQUEST", "date: is required")
        resp = self.api.post(C.query("/v1/interest/run", date="2026-02-30"), token=self.supervisor)
        self.assert_error(resp, 400, "BAD_REQUEST", "date: must be a date")
        tomorrow = D.real_today() + datetime.timedelta(days=1)
        resp = self.api.post(C.query("/v1/interest/run", date=str(tomorrow)), token=self.supervisor)
        self.assert_error(resp, 422, "UNPROCESSABLE", "must not be after the business date")
        resp = self.api.post(C.query("/v1/interest/run", date=str(self.last)), token=self.supervisor,
                             json_body={"force": True})
        self.assert_error(resp, 400, "BAD_REQUEST", "This operation takes no request body")
        resp = self.api.get(C.query(f"/v1/accounts/{self.simple['id']}/interest/accruals", **{"from": "2026-02-01",
                                                                                              "to": "2026-01-01"}))
        self.assert_error(resp, 400, "BAD_REQUEST", "from: must not be after to")


if __name__ == "__main__":
    import unittest
    unittest.main()
