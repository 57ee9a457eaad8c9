"""Deposit products and accounts over HTTP: the 16 products, opening on each,
the lifecycle state table (activate, freeze, unfreeze, close, reactivate and
the dormancy job), the status history, the balance as of a date and the
statement, and bad input on every endpoint (docs/core-banking.md, Accounts).

The rules live in the database; these tests drive them through the tier and
check the responses (validated against /openapi.json by the client) and, where
money moves, the journal.
"""
import datetime

import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


PRODUCTS = {
    "SAV-STD": ("SAVINGS", "USD", "SIMPLE", 250), "SAV-ZWG": ("SAVINGS", "ZWG", "SIMPLE", 500),
    "SAV-PLUS": ("SAVINGS", "USD", "COMPOUND", 300), "SAV-TIER": ("SAVINGS", "USD", "SIMPLE", 0),
    "CUR-STD": ("CURRENT", "USD", "NONE", 0), "CUR-ZWG": ("CURRENT", "ZWG", "NONE", 0),
    "FD-3M": ("FIXED_DEPOSIT", "USD", "SIMPLE", 600), "FD-6M": ("FIXED_DEPOSIT", "USD", "SIMPLE", 700),
    "FD-12M": ("FIXED_DEPOSIT", "USD", "COMPOUND", 850), "CALL-USD": ("CALL_DEPOSIT", "USD", "SIMPLE", 400),
    "MM-USD": ("MONEY_MARKET", "USD", "COMPOUND", 0), "TRUST-USD": ("TRUST", "USD", "NONE", 0),
    "ESCROW-USD": ("ESCROW", "USD", "NONE", 0), "NOSTRO-USD": ("NOSTRO", "USD", "NONE", 0),
    "SUSP-USD": ("SUSPENSE", "USD", "NONE", 0), "GL-USD": ("GL", "USD", "NONE", 0),
}


