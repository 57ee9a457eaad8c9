"""GET /v1/accounts/{id}/statement paged by keyset over HTTP (issue 12 part 4,
docs/deposits.md "Statements and their paging").

Goal: an account of 250 lines read with limit=100 comes in pages of 100, 100
and 50 whose lines and running balances concatenate to the whole range (the
same as one page of 1000, each balance the one before plus the line), the
range's members agree with the balance as of the dates, and following
previousCursor back from the last page gives exactly the pages read forward.
A bad limit, a garbage or altered cursor, a cursor of another account or of
another range are 400 with the documented messages; an unknown account 404.
Method: back-valued deposits on three days and batch transfers today
between the account and a counterpart (so pages cross days), then walks
over HTTP; every
response is validated against /openapi.json by the client.
"""
import datetime

import corebanking as C
import deposits_support as D

BATCH = "/v1/transfers/batch"
LINES = 250          # 30 back-valued deposits, the opening deposit and 219 transfers
LIMIT = 100
CURSOR_INVALID = "cursor: is not valid"
CURSOR_FOREIGN = "cursor: is not valid for this statement"
LIMIT_MESSAGE = "limit: must be an integer from 1 to 1000"


def without_cursors(page):
    """The page with each cursor replaced by whether it is there."""
    return dict(page, nextCursor=page["nextCursor"] is not None, previousCursor=page["previousCursor"] is not None)


def setUpModule():
    C.require_core()


