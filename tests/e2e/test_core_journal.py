"""The manual journal and its maker-checker lifecycle through HTTP.

capture -> PENDING (parked) -> approve (another person) -> PENDING (released)
-> post -> POSTED -> reverse (parked, approved) -> REVERSED; reject -> PENDING
(refused) -> abandon -> CANCELLED (docs/core-banking.md, Transactions and
Maker-checker). The database side is checked with superuser SQL: no
journal_entries before posting, the hash chain (`ledger_verify_chain()`), the
balances (`ledger_check_balances()`) and the trial balance.
"""
import unittest

import psycopg2

import cbclient as cb
import corebanking as C


def setUpModule():
    C.require_core()


class JournalTestBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = C.Core(C.admin_key())
        cls.teller = C.new_staff("teller")
        cls.teller2 = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")
        cls.supervisor2 = C.new_staff("supervisor")
        cls.maker_checker = C.new_staff("teller", "supervisor")
        cls.gl_admin = C.new_staff("admin")

    def fresh_pair(self):
        """A fresh ASSET and LIABILITY GL account, so balances of this test are exact."""
        asset = C.new_gl_account(self.api, self.gl_admin, "ASSET")
        liability = C.new_gl_account(self.api, self.gl_admin, "LIABILITY")
        return asset, liability

    def entries_of(self, tx_id):
        return C.count("journal_entries", "transaction_id = %s", (tx_id,))

    def assert_ledger_healthy(self):
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_verify_chain()"), 0,
                         C.chain_problems())
        self.assertEqual(C.db().scalar("SELECT count(*) FROM corebank.ledger_check_balances()"), 0,
                         C.balance_problems())
        for currency, (debits, credits) in C.trial_balance_sums().items():
            self.assertEqual(debits, credits, f"trial balance in {currency} does not sum to zero")