class ProductsTest(D.DepositsBase):
    def test_sixteen_products_cover_the_ten_account_types(self):
        """GET /v1/deposit-products lists the 16 pre-configured products over the 10 account types."""
        products = {p["code"]: p for p in C.ok(self.api.get("/v1/deposit-products"))}
        self.assertTrue(set(PRODUCTS) <= set(products), set(PRODUCTS) - set(products))
        for code, (type_, currency, method, rate) in PRODUCTS.items():
            p = products[code]
            self.assertEqual((p["accountType"], p["currency"], p["interestMethod"], p["annualRateBp"]),
                             (type_, currency, method, rate), code)
            self.assertEqual((p["dayCount"], p["interestPosting"], p["rounding"]), ("ACTUAL_365", "MONTH_END", "HALF_EVEN"))
        self.assertEqual({products[c]["accountType"] for c in PRODUCTS}, set(D_ACCOUNT_TYPES))
        self.assertEqual([(t["fromMinor"], t["rateBp"]) for t in products["SAV-TIER"]["tiers"]],
                         [(0, 100), (100_000, 200), (1_000_000, 300)])
        self.assertEqual((products["FD-12M"]["termDays"], products["FD-12M"]["earlyWithdrawalPenaltyBp"]), (365, 300))
        self.assertEqual((products["CUR-STD"]["monthlyFeeMinor"], products["CUR-STD"]["monthlyFee"]), (500, "5.00"))
        self.assertEqual((products["SAV-PLUS"]["withdrawalFeeMinor"], products["SAV-PLUS"]["minimumBalance"]),
                         (100, "50.00"))
        self.assertTrue(products["TRUST-USD"]["requiresActivation"])
        self.assertTrue(products["NOSTRO-USD"]["internal"])
        self.assertIsNone(products["ESCROW-USD"]["dormancyDays"])

    def test_filters(self):
        """accountType, currency (case-insensitive) and active filter the list."""
        savings = C.ok(self.api.get("/v1/deposit-products?accountType=savings"))
        self.assertEqual({p["code"] for p in savings} & set(PRODUCTS), {"SAV-STD", "SAV-ZWG", "SAV-PLUS", "SAV-TIER"})
        zwg = C.ok(self.api.get("/v1/deposit-products?currency=ZWG&active=true"))
        self.assertEqual({p["currency"] for p in zwg}, {"ZWG"})
        for query, name in (("accountType=PENSION", "accountType"), ("currency=EUR", "currency"),
                            ("active=maybe", "active")):
            self.assert_error(self.api.get(f"/v1/deposit-products?{query}"), 400, "BAD_REQUEST", name)

    def test_get_by_id_or_code(self):
        """A product by its UUID or its code; unknown: 404; neither a UUID nor a code: 400."""
        by_code = C.ok(self.api.get("/v1/deposit-products/SAV-STD"))
        self.assertEqual(C.ok(self.api.get(f"/v1/deposit-products/{by_code['id']}")), by_code)
        self.assert_error(self.api.get("/v1/deposit-products/NOPE-X"), 404, "NOT_FOUND", "Deposit product not found")
        self.assert_error(self.api.get(f"/v1/deposit-products/{D.MISSING_UUID}"), 404, "NOT_FOUND")
        self.assert_error(self.api.get("/v1/deposit-products/sav%20std"), 400, "BAD_REQUEST")

    def test_update_and_restore(self):
        """PUT changes configuration (admin key, admin staff); frozen members and bad values are refused."""
        product = C.ok(self.api.get("/v1/deposit-products/GL-USD"))
        path = f"/v1/deposit-products/{product['id']}"
        changed = C.ok(self.api.put(path, json_body={"name": "Internal GL (e2e)", "monthlyFeeMinor": 0},
                                    token=self.admin))
        self.assertEqual(changed["name"], "Internal GL (e2e)")
        restored = C.ok(self.api.put(path, json_body={"name": product["name"]}, token=self.admin))
        self.assertEqual(restored["name"], product["name"])
        self.assert_error(self.api.put(path, json_body={"interestMethod": "SIMPLE"}, token=self.admin),
                          422, "UNPROCESSABLE", "internal account product")
        for body, field in (({"currency": "ZWG"}, "currency"), ({"annualRateBp": 1.5}, "annualRateBp"),
                            ({"tiers": [{"fromMinor": 10, "rateBp": 1}]}, "tiers[0].fromMinor"),
                            ({"dormancyDays": 0}, "dormancyDays"), ({"colour": "red"}, "colour")):
            self.assert_invalid(self.api.put(path, json_body=body, token=self.admin), field)
        self.assert_invalid(self.api.put(path, json_body={}, token=self.admin), "body")
        self.assert_error(self.api.put("/v1/deposit-products/GL-USD", json_body={"name": "x"}, token=self.admin),
                          400, "BAD_REQUEST", "id must be a UUID")
        self.assert_error(self.api.put(f"/v1/deposit-products/{D.MISSING_UUID}", json_body={"name": "x"},
                                       token=self.admin), 404, "NOT_FOUND")
        # configuration is for admins: an admin key and an admin or branch manager
        self.assert_error(self.api.put(path, json_body={"name": "x"}, token=self.teller), 403, "FORBIDDEN")


D_ACCOUNT_TYPES = ["SAVINGS", "CURRENT", "FIXED_DEPOSIT", "CALL_DEPOSIT", "MONEY_MARKET", "TRUST", "ESCROW", "NOSTRO",
                   "SUSPENSE", "GL"]


