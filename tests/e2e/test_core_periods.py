"""Accounting periods: GET /v1/periods, parked close and reopen, the period lock.

Closing and reopening are parked changes (`period.close`, `period.reopen`) that
need a write key and a branch_manager or admin (policies/core_operations.json);
a second branch_manager/admin approves. Nothing posts with a value date inside
a CLOSED period: 422 UNPROCESSABLE `accounting period YYYY-MM is closed`.
Each test uses its own month far in the past so it never blocks other tests,
and reopens it when done.
"""
import unittest

import cbclient as cb
import corebanking as C


def setUpModule():
    C.require_core()


class PeriodTestBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = C.Core(C.admin_key())
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")
        cls.manager = C.new_staff("branch_manager")
        cls.admin = C.new_staff("admin")

    def setUp(self):
        self.month = C.unique_past_month()
        self.day = f"{self.month}-15"

    def tearDown(self):
        # Never leave a month closed behind (periods are global).
        if self.period_status() == "CLOSED":
            pending = C.db().one("SELECT id FROM corebank.parked_changes WHERE operation = 'period.reopen'"
                                 " AND entity_id = %s AND status = 'PENDING'", (self.month,))
            change_id = pending["id"] if pending else C.ok(self.api.post(
                f"/v1/periods/{self.month}/reopen", token=self.manager))["id"]
            C.approve(self.api, self.admin, change_id)

    def period_status(self):
        rows = [p for p in C.ok(self.api.get("/v1/periods")) if p["period"] == self.month]
        return rows[0]["status"] if rows else None

    def close(self, maker=None, checker=None):
        change = C.ok(self.api.post(f"/v1/periods/{self.month}/close", token=maker or self.manager))
        return change, C.approve(self.api, checker or self.admin, change["id"])

    def released(self, **extra):
        tx = C.capture(self.api, self.teller, C.journal(valueDate=self.day, **extra))
        C.approve(self.api, self.supervisor, tx["parkedChangeId"])
        return tx


class PeriodLockTest(PeriodTestBase):
    def test_list_periods(self):
        """GET /v1/periods lists AccountingPeriodResponse items with unique months."""
        periods = C.ok(self.api.get("/v1/periods"))
        self.assertIsInstance(periods, list)
        months = [p["period"] for p in periods]
        self.assertEqual(len(months), len(set(months)))
        for period in periods:
            self.assertIn(period["status"], ("OPEN", "CLOSED"))
            if period["status"] == "OPEN":
                self.assertIsNone(period["closedAt"])

    def test_close_is_parked_until_approved(self):
        """POST /v1/periods/{month}/close parks `period.close`; the month stays open until approval."""
        before_entries = C.count("journal_entries")
        change = C.ok(self.api.post(f"/v1/periods/{self.month}/close", token=self.manager))
        self.assertEqual(change["operation"], "period.close")
        self.assertEqual(change["entityId"], self.month)
        self.assertEqual(change["status"], "PENDING")
        self.assertEqual(change["makerId"], self.manager.id)
        self.assertNotEqual(self.period_status(), "CLOSED")
        # While the close is only parked, a journal still posts into the month.
        tx = self.released()
        self.assertEqual(C.post(self.api, self.teller, tx["id"])["status"], "POSTED")
        self.assertEqual(C.count("journal_entries") - before_entries, 2)
        decided = C.approve(self.api, self.admin, change["id"])
        self.assertEqual(decided["status"], "APPROVED")
        self.assertEqual(decided["result"]["status"], "CLOSED")
        self.assertEqual(self.period_status(), "CLOSED")

    def test_closed_period_refuses_postings(self):
        """A journal dated in a closed month posts before the close, and is refused with 422 `closed` after."""
        early = self.released(amount=11)
        self.assertEqual(C.post(self.api, self.teller, early["id"])["status"], "POSTED")
        late = self.released(amount=12)
        self.close()
        entries = C.count("journal_entries")
        err = cb.assert_error(self.api.post(f"/v1/transactions/{late['id']}/post", token=self.teller),
                              422, "UNPROCESSABLE")
        self.assertIn("closed", err["message"])
        self.assertIn(self.month, err["message"])
        self.assertEqual(C.get_tx(self.api, late["id"])["status"], "PENDING")
        # Capturing into the closed month is refused too, and writes nothing.
        before = C.ledger_counts()
        err = cb.assert_error(self.api.post("/v1/transactions", json_body=C.journal(valueDate=self.day),
                                            token=self.teller), 422, "UNPROCESSABLE")
        self.assertIn("closed", err["message"])
        self.assertEqual(C.ledger_counts(), before)
        self.assertEqual(C.count("journal_entries"), entries)
        # The journal posted before the close is untouched.
        self.assertEqual(C.get_tx(self.api, early["id"])["status"], "POSTED")

    def test_reopen_lets_the_journal_post(self):
        """Reopening (parked, approved by another) makes the month OPEN; the refused journal then posts."""
        tx = self.released()
        self.close()
        cb.assert_error(self.api.post(f"/v1/transactions/{tx['id']}/post", token=self.teller), 422, "UNPROCESSABLE")
        change = C.ok(self.api.post(f"/v1/periods/{self.month}/reopen", token=self.admin))
        self.assertEqual(change["operation"], "period.reopen")
        self.assertEqual(change["status"], "PENDING")
        self.assertEqual(self.period_status(), "CLOSED", "reopen is parked: nothing changes before approval")
        decided = C.approve(self.api, self.manager, change["id"])
        self.assertEqual(decided["result"]["status"], "OPEN")
        period = [p for p in C.ok(self.api.get("/v1/periods")) if p["period"] == self.month][0]
        self.assertEqual(period["status"], "OPEN")
        self.assertIsNone(period["closedAt"])
        self.assertEqual(C.post(self.api, self.teller, tx["id"])["status"], "POSTED")

    def test_closed_period_records_who_and_when(self):
        """A CLOSED period carries closedAt and closedBy: the checker who approved (and so applied) the close."""
        change, decided = self.close(maker=self.manager, checker=self.admin)
        period = [p for p in C.ok(self.api.get("/v1/periods")) if p["period"] == self.month][0]
        self.assertEqual(period["status"], "CLOSED")
        cb.parse_iso8601(period["closedAt"])
        self.assertEqual(period["closedBy"], self.admin.id,
                         "closedBy is documented as the checker who approved the close")

    def test_reversal_into_a_closed_period_is_refused_at_approval(self):
        """Approving a reversal is refused with 422 when the engine's today falls in a closed month."""
        tx = self.released()
        C.post(self.api, self.teller, tx["id"])
        change = C.ok(self.api.post(f"/v1/transactions/{tx['id']}/reverse", token=self.teller))
        # The reversal is dated the engine's today, so pin today inside the closed month.
        # (PUT /v1/platform/config bodies are validated in test_core_admin; here only the pin matters.)
        config_admin = C.new_staff("admin")
        self.close()
        try:
            resp = self.api.put("/v1/platform/config", json_body={"todayOverride": self.day}, token=config_admin,
                                validate=False)
            self.assertEqual(resp.status, 200, resp)
            err = cb.assert_error(self.api.post(f"/v1/approvals/{change['id']}/approve", json_body={},
                                                token=self.supervisor), 422, "UNPROCESSABLE")
            self.assertIn("closed", err["message"])
        finally:
            resp = self.api.put("/v1/platform/config", json_body={"todayOverride": None}, token=config_admin,
                                validate=False)
            self.assertEqual(resp.status, 200, resp)
        self.assertEqual(C.get_tx(self.api, tx["id"])["status"], "POSTED")
        self.assertEqual(C.ok(self.api.get(f"/v1/approvals/{change['id']}"))["status"], "PENDING")


