"""The end-of-day runner over HTTP (issue 13, part 1; docs/operations.md):
GET /v1/jobs, GET /v1/jobs/{id}, POST /v1/jobs/run.

The suite's corebankd runs with its timer off (eod_runner_interval_s = 0:
the other modules move the business date back and forth), so these tests
drive the runner with POST /v1/jobs/run, which takes the same database steps
as the timer. A three-day outage is the business date moved three days past
the runner's next date with the test clock (todayOverride): one call closes
the three dates one by one, in order, each job once; a second call finds
nothing to do. The faults suite (tests/faults/test_eod_runner.py) runs the
timer itself, in two processes, with a kill -9 in the middle.
"""
import datetime
import uuid

import cbclient as cb
import corebanking as C
import deposits_support as D

JOB_ORDER = ["approvals_lapse", "standing_orders", "interest", "dormancy"]


def setUpModule():
    C.require_core()


def day(text):
    return datetime.date.fromisoformat(text)


class JobsTest(D.DepositsBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.reader = C.Core(C.new_key(["read"])["key"])

    def runner(self):
        return C.ok(self.api.get(C.query("/v1/jobs", size=1)))["runner"]

    def run_until_idle(self, token=None):
        """POST /v1/jobs/run until the runner says there is nothing to do (a call stops after 20 s)."""
        runs = []
        for _ in range(20):
            run = C.ok(self.api.post("/v1/jobs/run", token=token or self.supervisor))
            runs.append(run)
            if run["stoppedBecause"] in ("IDLE", "WAITING"):
                return runs
        self.fail(f"the runner did not become idle: {runs[-1]}")

    def jobs_of(self, date):
        page = C.ok(self.api.get(C.query("/v1/jobs", date=str(date), size=200)))
        return sorted(page["content"], key=lambda j: j["position"])

    def test_three_day_outage_catches_up_in_order_once(self):
        """Three missed dates are three runs, in order, each job once; the missed payments and accruals are made once each."""
        self.run_until_idle()  # whatever an earlier module left: nothing before today is open
        before = self.runner()
        first = day(before["nextDate"])
        self.assertEqual(before["lagDays"], max(0, (day(before["businessDate"]) - first).days))
        customer = self.individual()
        source = self.open_account(customer["id"], "SAV-TIER", initial=5_000_000)
        target = self.open_account(customer["id"], "CUR-STD")
        order = C.ok(self.api.post("/v1/standing-orders", token=self.teller, json_body={
            "sourceAccountId": source["id"], "targetAccountId": target["id"], "amountMinor": 1_500,
            "frequency": "DAILY", "startDate": str(D.real_today()), "reference": f"EOD-{C.uid()}"}))
        window = [first + datetime.timedelta(days=i) for i in range(3)]
        opened_on = D.real_today()  # before the clock moves: real_today() reads the engine's today
        self.assertLessEqual(window[0], opened_on)
        with self.pinned_today(window[-1] + datetime.timedelta(days=1)):
            self.assertEqual(self.runner()["lagDays"], (window[-1] - first).days + 1)
            runs = self.run_until_idle()
            self.assertEqual(runs[-1]["stoppedBecause"], "IDLE", runs[-1])
            self.assertEqual(sum(r["jobsFinished"] for r in runs), 4 * len(window))
            self.assertEqual(sum(r["unitFailures"] for r in runs), 0, runs)
            after = runs[-1]["runner"]
            self.assertEqual((after["closedThrough"], after["nextDate"], after["lagDays"]),
                             (str(window[-1]), str(window[-1] + datetime.timedelta(days=1)), 0))

            finished = []
            for date in window:
                jobs = self.jobs_of(date)
                self.assertEqual([j["job"] for j in jobs], JOB_ORDER, date)
                for job in jobs:
                    self.assertEqual(job["state"], "SUCCEEDED", job)
                    self.assertEqual((job["unitsFailed"], job["unitsPending"], job["errors"]), (0, 0, []), job)
                    self.assertEqual(job["unitsSucceeded"], job["unitsTotal"], job)
                    self.assertGreaterEqual(job["durationMs"], 0)
                    finished.append((job["finishedAt"], str(date), job["position"]))
                    self.assertEqual(C.ok(self.api.get(f"/v1/jobs/{job['id']}")), job)
                standing = jobs[1]
                self.assertGreaterEqual(standing["counts"].get("paid", 0), 1, standing)
                # The first date also catches up accounts earlier modules left
                # behind (their processed_through); each later date is one day.
                if date == window[0]:
                    self.assertGreaterEqual(jobs[2]["counts"]["daysProcessed"], 1, jobs[2])
                else:
                    self.assertEqual(jobs[2]["counts"]["daysProcessed"], 1, jobs[2])
            # Finished in (date, position) order: no date ran before the one before it.
            self.assertEqual([(d, p) for _, d, p in sorted(finished)], [(d, p) for _, d, p in finished])

            # The order paid once for each missed date, with that date's value date.
            for date in window:
                reference = f"SO-{order['reference']}-{date:%Y%m%d}"
                found = C.ok(self.api.get(C.query("/v1/transactions", reference=reference, size=10)))["content"]
                self.assertEqual(len(found), 1, reference)
                self.assertEqual(found[0]["valueDate"], str(date))
            # Nothing else paid into the target but the orders (and, on a month end, its fee out).
            month_ends = sum(1 for d in window if (d + datetime.timedelta(days=1)).day == 1)
            self.assertEqual(C.ok(self.api.get(f"/v1/accounts/{target['id']}/balance"))["currentBalanceMinor"],
                             1_500 * len(window) - 500 * month_ends)
            after_order = C.ok(self.api.get(f"/v1/standing-orders/{order['id']}"))
            self.assertEqual((after_order["lastRunDate"], after_order["nextRunDate"]),
                             (str(window[-1]), str(window[-1] + datetime.timedelta(days=1))))
            # The interest job accrued each missed day once for the new account.
            accruals = C.ok(self.api.get(C.query(f"/v1/accounts/{source['id']}/interest/accruals",
                                                 **{"from": str(window[0]), "to": str(window[-1])})))
            self.assertEqual(sorted(a["date"] for a in accruals),
                             [str(d) for d in window if d >= opened_on])

            # Again: nothing to do, nothing done twice.
            counts = C.table_counts("eod_jobs", "eod_job_units", "standing_order_executions", "journal_entries")
            again = C.ok(self.api.post("/v1/jobs/run", token=self.supervisor))
            self.assertEqual((again["steps"], again["unitsRun"], again["stoppedBecause"]), (1, 0, "IDLE"), again)
            self.assertEqual(C.table_counts("eod_jobs", "eod_job_units", "standing_order_executions",
                                            "journal_entries"), counts)
            # The manual endpoint for a date the runner closed pays nothing again.
            repeat = C.ok(self.api.post(C.query("/v1/standing-orders/execute", date=str(window[0])),
                                        token=self.supervisor))
            ours = [r for r in repeat["results"] if r["standingOrderId"] == order["id"]]
            self.assertEqual([r["outcome"] for r in ours], ["ALREADY_EXECUTED"])
            self.assert_ledger_healthy()

    def test_list_filters_and_paging(self):
        """Filters by date, job and state; pages of `size`; the runner rides along on every page."""
        self.run_until_idle()
        page = C.ok(self.reader.get(C.query("/v1/jobs", job="interest", state="succeeded", size=2)))
        self.assertLessEqual(len(page["content"]), 2)
        self.assertTrue(all(j["job"] == "interest" and j["state"] == "SUCCEEDED" for j in page["content"]))
        dates = [j["businessDate"] for j in page["content"]]
        self.assertEqual(dates, sorted(dates, reverse=True))
        self.assertEqual([j["job"] for j in page["runner"]["jobs"]], JOB_ORDER)
        empty = C.ok(self.reader.get(C.query("/v1/jobs", date="1999-01-01")))
        self.assertEqual((empty["content"], empty["totalElements"]), ([], 0))

    def test_bad_input_writes_nothing(self):
        """Malformed filters, ids and run parameters answer 400/404 and write nothing."""
        counts = C.table_counts("eod_jobs", "eod_job_units")
        cb.assert_error(self.reader.get(C.query("/v1/jobs", state="DONE")), 400, "BAD_REQUEST")
        cb.assert_error(self.reader.get(C.query("/v1/jobs", date="2026-02-30")), 400, "BAD_REQUEST")
        cb.assert_error(self.reader.get(C.query("/v1/jobs", size=0)), 400, "BAD_REQUEST")
        cb.assert_error(self.reader.get(C.query("/v1/jobs", job="x" * 41)), 400, "BAD_REQUEST")
        cb.assert_validation(self.reader.get(C.query("/v1/jobs", job="payroll")), "job")
        cb.assert_error(self.reader.get("/v1/jobs/not-a-uuid"), 400, "BAD_REQUEST")
        cb.assert_error(self.reader.get(f"/v1/jobs/{uuid.uuid4()}"), 404, "NOT_FOUND", "job not found")
        cb.assert_error(self.api.post(C.query("/v1/jobs/run", maxSteps=0), token=self.supervisor), 400, "BAD_REQUEST")
        cb.assert_error(self.api.post(C.query("/v1/jobs/run", maxSteps="ten"), token=self.supervisor), 400,
                        "BAD_REQUEST")
        cb.assert_error(self.api.post("/v1/jobs/run", json_body={"date": "2026-01-01"}, token=self.supervisor), 400,
                        "BAD_REQUEST")
        self.assertEqual(C.table_counts("eod_jobs", "eod_job_units"), counts)

    def test_authorisation(self):
        """Reading needs any core key; running needs an admin key and, when a person is named, one of the run roles."""
        cb.assert_error(self.api.get("/v1/jobs", key=None), 401, "UNAUTHORIZED")
        cb.assert_error(self.api.post("/v1/jobs/run", key=None), 401, "UNAUTHORIZED")
        cb.assert_error(self.reader.post("/v1/jobs/run"), 403, "FORBIDDEN")
        cb.assert_error(self.api.post("/v1/jobs/run", token=self.teller), 403, "FORBIDDEN")
        run = C.ok(self.api.post(C.query("/v1/jobs/run", maxSteps=1)))
        self.assertEqual(run["steps"], 1)