class OpenAccountsTest(D.DepositsBase):
    def test_open_one_account_on_each_of_the_sixteen_products(self):
        """Every product opens: customer products with their minimum opening deposit, internal ones without customer."""
        customer = self.individual()
        products = {p["code"]: p for p in C.ok(self.api.get("/v1/deposit-products"))}
        numbers = set()
        for code in PRODUCTS:
            product = products[code]
            body = {"productCode": code}
            if not product["internal"]:
                body["customerId"] = customer["id"]
            if product["minimumOpeningMinor"] > 0:
                body["initialDeposit"] = {"amountMinor": product["minimumOpeningMinor"]}
            if code == "GL-USD":
                body["glAccountCode"] = "1900"
            account = C.ok(self.api.post("/v1/accounts", json_body=body, token=self.teller))
            self.assertEqual((account["productCode"], account["accountType"], account["currency"]),
                             (code, product["accountType"], product["currency"]))
            self.assertEqual(account["status"], "PENDING_ACTIVATION" if product["requiresActivation"] else "ACTIVE")
            self.assertEqual(account["balanceMinor"], product["minimumOpeningMinor"])
            self.assertEqual(account["glAccountCode"], product["glAccountCode"] if code != "GL-USD" else "1900")
            self.assertEqual(account["customerId"], None if product["internal"] else customer["id"])
            self.assertRegex(account["accountNumber"], r"^[A-Z0-9-]+$")
            if code.startswith("FD-"):
                self.assertEqual(account["maturityDate"],
                                 str(D.real_today() + datetime.timedelta(days=product["termDays"])))
            numbers.add(account["accountNumber"])
        self.assertEqual(len(numbers), 16)
        mine = C.ok(self.api.get(C.query("/v1/accounts", customerId=customer["id"], size=50)))
        self.assertEqual(mine["totalElements"], 13)  # the 3 internal ones have no customer
        self.assertEqual([a["accountNumber"] for a in mine["content"]],
                         sorted(a["accountNumber"] for a in mine["content"]))

    def test_initial_deposit_is_a_balanced_deposit_posting(self):
        """The opening deposit posts DEPOSIT Dr cash / Cr account in the same transaction as the opening."""
        customer = self.individual()
        account = self.open_account(customer["id"], "SAV-STD", initial=250_000)
        statement = C.ok(self.api.get(f"/v1/accounts/{account['id']}/statement"))
        self.assertEqual([(l["type"], l["side"], l["amountMinor"]) for l in statement["lines"]],
                         [("DEPOSIT", "CREDIT", 250_000)])
        tx = C.ok(self.api.get(f"/v1/transactions/{statement['lines'][0]['transactionId']}"))
        self.assert_posted_and_balanced(tx, "DEPOSIT")
        self.assertEqual({(e["side"], e["glAccountCode"]) for e in tx["entries"]}, {("DEBIT", "1000"), ("CREDIT", "2000")})

    def test_opening_rules(self):
        """Unknown customer or product 404; minimum opening, PROHIBITED customer, activation products: 422."""
        customer = self.individual()
        self.assert_error(self.api.post("/v1/accounts", token=self.teller,
                                        json_body={"customerId": D.MISSING_UUID, "productCode": "SAV-TIER"}),
                          404, "NOT_FOUND", "Customer not found")
        self.assert_error(self.api.post("/v1/accounts", token=self.teller,
                                        json_body={"customerId": customer["id"], "productCode": "NOPE-1"}),
                          404, "NOT_FOUND", "Deposit product not found")
        self.assert_error(self.api.post("/v1/accounts", token=self.teller,
                                        json_body={"customerId": customer["id"], "productCode": "SAV-STD",
                                                   "initialDeposit": {"amountMinor": 999}}),
                          422, "UNPROCESSABLE", "needs an initial deposit of at least 10.00")
        self.assert_error(self.api.post("/v1/accounts", token=self.teller,
                                        json_body={"customerId": customer["id"], "productCode": "CALL-USD"}),
                          422, "UNPROCESSABLE")
        self.assert_error(self.api.post("/v1/accounts", token=self.teller,
                                        json_body={"customerId": customer["id"], "productCode": "TRUST-USD",
                                                   "initialDeposit": {"amountMinor": 100}}),
                          422, "UNPROCESSABLE", "needs activation")
        self.assert_invalid(self.api.post("/v1/accounts", token=self.teller, json_body={"productCode": "SAV-TIER"}),
                            "customerId")
        self.assert_invalid(self.api.post("/v1/accounts", token=self.teller,
                                          json_body={"customerId": customer["id"], "productCode": "SAV-TIER",
                                                     "glAccountCode": "1900"}), "glAccountCode")
        prohibited = self.individual(riskCategory="prohibited")
        self.assert_error(self.api.post("/v1/accounts", token=self.teller,
                                        json_body={"customerId": prohibited["id"], "productCode": "SAV-TIER"}),
                          422, "UNPROCESSABLE", "PROHIBITED")

    def test_bad_input(self):
        """Field problems are 400 VALIDATION_ERROR naming the field; malformed JSON 400 BAD_REQUEST; nothing written."""
        customer = self.individual()
        before = C.count("deposit_accounts")
        cases = [({"customerId": "42", "productCode": "SAV-TIER"}, "customerId"),
                 ({"customerId": customer["id"]}, "productCode"),
                 ({"customerId": customer["id"], "productCode": "SAV STD"}, "productCode"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "productId": D.MISSING_UUID}, "productCode"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "initialDeposit": {"amountMinor": 0}},
                  "initialDeposit.amountMinor"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "initialDeposit": {"amountMinor": 1.5}},
                  "initialDeposit.amountMinor"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "initialDeposit": {"amount": "10.00"}},
                  "initialDeposit.amount"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "initialDeposit": {"amountMinor": 5,
                                                                                              "color": 1}},
                  "initialDeposit.color"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "name": "x" * 201}, "name"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "branchId": "HRE"}, "branchId"),
                 ({"customerId": customer["id"], "productCode": "SAV-TIER", "status": "ACTIVE"}, "status")]
        for body, field in cases:
            self.assert_invalid(self.api.post("/v1/accounts", json_body=body, token=self.teller), field)
        self.assert_error(self.api.post("/v1/accounts", body="{", token=self.teller), 400, "BAD_REQUEST",
                          "Malformed JSON request body")
        self.assertEqual(C.count("deposit_accounts"), before)

    def test_list_get_and_paging(self):
        """GET /v1/accounts filters by customer, status, type, product and currency; GET by id; 404 and 400."""
        customer = self.individual()
        a = self.open_account(customer["id"], "SAV-TIER", initial=100)
        b = self.open_account(customer["id"], "CUR-ZWG")
        self.assertEqual(C.ok(self.api.get(f"/v1/accounts/{a['id']}"))["id"], a["id"])
        page = C.ok(self.api.get(C.query("/v1/accounts", customerId=customer["id"], size=1)))
        self.assertEqual((page["totalElements"], page["totalPages"], len(page["content"])), (2, 2, 1))
        zwg = C.ok(self.api.get(C.query("/v1/accounts", customerId=customer["id"], currency="zwg")))
        self.assertEqual([x["id"] for x in zwg["content"]], [b["id"]])
        typed = C.ok(self.api.get(C.query("/v1/accounts", customerId=customer["id"], accountType="SAVINGS",
                                          productCode="SAV-TIER", status="active")))
        self.assertEqual([x["id"] for x in typed["content"]], [a["id"]])
        self.assert_error(self.api.get(f"/v1/accounts/{D.MISSING_UUID}"), 404, "NOT_FOUND", "Account not found")
        self.assert_error(self.api.get("/v1/accounts/AC0000000001"), 400, "BAD_REQUEST", "id must be a UUID")
        for query, name in (("status=OPEN", "status"), ("customerId=x", "customerId"), ("size=0", "size"),
                            ("page=-1", "page"), ("accountType=LOAN", "accountType")):
            self.assert_error(self.api.get(f"/v1/accounts?{query}"), 400, "BAD_REQUEST", name)


