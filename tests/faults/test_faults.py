"""Crash and fault tests (issue 7, "Crash and fault tests" and "Two corebankd
processes on one database pass the fault and concurrency tests together").

tests/faults/run.sh runs this module against a database of the throwaway
cluster of `./corebank test`. The module starts its own corebankd processes
(FAULT_PORTS gives eight free ports: tier A and tier B, four each) and may
kill -9 them, kill -9 the postmaster and stop/start the cluster, so it must
run after every other step that uses that cluster.

Posting load: client threads send POST /v1/transfers between a few funded
savings accounts, each with a unique Idempotency-Key and a unique reference.
A request that got no answer (connection refused/reset, timeout) or a 503 is
retried with the same key and body until it is acknowledged (200). After
the load: every acknowledged reference is in the journal exactly once with
the id the client was given, the account balances equal the opening balance
plus the acknowledged transfers, the trial balance is zero and
ledger_check_balances() and ledger_verify_chain() return no rows.
"""
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import unittest
import uuid

import psycopg2
import psycopg2.extras

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("CB_ROOT") or os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))

ENV = os.environ
PORTS = [int(p) for p in ENV.get("FAULT_PORTS", "").split()]
PG_BIN = ENV.get("FAULT_PG_BIN", "/usr/lib/postgresql/15/bin")
PG_DATA = ENV.get("FAULT_PG_DATA")
PG_SOCK = ENV.get("FAULT_PG_SOCK")
PG_PORT = ENV.get("FAULT_PG_PORT")
PG_LOG = ENV.get("FAULT_PG_LOG")
PG_SETTINGS = ENV.get("FAULT_PG_SETTINGS", "")
TMP = ENV.get("FAULT_TMP", "/tmp")
APP_URL = ENV.get("FAULT_APP_URL")         # corebankd's DATABASE_URL (corebank_app)
SUPER_URL = ENV.get("CB_DATABASE_URL")     # superuser, for the checks
CLI = ENV.get("CB_CLI")
CONF = ENV.get("FAULT_CONF_FILE")

RESPONSE_LIMIT_S = 10      # every request must be answered within this
THREADS = 4
ACCOUNTS = 4
OPENING = 100_000_000      # minor units in each account
STATUS_OK = 200


def as_postgres(*args):
    cmd = list(args)
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", "postgres", "--"] + cmd
    return subprocess.run(cmd, cwd="/tmp", capture_output=True, text=True, timeout=90)


# ---------------------------------------------------------------- PostgreSQL control

def pg_pid():
    with open(os.path.join(PG_DATA, "postmaster.pid")) as f:
        return int(f.readline().strip())


def pg_children(pid):
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def pg_kill9():
    """kill -9 the postmaster, then its orphaned backends (by pid), so that it can start again."""
    pid = pg_pid()
    children = pg_children(pid)
    os.kill(pid, signal.SIGKILL)
    for child in children:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in [pid] + children):
        time.sleep(0.05)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (not ours to reap) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def pg_start():
    last = None
    for _ in range(5):
        done = as_postgres(f"{PG_BIN}/pg_ctl", "start", "-D", PG_DATA, "-l", PG_LOG, "-w", "-t", "60",
                           "-o", f"-p {PG_PORT} -k '{PG_SOCK}' -c listen_addresses=127.0.0.1 {PG_SETTINGS}")
        if done.returncode == 0:
            return
        last = done
        time.sleep(1)
    raise AssertionError(f"pg_ctl start failed: {last.stdout} {last.stderr}")


def pg_stop(mode="fast"):
    done = as_postgres(f"{PG_BIN}/pg_ctl", "stop", "-D", PG_DATA, "-m", mode, "-w", "-t", "60")
    if done.returncode != 0:
        raise AssertionError(f"pg_ctl stop failed: {done.stdout} {done.stderr}")


def sql_rows(query, params=()):
    conn = psycopg2.connect(SUPER_URL, connect_timeout=10)
    conn.autocommit = True
    try:
        with conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor) as cur:
            cur.execute(query, params)
            return cur.fetchall() if cur.description else []
    finally:
        conn.close()


# ---------------------------------------------------------------- corebankd

