"""Branch scoping over HTTP (issue 15, "Branch scoping, in the database";
docs/core-banking.md "Branch scoping"), with the real tier.

Scoping is switched on through maker-checker (PUT parked by an admin,
approved by a supervisor; before the approval nothing is scoped). Then a
Harare (HRE) teller's token: Bulawayo (BYO)'s customer, account, statement,
balance, standing order, passbook, journal transaction and parked change
answer exactly what an id that exists nowhere answers (404, same code and
message) and are left out of lists and their totals; HRE's own are visible;
amending a BYO record is 404 and writes nothing; a deposit into a BYO
account still posts (postings are not scoped). Head office (no branch), an
auditor with a branch and an application key without a token see
everything. Switched off again through maker-checker, the teller sees
everything. A malformed `enabled` is 400 and parks nothing.

The flag is global: the module turns it off when it ends (through HTTP in
the tests; superuser SQL only as the safety net of a failed run), so the
modules after it run unscoped.
"""
import unittest

import cbclient as cb
import corebanking as C
import scoping_support as S


def setUpModule():
    C.require_core()
    global F
    F = Fixtures()
    unittest.addModuleCleanup(S.force_off)
    unittest.addModuleCleanup(F.reject_pending)


class Fixtures:
    """The actors and both branches' records, made once with scoping off."""

    def __init__(self):
        S.force_off()  # a run killed midway earlier must not scope the fixtures
        self.api = C.Core(C.admin_key())
        self.admin = C.new_staff("admin")
        self.supervisor = C.new_staff("supervisor")
        S.reject_pending_switches(self.api, self.supervisor)  # an earlier module's would make the PUTs 409
        self.hre = C.new_staff("teller", branch="HRE")
        self.byo_teller = C.new_staff("teller", branch="BYO")
        self.head_office = C.new_staff("teller")
        self.auditor = C.new_staff("auditor", branch="HRE")
        self.tag = C.uid()
        ids = S.branch_ids(self.api)
        self.mine = S.BranchRecords(self.api, "HRE", self.hre, self.supervisor, self.tag, ids["HRE"])
        self.theirs = S.BranchRecords(self.api, "BYO", self.byo_teller, self.supervisor, self.tag, ids["BYO"])

    def reject_pending(self):
        S.reject_pending_switches(self.api, self.supervisor)
        for records in (self.mine, self.theirs):
            records.reject_pending(self.api, self.supervisor)


F = None


class SwitchTest(unittest.TestCase):
    def test_on_through_maker_checker_then_off_again(self):
        """Parked on: nothing scoped until approved; approved: scoped; parked off: still scoped; approved: not."""
        api, customer = F.api, f"/v1/customers/{F.theirs.customer['id']}"
        self.addCleanup(S.force_off)
        self.addCleanup(S.reject_pending_switches, F.api, F.supervisor)
        self.assertIs(S.enabled(api), False)
        on = S.park(api, F.admin, True)
        self.assertEqual(api.get(customer, token=F.hre).status, 200, "nothing is scoped before the approval")
        self.assertEqual(S.approve(api, F.supervisor, on)["operation"], "branch_scoping.update")
        self.assertIs(S.enabled(api), True)
        S.assert_as_if_absent(self, api, "GET", customer, F.theirs.customer["id"], F.hre)
        off = S.park(api, F.admin, False)
        self.assertEqual(api.get(customer, token=F.hre).status, 404, "still scoped until the approval")
        S.approve(api, F.supervisor, off)
        self.assertIs(S.enabled(api), False)
        self.assertEqual(api.get(customer, token=F.hre).status, 200)

    def test_switched_off_the_teller_sees_everything(self):
        """Off (after having been on), every read of BYO's records by the HRE teller answers 200."""
        self.addCleanup(S.force_off)
        self.addCleanup(S.reject_pending_switches, F.api, F.supervisor)
        self.assertIs(S.switch(F.api, F.admin, F.supervisor, True), True)
        self.assertIs(S.switch(F.api, F.admin, F.supervisor, False), False)
        for path, _ in F.theirs.reads():
            with self.subTest(path=path):
                self.assertEqual(F.api.get(path, token=F.hre).status, 200)
        self.assertEqual(len(self.customers_found(F.hre)), 2)
        self.assertIn(F.theirs.pending["parkedChangeId"], S.pending_change_ids(F.api, F.hre))

    def customers_found(self, token):
        return C.ok(F.api.get(C.query("/v1/customers", q=f"scope{F.tag}"), token=token))["content"]