class StatementPagingTest(D.DepositsBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        today = D.real_today()
        cls.days = [today - datetime.timedelta(days=k) for k in (3, 2, 1, 0)]
        cls.account = cls.funded(5_000_000)
        cls.counterpart = cls.funded(5_000_000)
        # Ten back-valued deposits on each of the three days before today, then
        # the opening deposit and 219 transfers (batches: credits and debits of
        # varied sizes) today.
        back_valued = 10 * (len(cls.days) - 1)
        for n in range(back_valued):
            C.ok(cls.api.post("/v1/deposits", token=cls.teller, json_body={
                "accountId": cls.account["id"], "amountMinor": 1_000 + n, "valueDate": str(cls.days[n // 10])}))
        transfers = []
        for n in range(LINES - 1 - back_valued):
            amount = 100 + (n * 37) % 900
            source, target = (cls.counterpart, cls.account) if n % 3 else (cls.account, cls.counterpart)
            transfers.append({"fromAccountId": source["id"], "toAccountId": target["id"], "amountMinor": amount})
        for start in range(0, len(transfers), 100):
            body = C.ok(cls.api.post(BATCH, json_body={"transfers": transfers[start:start + 100]}, token=cls.teller))
            assert body["failedCount"] == 0, body
        cls.range = {"from": str(cls.days[0]), "to": str(today)}
        cls.path = f"/v1/accounts/{cls.account['id']}/statement"

    @classmethod
    def funded(cls, amount):
        customer = C.ok(cls.api.post("/v1/customers", token=cls.teller, json_body={
            "type": "INDIVIDUAL", "firstName": "Paged", "lastName": f"Moyo{C.uid()}", "dateOfBirth": "1990-04-01",
            "nationalId": f"63-{C.uid()}", "nationality": "ZW"}))
        return C.ok(cls.api.post("/v1/accounts", token=cls.teller, json_body={
            "customerId": customer["id"], "productCode": "SAV-TIER", "initialDeposit": {"amountMinor": amount}}))

    def page(self, cursor=None, limit=LIMIT, path=None, **range_):
        params = dict(self.range) if not range_ else range_
        return C.ok(self.api.get(C.query(path or self.path, limit=limit, cursor=cursor, **params)))

    def walk(self, limit=LIMIT):
        """The pages forward from the first, then back from the last by previousCursor."""
        forward = [self.page(limit=limit)]
        while forward[-1]["nextCursor"] is not None:
            self.assertLess(len(forward), 50, "the walk does not end")
            forward.append(self.page(forward[-1]["nextCursor"], limit=limit))
        backward = [forward[-1]]
        while backward[-1]["previousCursor"] is not None:
            self.assertLess(len(backward), 50, "the walk back does not end")
            backward.append(self.page(backward[-1]["previousCursor"], limit=limit))
        return forward, backward

    def balance(self, day):
        query = C.query(f"/v1/accounts/{self.account['id']}/balance", asOf=str(day))
        return C.ok(self.api.get(query))["balanceMinor"]

    def test_walk_forward_and_back(self):
        """Pages of 100, 100, 50 concatenate to the range; back by previousCursor gives the same pages."""
        forward, backward = self.walk()
        self.assertEqual([len(p["lines"]) for p in forward], [100, 100, 50])
        whole = self.page(limit=1000)
        self.assertEqual(len(whole["lines"]), LINES)
        self.assertIsNone(whole["nextCursor"])
        self.assertIsNone(whole["previousCursor"])
        lines = [line for p in forward for line in p["lines"]]
        self.assertEqual(lines, whole["lines"], "the pages are not the range's lines")
        # Cursors are sealed with a fresh nonce each time: compare the pages without their tokens.
        self.assertEqual([without_cursors(p) for p in reversed(backward)], [without_cursors(p) for p in forward],
                         "previousCursor does not give the same pages")

        # Running balances: each the one before plus the line, from the range's opening balance.
        opening = forward[0]["openingBalanceMinor"]
        self.assertEqual(opening, self.balance(self.days[0] - datetime.timedelta(days=1)))
        running = opening
        for line in lines:
            running += line["amountMinor"] if line["side"] == "CREDIT" else -line["amountMinor"]
            self.assertEqual(line["balanceMinor"], running, line)
        self.assertEqual(running, forward[0]["closingBalanceMinor"])
        self.assertEqual(running, self.balance(self.days[-1]))
        keys = [(line["valueDate"], line["entryId"]) for line in lines]
        self.assertEqual(keys, sorted(keys), "lines are not in (value date, entry id) order")
        self.assertEqual(len({line["valueDate"] for line in lines}), len(self.days))

        # The page members.
        debits = sum(line["amountMinor"] for line in lines if line["side"] == "DEBIT")
        credits = sum(line["amountMinor"] for line in lines if line["side"] == "CREDIT")
        for n, p in enumerate(forward):
            self.assertEqual(p["limit"], LIMIT)
            self.assertEqual((p["totalDebitsMinor"], p["totalCreditsMinor"]), (debits, credits))
            self.assertEqual(p["openingBalanceMinor"], opening)
            self.assertEqual(p["pageClosingBalanceMinor"], p["lines"][-1]["balanceMinor"])
            self.assertEqual(p["pageOpeningBalanceMinor"],
                             forward[n - 1]["pageClosingBalanceMinor"] if n else opening)
            self.assertEqual((p["from"], p["to"]), (self.range["from"], self.range["to"]))
        self.assertIsNone(forward[0]["previousCursor"])
        self.assertIsNotNone(forward[1]["previousCursor"])
        self.assertIsNone(forward[-1]["nextCursor"])
        self.assertEqual(forward[-1]["pageClosingBalanceMinor"], forward[-1]["closingBalanceMinor"])
        # Opaque: the balance a cursor carries is not readable in it.
        self.assertRegex(forward[0]["nextCursor"], r"^[A-Za-z0-9_-]+$")
        self.assertNotIn(str(forward[0]["pageClosingBalanceMinor"]), forward[0]["nextCursor"])

    def test_default_range_walks_with_its_cursor(self):
        """With from and to left out, the cursor (also without them) continues the first page exactly."""
        first = C.ok(self.api.get(C.query(self.path, limit=10)))
        second = C.ok(self.api.get(C.query(self.path, limit=10, cursor=first["nextCursor"])))
        both = C.ok(self.api.get(C.query(self.path, limit=20)))
        self.assertEqual(first["lines"] + second["lines"], both["lines"])
        self.assertEqual((second["from"], second["to"]), (first["from"], first["to"]))
        self.assertEqual(second["pageOpeningBalanceMinor"], first["pageClosingBalanceMinor"])

    def test_default_limit_is_100(self):
        """Without limit the page holds 100 lines and says so."""
        body = C.ok(self.api.get(C.query(self.path, **self.range)))
        self.assertEqual((body["limit"], len(body["lines"])), (100, 100))

    def test_bad_limit(self):
        """limit 0, 1001, not a number: 400 naming limit."""
        for limit in ("0", "1001", "-1", "ten", "1.5"):
            with self.subTest(limit=limit):
                body = self.assert_error(self.api.get(C.query(self.path, limit=limit, **self.range)),
                                         400, "BAD_REQUEST")
                self.assertEqual(body["message"], LIMIT_MESSAGE)

    def test_bad_cursor(self):
        """Garbage, an altered cursor and one over 512 characters: 400 cursor: is not valid."""
        cursor = self.page()["nextCursor"]
        middle = len(cursor) // 2
        altered = cursor[:middle] + ("A" if cursor[middle] != "A" else "B") + cursor[middle + 1:]
        for bad in ("garbage", "%%%", altered, cursor[:-4], cursor + "AAAA"):
            with self.subTest(cursor=bad[:40]):
                body = self.assert_error(self.api.get(C.query(self.path, cursor=bad, **self.range)), 400, "BAD_REQUEST")
                self.assertEqual(body["message"], CURSOR_INVALID)
        body = self.assert_error(self.api.get(C.query(self.path, cursor="A" * 513, **self.range)), 400, "BAD_REQUEST")
        self.assertTrue(body["message"].startswith("cursor: "), body)

    def test_cursor_of_another_statement(self):
        """A genuine cursor with another account, another from/to, or from/to left out: 400 for this statement."""
        cursor = self.page()["nextCursor"]
        other = f"/v1/accounts/{self.counterpart['id']}/statement"
        cases = [(other, self.range), (self.path, {"from": self.range["from"]}), (self.path, {}),
                 (self.path, {"from": str(self.days[1]), "to": self.range["to"]})]
        for path, range_ in cases:
            with self.subTest(path=path, range=range_):
                body = self.assert_error(self.api.get(C.query(path, cursor=cursor, **range_)), 400, "BAD_REQUEST")
                self.assertEqual(body["message"], CURSOR_FOREIGN)

    def test_unknown_account(self):
        """An unknown account is 404, with or without limit."""
        missing = f"/v1/accounts/{D.MISSING_UUID}/statement"
        self.assert_error(self.api.get(missing), 404, "NOT_FOUND")
        self.assert_error(self.api.get(C.query(missing, limit=5, **self.range)), 404, "NOT_FOUND")


if __name__ == "__main__":
    import unittest
    unittest.main()