class CaptureTest(JournalTestBase):
    def test_capture_parks_and_posts_nothing(self):
        """A teller's balanced journal is 200 PENDING, approvalStatus PENDING, and writes no journal_entries."""
        asset, liability = self.fresh_pair()
        entries_before = C.count("journal_entries")
        body = C.journal(asset["id"], liability["id"], amount=125000, description="Vault to till")
        tx = C.capture(self.api, self.teller, body)
        self.assertRegex(tx["id"], C.UUID_RE)
        self.assertEqual(tx["status"], "PENDING")
        self.assertEqual(tx["state"], "PENDING")
        self.assertEqual(tx["approvalStatus"], "PENDING")
        self.assertIs(tx["released"], False)
        self.assertIsNone(tx["hash"])
        self.assertIsNone(tx["postedAt"])
        self.assertEqual(tx["makerId"], self.teller.id)
        self.assertEqual(tx["reference"], body["reference"])
        self.assertEqual(tx["description"], "Vault to till")
        self.assertEqual(tx["type"], "ADJUSTMENT")
        self.assertEqual(tx["channel"], "BRANCH")
        self.assertEqual(tx["branchId"], C.branches(self.api)["HO"]["id"])
        self.assertEqual(tx["valueDate"], C.business_today().isoformat())
        self.assertEqual([(e["lineNo"], e["side"], e["amountMinor"], e["amount"]) for e in tx["entries"]],
                         [(1, "DEBIT", 125000, "1250.00"), (2, "CREDIT", 125000, "1250.00")])
        self.assertEqual([(t["currency"], t["debitMinor"], t["creditMinor"]) for t in tx["totals"]],
                         [("USD", 125000, 125000)])
        self.assertEqual(C.count("journal_entries"), entries_before)
        self.assertEqual(self.entries_of(tx["id"]), 0)
        self.assertEqual(C.count("transaction_lines_proposed", "transaction_id = %s", (tx["id"],)), 2)
        self.assertEqual(C.gl_account(self.api, asset["id"])["balanceMinor"], 0)
        change = C.ok(self.api.get(f"/v1/approvals/{tx['parkedChangeId']}"))
        self.assertEqual(change["operation"], "transaction.release")
        self.assertEqual(change["entityId"], tx["id"])
        self.assertEqual(change["status"], "PENDING")
        self.assertEqual(change["makerId"], self.teller.id)

    def test_captured_journal_operator_is_the_capturer(self):
        """A captured (not posted) journal names its capturer as operator; posting records the poster."""
        tx = C.capture(self.api, self.teller, C.journal())
        self.assertEqual(tx["operatorId"], self.teller.id)

    def test_capture_by_code_and_currency_in_zwg(self):
        """Lines may name a GL code + currency; ZWG lines land on the ZWG mirror of that code."""
        body = C.journal("1000", "2000", amount=500, currency="ZWG")
        tx = C.capture(self.api, self.teller, body)
        zwg_1000 = C.ok(self.api.get("/v1/gl/accounts?code=1000&currency=ZWG"))
        self.assertEqual(len(zwg_1000), 1)
        self.assertEqual(tx["entries"][0]["glAccountId"], zwg_1000[0]["id"])
        self.assertEqual({e["currency"] for e in tx["entries"]}, {"ZWG"})

    def test_posting_while_parked_is_409(self):
        """POST /v1/transactions/{id}/post while the journal is still parked is 409 and posts nothing."""
        tx = C.capture(self.api, self.teller, C.journal())
        resp = self.api.post(f"/v1/transactions/{tx['id']}/post", token=self.teller)
        cb.assert_error(resp, 409, "CONFLICT", "transaction is still awaiting approval")
        self.assertEqual(self.entries_of(tx["id"]), 0)
        self.assertEqual(C.get_tx(self.api, tx["id"])["status"], "PENDING")

    def test_unbalanced_journal_is_422(self):
        """Debits not equal to credits in a currency is 422 UNPROCESSABLE `not balanced`, nothing written."""
        body = C.journal()
        body["entries"][0]["amountMinor"] = 1001
        before = C.ledger_counts()
        body_err = cb.assert_error(self.api.post("/v1/transactions", json_body=body, token=self.teller),
                                   422, "UNPROCESSABLE")
        self.assertIn("not balanced", body_err["message"])
        self.assertIn("USD", body_err["message"])
        self.assertEqual(C.ledger_counts(), before)

    def test_balanced_overall_but_not_per_currency_is_422(self):
        """USD debit against ZWG credit of the same amount is unbalanced per currency: 422."""
        body = C.journal()
        body["entries"][1]["currency"] = "ZWG"
        before = C.ledger_counts()
        resp = self.api.post("/v1/transactions", json_body=body, token=self.teller)
        err = cb.assert_error(resp, 422, "UNPROCESSABLE")
        self.assertIn("not balanced", err["message"])
        self.assertEqual(C.ledger_counts(), before)

    def test_fractional_amount_is_400(self):
        """amountMinor 12.5 is 400 VALIDATION_ERROR naming entries[1].amountMinor, nothing written."""
        body = C.journal()
        body["entries"][1]["amountMinor"] = 12.5
        before = C.ledger_counts()
        cb.assert_validation(self.api.post("/v1/transactions", json_body=body, token=self.teller),
                             "entries[1].amountMinor", reason="must be an integer")
        self.assertEqual(C.ledger_counts(), before)

    def test_amount_bounds(self):
        """amountMinor 0, negative and above 10^15 are 400 naming the line; 10^15 itself is accepted."""
        for amount in (0, -5, 10 ** 15 + 1):
            with self.subTest(amount=amount):
                body = C.journal(amount=amount)
                cb.assert_validation(self.api.post("/v1/transactions", json_body=body, token=self.teller),
                                     "entries[0].amountMinor")
        tx = C.capture(self.api, self.teller, C.journal(amount=10 ** 15))
        self.assertEqual(tx["entries"][0]["amount"], "10000000000000.00")

    def test_unknown_gl_code_is_404(self):
        """A glAccountCode that names no GL account is 404 NOT_FOUND naming the line, nothing written."""
        body = C.journal(debit=f"NOPE{C.uid().upper()[:6]}")
        before = C.ledger_counts()
        err = cb.assert_error(self.api.post("/v1/transactions", json_body=body, token=self.teller),
                              404, "NOT_FOUND")
        self.assertIn("entries[0]", err["message"])
        self.assertEqual(C.ledger_counts(), before)

    def test_unknown_gl_id_and_branch_are_404(self):
        """An unknown glAccountId or branchId is 404 NOT_FOUND, nothing written."""
        before = C.ledger_counts()
        body = C.journal(debit=C.ZERO_UUID)
        cb.assert_error(self.api.post("/v1/transactions", json_body=body, token=self.teller), 404, "NOT_FOUND")
        body = C.journal(branchId=C.ZERO_UUID)
        cb.assert_error(self.api.post("/v1/transactions", json_body=body, token=self.teller), 404, "NOT_FOUND")
        self.assertEqual(C.ledger_counts(), before)

    def test_entry_count_bounds(self):
        """One line is 400 (`entries: must have 2 to 256 items`); 257 lines are 400 too."""
        one = C.journal()
        one["entries"] = one["entries"][:1]
        cb.assert_validation(self.api.post("/v1/transactions", json_body=one, token=self.teller), "entries")
        many = C.journal(amount=1)
        many["entries"] = [dict(many["entries"][i % 2]) for i in range(257)]
        cb.assert_validation(self.api.post("/v1/transactions", json_body=many, token=self.teller), "entries")

    def test_256_lines_are_accepted(self):
        """A balanced journal of 256 lines is captured with 256 proposed lines."""
        body = C.journal(amount=3)
        body["entries"] = [dict(body["entries"][i % 2]) for i in range(256)]
        tx = C.capture(self.api, self.teller, body)
        self.assertEqual(len(tx["entries"]), 256)
        self.assertEqual(tx["totals"][0]["debitMinor"], 3 * 128)

    def test_line_needs_an_account(self):
        """A line naming no account (nor code + currency) is 400 naming entries[0]."""
        body = C.journal()
        del body["entries"][0]["glAccountCode"]
        del body["entries"][0]["currency"]
        resp = self.api.post("/v1/transactions", json_body=body, token=self.teller)
        err = cb.assert_error(resp, 400, "VALIDATION_ERROR")
        self.assertIn("entries[0].", err["message"])

    def test_text_fields_are_trimmed_and_unicode_kept(self):
        """Description and narrative are trimmed; non-ASCII text (accents, emoji, RTL) round-trips exactly."""
        text = "Caf\u00e9 \U0001F4B0 \u05e9\u05dc\u05d5\u05dd \u202etxt"
        body = C.journal(description=f"  {text}  ")
        body["entries"][0]["narrative"] = "  na\u00efve  "
        tx = C.capture(self.api, self.teller, body)
        self.assertEqual(tx["description"], text)
        self.assertEqual(tx["entries"][0]["narrative"], "na\u00efve")
        self.assertEqual(C.get_tx(self.api, tx["id"])["description"], text)


