"""The end-of-day runner's own timer, in two corebankd processes on one
database, with a kill -9 in the middle of a catch-up (issue 13, part 1:
"kill -9 during a run loses nothing and doubles nothing; two processes on one
database split the work; a three-day outage catches up in order").

Method: 120 daily standing orders fall due on the runner's next date; the
business date is moved three days past it (the test clock), and tiers A and
B start with eod_runner_interval_s = 1. While they pay the 360 (order, date)
units, either A or the postmaster is killed with SIGKILL and started again,
and the runner must finish by itself. Then: each order paid exactly once per date, with that
date's value date, and nothing else; every job SUCCEEDED, dates finished in
order; both processes ran units; the ledger checks find nothing.
"""
import datetime
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_faults as F  # noqa: E402 (the module's Tier, ports and cluster control; not its test class)

ORDERS = 120
AMOUNT = 100
DAYS = 3
CATCH_UP_LIMIT_S = 60


class RunnerTier(F.Tier):
    """A tier whose end-of-day timer wakes every `interval` seconds (0: never)."""

    def __init__(self, ports, name, interval, issuer_port=None):
        super().__init__(ports, name, issuer_port)
        self.interval = interval

    def env(self):
        env = super().env()
        env["CORE_EOD_RUNNER_INTERVAL_S"] = str(self.interval)
        return env


def runner():
    return F.sql_rows("SELECT corebank.core_jobs_runner() AS r")[0]["r"]


class EodRunnerFaultTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for name, value in (("FAULT_PORTS", len(F.PORTS) == 8), ("FAULT_APP_URL", F.APP_URL),
                            ("CB_DATABASE_URL", F.SUPER_URL), ("CB_CLI", F.CLI), ("FAULT_CONF_FILE", F.CONF),
                            ("FAULT_PG_DATA", F.PG_DATA)):
            if not value:
                raise unittest.SkipTest(f"{name} is not set (tests/faults/run.sh sets it)")
        if not os.path.exists(os.path.join(F.PG_DATA, "postmaster.pid")):
            F.pg_start()

    def setUp(self):
        self.a = RunnerTier(F.PORTS[0:4], "eod-a", 1)
        self.b = RunnerTier(F.PORTS[4:8], "eod-b", 1, issuer_port=F.PORTS[1])
        self.addCleanup(self.restore)
        self.today_before = F.sql_rows("SELECT today_override AS t FROM corebank.platform_config")[0]["t"]

    def restore(self):
        self.a.stop()
        self.b.stop()
        if not os.path.exists(os.path.join(F.PG_DATA, "postmaster.pid")):
            F.pg_start()
        F.sql_rows("UPDATE corebank.platform_config SET today_override = %s", (self.today_before,))

    def test_two_processes_and_a_kill_of_one_lose_and_double_nothing(self):
        """kill -9 of one corebankd mid-run: the other goes on, the restarted one joins, nothing twice."""
        def kill():
            self.a.kill9()
            self.a.start()
        self.catch_up_through(kill)

    def test_a_kill_of_the_postmaster_mid_run_loses_and_doubles_nothing(self):
        """kill -9 of PostgreSQL mid-run: both processes reconnect and finish; each unit once."""
        def kill():
            F.pg_kill9()
            F.pg_start()
        self.catch_up_through(kill)

    def catch_up_through(self, kill):
        """ORDERS orders due over a DAYS-day outage, two runner processes, `kill` once mid-run; then the checks."""
        first, tag = self.make_orders_via_http()
        window = [first + datetime.timedelta(days=i) for i in range(DAYS)]
        F.sql_rows("UPDATE corebank.platform_config SET today_override = %s", (window[-1] + datetime.timedelta(days=1),))
        self.a.start()
        self.b.start()
        # Kill once some units are done and many are left.
        deadline = time.monotonic() + CATCH_UP_LIMIT_S
        killed_at = None
        while time.monotonic() < deadline:
            done = F.sql_rows("""SELECT count(*) AS n FROM corebank.standing_order_executions e
                                 JOIN corebank.standing_orders o ON o.id = e.standing_order_id
                                 WHERE o.reference LIKE %s""", (tag + "%",))[0]["n"]
            if done >= ORDERS // 2:
                killed_at = done
                kill()
                break
            time.sleep(0.01)
        self.assertIsNotNone(killed_at, "the runner paid too few orders to kill a process mid-run")
        self.assertLess(killed_at, ORDERS * DAYS, "the run ended before the kill: nothing was interrupted")
        state = None
        while time.monotonic() < deadline:
            try:
                state = runner()
                if state["lagDays"] == 0:
                    break
            except Exception:  # the cluster is still coming back
                pass
            time.sleep(0.2)
        self.assertIsNotNone(state)
        self.assertEqual((state["lagDays"], state["closedThrough"]), (0, str(window[-1])), state)

        rows = F.sql_rows("""
            SELECT e.execution_date, count(*) AS paid, count(DISTINCT e.standing_order_id) AS orders,
                   bool_and(e.status = 'SUCCEEDED') AS ok
            FROM corebank.standing_order_executions e JOIN corebank.standing_orders o ON o.id = e.standing_order_id
            WHERE o.reference LIKE %s GROUP BY 1 ORDER BY 1""", (tag + "%",))
        self.assertEqual([(r["execution_date"], r["paid"], r["orders"], r["ok"]) for r in rows],
                         [(d, ORDERS, ORDERS, True) for d in window])
        journal = F.sql_rows("""SELECT t.value_date, count(*) AS n, count(DISTINCT t.reference) AS refs
                                FROM corebank.transactions t WHERE t.reference LIKE %s GROUP BY 1 ORDER BY 1""",
                             ("SO-" + tag + "%",))
        self.assertEqual([(r["value_date"], r["n"], r["refs"]) for r in journal], [(d, ORDERS, ORDERS) for d in window])
        # The target's credits from these orders (its balance also moves by a
        # month end's maintenance fee when the window holds one).
        credited = F.sql_rows("""SELECT coalesce(sum(e.amount_minor), 0) AS c FROM corebank.journal_entries e
                                 JOIN corebank.transactions t ON t.id = e.transaction_id
                                 WHERE e.ledger_account_id = %s AND e.side = 'C' AND t.reference LIKE %s""",
                              (self.target, "SO-" + tag + "%"))[0]["c"]
        self.assertEqual(credited, ORDERS * AMOUNT * DAYS)

        jobs = F.sql_rows("""SELECT business_date, position, state, finished_at FROM corebank.eod_jobs
                             WHERE business_date BETWEEN %s AND %s ORDER BY finished_at""", (window[0], window[-1]))
        self.assertEqual(len(jobs), 4 * DAYS)
        self.assertTrue(all(j["state"] == "SUCCEEDED" for j in jobs), jobs)
        self.assertEqual([(j["business_date"], j["position"]) for j in jobs],
                         sorted((j["business_date"], j["position"]) for j in jobs), "dates finished out of order")
        workers = F.sql_rows("""SELECT count(DISTINCT u.worker) AS n FROM corebank.eod_job_units u
                                JOIN corebank.eod_jobs j ON j.id = u.job_id
                                WHERE j.business_date BETWEEN %s AND %s AND j.job = 'standing_orders'""",
                             (window[0], window[-1]))[0]["n"]
        self.assertGreaterEqual(workers, 2, "one process did all the work: the units were not split")
        self.assertEqual(F.sql_rows("SELECT count(*) AS n FROM corebank.ledger_check_balances()")[0]["n"], 0)
        self.assertEqual(F.sql_rows("SELECT count(*) AS n FROM corebank.ledger_verify_chain()")[0]["n"], 0)

    def make_orders_via_http(self):
        """The orders through the API, as tellers make them; returns the runner's next date and their tag."""
        # Tier A's ports, as every faults module uses them (corebanking reads
        # them once, at its first import); its timer off while the orders are made.
        os.environ["CB_CORE_URL"] = f"http://127.0.0.1:{self.a.core}"
        os.environ["CB_ID_URL"] = f"http://127.0.0.1:{self.a.identity}"
        setup = RunnerTier(F.PORTS[0:4], "eod-setup", 0)
        setup.start()
        try:
            import corebanking as C  # noqa: E402 (reads the environment at import)
            api = C.Core(C.admin_key())
            teller = C.new_staff("teller")
            first = datetime.date.fromisoformat(C.ok(api.get("/v1/jobs"))["runner"]["nextDate"])
            customer = C.new_individual(api, teller, "Runner")
            source = C.funded_account(api, teller, ORDERS * AMOUNT * DAYS * 2, customer=customer)
            target = C.ok(api.post("/v1/accounts", token=teller, json_body={
                "customerId": customer["id"], "productCode": "CUR-STD"}))
            self.target = target["id"]
            tag = f"EODF{C.uid()}".upper()[:20]
            for i in range(ORDERS):
                C.ok(api.post("/v1/standing-orders", token=teller, json_body={
                    "sourceAccountId": source["id"], "targetAccountId": target["id"], "amountMinor": AMOUNT,
                    "frequency": "DAILY", "startDate": str(first), "reference": f"{tag}-{i:03d}"}))
            return first, tag.upper()
        finally:
            setup.stop()