class ScopedTest(unittest.TestCase):
    """Scoping on for the whole class (through maker-checker), off again at its end."""

    @classmethod
    def setUpClass(cls):
        cls.addClassCleanup(S.force_off)
        cls.addClassCleanup(S.reject_pending_switches, F.api, F.supervisor)
        if not S.switch(F.api, F.admin, F.supervisor, True):
            raise AssertionError("branch scoping did not turn on")

    @classmethod
    def tearDownClass(cls):
        S.switch(F.api, F.admin, F.supervisor, False)

    def test_another_branchs_records_are_absent(self):
        """Every single read of a BYO record by the HRE teller answers as an id that exists nowhere."""
        for path, hidden in F.theirs.reads():
            with self.subTest(path=path):
                resp = S.assert_as_if_absent(self, F.api, "GET", path, hidden, F.hre)
                self.assertEqual(resp.status, 404)

    def test_own_branchs_records_are_visible(self):
        for path, _ in F.mine.reads():
            with self.subTest(path=path):
                self.assertEqual(F.api.get(path, token=F.hre).status, 200)

    def test_customer_search_leaves_the_other_branch_out(self):
        """GET /v1/customers?q= finds HRE's customer only, total 1; unscoped callers find both."""
        body = C.ok(F.api.get(C.query("/v1/customers", q=f"scope{F.tag}"), token=F.hre))
        self.assertEqual([c["id"] for c in body["content"]], [F.mine.customer["id"]])
        self.assertEqual((body["totalElements"], body["totalPages"]), (1, 1))
        for token in (None, F.head_office):
            with self.subTest(token=token):
                both = C.ok(F.api.get(C.query("/v1/customers", q=f"scope{F.tag}"), token=token))
                self.assertEqual(both["totalElements"], 2)

    def test_account_lists_leave_the_other_branch_out(self):
        """Accounts by a BYO customer read as by an absent one; the whole list holds HRE accounts only."""
        S.assert_as_if_absent(self, F.api, "GET", C.query("/v1/accounts", customerId=F.theirs.customer["id"]),
                              F.theirs.customer["id"], F.hre)
        mine = C.ok(F.api.get(C.query("/v1/accounts", customerId=F.mine.customer["id"]), token=F.hre))
        self.assertEqual({a["id"] for a in mine["content"]}, {F.mine.account["id"], F.mine.target["id"]})
        scoped = C.ok(F.api.get(C.query("/v1/accounts", size=200), token=F.hre))
        everyone = C.ok(F.api.get(C.query("/v1/accounts", size=1), token=None))
        self.assertEqual({a["branchCode"] for a in scoped["content"]}, {"HRE"})
        in_hre = C.db().scalar("SELECT count(*) FROM corebank.deposit_accounts d JOIN corebank.ledger_accounts a"
                               " ON a.id = d.id JOIN corebank.branches b ON b.id = a.branch_id WHERE b.code = 'HRE'")
        self.assertEqual(scoped["totalElements"], in_hre)
        self.assertLess(scoped["totalElements"], everyone["totalElements"])

    def test_standing_order_and_passbook_lists_leave_the_other_branch_out(self):
        account = F.theirs.account["id"]
        S.assert_as_if_absent(self, F.api, "GET", C.query("/v1/standing-orders", accountId=account), account, F.hre)
        S.assert_as_if_absent(self, F.api, "GET", f"/v1/accounts/{account}/passbooks", account, F.hre)
        mine = F.mine.account["id"]
        self.assertEqual([o["id"] for o in C.ok(F.api.get(C.query("/v1/standing-orders", accountId=mine),
                                                          token=F.hre))], [F.mine.order["id"]])
        self.assertEqual([b["id"] for b in C.ok(F.api.get(f"/v1/accounts/{mine}/passbooks", token=F.hre))],
                         [F.mine.passbook["id"]])

    def test_journal_search_leaves_the_other_branch_out(self):
        """GET /v1/transactions?reference= of BYO's journal is empty for the HRE teller, not for head office."""
        for records, expected in ((F.theirs, 0), (F.mine, 1)):
            with self.subTest(branch=records.code):
                body = C.ok(F.api.get(C.query("/v1/transactions", reference=records.reference), token=F.hre))
                self.assertEqual(body["totalElements"], expected)
                self.assertEqual(len(body["content"]), expected)
        unscoped = C.ok(F.api.get(C.query("/v1/transactions", reference=F.theirs.reference), token=F.head_office))
        self.assertEqual([t["id"] for t in unscoped["content"]], [F.theirs.journal["id"]])

    def test_approval_queue_leaves_the_other_branch_out(self):
        """The PENDING queue of the HRE teller holds HRE's parked change, not BYO's, nor head office's."""
        queue = S.pending_change_ids(F.api, F.hre)
        self.assertIn(F.mine.pending["parkedChangeId"], queue)
        self.assertNotIn(F.theirs.pending["parkedChangeId"], queue)
        head_office_changes = C.db().rows(
            "SELECT p.id::text FROM corebank.parked_changes p WHERE p.status = 'PENDING' AND p.branch_id IS NULL")
        self.assertFalse({r["id"] for r in head_office_changes} & set(queue))
        self.assertIn(F.theirs.pending["parkedChangeId"], S.pending_change_ids(F.api, F.head_office))

    def test_amending_another_branchs_record_is_404_and_writes_nothing(self):
        """A profile PATCH and an interaction on a BYO customer read as on an absent one; nothing is written."""
        customer = F.theirs.customer["id"]
        before = C.ok(F.api.get(f"/v1/customers/{customer}/profile"))
        interactions = C.count("customer_interactions", "customer_id = %s", (customer,))
        S.assert_as_if_absent(self, F.api, "PATCH", f"/v1/customers/{customer}/profile", customer, F.hre,
                              json_body={"email": "changed.by.another.branch@example.com"})
        S.assert_as_if_absent(self, F.api, "POST", f"/v1/customers/{customer}/interactions", customer, F.hre,
                              json_body={"interactionType": "ENQUIRY", "summary": "not mine"})
        self.assertEqual(C.ok(F.api.get(f"/v1/customers/{customer}/profile")), before)
        self.assertEqual(C.count("customer_interactions", "customer_id = %s", (customer,)), interactions)

    def test_parking_a_change_about_another_branchs_record_is_404(self):
        """A reversal of BYO's posted journal, parked by the HRE teller, reads as of an absent one; nothing parked."""
        journal = F.theirs.journal["id"]
        parked = C.count("parked_changes", "entity_id = %s", (journal,))
        S.assert_as_if_absent(self, F.api, "POST", f"/v1/transactions/{journal}/reverse", journal, F.hre)
        self.assertEqual(C.count("parked_changes", "entity_id = %s", (journal,)), parked)
        self.assertEqual(C.ok(F.api.get(f"/v1/transactions/{journal}"))["status"], "POSTED")

    def test_a_deposit_into_another_branchs_account_still_posts(self):
        """Postings are not scoped: the HRE teller deposits into BYO's account by its id."""
        account = F.theirs.account["id"]
        before = C.ok(F.api.get(f"/v1/accounts/{account}"))["balanceMinor"]
        deposit = C.ok(F.api.post("/v1/deposits", token=F.hre, json_body={"accountId": account, "amountMinor": 1234}))
        self.assertEqual(deposit["status"], "POSTED")
        self.assertEqual(C.ok(F.api.get(f"/v1/accounts/{account}"))["balanceMinor"], before + 1234)
        self.assertEqual(F.api.get(f"/v1/accounts/{account}", token=F.hre).status, 404, "still not readable")
        # The deposit is both branches' business: HRE's by its branch, BYO's by the account it credits.
        for teller in (F.hre, F.byo_teller):
            with self.subTest(reader=teller.email):
                self.assertEqual(C.ok(F.api.get(f"/v1/transactions/{deposit['id']}", token=teller))["id"],
                                 deposit["id"])

    def test_head_office_auditor_and_a_bare_key_see_everything(self):
        """Head office (no branch), an auditor of HRE and the key without a token read every BYO record."""
        for who, token in (("head office", F.head_office), ("auditor", F.auditor), ("key only", None)):
            for path, _ in F.theirs.reads():
                with self.subTest(who=who, path=path):
                    self.assertEqual(F.api.get(path, token=token).status, 200)

    def test_the_other_branch_is_blind_to_harare(self):
        """Scoping works both ways: the BYO teller reads its own customer, not HRE's."""
        self.assertEqual(F.api.get(f"/v1/customers/{F.theirs.customer['id']}", token=F.byo_teller).status, 200)
        S.assert_as_if_absent(self, F.api, "GET", f"/v1/customers/{F.mine.customer['id']}",
                              F.mine.customer["id"], F.byo_teller)


class BadInputTest(unittest.TestCase):
    def test_malformed_enabled_is_400_and_parks_nothing(self):
        """A non-boolean, null or missing `enabled`, another member, not an object, not JSON: 400, nothing parked."""
        parked = C.count("parked_changes", "operation = 'branch_scoping.update'")
        bodies = [{"enabled": "true"}, {"enabled": 1}, {"enabled": None}, {}, {"enabled": True, "scope": "HRE"},
                  [True], "true"]
        for body in bodies:
            with self.subTest(body=body):
                cb.assert_error(F.api.put(S.SCOPING_PATH, json_body=body, token=F.admin), 400,
                                ("VALIDATION_ERROR", "BAD_REQUEST"))
        for raw in (b"{\"enabled\": tru}", b"", b"\xff"):
            with self.subTest(raw=raw):
                resp = F.api.put(S.SCOPING_PATH, body=raw, token=F.admin)
                cb.assert_error(resp, 400, ("VALIDATION_ERROR", "BAD_REQUEST"))
        self.assertEqual(C.count("parked_changes", "operation = 'branch_scoping.update'"), parked)
        self.assertIs(S.enabled(F.api), False)


if __name__ == "__main__":
    unittest.main()