class LifecycleTest(D.DepositsBase):
    def lifecycle(self, account_id, verb, reason=None, token=None, expect=200):
        body = {} if reason is None else {"reason": reason}
        resp = self.api.put(f"/v1/accounts/{account_id}/{verb}", json_body=body, token=token or self.supervisor)
        return C.ok(resp, expect) if expect == 200 else resp

    def test_activation(self):
        """TRUST opens PENDING_ACTIVATION: no postings until activated; activating twice is 409."""
        customer = self.individual()
        trust = self.open_account(customer["id"], "TRUST-USD")
        self.assertEqual(trust["status"], "PENDING_ACTIVATION")
        self.assertEqual(trust["availableBalanceMinor"], 0)
        self.assert_error(self.api.post("/v1/deposits", token=self.teller,
                                        json_body={"accountId": trust["id"], "amountMinor": 1000}), 422, "UNPROCESSABLE")
        active = self.lifecycle(trust["id"], "activate")
        self.assertEqual(active["status"], "ACTIVE")
        self.assertIsNotNone(active["activatedAt"])
        self.assert_posted_and_balanced(self.deposit(trust["id"], 1000), "DEPOSIT")
        self.assert_error(self.lifecycle(trust["id"], "activate", expect=409), 409, "CONFLICT",
                          "Cannot activate an account that is ACTIVE")
        # activation is a supervisor's decision
        self.assert_error(self.api.put(f"/v1/accounts/{trust['id']}/activate", token=self.teller), 403, "FORBIDDEN")

    def test_freeze_unfreeze(self):
        """FROZEN takes credits but no debits; reason required; unfreeze returns to ACTIVE."""
        account = self.funded_savings(50_000)
        self.assert_invalid(self.api.put(f"/v1/accounts/{account['id']}/freeze", token=self.supervisor), "reason")
        frozen = self.lifecycle(account["id"], "freeze", "Court order 118/2026")
        self.assertEqual((frozen["status"], frozen["frozenReason"], frozen["availableBalanceMinor"]),
                         ("FROZEN", "Court order 118/2026", 0))
        self.assert_posted_and_balanced(self.deposit(account["id"], 100), "DEPOSIT")
        for path, body in (("/v1/withdrawals", {"accountId": account["id"], "amountMinor": 100}),
                           ("/v1/fees", {"accountId": account["id"], "amountMinor": 100, "description": "fee"})):
            self.assert_error(self.api.post(path, json_body=body, token=self.teller), 422, "UNPROCESSABLE")
        self.assert_error(self.lifecycle(account["id"], "freeze", "again", expect=409), 409, "CONFLICT")
        unfrozen = self.lifecycle(account["id"], "unfreeze")
        self.assertEqual((unfrozen["status"], unfrozen["frozenReason"]), ("ACTIVE", None))
        self.assert_posted_and_balanced(self.withdraw(account["id"], 100), "WITHDRAWAL")
        self.assert_error(self.lifecycle(account["id"], "unfreeze", expect=409), 409, "CONFLICT")

    def test_close(self):
        """Close needs a zero balance (422 otherwise); CLOSED is terminal and takes nothing."""
        account = self.funded_savings(20_000)
        self.assert_error(self.lifecycle(account["id"], "close", token=self.teller, expect=422), 422, "UNPROCESSABLE",
                          "balance must be zero")
        self.withdraw(account["id"], 20_000)
        closed = self.lifecycle(account["id"], "close", "customer request", token=self.teller)
        self.assertEqual(closed["status"], "CLOSED")
        self.assertEqual(closed["closedBy"], self.teller.id)
        self.assert_error(self.api.post("/v1/deposits", token=self.teller,
                                        json_body={"accountId": account["id"], "amountMinor": 1}), 422, "UNPROCESSABLE")
        for verb in ("close", "activate", "unfreeze", "reactivate"):
            self.assert_error(self.lifecycle(account["id"], verb, expect=409), 409, "CONFLICT")
        self.assert_error(self.api.put(f"/v1/accounts/{account['id']}/freeze", json_body={"reason": "x"},
                                       token=self.supervisor), 409, "CONFLICT")

    def test_status_history(self):
        """Every move is recorded with actor and reason, oldest first."""
        account = self.funded_savings(0)
        self.lifecycle(account["id"], "freeze", "fraud check")
        self.lifecycle(account["id"], "unfreeze", "cleared")
        self.lifecycle(account["id"], "close", token=self.teller)
        history = C.ok(self.api.get(f"/v1/accounts/{account['id']}/status-history"))
        self.assertEqual([(h["fromStatus"], h["toStatus"], h["reason"]) for h in history],
                         [(None, "ACTIVE", "opened"), ("ACTIVE", "FROZEN", "fraud check"),
                          ("FROZEN", "ACTIVE", "cleared"), ("ACTIVE", "CLOSED", "closed")])
        self.assertEqual([h["actorId"] for h in history],
                         [self.teller.id, self.supervisor.id, self.supervisor.id, self.teller.id])
        self.assert_error(self.api.get(f"/v1/accounts/{D.MISSING_UUID}/status-history"), 404, "NOT_FOUND")

    def test_lifecycle_bad_input(self):
        """A bad body or id is 400; an unknown account 404; a reason over 500 characters 400."""
        account = self.funded_savings(0)
        path = f"/v1/accounts/{account['id']}/freeze"
        self.assert_error(self.api.put(path, body="nope", token=self.supervisor), 400, "BAD_REQUEST")
        self.assert_invalid(self.api.put(path, json_body={"reason": "x" * 501}, token=self.supervisor), "reason")
        self.assert_invalid(self.api.put(path, json_body={"reason": "x", "until": "2027-01-01"}, token=self.supervisor),
                            "until")
        self.assert_error(self.api.put("/v1/accounts/nope/freeze", json_body={"reason": "x"}, token=self.supervisor),
                          400, "BAD_REQUEST")
        self.assert_error(self.api.put(f"/v1/accounts/{D.MISSING_UUID}/freeze", json_body={"reason": "x"},
                                       token=self.supervisor), 404, "NOT_FOUND")
        self.assertEqual(self.account(account["id"])["status"], "ACTIVE")