class MakerCheckerTest(JournalTestBase):
    def test_full_journal_lifecycle(self):
        """Capture, self-approval refused, approval by another, post: POSTED with a hash, ledger healthy."""
        asset, liability = self.fresh_pair()
        tx = C.capture(self.api, self.maker_checker, C.journal(asset["id"], liability["id"], amount=98765))
        change_id = tx["parkedChangeId"]

        # The maker holds the supervisor role but may not check their own change.
        resp = self.api.post(f"/v1/approvals/{change_id}/approve", json_body={}, token=self.maker_checker)
        cb.assert_error(resp, 403, "FORBIDDEN", "the maker of a change cannot approve it")
        self.assertEqual(C.ok(self.api.get(f"/v1/approvals/{change_id}"))["status"], "PENDING")
        self.assertEqual(C.get_tx(self.api, tx["id"])["released"], False)

        decided = C.approve(self.api, self.supervisor, change_id, comment="checked against the slip")
        self.assertEqual(decided["status"], "APPROVED")
        self.assertEqual(decided["checkerId"], self.supervisor.id)
        self.assertEqual(decided["makerId"], self.maker_checker.id)
        self.assertEqual(decided["comment"], "checked against the slip")
        self.assertIsNotNone(decided["decidedAt"])
        self.assertIsNotNone(decided["result"])
        released = C.get_tx(self.api, tx["id"])
        self.assertEqual(released["status"], "PENDING")
        self.assertIs(released["released"], True)
        self.assertEqual(released["approvalStatus"], "APPROVED")
        self.assertEqual(self.entries_of(tx["id"]), 0, "approval alone must post nothing")

        posted = C.post(self.api, self.teller2, tx["id"])
        self.assertEqual(posted["status"], "POSTED")
        self.assertEqual(posted["state"], "POSTED")
        self.assertRegex(posted["hash"], C.HASH_RE)
        self.assertIsNotNone(posted["postedAt"])
        self.assertEqual(posted["operatorId"], self.teller2.id)
        self.assertEqual(posted["makerId"], self.maker_checker.id)
        self.assertEqual(self.entries_of(tx["id"]), 2)

        row = C.db().one("SELECT hash, prev_hash, chain_seq, chain_stripe, status FROM corebank.transactions"
                         " WHERE id = %s", (tx["id"],))
        self.assertEqual(bytes(row["hash"]).hex(), posted["hash"])
        self.assertIsNotNone(row["chain_seq"])
        self.assertEqual(row["status"], "POSTED")
        entries = C.db().rows("SELECT * FROM corebank.journal_entries WHERE transaction_id = %s ORDER BY line_no",
                              (tx["id"],))
        self.assertEqual([(e["side"], e["amount_minor"]) for e in entries], [("D", 98765), ("C", 98765)])
        for entry in entries:
            self.assertEqual(str(entry["operator_id"]), self.teller2.id)
            self.assertEqual(entry["channel"], "BRANCH")
            self.assertIsNotNone(entry["branch_id"])
            self.assertIsNotNone(entry["value_date"])

        self.assertEqual(C.gl_account(self.api, asset["id"])["balanceMinor"], 98765)
        self.assertEqual(C.gl_account(self.api, liability["id"])["balanceMinor"], 98765)
        self.assertIs(C.gl_account(self.api, asset["id"])["postedTo"], True)
        self.assert_ledger_healthy()

    def test_approval_result_shows_the_released_journal(self):
        """The approval's `result` is the released journal: released true and approvalStatus APPROVED."""
        tx = C.capture(self.api, self.teller, C.journal())
        decided = C.approve(self.api, self.supervisor, tx["parkedChangeId"])
        self.assertEqual(decided["result"]["id"], tx["id"])
        self.assertIs(decided["result"]["released"], True)
        self.assertEqual(decided["result"]["approvalStatus"], "APPROVED",
                         "result carries the journal as it was before the approval was recorded")

    def test_database_refuses_maker_as_checker(self):
        """A direct UPDATE of parked_changes setting checker_id = maker_id fails; the row stays PENDING."""
        tx = C.capture(self.api, self.maker_checker, C.journal())
        change_id = tx["parkedChangeId"]
        for sql in ("UPDATE corebank.parked_changes SET checker_id = maker_id WHERE id = %s",
                    "UPDATE corebank.parked_changes SET checker_id = maker_id, status = 'APPROVED',"
                    " decided_at = now() WHERE id = %s"):
            with self.subTest(sql=sql):
                with self.assertRaises(psycopg2.Error) as refused:
                    C.db().execute(sql, (change_id,))
                self.assertIn("maker", str(refused.exception))
        with self.assertRaises(psycopg2.Error) as caught:
            C.db().scalar("SELECT corebank.parked_change_approve(%s, maker_id, NULL)"
                          " FROM corebank.parked_changes WHERE id = %s", (change_id, change_id))
        self.assertIn("maker", str(caught.exception))
        row = C.db().one("SELECT status, checker_id FROM corebank.parked_changes WHERE id = %s", (change_id,))
        self.assertEqual(row["status"], "PENDING")
        self.assertIsNone(row["checker_id"])

    def test_approving_twice_is_409(self):
        """Approving an already APPROVED change is 409 CONFLICT."""
        tx = C.capture(self.api, self.teller, C.journal())
        C.approve(self.api, self.supervisor, tx["parkedChangeId"])
        resp = self.api.post(f"/v1/approvals/{tx['parkedChangeId']}/approve", json_body={}, token=self.supervisor2)
        cb.assert_error(resp, 409, "CONFLICT")

    def test_posting_twice_is_409(self):
        """Posting an already POSTED journal is 409 and adds no entries."""
        tx = C.capture_approve_post(self.api, self.teller, self.supervisor, C.journal())
        resp = self.api.post(f"/v1/transactions/{tx['id']}/post", token=self.teller)
        cb.assert_error(resp, 409, "CONFLICT")
        self.assertEqual(self.entries_of(tx["id"]), 2)

    def test_reject_then_abandon(self):
        """A rejected journal cannot post (409), is abandoned to CANCELLED, and never wrote entries."""
        tx = C.capture(self.api, self.teller, C.journal())
        decided = C.reject(self.api, self.supervisor, tx["parkedChangeId"], reason="  wrong till  ")
        self.assertEqual(decided["status"], "REJECTED")
        self.assertEqual(decided["reason"], "wrong till")
        self.assertEqual(decided["checkerId"], self.supervisor.id)
        self.assertIsNone(decided["result"])
        refused = C.get_tx(self.api, tx["id"])
        self.assertEqual(refused["status"], "PENDING")
        self.assertEqual(refused["approvalStatus"], "REJECTED")
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/post", token=self.teller), 409, "CONFLICT",
                        "approval was refused or lapsed; abandon the journal")
        cancelled = C.ok(self.api.post(f"/v1/transactions/{tx['id']}/abandon", token=self.teller))
        self.assertEqual(cancelled["status"], "CANCELLED")
        self.assertEqual(cancelled["state"], "CANCELLED")
        self.assertEqual(C.get_tx(self.api, tx["id"])["status"], "CANCELLED")
        self.assertEqual(self.entries_of(tx["id"]), 0)
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/abandon", token=self.teller), 409, "CONFLICT")
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/post", token=self.teller), 409, "CONFLICT")

    def test_maker_cannot_reject_own_change(self):
        """The maker rejecting their own change is 403 FORBIDDEN (database rule), the change stays PENDING."""
        tx = C.capture(self.api, self.maker_checker, C.journal())
        resp = self.api.post(f"/v1/approvals/{tx['parkedChangeId']}/reject", json_body={"reason": "mine"},
                             token=self.maker_checker)
        cb.assert_error(resp, 403, "FORBIDDEN")
        self.assertEqual(C.ok(self.api.get(f"/v1/approvals/{tx['parkedChangeId']}"))["status"], "PENDING")

    def test_reject_needs_a_reason(self):
        """POST /v1/approvals/{id}/reject without a reason (or a blank one) is 400 naming `reason`."""
        tx = C.capture(self.api, self.teller, C.journal())
        for body in ({}, {"reason": "   "}):
            with self.subTest(body=body):
                cb.assert_validation(self.api.post(f"/v1/approvals/{tx['parkedChangeId']}/reject",
                                                   json_body=body, token=self.supervisor), "reason")
        self.assertEqual(C.ok(self.api.get(f"/v1/approvals/{tx['parkedChangeId']}"))["status"], "PENDING")

    def test_abandon_of_pending_journal_is_409(self):
        """Abandoning a journal whose approval is still pending (not refused) is 409 and changes nothing."""
        tx = C.capture(self.api, self.teller, C.journal())
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/abandon", token=self.teller), 409, "CONFLICT")
        self.assertEqual(C.get_tx(self.api, tx["id"])["status"], "PENDING")

    def test_abandon_of_released_journal_is_409(self):
        """Abandoning an approved (released) journal is 409: only refused or lapsed ones can be abandoned."""
        tx = C.capture(self.api, self.teller, C.journal())
        C.approve(self.api, self.supervisor, tx["parkedChangeId"])
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/abandon", token=self.teller), 409, "CONFLICT")

    def test_lapsed_journal_can_be_abandoned(self):
        """A journal whose approval lapsed (expires_at in the past) cannot be approved or posted, only abandoned."""
        tx = C.capture(self.api, self.teller, C.journal())
        change_id = tx["parkedChangeId"]
        C.expire_parked_change(change_id)
        resp = self.api.post(f"/v1/approvals/{change_id}/approve", json_body={}, token=self.supervisor)
        cb.assert_error(resp, 422, "UNPROCESSABLE")
        self.assertEqual(C.ok(self.api.get(f"/v1/approvals/{change_id}"))["status"], "LAPSED")
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/post", token=self.teller), 409, "CONFLICT")
        self.assertEqual(C.ok(self.api.post(f"/v1/transactions/{tx['id']}/abandon", token=self.teller))["status"],
                         "CANCELLED")

    def test_approvals_list_filters_by_status(self):
        """GET /v1/approvals?status=REJECTED lists only REJECTED changes, with paging defaults 0/25."""
        tx = C.capture(self.api, self.teller, C.journal())
        C.reject(self.api, self.supervisor, tx["parkedChangeId"])
        page = C.ok(self.api.get("/v1/approvals?status=REJECTED&size=200"))
        self.assertTrue(page["content"])
        self.assertEqual({c["status"] for c in page["content"]}, {"REJECTED"})
        self.assertIn(tx["parkedChangeId"], [c["id"] for c in page["content"]])
        default = C.ok(self.api.get("/v1/approvals"))
        self.assertEqual((default["page"], default["size"]), (0, 25))
        self.assertLessEqual(len(default["content"]), 25)


