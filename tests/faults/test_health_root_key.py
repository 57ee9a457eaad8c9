"""GET /health says when the database cannot sign (issue 13, "a database
without the root key file cannot sign and says so clearly").

Before, the identity service's /health answered 200 {"status":"UP"} while
every login, refresh and client token answered 503 because the server could
not load its root key: only ./corebank status said so. Now it answers 200
{"status":"DEGRADED","database":"UP","signing":"DOWN","problems":[...]}: 200
because every corebankd shares the database and its root key, so a balancer
that took this node out would gain nothing and lose what still works (token
verification, the JWKS, the other services); DEGRADED for the monitoring that
tells an operator to fix corebank.root_key_file (docs/operations.md,
"Health").

Method: one corebankd on the fault database (the harness of test_faults.py).
The server's corebank.root_key_file is pointed at a file that does not exist
(ALTER SYSTEM and a reload, as ./corebank sets it), /health and a login are
read, and the setting is put back.
"""
import os
import sys
import time
import unittest
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import test_faults as F  # noqa: E402 (the module's Tier, ports and HTTP helper; not its test class)

SETTLE_S = 10          # a reload reaches the tier's idle backends at their next statement


def superuser_session(*statements):
    """Runs the statements one by one in one superuser session (ALTER SYSTEM refuses a multi-statement query,
    and the setting is known only once the library is loaded); the last one's first value."""
    conn = F.psycopg2.connect(F.SUPER_URL, connect_timeout=10)
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute("LOAD 'corebank'")
            for statement, params in statements:
                cur.execute(statement, params)
            return cur.fetchone()[0] if cur.description else None
    finally:
        conn.close()


def root_key_file():
    return superuser_session(("SELECT current_setting('corebank.root_key_file')", ()))


def set_root_key_file(path):
    superuser_session(("ALTER SYSTEM SET corebank.root_key_file = %s", (path,)), ("SELECT pg_reload_conf()", ()))


class HealthRootKeyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for name, value in (("FAULT_PORTS", len(F.PORTS) == 8), ("FAULT_APP_URL", F.APP_URL),
                            ("CB_DATABASE_URL", F.SUPER_URL), ("CB_CLI", F.CLI), ("FAULT_CONF_FILE", F.CONF)):
            if not value:
                raise unittest.SkipTest(f"{name} is not set (tests/faults/run.sh sets it)")
        cls.key_file = root_key_file()
        if not cls.key_file:
            raise unittest.SkipTest("the fault cluster has no root key (corebank.root_key_file)")
        cls.tier = F.Tier(F.PORTS[4:8], "health")
        cls.tier.start()
        os.environ["CB_ID_URL"] = f"http://127.0.0.1:{cls.tier.identity}"
        import openapi_check  # noqa: E402 (reads CB_ID_URL at import)
        cls.openapi_check = openapi_check
        import cbclient  # noqa: E402 (with openapi_check: reads the environment at import)
        cls.cbclient = cbclient

    @classmethod
    def tearDownClass(cls):
        cls.tier.stop()

    def health(self):
        status, body, _ = F.http_request(self.tier.identity, "GET", "/health")
        return status, body

    def health_until(self, wanted):
        deadline = time.monotonic() + SETTLE_S
        while True:
            status, body = self.health()
            if body and body.get("status") == wanted or time.monotonic() > deadline:
                return status, body
            time.sleep(0.1)

    def login(self, email, password):
        return F.http_request(self.tier.identity, "POST", "/auth/login", {"email": email, "password": password})

    def test_health_says_degraded_without_the_root_key(self):
        """No root key: /health 200 DEGRADED with signing DOWN and the problem, login 503; back to UP with the key."""
        email, password = f"health-{uuid.uuid4().hex[:10]}@faults.corebank.test", self.cbclient.unique_password()
        status, _, raw = F.http_request(self.tier.identity, "POST", "/auth/register",
                                        {"email": email, "password": password, "firstName": "Health",
                                         "lastName": "Check"})
        self.assertEqual(status, 201, raw)
        self.assertEqual(self.health(), (200, {"status": "UP", "database": "UP"}))

        self.addCleanup(set_root_key_file, self.key_file)
        set_root_key_file(os.path.join(F.TMP, "no-such-root.key"))
        status, body = self.health_until("DEGRADED")
        self.assertEqual(status, 200, body)
        self.assertEqual((body["status"], body["database"], body["signing"]), ("DEGRADED", "UP", "DOWN"), body)
        self.assertEqual(len(body["problems"]), 1, body)
        self.assertIn("root key", body["problems"][0])
        self.assertIn("corebank.root_key_file", body["problems"][0])
        self.assertNotIn("no-such-root.key", body["problems"][0], "the file's path is not for a public endpoint")
        # The body is the one the identity document describes.
        spec = self.openapi_check.document("identity")
        spec.validate("GET", "/health", 200, body)
        # What DEGRADED warns of: a login cannot be signed.
        status, body, raw = self.login(email, password)
        self.assertEqual((status, body["error"]), (503, "SERVICE_UNAVAILABLE"), raw)

        set_root_key_file(self.key_file)
        self.assertEqual(self.health_until("UP"), (200, {"status": "UP", "database": "UP"}))
        status, _, raw = self.login(email, password)
        self.assertEqual(status, 200, raw)


if __name__ == "__main__":
    unittest.main()