class DormancyTest(D.DepositsBase):
    def test_dormancy_job_and_reactivation(self):
        """No customer-initiated posting for CUR-STD's 180 days: DORMANT; a deposit or PUT reactivate revives it."""
        long_ago = D.real_today() - datetime.timedelta(days=200)
        customer = self.individual()
        with self.pinned_today(long_ago):
            by_deposit = self.open_account(customer["id"], "CUR-STD")
            by_request = self.open_account(customer["id"], "CUR-STD")
            recent = self.open_account(customer["id"], "SAV-TIER")
        today = str(D.real_today())
        run = C.ok(self.api.post(C.query("/v1/dormancy/run", date=today), token=self.supervisor))
        marked = {a["accountId"]: a for a in run["accounts"]}
        self.assertIn(by_deposit["id"], marked)
        self.assertIn(by_request["id"], marked)
        self.assertNotIn(recent["id"], marked)  # SAV-TIER: 365 days
        self.assertEqual(marked[by_deposit["id"]]["lastCustomerActivityOn"], str(long_ago))
        dormant = self.account(by_deposit["id"])
        self.assertEqual((dormant["status"], dormant["dormantSince"]), ("DORMANT", today))
        history = C.ok(self.api.get(f"/v1/accounts/{by_deposit['id']}/status-history"))
        self.assertEqual((history[-1]["toStatus"], history[-1]["reason"], history[-1]["actorId"]),
                         ("DORMANT", "no customer-initiated posting for 180 days", self.supervisor.id))
        # a system debit (fee) is refused on a dormant account and does not revive it
        self.assert_error(self.api.post("/v1/fees", token=self.teller, json_body={
            "accountId": by_deposit["id"], "amountMinor": 1, "description": "fee"}), 422, "UNPROCESSABLE")
        # the next customer-initiated posting reactivates it, in its own transaction
        self.assert_posted_and_balanced(self.deposit(by_deposit["id"], 5_000), "DEPOSIT")
        revived = self.account(by_deposit["id"])
        self.assertEqual((revived["status"], revived["dormantSince"], revived["lastCustomerActivityOn"]),
                         ("ACTIVE", None, today))
        # reactivation on request
        self.assertEqual(C.ok(self.api.put(f"/v1/accounts/{by_request['id']}/reactivate",
                                           token=self.teller))["status"], "ACTIVE")
        # running again marks nothing new of these
        again = C.ok(self.api.post(C.query("/v1/dormancy/run", date=today), token=self.supervisor))
        self.assertFalse({by_deposit["id"], by_request["id"]} & {a["accountId"] for a in again["accounts"]})
        # close them so that later jobs leave them alone
        self.withdraw(by_deposit["id"], 5_000)
        for account in (by_deposit, by_request):
            C.ok(self.api.put(f"/v1/accounts/{account['id']}/close", token=self.teller))

    def test_dormancy_run_rules(self):
        """date required and not after the business date; an admin key; no body."""
        self.assert_error(self.api.post("/v1/dormancy/run", token=self.supervisor), 400, "BAD_REQUEST", "date")
        tomorrow = D.real_today() + datetime.timedelta(days=1)
        self.assert_error(self.api.post(C.query("/v1/dormancy/run", date=str(tomorrow)), token=self.supervisor),
                          422, "UNPROCESSABLE")
        write_key = C.new_key(["write"])["key"]
        self.assert_error(C.Core(write_key).post(C.query("/v1/dormancy/run", date=str(D.real_today())),
                                                 token=self.supervisor), 403, "FORBIDDEN")


