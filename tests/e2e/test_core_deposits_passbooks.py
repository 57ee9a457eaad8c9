"""Passbooks over HTTP, every rule of 01-core-banking.md rule 1: a book holds
no money; its lines are the account's postings from the same ledger
expression as the statement; it stores only how far it is printed; opening
plus lines equals closing; a book printed to the end closes at the ledger
balance; at most one live book per account; issue, reprint on loss,
unprinted lines, and print-confirm naming the last line printed, so that a
posting landing after printing stays unprinted.
"""
import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


def net(lines):
    return sum((l["creditCents"] or 0) - (l["debitCents"] or 0) for l in lines)


class PassbookTest(D.DepositsBase):
    def account_with_postings(self):
        account = self.funded_savings(100_000)
        self.deposit(account["id"], 20_000)
        self.withdraw(account["id"], 5_000)
        self.fee(account["id"], 300, "Passbook fee")
        return account

    def issue(self, account):
        return C.ok(self.api.post(f"/v1/accounts/{account['id']}/passbooks", token=self.teller))

    def unprinted(self, book, limit=None):
        return C.ok(self.api.get(C.query(f"/v1/passbooks/{book['id']}/unprinted-lines", limit=limit)))

    def confirm(self, book, entry_id, expect=200):
        resp = self.api.post(f"/v1/passbooks/{book['id']}/print-confirm", json_body={"lastEntryId": entry_id},
                             token=self.teller)
        return C.ok(resp) if expect == 200 else resp

    def test_lines_are_the_statement_and_sum_to_the_balance(self):
        """Lines = the statement's entries in posting order; opening + lines = closing = the ledger balance."""
        account = self.account_with_postings()
        book = self.issue(account)
        self.assertEqual((book["bookNumber"], book["status"], book["startsAfterEntryId"], book["printedThroughEntryId"]),
                         (1, "ACTIVE", 0, None))
        self.assertEqual((book["printedLineCount"], book["unprintedLineCount"]), (0, 4))
        self.assertEqual((book["openingBalanceCents"], book["closingBalanceCents"], book["ledgerBalanceCents"]),
                         (0, 0, 114_700))
        page = self.unprinted(book)
        statement = C.ok(self.api.get(f"/v1/accounts/{account['id']}/statement"))
        self.assertEqual([l["entryId"] for l in page["lines"]], [l["entryId"] for l in statement["lines"]])
        self.assertEqual([(l["lineNo"], l["creditCents"], l["debitCents"]) for l in page["lines"]],
                         [(1, 100_000, None), (2, 20_000, None), (3, None, 5_000), (4, None, 300)])
        self.assertEqual([l["balanceCents"] for l in page["lines"]], [l["balanceMinor"] for l in statement["lines"]])
        self.assertEqual(page["openingBalanceCents"] + net(page["lines"]), page["closingBalanceCents"])
        self.assertEqual((page["closingBalanceCents"], page["closingBalance"], page["more"]), (114_700, "1147.00", False))
        self.assertEqual(C.count("passbooks", "account_id = %s", (account["id"],)), 1)
        columns = {r["column_name"] for r in C.db().rows(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = 'corebank' "
            "AND table_name = 'passbooks'")}
        self.assertFalse({c for c in columns if "balance" in c or "amount" in c}, "a passbook stores no money")

    def test_print_confirm_and_a_posting_after_printing(self):
        """Printing two lines, then the rest; a deposit landing after printing stays unprinted."""
        account = self.account_with_postings()
        book = self.issue(account)
        first_two = self.unprinted(book, limit=2)
        self.assertTrue(first_two["more"])
        self.assertEqual(len(first_two["lines"]), 2)
        printed = self.confirm(book, first_two["lines"][-1]["entryId"])
        self.assertEqual((printed["printedLineCount"], printed["unprintedLineCount"]), (2, 2))
        self.assertEqual(printed["closingBalanceCents"], 120_000)
        self.assertEqual(printed["printedThroughEntryId"], first_two["lines"][-1]["entryId"])
        rest = self.unprinted(book)
        self.assertEqual([l["lineNo"] for l in rest["lines"]], [3, 4])
        self.assertEqual(rest["openingBalanceCents"], 120_000)
        self.assertEqual(rest["openingBalanceCents"] + net(rest["lines"]), rest["closingBalanceCents"])
        # the teller prints lines 3 and 4; a deposit lands before the confirmation
        late = self.deposit(account["id"], 7_000)
        done = self.confirm(book, rest["lines"][-1]["entryId"])
        self.assertEqual((done["printedLineCount"], done["unprintedLineCount"]), (4, 1))
        self.assertEqual(done["closingBalanceCents"], 114_700)
        self.assertEqual(done["ledgerBalanceCents"], 121_700)
        tail = self.unprinted(book)
        self.assertEqual([(l["lineNo"], l["transactionId"], l["creditCents"]) for l in tail["lines"]],
                         [(5, late["id"], 7_000)])
        finished = self.confirm(book, tail["lines"][-1]["entryId"])
        self.assertEqual(finished["closingBalanceCents"], finished["ledgerBalanceCents"])
        # the same line again changes nothing; an earlier one is 409; another account's entry 422
        self.assertEqual(self.confirm(book, tail["lines"][-1]["entryId"])["printedLineCount"], 5)
        self.assert_error(self.confirm(book, first_two["lines"][0]["entryId"], expect=409), 409, "CONFLICT")
        other = self.funded_savings(100)
        other_entry = C.ok(self.api.get(f"/v1/accounts/{other['id']}/statement"))["lines"][0]["entryId"]
        self.assert_error(self.confirm(book, other_entry, expect=422), 422, "UNPROCESSABLE", "not a line of this passbook")

    def test_one_live_book_and_reprint_on_loss(self):
        """A second issue is 409; a reprint makes the book LOST and starts a replacement that prints everything again."""
        account = self.account_with_postings()
        book = self.issue(account)
        self.confirm(book, self.unprinted(book)["lines"][-1]["entryId"])
        self.assert_error(self.api.post(f"/v1/accounts/{account['id']}/passbooks", token=self.teller), 409, "CONFLICT",
                          "live passbook")
        replacement = C.ok(self.api.post(f"/v1/passbooks/{book['id']}/reprint", token=self.teller,
                                         json_body={"reason": "Lost in a flood"}))
        self.assertEqual((replacement["bookNumber"], replacement["status"], replacement["replacesId"]),
                         (2, "ACTIVE", book["id"]))
        self.assertEqual((replacement["startsAfterEntryId"], replacement["printedLineCount"],
                          replacement["unprintedLineCount"]), (book["startsAfterEntryId"], 0, 4))
        lost = C.ok(self.api.get(f"/v1/passbooks/{book['id']}"))
        self.assertEqual((lost["status"], lost["lostReason"]), ("LOST", "Lost in a flood"))
        self.assertIsNotNone(lost["lostAt"])
        self.assertEqual([b["bookNumber"] for b in C.ok(self.api.get(f"/v1/accounts/{account['id']}/passbooks"))], [2, 1])
        self.assert_error(self.api.post(f"/v1/passbooks/{book['id']}/reprint", token=self.teller), 409, "CONFLICT")
        self.assert_error(self.confirm(book, 1, expect=409), 409, "CONFLICT")
        again = C.ok(self.api.post(f"/v1/passbooks/{replacement['id']}/reprint", token=self.teller))
        self.assertEqual((again["bookNumber"], again["replacesId"]), (3, replacement["id"]))

    def test_closing_the_account_closes_its_book(self):
        """Closing the account closes the live book; a CLOSED account gets no new book (422)."""
        account = self.funded_savings(5_000)
        book = self.issue(account)
        self.withdraw(account["id"], 5_000)
        C.ok(self.api.put(f"/v1/accounts/{account['id']}/close", token=self.teller))
        closed = C.ok(self.api.get(f"/v1/passbooks/{book['id']}"))
        self.assertEqual(closed["status"], "CLOSED")
        self.assertIsNotNone(closed["closedAt"])
        self.assert_error(self.api.post(f"/v1/accounts/{account['id']}/passbooks", token=self.teller), 422,
                          "UNPROCESSABLE", "CLOSED")

    def test_bad_input(self):
        """Malformed ids, bodies and limits are 400; unknown books and accounts 404."""
        account = self.funded_savings(100)
        book = self.issue(account)
        path = f"/v1/passbooks/{book['id']}/print-confirm"
        for body, field in (({}, "lastEntryId"), ({"lastEntryId": "12"}, "lastEntryId"), ({"lastEntryId": 0}, "lastEntryId"),
                            ({"lastEntryId": 1.5}, "lastEntryId"), ({"lastEntryId": 1, "lines": 2}, "lines")):
            self.assert_invalid(self.api.post(path, json_body=body, token=self.teller), field)
        for limit in ("0", "501", "ten"):
            self.assert_error(self.api.get(C.query(f"/v1/passbooks/{book['id']}/unprinted-lines", limit=limit)),
                              400, "BAD_REQUEST", "limit")
        self.assert_invalid(self.api.post(f"/v1/passbooks/{book['id']}/reprint", token=self.teller,
                                          json_body={"reason": "x" * 501}), "reason")
        self.assert_error(self.api.post(f"/v1/accounts/{account['id']}/passbooks", token=self.teller,
                                        json_body={"bookNumber": 9}), 400, "BAD_REQUEST", "takes no request body")
        for method, path in (("GET", f"/v1/passbooks/{D.MISSING_UUID}"),
                             ("GET", f"/v1/passbooks/{D.MISSING_UUID}/unprinted-lines"),
                             ("POST", f"/v1/passbooks/{D.MISSING_UUID}/reprint"),
                             ("GET", f"/v1/accounts/{D.MISSING_UUID}/passbooks"),
                             ("POST", f"/v1/accounts/{D.MISSING_UUID}/passbooks")):
            self.assert_error(self.api.request(method, path, token=self.teller), 404, "NOT_FOUND")
        self.assert_error(self.api.post(f"/v1/passbooks/{D.MISSING_UUID}/print-confirm", token=self.teller,
                                        json_body={"lastEntryId": 1}), 404, "NOT_FOUND")
        self.assert_error(self.api.get("/v1/passbooks/book-1"), 400, "BAD_REQUEST", "id must be a UUID")


if __name__ == "__main__":
    import unittest
    unittest.main()