class ReversalTest(JournalTestBase):
    def test_reversal_is_parked_then_posted(self):
        """A reversal is parked (maker = token user, reversedBy ignored); approval posts it and balances return."""
        asset, liability = self.fresh_pair()
        original = C.capture_approve_post(self.api, self.teller, self.supervisor,
                                          C.journal(asset["id"], liability["id"], amount=4321))
        self.assertEqual(C.gl_account(self.api, asset["id"])["balanceMinor"], 4321)
        reason = "r" * 1000
        resp = self.api.post(C.query(f"/v1/transactions/{original['id']}/reverse", reason=reason,
                                     reversedBy=self.supervisor2.id), token=self.teller2)
        change = C.ok(resp)
        self.assertEqual(change["operation"], "transaction.reverse")
        self.assertEqual(change["status"], "PENDING")
        self.assertEqual(change["entityId"], original["id"])
        self.assertEqual(change["makerId"], self.teller2.id, "reversedBy must be ignored in favour of the token")
        self.assertIn(reason, (change["payload"].get("reason"), change["summary"]))
        # Parked: nothing changed yet.
        self.assertEqual(C.get_tx(self.api, original["id"])["status"], "POSTED")
        self.assertEqual(C.gl_account(self.api, asset["id"])["balanceMinor"], 4321)

        cb.assert_error(self.api.post(f"/v1/approvals/{change['id']}/approve", json_body={}, token=self.teller2),
                        403, "FORBIDDEN")
        decided = C.approve(self.api, self.supervisor, change["id"])
        self.assertEqual(decided["status"], "APPROVED")

        after = C.get_tx(self.api, original["id"])
        self.assertEqual(after["status"], "REVERSED")
        reversal_id = after["reversedById"]
        self.assertRegex(reversal_id or "", C.UUID_RE)
        reversal = C.get_tx(self.api, reversal_id)
        self.assertEqual(reversal["status"], "POSTED")
        self.assertEqual(reversal["reversesId"], original["id"])
        self.assertRegex(reversal["hash"], C.HASH_RE)
        self.assertEqual(reversal["makerId"], self.teller2.id)
        flipped = {"DEBIT": "CREDIT", "CREDIT": "DEBIT"}
        self.assertEqual(sorted((e["glAccountId"], e["side"], e["amountMinor"]) for e in reversal["entries"]),
                         sorted((e["glAccountId"], flipped[e["side"]], e["amountMinor"]) for e in original["entries"]))
        self.assertEqual(C.gl_account(self.api, asset["id"])["balanceMinor"], 0)
        self.assertEqual(C.gl_account(self.api, liability["id"])["balanceMinor"], 0)
        # The original's entries are untouched: corrections are new entries.
        self.assertEqual(self.entries_of(original["id"]), 2)
        self.assertEqual(self.entries_of(reversal_id), 2)
        self.assert_ledger_healthy()

    def test_reason_over_1000_characters_is_400(self):
        """A reversal reason of 1001 characters is 400 naming `reason`, and nothing is parked."""
        original = C.capture_approve_post(self.api, self.teller, self.supervisor, C.journal())
        before = C.count("parked_changes")
        resp = self.api.post(C.query(f"/v1/transactions/{original['id']}/reverse", reason="x" * 1001),
                             token=self.teller)
        err = cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))
        self.assertIn("reason", err["message"])
        self.assertEqual(C.count("parked_changes"), before)

    def test_bad_reversed_by_is_400(self):
        """reversedBy that is not a UUID is 400 (it is accepted and ignored only when well-formed)."""
        original = C.capture_approve_post(self.api, self.teller, self.supervisor, C.journal())
        resp = self.api.post(C.query(f"/v1/transactions/{original['id']}/reverse", reversedBy="bob"),
                             token=self.teller)
        err = cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))
        self.assertIn("reversedBy", err["message"])

    def test_reversing_a_pending_journal_is_409(self):
        """Reversing a journal that is not POSTED is 409 CONFLICT."""
        tx = C.capture(self.api, self.teller, C.journal())
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/reverse", token=self.teller), 409, "CONFLICT")

    def test_second_reversal_request_is_409(self):
        """A second reversal request while one is pending, or after the reversal, is 409."""
        original = C.capture_approve_post(self.api, self.teller, self.supervisor, C.journal())
        change = C.ok(self.api.post(f"/v1/transactions/{original['id']}/reverse", token=self.teller))
        cb.assert_error(self.api.post(f"/v1/transactions/{original['id']}/reverse", token=self.teller),
                        409, "CONFLICT")
        C.approve(self.api, self.supervisor, change["id"])
        cb.assert_error(self.api.post(f"/v1/transactions/{original['id']}/reverse", token=self.teller),
                        409, "CONFLICT")

    def test_reverse_unknown_transaction_is_404(self):
        """Reversing an unknown transaction id is 404 NOT_FOUND."""
        cb.assert_error(self.api.post(f"/v1/transactions/{C.ZERO_UUID}/reverse", token=self.teller),
                        404, "NOT_FOUND")

    def test_posted_entries_are_immutable(self):
        """Superuser UPDATE or DELETE of a posted journal entry is refused by the database."""
        tx = C.capture_approve_post(self.api, self.teller, self.supervisor, C.journal())
        for sql in ("UPDATE corebank.journal_entries SET amount_minor = amount_minor + 1 WHERE transaction_id = %s",
                    "DELETE FROM corebank.journal_entries WHERE transaction_id = %s"):
            with self.subTest(sql=sql):
                with self.assertRaises(psycopg2.Error):
                    C.db().execute(sql, (tx["id"],))
        self.assertEqual(self.entries_of(tx["id"]), 2)
        self.assert_ledger_healthy()