class BalanceAndStatementTest(D.DepositsBase):
    def test_balance_as_of_and_statement(self):
        """Back-valued postings: the balance as of each date and the statement read the same ledger expression."""
        today = D.real_today()
        ten_ago, five_ago = today - datetime.timedelta(days=10), today - datetime.timedelta(days=5)
        account = self.funded_savings(100_000)
        self.deposit(account["id"], 30_000, valueDate=str(ten_ago))
        self.withdraw(account["id"], 5_000, valueDate=str(five_ago))

        def balance(day):
            return C.ok(self.api.get(C.query(f"/v1/accounts/{account['id']}/balance", asOf=str(day))))["balanceMinor"]

        self.assertEqual(balance(ten_ago - datetime.timedelta(days=1)), 0)
        self.assertEqual(balance(ten_ago), 30_000)
        self.assertEqual(balance(five_ago), 25_000)
        self.assertEqual(balance(today), 125_000)
        current = C.ok(self.api.get(f"/v1/accounts/{account['id']}/balance"))
        self.assertEqual((current["asOf"], current["balanceMinor"], current["currentBalanceMinor"]),
                         (str(today), 125_000, 125_000))
        statement = C.ok(self.api.get(C.query(f"/v1/accounts/{account['id']}/statement",
                                              **{"from": str(five_ago), "to": str(today)})))
        self.assertEqual(statement["openingBalanceMinor"], 30_000)
        self.assertEqual([(l["valueDate"], l["side"], l["amountMinor"], l["balanceMinor"]) for l in statement["lines"]],
                         [(str(five_ago), "DEBIT", 5_000, 25_000), (str(today), "CREDIT", 100_000, 125_000)])
        self.assertEqual((statement["totalDebitsMinor"], statement["totalCreditsMinor"],
                          statement["closingBalanceMinor"]), (5_000, 100_000, 125_000))
        self.assertEqual(statement["closingBalanceMinor"], balance(today))

    def test_bad_input(self):
        """asOf in the future 400; from after to, more than 366 days, malformed dates: 400; unknown account 404."""
        account = self.funded_savings(100)
        tomorrow = D.real_today() + datetime.timedelta(days=1)
        self.assert_invalid(self.api.get(C.query(f"/v1/accounts/{account['id']}/balance", asOf=str(tomorrow))), "asOf")
        self.assert_error(self.api.get(C.query(f"/v1/accounts/{account['id']}/balance", asOf="2026-13-01")),
                          400, "BAD_REQUEST", "asOf")
        base = f"/v1/accounts/{account['id']}/statement"
        self.assert_error(self.api.get(C.query(base, **{"from": "2026-02-01", "to": "2026-01-01"})), 400, "BAD_REQUEST")
        self.assert_error(self.api.get(C.query(base, **{"from": "2024-01-01", "to": "2025-06-01"})), 400, "BAD_REQUEST",
                          "366 days")
        self.assert_error(self.api.get(C.query(base, **{"from": "yesterday"})), 400, "BAD_REQUEST", "from")
        self.assert_error(self.api.get(f"/v1/accounts/{D.MISSING_UUID}/statement"), 404, "NOT_FOUND")
        self.assert_error(self.api.get(f"/v1/accounts/{D.MISSING_UUID}/balance"), 404, "NOT_FOUND")


if __name__ == "__main__":
    import unittest
    unittest.main()