class PeriodRulesTest(PeriodTestBase):
    def test_teller_and_supervisor_cannot_close(self):
        """Closing needs branch_manager or admin: a teller or a supervisor is 403 and nothing is parked."""
        before = C.count("parked_changes")
        for staff in (self.teller, self.supervisor):
            with self.subTest(roles=staff.roles):
                err = cb.assert_error(self.api.post(f"/v1/periods/{self.month}/close", token=staff),
                                      403, "FORBIDDEN")
                self.assertIn("period.close:make", err["message"])
        self.assertEqual(C.count("parked_changes"), before)

    def test_read_key_cannot_close(self):
        """A read-only key cannot request a close: 403 FORBIDDEN."""
        api = C.Core(C.new_key(["read"])["key"])
        cb.assert_error(api.post(f"/v1/periods/{self.month}/close", token=self.manager), 403, "FORBIDDEN")

    def test_maker_cannot_approve_own_close(self):
        """The manager who requested a close cannot approve it: 403, the month stays open."""
        change = C.ok(self.api.post(f"/v1/periods/{self.month}/close", token=self.manager))
        cb.assert_error(self.api.post(f"/v1/approvals/{change['id']}/approve", json_body={}, token=self.manager),
                        403, "FORBIDDEN")
        self.assertNotEqual(self.period_status(), "CLOSED")

    def test_close_twice_is_409(self):
        """A second close request while one is pending, or once the month is closed, is 409 CONFLICT."""
        change = C.ok(self.api.post(f"/v1/periods/{self.month}/close", token=self.manager))
        cb.assert_error(self.api.post(f"/v1/periods/{self.month}/close", token=self.admin), 409, "CONFLICT")
        C.approve(self.api, self.admin, change["id"])
        cb.assert_error(self.api.post(f"/v1/periods/{self.month}/close", token=self.admin), 409, "CONFLICT")

    def test_reopen_of_open_month_is_409(self):
        """Reopening a month that is not closed is 409 CONFLICT and parks nothing."""
        before = C.count("parked_changes")
        cb.assert_error(self.api.post(f"/v1/periods/{self.month}/reopen", token=self.manager), 409, "CONFLICT")
        self.assertEqual(C.count("parked_changes"), before)

    def test_rejected_close_changes_nothing(self):
        """A rejected close leaves the month open and postable."""
        change = C.ok(self.api.post(f"/v1/periods/{self.month}/close", token=self.manager))
        self.assertEqual(C.reject(self.api, self.admin, change["id"])["status"], "REJECTED")
        self.assertNotEqual(self.period_status(), "CLOSED")
        tx = self.released()
        self.assertEqual(C.post(self.api, self.teller, tx["id"])["status"], "POSTED")

    def test_bad_period_is_400(self):
        """A path period that is not YYYY-MM (month 13, before 1900, text) is 400 BAD_REQUEST."""
        for period in ("2024-13", "1899-12", "abc", "2024-1", "2024-00"):
            with self.subTest(period=period):
                cb.assert_error(self.api.post(f"/v1/periods/{period}/close", token=self.manager), 400, "BAD_REQUEST")
                cb.assert_error(self.api.post(f"/v1/periods/{period}/reopen", token=self.manager), 400,
                                "BAD_REQUEST")


if __name__ == "__main__":
    unittest.main()
