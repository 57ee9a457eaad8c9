"""`./corebank start` brings back whatever is down; `status` says what does
not serve (issue 13, "Restarts").

Before the fix, after a kill -9 of the postmaster while corebankd lived,
`./corebank start` answered "corebankd is already running" and left
PostgreSQL down, so every request stayed 503.

Method: the script runs as a user would, from a checkout of its own under
FAULT_TMP (a copy of `corebank`, the cluster settings it sources,
`deploy/cluster-settings.sh`, and `corebank.conf`), whose var/pg and var/run
are symlinks to the fault cluster's data and socket directories and whose
COREBANK_PG_PORT is that cluster's port, so that the script's embedded
cluster is the fault cluster. That checkout has no sources, so corebankd is
started here, as `start` would start it, with its pid in var/run/corebankd.pid;
the path under test (corebankd alive, PostgreSQL down) builds nothing.
`start` restarts the cluster with the script's own settings and log; the
tearDown restarts it with the harness's (test_faults.pg_start).
"""
import os
import shutil
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_faults as F  # noqa: E402 (the module's Tier, ports and cluster control; not its test class)

CLI_TIMEOUT_S = 90         # `start` waits up to 60 s for pg_ctl and 30 s for health


def wait_reaped(pid, limit_s=10):
    """Until PID is gone, not even a zombie: pg_ctl counts a zombie postmaster as running."""
    deadline = time.monotonic() + limit_s
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.05)


class RestartTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for name, value in (("FAULT_PORTS", len(F.PORTS) == 8), ("FAULT_PG_DATA", F.PG_DATA),
                            ("FAULT_PG_SOCK", F.PG_SOCK), ("FAULT_PG_PORT", F.PG_PORT),
                            ("FAULT_APP_URL", F.APP_URL), ("CB_DATABASE_URL", F.SUPER_URL), ("CB_CLI", F.CLI),
                            ("FAULT_CONF_FILE", F.CONF)):
            if not value:
                raise unittest.SkipTest(f"{name} is not set (tests/faults/run.sh sets it)")
        cls.root = os.path.join(F.TMP, "restart-checkout")
        shutil.rmtree(cls.root, ignore_errors=True)
        os.makedirs(os.path.join(cls.root, "var"))
        shutil.copy2(os.path.join(F.ROOT, "corebank"), cls.root)
        os.makedirs(os.path.join(cls.root, "deploy"))
        shutil.copy2(os.path.join(F.ROOT, "deploy", "cluster-settings.sh"), os.path.join(cls.root, "deploy"))
        shutil.copy2(F.CONF, os.path.join(cls.root, "corebank.conf"))
        os.symlink(F.PG_DATA, os.path.join(cls.root, "var", "pg"))
        os.symlink(F.PG_SOCK, os.path.join(cls.root, "var", "run"))
        cls.pid_file = os.path.join(cls.root, "var", "run", "corebankd.pid")
        if not os.path.exists(os.path.join(F.PG_DATA, "postmaster.pid")):
            F.pg_start()
        # The harness's cluster commits asynchronously; the API key made below
        # must survive the kill -9 (as in FaultTest).
        db = F.sql_rows("SELECT current_database() AS d")[0]["d"]
        F.sql_rows(f'ALTER DATABASE "{db}" SET synchronous_commit = on')
        cls.tier = F.Tier(F.PORTS[0:4], "restart")
        os.environ["CB_CORE_URL"] = f"http://127.0.0.1:{cls.tier.core}"
        os.environ["CB_ID_URL"] = f"http://127.0.0.1:{cls.tier.identity}"
        import corebanking as C  # noqa: E402 (reads the environment at import)
        cls.admin_key = C.admin_key()

    def setUp(self):
        self.script_started_postgres = False
        self.addCleanup(self.restore)   # also when setUp fails half-way
        self.tier.start()
        with open(self.pid_file, "w") as f:
            f.write(f"{self.tier.proc.pid}\n")

    def restore(self):
        """corebankd stopped, and the cluster running with the harness's settings and log."""
        self.tier.stop()
        try:
            os.unlink(self.pid_file)
        except FileNotFoundError:
            pass
        running = F.as_postgres(f"{F.PG_BIN}/pg_ctl", "status", "-D", F.PG_DATA).returncode == 0
        if running and self.script_started_postgres:
            F.pg_stop("fast")
            running = False
        if not running:
            F.pg_start()

    # ------------------------------------------------------------ helpers

    def corebank(self, *args, ports=None):
        """./corebank ARGS in the test checkout, as a user runs it: embedded mode, the tier's ports."""
        core, identity, verify, events = ports or F.PORTS[0:4]
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL" and not k.startswith("CORE_")}
        env.update(COREBANK_PG_PORT=str(F.PG_PORT), CORE_LISTEN="127.0.0.1", CORE_CORE_PORT=str(core),
                   CORE_IDENTITY_PORT=str(identity), CORE_VERIFY_PORT=str(verify), CORE_EVENTS_PORT=str(events))
        done = subprocess.run([os.path.join(self.root, "corebank"), *args], cwd=self.root, env=env,
                              capture_output=True, text=True, timeout=CLI_TIMEOUT_S)
        return done.returncode, done.stdout + done.stderr

    def products_status(self):
        """Status of a real read through the core service (the database behind it), or 'noanswer'."""
        try:
            return F.http_request(self.tier.core, "GET", "/v1/deposit-products",
                                  headers={"X-API-Key": self.admin_key})[0]
        except OSError:
            return "noanswer"

    def assert_status(self, expected_rc, *lines, ports=None):
        rc, out = self.corebank("status", ports=ports)
        self.assertEqual(rc, expected_rc, out)
        for line in lines:
            self.assertIn(line, out)
        return out

    # ------------------------------------------------------------ tests

    def test_1_start_brings_back_a_killed_postgres(self):
        """kill -9 of the postmaster while corebankd lives: status says so (3), start serves again (0)."""
        self.assertEqual(self.products_status(), 200)
        self.assert_status(0, "postgres   running (pid", "corebankd  running (pid")
        postmaster = F.pg_pid()
        F.pg_kill9()
        wait_reaped(postmaster)
        self.assertEqual(self.products_status(), 503)
        out = self.assert_status(3, "postgres   stopped", "corebankd  not serving (pid",
                                 "core: database unreachable", "identity: database unreachable",
                                 "verification: database unreachable", "events: database unreachable")
        self.assertNotIn("running", out)

        started = time.monotonic()
        self.script_started_postgres = True
        rc, out = self.corebank("start")
        self.assertEqual(rc, 0, out)
        # Served again by the same corebankd, without any wait of our own.
        self.assertEqual(self.products_status(), 200, f"not served after ./corebank start:\n{out}")
        self.assertTrue(self.tier.alive(), "corebankd died")
        self.assertIn("PostgreSQL is down: starting it", out)
        self.assertIn("serves: every health check answers 200", out)
        print(f"  ./corebank start brought PostgreSQL back in {time.monotonic() - started:.1f} s",
              file=sys.stderr)
        with open(self.pid_file) as f:
            self.assertEqual(int(f.read()), self.tier.proc.pid, "start replaced the running corebankd")
        self.assert_status(0, "postgres   running (pid", "corebankd  running (pid")

        rc, out = self.corebank("start")
        self.assertEqual(rc, 0, out)
        self.assertIn("PostgreSQL is running", out)
        self.assertNotIn("starting it", out)

    def test_2_status_of_a_killed_corebankd(self):
        """kill -9 of corebankd: status says corebankd stopped and exits 3."""
        self.tier.kill9()
        self.assert_status(3, "postgres   running (pid", "corebankd  stopped")

    def test_3_status_of_a_corebankd_that_does_not_answer(self):
        """corebankd alive but its ports answer nothing (status pointed at four idle ports): not serving, 3."""
        out = self.assert_status(3, "postgres   running (pid", "corebankd  not serving (pid",
                                 "core: no answer on", "identity: no answer on",
                                 "verification: no answer on", "events: no answer on",
                                 ports=F.PORTS[4:8])
        self.assertNotIn("corebankd  running", out)

if __name__ == "__main__":
    unittest.main()
