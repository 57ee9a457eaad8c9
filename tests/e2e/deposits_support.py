"""deposits_support: shared helpers of the customers, accounts and deposits
end-to-end tests (issue 4, docs/design/deposits.md, docs/core-banking.md).

Every response goes through corebanking.Core, which validates it against the
service's own GET /openapi.json. The helpers here make customers, accounts
and postings through HTTP only, pin the engine's today for the tests that
need a whole month (PUT /v1/platform/config todayOverride, always restored),
check the ledger's health with superuser SQL, and compute interest the way
the contract defines it (actual/365, 10^-6 minor units rounded half-even per
day, the month rounded half-even to minor units), so that the tests compare
the service with figures computed independently.
"""
import contextlib
import datetime
import threading
import unittest

import cbclient as cb
import corebanking as C

ZERO_UUID = C.ZERO_UUID
MISSING_UUID = "00000000-0000-4000-8000-000000000000"
MICRO = 1_000_000
YEAR = 10_000 * 365

_today_lock = threading.Lock()


def setup_module():
    C.require_core()


class DepositsBase(unittest.TestCase):
    """A core client with an admin key and one staff member per role."""

    @classmethod
    def setUpClass(cls):
        cls.api = C.Core(C.admin_key())
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")
        cls.compliance = C.new_staff("compliance_officer")
        cls.auditor = C.new_staff("auditor")
        cls.admin = C.new_staff("admin")

    # ------------------------------------------------------------ customers

    def individual(self, **extra):
        body = {"type": "INDIVIDUAL", "firstName": "Tendai", "lastName": f"Moyo{C.uid()}",
                "dateOfBirth": "1990-04-01", "nationalId": f"63-{C.uid()}", "nationality": "ZW"}
        body.update(extra)
        return C.ok(self.api.post("/v1/customers", json_body=body, token=self.teller))

    def corporate(self, **extra):
        body = {"type": "CORPORATE", "legalName": f"Acme {C.uid()} (Pvt) Ltd", "registrationNumber": f"R/{C.uid()}",
                "countryOfIncorporation": "ZW"}
        body.update(extra)
        return C.ok(self.api.post("/v1/customers", json_body=body, token=self.teller))

    # ------------------------------------------------------------ accounts and money

    def open_account(self, customer_id, product="SAV-STD", initial=None, token=None, **extra):
        body = {"customerId": customer_id, "productCode": product}
        if initial is not None:
            body["initialDeposit"] = {"amountMinor": initial}
        body.update(extra)
        return C.ok(self.api.post("/v1/accounts", json_body=body, token=token or self.teller))

    def account(self, account_id):
        return C.ok(self.api.get(f"/v1/accounts/{account_id}"))

    def deposit(self, account_id, amount, **extra):
        body = {"accountId": account_id, "amountMinor": amount}
        body.update(extra)
        return C.ok(self.api.post("/v1/deposits", json_body=body, token=self.teller))

    def withdraw(self, account_id, amount, **extra):
        body = {"accountId": account_id, "amountMinor": amount}
        body.update(extra)
        return C.ok(self.api.post("/v1/withdrawals", json_body=body, token=self.teller))

    def transfer(self, from_id, to_id, amount, **extra):
        body = {"fromAccountId": from_id, "toAccountId": to_id, "amountMinor": amount}
        body.update(extra)
        return C.ok(self.api.post("/v1/transfers", json_body=body, token=self.teller))

    def fee(self, account_id, amount, description="Service fee", **extra):
        body = {"accountId": account_id, "amountMinor": amount, "description": description}
        body.update(extra)
        return C.ok(self.api.post("/v1/fees", json_body=body, token=self.teller))

    def funded_savings(self, amount=1_000_000, product="SAV-TIER", customer=None):
        """A fresh customer's account holding `amount` (SAV-TIER: no minimums, no fees)."""
        customer = customer or self.individual()
        return self.open_account(customer["id"], product, initial=amount or None)

    # ------------------------------------------------------------ ledger checks

    def assert_posted_and_balanced(self, tx, type_=None):
        """A POSTED transaction whose debits equal its credits in every currency, visible in the journal."""
        self.assertEqual(tx["status"], "POSTED", tx)
        if type_:
            self.assertEqual(tx["type"], type_)
        for total in tx["totals"]:
            self.assertEqual(total["debitMinor"], total["creditMinor"], tx)
        debits = {}
        for entry in tx["entries"]:
            sign = 1 if entry["side"] == "DEBIT" else -1
            debits[entry["currency"]] = debits.get(entry["currency"], 0) + sign * entry["amountMinor"]
        self.assertTrue(all(v == 0 for v in debits.values()), tx)
        found = C.ok(self.api.get(C.query("/v1/transactions", reference=tx["reference"], size=200)))
        self.assertIn(tx["id"], [t["id"] for t in found["content"]], f"{tx['reference']} not in the journal")
        self.assertEqual(C.count("journal_entries", "transaction_id = %s", (tx["id"],)), len(tx["entries"]))

    def assert_ledger_healthy(self):
        self.assertEqual(C.chain_problems(), [], "ledger_verify_chain() reports problems")
        self.assertEqual(C.balance_problems(), [], "ledger_check_balances() reports problems")
        for currency, (debits, credits) in C.trial_balance_sums().items():
            self.assertEqual(debits, credits, f"trial balance in {currency}")

    def assert_error(self, resp, status, code, message=None):
        body = cb.assert_error(resp, status, code)
        if message:
            self.assertIn(message, body["message"])
        return body

    def assert_invalid(self, resp, field, reason=None):
        return cb.assert_validation(resp, field, reason=reason)

    # ------------------------------------------------------------ the engine's today

    @contextlib.contextmanager
    def pinned_today(self, day):
        """Pins the engine's today (PUT /v1/platform/config todayOverride) and restores it afterwards."""
        with _today_lock:
            before = C.ok(self.api.get("/v1/platform/config"))["todayOverride"]
            self.set_today(day)
            try:
                yield
            finally:
                C.ok(self.api.put("/v1/platform/config", json_body={"todayOverride": before}, token=self.admin))

    def set_today(self, day):
        body = C.ok(self.api.put("/v1/platform/config", json_body={"todayOverride": str(day)}, token=self.admin))
        self.assertEqual(body["today"], str(day))


