"""What DBAs do in SQL reaches the server log through pgaudit (issue 13,
"Auditing DBAs"; docs/security.md, "Auditing what DBAs do in SQL").

Goal: a superuser's SELECT on corebank.customers, and a report user's read
through corebank_reporting, each leave an "AUDIT:" line naming the relation
and the login user; the tier's role corebank_app leaves none and cannot
switch auditing on or off. Before the change the cluster did not load
pgaudit, and no AUDIT line was ever written.

Method: the throwaway cluster of `./corebank test` starts with the settings
`./corebank up` uses (PG_AUDIT_SETTINGS, via FAULT_PG_SETTINGS); each
statement carries a unique marker, and the server log (FAULT_PG_LOG) is read
from where it stood before the statement until the line appears or
LOG_WAIT_S passes. Lives with the fault tests because they alone get the
cluster's log file.
"""
import os
import sys
import time
import unittest
import uuid

import psycopg2

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_faults as F  # noqa: E402 (the cluster's environment)

LOG_WAIT_S = 10


def log_size():
    return os.path.getsize(F.PG_LOG)


def log_since(offset):
    """The server log from byte OFFSET on (the harness runs as root; postgres otherwise)."""
    try:
        with open(F.PG_LOG, "rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")
    except PermissionError:
        done = F.as_postgres("tail", "-c", f"+{offset + 1}", F.PG_LOG)
        return done.stdout


def wait_for_line(offset, *needles):
    """The first log line after OFFSET holding every needle, or None after LOG_WAIT_S."""
    deadline = time.monotonic() + LOG_WAIT_S
    while True:
        for line in log_since(offset).splitlines():
            if all(n in line for n in needles):
                return line
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


def run(user, *statements):
    conn = psycopg2.connect(F.SUPER_URL, user=user, connect_timeout=10)
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            for statement in statements:
                cur.execute(statement)
            return cur.fetchall() if cur.description else []
    finally:
        conn.close()


@unittest.skipUnless(F.SUPER_URL and F.PG_LOG, "needs the fault cluster (tests/faults/run.sh)")
class PgauditTest(unittest.TestCase):
    def test_a_superuser_select_on_customers_is_audited(self):
        marker = f"audit-{uuid.uuid4()}"
        offset = log_size()
        run("postgres", f"SELECT count(*) FROM corebank.customers WHERE id::text = '{marker}'")
        line = wait_for_line(offset, marker, "AUDIT: SESSION,")
        self.assertIsNotNone(line, "no AUDIT line for the superuser's SELECT on corebank.customers")
        self.assertIn(",READ,SELECT,TABLE,corebank.customers,", line)
        self.assertIn("postgres@", line, "the log line must name the login user")

    def test_a_superuser_update_of_customers_is_audited(self):
        marker = f"audit-{uuid.uuid4()}"
        offset = log_size()
        run("postgres", f"UPDATE corebank.customers SET updated_at = updated_at WHERE id::text = '{marker}'")
        line = wait_for_line(offset, marker, "AUDIT: SESSION,")
        self.assertIsNotNone(line, "no AUDIT line for the superuser's UPDATE of corebank.customers")
        self.assertIn(",WRITE,UPDATE,TABLE,corebank.customers,", line)

    def test_a_report_user_is_audited_under_their_own_name(self):
        person = "audit_probe_" + uuid.uuid4().hex[:12]
        run("postgres", f"CREATE ROLE {person} LOGIN IN ROLE corebank_reporting")
        try:
            marker = f"audit-{uuid.uuid4()}"
            offset = log_size()
            run(person, "SET ROLE corebank_reporting",
                f"SELECT count(*) FROM corebank.gl_balances WHERE code = '{marker}'")
            line = wait_for_line(offset, marker, "AUDIT: SESSION,", "corebank.gl_balances")
            self.assertIsNotNone(line, "no AUDIT line for the report user's SELECT")
            self.assertIn(f"{person}@", line)
            self.assertIsNotNone(wait_for_line(offset, "SET ROLE", "AUDIT: SESSION,", f"{person}@"),
                                 "the SET ROLE itself is audited (misc_set)")
        finally:
            run("postgres", f"DROP ROLE {person}")

    def test_the_tier_role_is_not_audited_and_cannot_change_it(self):
        self.assertEqual(run("corebank_app", "SHOW pgaudit.log"), [("none",)])
        marker = f"audit-{uuid.uuid4()}"
        offset = log_size()
        run("corebank_app", f"SELECT '{marker}-app'")
        # A later superuser statement's line shows that the log has caught up.
        run("postgres", f"SELECT count(*) FROM corebank.customers WHERE id::text = '{marker}'")
        self.assertIsNotNone(wait_for_line(offset, marker, "AUDIT: SESSION,"))
        self.assertNotIn(f"{marker}-app", log_since(offset))
        with self.assertRaises(psycopg2.errors.InsufficientPrivilege):
            run("corebank_app", "SET pgaudit.log = 'all'")


if __name__ == "__main__":
    unittest.main()