class Tier:
    """One corebankd process on four ports; (re)started with the command line of the harness."""

    def __init__(self, ports, name, issuer_port=None):
        self.core, self.identity, self.verify, self.events = ports
        # Tiers behind one load balancer share one public issuer URL (tokens
        # one tier issues must verify in the other).
        self.issuer = f"http://127.0.0.1:{issuer_port or self.identity}"
        self.name = name
        self.proc = None
        self.log = os.path.join(TMP, f"faults-{name}.log")

    def env(self):
        env = dict(os.environ)
        env.update(DATABASE_URL=APP_URL, CORE_LISTEN="127.0.0.1", CORE_CORE_PORT=str(self.core),
                   CORE_IDENTITY_PORT=str(self.identity), CORE_VERIFY_PORT=str(self.verify),
                   CORE_EVENTS_PORT=str(self.events), CORE_ISSUER=self.issuer,
                   CORE_TRUSTED_PROXIES="127.0.0.1",
                   CORE_RESET_LINK_BASE=f"http://127.0.0.1:{self.identity}/auth/password/reset-form")
        return env

    def start(self):
        log = open(self.log, "ab")
        self.proc = subprocess.Popen([CLI, "serve", "--config", CONF], env=self.env(), stdout=log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        with open(os.path.join(TMP, f"faults-{self.name}.pid"), "w") as f:
            f.write(f"{self.proc.pid}\n")   # the harness kills it if this run is killed
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"corebankd {self.name} exited with {self.proc.returncode}; see {self.log}")
            try:
                status, _, _ = http_request(self.core, "GET", "/actuator/health", timeout=2)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"corebankd {self.name} did not become healthy in 30 s")

    def kill9(self):
        self.proc.kill()
        self.proc.wait(10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None


def http_request(port, method, path, body=None, headers=None, timeout=RESPONSE_LIMIT_S):
    """(status, json or None, raw) over a fresh connection; OSError when nothing answered."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        send = {"Content-Type": "application/json"} if data is not None else {}
        send.update(headers or {})
        conn.request(method, path, body=data, headers=send)
        resp = conn.getresponse()
        raw = resp.read()
        try:
            parsed = json.loads(raw.decode()) if raw else None
        except ValueError:
            parsed = None
        return resp.status, parsed, raw
    except (http.client.HTTPException, ValueError) as exc:  # a dropped connection mid-response
        raise OSError(repr(exc)) from exc
    finally:
        conn.close()


# ---------------------------------------------------------------- posting load

class Load:
    """THREADS client threads sending transfers, retrying unacknowledged ones with the same key."""

    def __init__(self, test, ports, accounts, api_key, token, tag):
        self.test = test
        self.ports = ports          # the threads alternate over these core ports
        self.accounts = accounts
        self.headers = {"X-API-Key": api_key, "Authorization": f"Bearer {token}"}
        self.tag = tag
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acked = []             # (reference, tx id, from, to, amount)
        self.statuses = {}          # status (or "noanswer") -> count
        self.bad = []               # anything not allowed: 5xx other than 503, slow answers, 4xx, ...
        self.unavailable = []       # 503 bodies seen
        self.retried = 0
        self.max_latency = 0.0

    def note(self, key):
        with self.lock:
            self.statuses[key] = self.statuses.get(key, 0) + 1

    def worker(self, index):
        n = 0
        try:
            while not self.stop.is_set():
                src = self.accounts[(index + n) % len(self.accounts)]
                dst = self.accounts[(index + n + 1 + n // len(self.accounts)) % len(self.accounts)]
                if src == dst:
                    dst = self.accounts[(self.accounts.index(src) + 1) % len(self.accounts)]
                amount = 1 + (index * 7919 + n * 31) % 500
                key = f"flt-{self.tag}-{index}-{n}-{uuid.uuid4().hex[:8]}"
                body = {"fromAccountId": src, "toAccountId": dst, "amountMinor": amount,
                        "reference": key, "description": "fault test"}
                self.send_until_acked(index, n, key, body, (src, dst, amount))
                n += 1
        except BaseException as exc:
            with self.lock:
                self.bad.append(f"thread {index}: {exc!r}")

    def send_until_acked(self, index, n, key, body, money):
        attempt = 0
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            port = self.ports[(index + n + attempt) % len(self.ports)]
            if attempt:
                with self.lock:
                    self.retried += 1
            attempt += 1
            started = time.monotonic()
            try:
                status, parsed, raw = http_request(port, "POST", "/v1/transfers", body,
                                                   dict(self.headers, **{"Idempotency-Key": key}))
            except OSError as exc:
                elapsed = time.monotonic() - started
                self.note("noanswer")
                if "timed out" in repr(exc):
                    with self.lock:
                        self.bad.append(f"{key}: no answer within {RESPONSE_LIMIT_S} s (hang)")
                time.sleep(0.1)
                continue
            elapsed = time.monotonic() - started
            with self.lock:
                self.max_latency = max(self.max_latency, elapsed)
            self.note(status)
            text = raw[:300].decode("utf-8", "replace")
            if "deadlock" in text.lower() or "serializ" in text.lower():
                with self.lock:
                    self.bad.append(f"{key}: {status} {text}")
            if status == STATUS_OK:
                with self.lock:
                    self.acked.append((key, parsed.get("id") if parsed else None) + money)
                return
            if status == 503:
                with self.lock:
                    self.unavailable.append(parsed)
                if not (isinstance(parsed, dict) and parsed.get("error") == "SERVICE_UNAVAILABLE"
                        and parsed.get("status") == 503 and parsed.get("message")):
                    with self.lock:
                        self.bad.append(f"{key}: 503 without the error body: {text}")
                time.sleep(0.2)
                continue
            with self.lock:
                self.bad.append(f"{key}: unexpected {status} {text}")
            return
        with self.lock:
            self.bad.append(f"{key}: never acknowledged within 40 s")

    def run(self, fault, settle_s=1.5, after_s=2.0):
        threads = [threading.Thread(target=self.worker, args=(i,), daemon=True) for i in range(THREADS)]
        for t in threads:
            t.start()
        time.sleep(settle_s)
        before = len(self.acked)
        fault()
        time.sleep(after_s)
        self.stop.set()
        for t in threads:
            t.join(60)
            if t.is_alive():
                self.bad.append("a client thread did not finish in 60 s")
        return before


# ---------------------------------------------------------------- the tests

class FaultTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for name, value in (("FAULT_PORTS", len(PORTS) == 8), ("FAULT_PG_DATA", PG_DATA),
                            ("FAULT_APP_URL", APP_URL), ("CB_DATABASE_URL", SUPER_URL), ("CB_CLI", CLI),
                            ("FAULT_CONF_FILE", CONF)):
            if not value:
                raise unittest.SkipTest(f"{name} is not set (tests/faults/run.sh sets it)")
        # The harness's cluster runs with synchronous_commit=off; an acknowledged
        # posting must survive kill -9 of the postmaster, so this database commits
        # synchronously (fsync=off is harmless: the OS does not crash here).
        db = sql_rows("SELECT current_database() AS d")[0]["d"]
        sql_rows(f'ALTER DATABASE "{db}" SET synchronous_commit = on')
        cls.a = Tier(PORTS[0:4], "a")
        cls.b = Tier(PORTS[4:8], "b", issuer_port=PORTS[1])
        cls.a.start()
        os.environ["CB_CORE_URL"] = f"http://127.0.0.1:{cls.a.core}"
        os.environ["CB_ID_URL"] = f"http://127.0.0.1:{cls.a.identity}"
        import cbclient  # noqa: E402 (reads the environment at import)
        import corebanking as C  # noqa: E402
        cls.C = C
        cls.key = C.new_key(["write"], rate=1_000_000)["key"]
        cls.admin_key = C.admin_key()
        cls.teller = C.new_staff("teller")
        api = C.Core(cls.admin_key)
        cls.accounts = [C.funded_account(api, cls.teller, OPENING, last_name="Fault")["id"] for _ in range(ACCOUNTS)]

    @classmethod
    def tearDownClass(cls):
        for tier in (getattr(cls, "a", None), getattr(cls, "b", None)):
            if tier:
                tier.stop()

    # ------------------------------------------------------------ helpers

    def setUp(self):
        if not os.path.exists(os.path.join(PG_DATA, "postmaster.pid")):
            pg_start()
        if not self.a.alive():
            self.a.start()
        self.balances_before = self.db_balances()

    def db_balances(self):
        return {a: self.api_balance(a) for a in self.accounts}

    def api_balance(self, account_id, port=None):
        status, parsed, raw = http_request(port or self.a.core, "GET", f"/v1/accounts/{account_id}",
                                           headers={"X-API-Key": self.admin_key})
        self.assertEqual(status, 200, raw[:300])
        return parsed["balanceMinor"]

    def wait_serving(self, port, limit_s=30):
        """Until a read through the tier answers 200 (the tier reconnected by itself)."""
        deadline = time.monotonic() + limit_s
        last = None
        while time.monotonic() < deadline:
            try:
                last = http_request(port, "GET", f"/v1/accounts/{self.accounts[0]}",
                                    headers={"X-API-Key": self.admin_key})
                if last[0] == 200:
                    return
            except OSError as exc:
                last = exc
            time.sleep(0.2)
        self.fail(f"the tier on {port} did not serve again within {limit_s} s: {last!r}")

    def new_load(self, ports, tag):
        return Load(self, ports, self.accounts, self.key, self.teller.token, tag)

    def check_ledger(self, load, label):
        self.assertEqual(load.bad, [], f"{label}: " + "\n".join(load.bad[:10]))
        self.assertGreater(len(load.acked), 0, f"{label}: nothing was acknowledged")
        refs = [r[0] for r in load.acked]
        self.assertEqual(len(refs), len(set(refs)))
        rows = sql_rows("SELECT reference, id::text AS id, status FROM corebank.transactions"
                        " WHERE reference LIKE %s", (f"flt-{load.tag}-%",))
        by_ref = {}
        for row in rows:
            by_ref.setdefault(row["reference"], []).append(row)
        missing = [r for r in refs if r not in by_ref]
        twice = {r: v for r, v in by_ref.items() if len(v) != 1}
        if missing:
            keys = sql_rows("SELECT scope, key, transaction_id::text, created_at::text FROM corebank.idempotency_keys"
                            " WHERE key = ANY(%s)", (missing,))
            lost = [r for r in load.acked if r[0] in missing]
            self.fail(f"{label}: acknowledged but not in the journal: {lost}; idempotency rows: {keys}")
        self.assertEqual(twice, {}, f"{label}: posted more than once")
        self.assertEqual(set(by_ref), set(refs), f"{label}: posted but never acknowledged")
        wrong_id = [(ref, tx) for ref, tx, *_ in load.acked if by_ref[ref][0]["id"] != tx]
        self.assertEqual(wrong_id, [], f"{label}: a retry answered with another transaction id")
        self.assertTrue(all(by_ref[r][0]["status"] == "POSTED" for r in refs))
        entries = sql_rows("SELECT t.reference, count(*) AS n FROM corebank.journal_entries e"
                           " JOIN corebank.transactions t ON t.id = e.transaction_id"
                           " WHERE t.reference LIKE %s GROUP BY 1", (f"flt-{load.tag}-%",))
        self.assertEqual({r["reference"] for r in entries}, set(refs))
        self.assertTrue(all(r["n"] >= 2 for r in entries))
        expected = dict(self.balances_before)
        for _, _, src, dst, amount in load.acked:
            expected[src] -= amount
            expected[dst] += amount
        actual = {a: self.api_balance(a) for a in self.accounts}
        self.assertEqual(actual, expected, f"{label}: balances differ from opening + acknowledged transfers")
        self.assertEqual(sum(actual.values()), sum(self.balances_before.values()), "money not conserved")
        self.assertEqual(sql_rows("SELECT * FROM corebank.ledger_check_balances()"), [])
        self.assertEqual(sql_rows("SELECT * FROM corebank.ledger_verify_chain()"), [])
        tb = {}
        for row in sql_rows("SELECT * FROM corebank.trial_balance_as_of(current_date)"):
            pair = tb.setdefault(row["currency"], [0, 0])
            pair[0] += row["debit_minor"]
            pair[1] += row["credit_minor"]
        for currency, (debits, credits) in tb.items():
            self.assertEqual(debits, credits, f"trial balance in {currency}")
        print(f"  {label}: {len(load.acked)} acknowledged, {load.retried} retries,"
              f" statuses {dict(sorted(load.statuses.items(), key=str))},"
              f" max latency {load.max_latency:.2f} s", file=sys.stderr)

    # ------------------------------------------------------------ 1-4

    def test_1_kill9_corebankd_during_load(self):
        """kill -9 corebankd under a 4-thread transfer load, restart; retries post once, ledger exact."""
        load = self.new_load([self.a.core], "k9tier" + uuid.uuid4().hex[:6])

        def fault():
            self.a.kill9()
            time.sleep(0.5)
            self.a.start()

        before = load.run(fault)
        self.assertGreater(before, 0, "no posting acknowledged before the kill")
        self.assertIn("noanswer", load.statuses, "no request was cut off by the kill")
        self.check_ledger(load, "kill -9 corebankd")

    def test_2_kill9_postgres_during_load(self):
        """kill -9 the postmaster under load: 503 bodies within 10 s, tier reconnects by itself, ledger exact."""
        tier_pid = self.a.proc.pid
        load = self.new_load([self.a.core], "k9pg" + uuid.uuid4().hex[:6])

        def fault():
            pg_kill9()
            time.sleep(2.0)     # the clients keep sending to the tier while the database is away
            pg_start()

        load.run(fault, after_s=3.0)
        self.assertTrue(self.a.alive(), "corebankd died with the database")
        self.assertEqual(self.a.proc.pid, tier_pid, "corebankd was restarted")
        self.assertGreater(load.statuses.get(503, 0), 0, "no 503 seen while the database was away")
        self.assertLessEqual(load.max_latency, RESPONSE_LIMIT_S)
        self.wait_serving(self.a.core)
        self.check_ledger(load, "kill -9 postgres")

    def test_3_clean_database_restart(self):
        """Clean stop/start of PostgreSQL with the tier running: 503 SERVICE_UNAVAILABLE during, 200 after."""
        tier_pid = self.a.proc.pid
        headers = {"X-API-Key": self.admin_key, "Authorization": f"Bearer {self.teller.token}"}
        pg_stop("fast")
        try:
            for path, method, body in (
                    (f"/v1/accounts/{self.accounts[0]}", "GET", None),
                    ("/v1/transfers", "POST", {"fromAccountId": self.accounts[0], "toAccountId": self.accounts[1],
                                               "amountMinor": 1, "reference": f"flt-down-{uuid.uuid4().hex[:8]}"}),
                    (f"/v1/accounts/{self.accounts[1]}", "GET", None)):
                started = time.monotonic()
                status, parsed, raw = http_request(self.a.core, method, path, body,
                                                   dict(headers, **{"Idempotency-Key": uuid.uuid4().hex}))
                self.assertLess(time.monotonic() - started, RESPONSE_LIMIT_S)
                self.assertEqual(status, 503, raw[:300])
                self.assertEqual(parsed["error"], "SERVICE_UNAVAILABLE", parsed)
                self.assertEqual(parsed["status"], 503)
                self.assertTrue(parsed["message"])
                self.assertIn("timestamp", parsed)
            status, _, _ = http_request(self.a.core, "GET", "/actuator/health")
            self.assertEqual(status, 503, "health is not DOWN while the database is away")
        finally:
            pg_start()
        self.wait_serving(self.a.core)
        status, parsed, raw = http_request(self.a.core, "POST", "/v1/transfers",
                                           {"fromAccountId": self.accounts[0], "toAccountId": self.accounts[1],
                                            "amountMinor": 3, "reference": f"flt-up-{uuid.uuid4().hex[:8]}"},
                                           dict(headers, **{"Idempotency-Key": uuid.uuid4().hex}))
        self.assertEqual(status, 200, raw[:300])
        self.assertEqual(http_request(self.a.core, "GET", "/actuator/health")[0], 200)
        self.assertTrue(self.a.alive())
        self.assertEqual(self.a.proc.pid, tier_pid, "corebankd was restarted")
        self.assertEqual(sql_rows("SELECT reference FROM corebank.transactions WHERE reference LIKE 'flt-down-%%'"),
                         [], "a transfer refused with 503 was posted")

    def test_4_two_tiers_one_database(self):
        """Two corebankd processes serve one load alternately: no 500, no deadlock, balances exact."""
        self.b.start()
        try:
            load = self.new_load([self.a.core, self.b.core], "two" + uuid.uuid4().hex[:6])
            load.run(lambda: None, settle_s=3.0, after_s=3.0)
            self.assertEqual({k: v for k, v in load.statuses.items() if k != 200}, {},
                             "only 200s are expected with both tiers up")
            self.check_ledger(load, "two tiers")
            for account in self.accounts:
                self.assertEqual(self.api_balance(account, self.a.core), self.api_balance(account, self.b.core))
        finally:
            self.b.stop()


if __name__ == "__main__":
    unittest.main()