class IdempotencyTest(JournalTestBase):
    def test_same_idempotency_key_returns_same_transaction(self):
        """The same Idempotency-Key twice returns the same transaction id and creates one row."""
        key = f"idem-{C.RUN_TAG}-{C.uid()}"
        body = C.journal()
        before = C.count("transactions")
        first = C.capture(self.api, self.teller, body, headers={"Idempotency-Key": key})
        second = C.capture(self.api, self.teller, body, headers={"Idempotency-Key": key})
        self.assertEqual(first["id"], second["id"])
        self.assertEqual(first["parkedChangeId"], second["parkedChangeId"])
        self.assertEqual(C.count("transactions"), before + 1)
        self.assertEqual(C.count("transactions", "idempotency_key = %s", (key,)), 1)
        self.assertEqual(C.count("parked_changes", "entity_id = %s", (first["id"],)), 1)

    def test_idempotency_key_field_works_like_the_header(self):
        """The idempotencyKey body field deduplicates like the header."""
        key = f"idem-{C.RUN_TAG}-{C.uid()}"
        body = C.journal(idempotencyKey=key)
        first = C.capture(self.api, self.teller, body)
        second = C.capture(self.api, self.teller, body)
        self.assertEqual(first["id"], second["id"])
        self.assertEqual(C.count("transactions", "idempotency_key = %s", (key,)), 1)

    def test_same_key_for_another_request_is_409(self):
        """The same Idempotency-Key with a different request is 409 CONFLICT and captures nothing."""
        key = f"idem-{C.RUN_TAG}-{C.uid()}"
        C.capture(self.api, self.teller, C.journal(), headers={"Idempotency-Key": key})
        before = C.ledger_counts()
        resp = self.api.post("/v1/transactions", json_body=C.journal(amount=2), token=self.teller,
                             headers={"Idempotency-Key": key})
        cb.assert_error(resp, 409, "CONFLICT")
        self.assertEqual(C.ledger_counts(), before)

    def test_header_and_field_must_agree(self):
        """Idempotency-Key header different from the idempotencyKey field is 400, nothing written."""
        before = C.ledger_counts()
        resp = self.api.post("/v1/transactions", json_body=C.journal(idempotencyKey="a-" + C.uid()),
                             token=self.teller, headers={"Idempotency-Key": "b-" + C.uid()})
        cb.assert_error(resp, 400, ("BAD_REQUEST", "VALIDATION_ERROR"))
        self.assertEqual(C.ledger_counts(), before)

    def test_concurrent_repeats_capture_once(self):
        """Six simultaneous captures with one Idempotency-Key all return the same id; one row exists."""
        key = f"idem-{C.RUN_TAG}-{C.uid()}"
        body = C.journal()
        key_value = self.api.key
        results = cb.run_parallel([
            lambda: C.Core(key_value).post("/v1/transactions", json_body=body, token=self.teller,
                                           headers={"Idempotency-Key": key}) for _ in range(6)])
        ids = {C.ok(r)["id"] for r in results}
        self.assertEqual(len(ids), 1, ids)
        self.assertEqual(C.count("transactions", "idempotency_key = %s", (key,)), 1)


