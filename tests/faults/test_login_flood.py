"""A login flood cannot starve core banking (issue 13, "Starvation";
docs/security.md, "Password hashing has a lane of its own").

Goal: while FLOOD_THREADS clients post POST /auth/login with random emails
(each attempt costs an argon2id verification of about 20 ms), the core
service keeps answering: its median latency stays under CORE_MEDIAN_LIMIT_S,
it never answers 503, and the flood is refused with 429 RATE_LIMIT_EXCEEDED
and a Retry-After header rather than queued without bound. Before the
password lane, one 8-thread pool served every service and the core median
went to 420 to 440 ms here (20 to 26 answers in 6 s), and past the queue 503
"The server is busy".

Method: one corebankd on the fault database (the harness of test_faults.py)
with its default settings but a per-IP rate of FLOOD_IP_RATE: with the default
(25 a second) whether the flood is refused depends on the machine (the two lane
threads, sharing the CPU with the 40 clients, served 20 to 28 attempts a second
here, so the queue rather than the throttle held the flood back); with 10 the
throttle refuses it on any machine. The core service is protected either way
(median 9 to 13 ms here with both throttles off). Two core clients, each
alternating a GET of an
account and a POST /v1/transfers between two funded accounts, measure every
answer before, during and after the flood (only answers during the flood
count). Afterwards, a real login succeeds once the flood is over. A second
corebankd with the throttles out of the way and a password queue of 2 shows
the queue's own bound: the attempts past it are 429 with Retry-After: 1.
"""
import os
import statistics
import sys
import threading
import time
import unittest
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_faults as F  # noqa: E402 (the module's Tier, ports and HTTP helper; not its test class)

FLOOD_THREADS = 40
FLOOD_S = 5.0
FLOOD_IP_RATE = 10            # password_attempts_per_ip_per_s of the flooded tier (see above)
CORE_CLIENTS = 2
CORE_MEDIAN_LIMIT_S = 0.050   # generous: unloaded, a core request takes about 2.5 ms
CORE_ANSWER_LIMIT_S = 2.0     # no single core request may wait behind the flood this long
RECOVERY_LIMIT_S = 10.0       # a real login succeeds this soon after the flood stops
OPENING = 1_000_000
QUEUE_FLOOD_THREADS = 16
QUEUE_FLOOD_S = 2.0