def real_today():
    return C.business_today()


def month_start(months_back):
    """The first day of the month `months_back` months before the engine's real month."""
    today = real_today()
    index = today.year * 12 + (today.month - 1) - months_back
    return datetime.date(index // 12, index % 12 + 1, 1)


def month_end(first):
    following = datetime.date(first.year + (first.month == 12), first.month % 12 + 1, 1)
    return following - datetime.timedelta(days=1)


# ---------------------------------------------------------------- interest, computed independently

def divide_half_even(numerator, denominator):
    quotient, remainder = divmod(numerator, denominator)
    if remainder * 2 > denominator or (remainder * 2 == denominator and quotient % 2 == 1):
        quotient += 1
    return quotient


def daily_micro(balance_minor, accrued_micro, method, rate_bp, tiers=()):
    """One day's accrual in 10^-6 minor units (docs/design/deposits.md, Interest)."""
    base = balance_minor * MICRO + (accrued_micro if method == "COMPOUND" else 0)
    if base <= 0:
        return 0
    if not tiers:
        return divide_half_even(base * rate_bp, YEAR)
    numerator = 0
    for i, (start, rate) in enumerate(tiers):
        low = start * MICRO
        if base <= low:
            break
        high = base if i + 1 == len(tiers) else min(base, tiers[i + 1][0] * MICRO)
        numerator += (high - low) * rate
    return divide_half_even(numerator, YEAR)


def month_interest(balance_minor, days, method, rate_bp, tiers=()):
    """(daily accruals in micro units, the minor units posted at month end) for a constant balance."""
    accrued = 0
    days_micro = []
    for _ in range(days):
        day = daily_micro(balance_minor, accrued, method, rate_bp, tiers)
        days_micro.append(day)
        accrued += day
    return days_micro, divide_half_even(accrued, MICRO)