class SearchTest(JournalTestBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        admin = C.new_staff("admin")
        cls.asset = C.new_gl_account(cls.api, admin, "ASSET")
        cls.liability = C.new_gl_account(cls.api, admin, "LIABILITY")
        code_a, code_l = cls.asset["code"], cls.liability["code"]
        cls.tx1 = C.capture_approve_post(cls.api, cls.teller, cls.supervisor, C.journal(
            code_a, code_l, amount=100, valueDate="2024-03-10", type="ADJUSTMENT"))
        cls.tx2 = C.capture(cls.api, cls.teller, C.journal(code_a, code_l, amount=200, valueDate="2024-03-20",
                                                           type="FEE"))
        cls.tx3 = C.capture_approve_post(cls.api, cls.teller, cls.supervisor, C.journal(
            code_a, code_l, amount=300, valueDate="2024-04-05", type="TRANSFER"))

    def search(self, **params):
        params = {"glAccountCode": self.asset["code"], "size": 200, **params}
        return C.ok(self.api.get(C.query("/v1/transactions", **params)))

    def ids(self, page):
        return {t["id"] for t in page["content"]}

    def test_filter_by_gl_account_code(self):
        """glAccountCode returns exactly the transactions with a line on that code, newest first."""
        page = self.search()
        self.assertEqual([t["id"] for t in page["content"]], [self.tx3["id"], self.tx2["id"], self.tx1["id"]])
        self.assertEqual(page["totalElements"], 3)
        for tx in page["content"]:
            self.assertIn(self.asset["code"], {e["glAccountCode"] for e in tx["entries"]})

    def test_filter_by_value_date_range(self):
        """from and to bound the value date, both inclusive."""
        self.assertEqual(self.ids(self.search(**{"from": "2024-03-15"})), {self.tx2["id"], self.tx3["id"]})
        self.assertEqual(self.ids(self.search(to="2024-03-31")), {self.tx1["id"], self.tx2["id"]})
        self.assertEqual(self.ids(self.search(**{"from": "2024-03-10", "to": "2024-03-10"})), {self.tx1["id"]})

    def test_filter_by_type(self):
        """type returns only transactions of that type."""
        self.assertEqual(self.ids(self.search(type="FEE")), {self.tx2["id"]})
        self.assertEqual(self.ids(self.search(type="DEPOSIT")), set())

    def test_filter_by_status_and_state(self):
        """status and state filter alike with the same four values."""
        posted = {self.tx1["id"], self.tx3["id"]}
        self.assertEqual(self.ids(self.search(status="POSTED")), posted)
        self.assertEqual(self.ids(self.search(state="POSTED")), posted)
        self.assertEqual(self.ids(self.search(state="PENDING")), {self.tx2["id"]})
        self.assertEqual(self.ids(self.search(status="CANCELLED")), set())

    def test_filter_by_reference(self):
        """reference returns the transaction with that reference."""
        page = C.ok(self.api.get(C.query("/v1/transactions", reference=self.tx1["reference"])))
        self.assertEqual(self.ids(page), {self.tx1["id"]})

    def test_paging_defaults_and_pages(self):
        """page/size default to 0/25; size=2 gives two pages over three results."""
        default = C.ok(self.api.get("/v1/transactions"))
        self.assertEqual((default["page"], default["size"]), (0, 25))
        self.assertLessEqual(len(default["content"]), 25)
        first = self.search(size=2, page=0)
        second = self.search(size=2, page=1)
        self.assertEqual((first["totalElements"], first["totalPages"], len(first["content"])), (3, 2, 2))
        self.assertEqual((second["page"], len(second["content"])), (1, 1))
        self.assertEqual(self.ids(first) | self.ids(second), {self.tx1["id"], self.tx2["id"], self.tx3["id"]})
        beyond = self.search(size=2, page=5)
        self.assertEqual(beyond["content"], [])

    def test_bad_date_is_400(self):
        """A malformed or impossible date in from/to is 400 naming the parameter."""
        for name, value in (("from", "2024-13-01"), ("to", "yesterday"), ("from", "2024-02-30")):
            with self.subTest(name=name, value=value):
                err = cb.assert_error(self.api.get(C.query("/v1/transactions", **{name: value})), 400, "BAD_REQUEST")
                self.assertIn(name, err["message"])

    def test_bad_enum_is_400(self):
        """An unknown type, status or state is 400 naming the parameter."""
        for name in ("type", "status", "state"):
            with self.subTest(name=name):
                err = cb.assert_error(self.api.get(C.query("/v1/transactions", **{name: "BOGUS"})), 400,
                                      "BAD_REQUEST")
                self.assertIn(name, err["message"])

    def test_size_over_200_is_400(self):
        """size 201 (and 0, and a negative page) is 400 BAD_REQUEST; size 200 is accepted."""
        for params in ({"size": 201}, {"size": 0}, {"page": -1}, {"size": "ten"}):
            with self.subTest(params=params):
                cb.assert_error(self.api.get(C.query("/v1/transactions", **params)), 400, "BAD_REQUEST")
        self.assertEqual(C.ok(self.api.get("/v1/transactions?size=200"))["size"], 200)

    def test_get_one_transaction(self):
        """GET /v1/transactions/{id} returns the posted transaction with its entries; unknown id is 404."""
        tx = C.get_tx(self.api, self.tx1["id"])
        self.assertEqual(tx["status"], "POSTED")
        self.assertEqual(tx["valueDate"], "2024-03-10")
        self.assertEqual(len(tx["entries"]), 2)
        cb.assert_error(self.api.get(f"/v1/transactions/{C.ZERO_UUID}"), 404, "NOT_FOUND")
        cb.assert_error(self.api.get("/v1/transactions/not-a-uuid"), 400, "BAD_REQUEST")


if __name__ == "__main__":
    unittest.main()