class Flood:
    """Client threads posting POST /auth/login with random emails, one fresh connection each, until stop()."""

    def __init__(self, port, threads):
        self.port = port
        self.lock = threading.Lock()
        self.halt = threading.Event()
        self.statuses = {}
        self.refusals = []   # (Retry-After, parsed body) of the 429s
        self.bad = []        # no answer, or anything but 401 and 429
        self.threads = [threading.Thread(target=self.run, args=(i,), daemon=True) for i in range(threads)]
        for t in self.threads:
            t.start()

    def stop(self):
        self.halt.set()
        for t in self.threads:
            t.join(30)

    def run(self, index):
        n = 0
        while not self.halt.is_set():
            body = {"email": f"flood-{index}-{n}-{uuid.uuid4().hex[:10]}@flood.corebank.test",
                    "password": "not the password 123"}
            n += 1
            try:
                conn = F.http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                try:
                    conn.request("POST", "/auth/login", body=F.json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
                    resp = conn.getresponse()
                    raw = resp.read()
                    status, retry_after = resp.status, resp.getheader("Retry-After")
                finally:
                    conn.close()
            except (OSError, F.http.client.HTTPException) as exc:
                with self.lock:
                    self.bad.append(f"no answer: {exc!r}")
                continue
            with self.lock:
                self.statuses[status] = self.statuses.get(status, 0) + 1
                if status == 429:
                    try:
                        parsed = F.json.loads(raw.decode())
                    except ValueError:
                        parsed = None
                    self.refusals.append((retry_after, parsed))
                elif status != 401:
                    self.bad.append(f"{status} {raw[:200]!r}")

    def check_refused(self, test, message_start):
        """Every answer was 401 or a 429 RATE_LIMIT_EXCEEDED with Retry-After, and both kinds were seen."""
        test.assertEqual(self.bad, [], "the flood got answers other than 401 and 429: " + "; ".join(self.bad[:5]))
        test.assertGreater(self.statuses.get(401, 0), 0, "no login attempt was served at all")
        test.assertGreater(len(self.refusals), 0, "the flood was never refused (no 429)")
        for retry_after, parsed in self.refusals:
            test.assertIsNotNone(retry_after, "a 429 without Retry-After")
            test.assertTrue(retry_after.isdigit() and int(retry_after) >= 1, f"Retry-After {retry_after!r}")
            test.assertIsInstance(parsed, dict)
            test.assertEqual((parsed.get("error"), parsed.get("status")), ("RATE_LIMIT_EXCEEDED", 429), parsed)
            test.assertTrue(parsed.get("timestamp"), parsed)
            test.assertTrue(parsed.get("message", "").startswith(message_start), parsed)


class TunedTier(F.Tier):
    """A corebankd with some settings of its own (CORE_<NAME> in its environment)."""

    def __init__(self, ports, name, settings):
        super().__init__(ports, name)
        self.settings = settings

    def env(self):
        env = super().env()
        env.update(self.settings)
        return env


class LoginFloodTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for name, value in (("FAULT_PORTS", len(F.PORTS) == 8), ("FAULT_APP_URL", F.APP_URL),
                            ("CB_DATABASE_URL", F.SUPER_URL), ("CB_CLI", F.CLI), ("FAULT_CONF_FILE", F.CONF)):
            if not value:
                raise unittest.SkipTest(f"{name} is not set (tests/faults/run.sh sets it)")
        if F.PG_DATA and not os.path.exists(os.path.join(F.PG_DATA, "postmaster.pid")):
            F.pg_start()
        cls.tier = TunedTier(F.PORTS[0:4], "flood", {"CORE_PASSWORD_ATTEMPTS_PER_IP_PER_S": str(FLOOD_IP_RATE)})
        cls.tier.start()
        try:
            cls.set_up_accounts()
        except BaseException:
            cls.tier.stop()   # tearDownClass does not run when setUpClass fails
            raise

    @classmethod
    def set_up_accounts(cls):
        os.environ["CB_CORE_URL"] = f"http://127.0.0.1:{cls.tier.core}"
        os.environ["CB_ID_URL"] = f"http://127.0.0.1:{cls.tier.identity}"
        import corebanking as C  # noqa: E402 (reads the environment at import)
        cls.C = C
        cls.key = C.new_key(["write"], rate=1_000_000)["key"]
        admin = C.admin_key()
        cls.teller = C.new_staff("teller")
        api = C.Core(admin)
        cls.accounts = [C.funded_account(api, cls.teller, OPENING, last_name="Flood")["id"] for _ in range(2)]

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "tier", None):
            cls.tier.stop()

    def test_1_core_keeps_serving_while_logins_flood(self):
        """40 login clients: core answers stay fast and never 503; the flood gets 429s; a real login recovers."""
        stop_core = threading.Event()
        flooding = threading.Event()
        lock = threading.Lock()
        core_during = []      # (seconds, status, what) answered while the flood ran
        core_bad = []         # 5xx, no answer, or anything but 200

        headers = {"X-API-Key": self.key, "Authorization": f"Bearer {self.teller.token}"}

        def core_client(index):
            n = 0
            while not stop_core.is_set():
                if n % 2:
                    src, dst = self.accounts[n % 2], self.accounts[(n + 1) % 2]
                    ref = f"flood-{index}-{n}-{uuid.uuid4().hex[:8]}"
                    what = ("POST", "/v1/transfers", {"fromAccountId": src, "toAccountId": dst, "amountMinor": 1,
                                                      "reference": ref, "description": "flood test"},
                            dict(headers, **{"Idempotency-Key": ref}))
                else:
                    what = ("GET", f"/v1/accounts/{self.accounts[0]}", None, headers)
                during = flooding.is_set()
                started = time.monotonic()
                try:
                    status, _, raw = F.http_request(self.tier.core, what[0], what[1], what[2], what[3])
                except OSError as exc:
                    with lock:
                        core_bad.append(f"{what[0]} {what[1]}: no answer: {exc!r}")
                    n += 1
                    continue
                elapsed = time.monotonic() - started
                if during and flooding.is_set():
                    with lock:
                        core_during.append((elapsed, status, what[0]))
                if status != 200:
                    with lock:
                        core_bad.append(f"{what[0]} {what[1]}: {status} {raw[:200]!r}")
                n += 1
                time.sleep(0.005)

        core_threads = [threading.Thread(target=core_client, args=(i,), daemon=True) for i in range(CORE_CLIENTS)]
        for t in core_threads:
            t.start()
        time.sleep(0.5)
        flood = Flood(self.tier.identity, FLOOD_THREADS)
        time.sleep(1.0)     # the flood reaches its steady state
        flooding.set()
        time.sleep(FLOOD_S)
        flooding.clear()
        flood.stop()
        stop_core.set()
        for t in core_threads:
            t.join(30)

        latencies = sorted(e for e, _, _ in core_during)
        self.assertGreater(len(latencies), 10, "the core clients were hardly served during the flood")
        median = statistics.median(latencies)
        posts = sum(1 for _, _, what in core_during if what == "POST")
        print(f"\n  during the flood: {len(latencies)} core answers ({posts} transfers), median "
              f"{median * 1000:.1f} ms, max {latencies[-1] * 1000:.0f} ms; flood answers {flood.statuses}",
              file=sys.stderr)
        self.assertEqual(core_bad, [], "core requests failed during the flood: " + "; ".join(core_bad[:5]))
        self.assertLess(median, CORE_MEDIAN_LIMIT_S, "core banking was starved by the login flood")
        self.assertLess(latencies[-1], CORE_ANSWER_LIMIT_S, "a core request waited behind the login flood")
        flood.check_refused(self, "Too many password attempts from this address or in all")

        # The throttle forgets the flood: a real login gets through once the
        # Retry-After it is given has passed.
        deadline = time.monotonic() + RECOVERY_LIMIT_S
        while True:
            status, parsed, raw = F.http_request(self.tier.identity, "POST", "/auth/login",
                                                 {"email": self.teller.email, "password": self.teller.password})
            if status == 200:
                break
            self.assertEqual(status, 429, raw[:300])
            self.assertLess(time.monotonic(), deadline, "logins were still refused long after the flood")
            time.sleep(0.2)
        self.assertTrue(parsed["accessToken"])

    def test_2_a_full_password_queue_answers_429_not_503(self):
        """Throttles out of the way, a queue of 2: the attempts past it are 429 with Retry-After: 1."""
        tier = TunedTier(F.PORTS[4:8], "flood-queue", {
            "CORE_PASSWORD_HASH_QUEUE_MAX": "2", "CORE_PASSWORD_ATTEMPTS_PER_S": "100000",
            "CORE_PASSWORD_ATTEMPTS_PER_IP_PER_S": "100000"})
        tier.start()
        try:
            flood = Flood(tier.identity, QUEUE_FLOOD_THREADS)
            time.sleep(QUEUE_FLOOD_S)
            flood.stop()
        finally:
            tier.stop()
        print(f"\n  queue of 2: flood answers {flood.statuses}", file=sys.stderr)
        flood.check_refused(self, "Too many password attempts are waiting")
        self.assertEqual({r for r, _ in flood.refusals}, {"1"})


if __name__ == "__main__":
    unittest.main()
