"""The SMTP mail transport: a password-reset mail leaves through a real SMTP
conversation.

Goal: with mail_transport = smtp, the outbox sender delivers the reset mail to
the configured server, with the recipient, subject and a working reset link.
Method: start a local SMTP sink (Python's smtpd, on loopback) and a second
corebankd on free ports, configured for SMTP, against a database of its own
(so the main test server's mail sender cannot claim the message first); ask
for a reset there, wait for the message at the sink, then use its link.
The sink offers no STARTTLS: a server left at smtp_allow_plaintext = false
must send it nothing (issue 13); one set to true delivers.
"""
import asyncore
import json
import os
import re
import socket
import subprocess
import threading
import time
import unittest
import urllib.request
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import smtpd  # deprecated since 3.6, present in Debian 12's Python 3.11

import psycopg2
import psycopg2.extensions

import cbclient as cb

SERVER_START_S = 20
MAIL_WAIT_S = 15


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink(smtpd.SMTPServer):
    """Keeps every message it receives."""

    def __init__(self, port):
        super().__init__(("127.0.0.1", port), None, decode_data=True)
        self.messages = []

    def process_message(self, peer, mailfrom, rcpttos, data, **kwargs):
        self.messages.append({"from": mailfrom, "to": rcpttos, "data": data})


def setUpModule():
    cb.require_identity_service()
    cb.require(os.environ.get("CB_CLI"), "CB_CLI")
    cb.require(os.environ.get("CB_DATABASE_URL"), "CB_DATABASE_URL")


def with_dbname(url, name):
    """The libpq URL with its database replaced (keyword form or URI)."""
    if url.startswith("postgres"):
        base, _, query = url.partition("?")
        base = base.rsplit("/", 1)[0] + "/" + name
        return base + ("?" + query if query else "")
    parts = [p for p in url.split() if not p.startswith("dbname=")]
    return " ".join(parts + [f"dbname={name}"])


def admin_execute(url, *statements):
    conn = psycopg2.connect(url)
    conn.set_isolation_level(psycopg2.extensions.ISOLATION_LEVEL_AUTOCOMMIT)
    try:
        with conn.cursor() as cur:
            for statement, params in statements:
                cur.execute(statement, params)
    finally:
        conn.close()


class SmtpServerCase:
    """A corebankd configured for SMTP to a local plaintext sink (no STARTTLS), with its own database."""

    # The smtp_allow_plaintext value the server runs with; None leaves the default (false).
    allow_plaintext = None

    @classmethod
    def create_database(cls):
        cls.dbname = f"corebank_smtp_{os.getpid()}_{cls.__name__.lower()}"
        admin_url = os.environ["CB_DATABASE_URL"]
        admin_execute(admin_url, (f'DROP DATABASE IF EXISTS "{cls.dbname}"', None), (f'CREATE DATABASE "{cls.dbname}"', None))
        cls.database_url = with_dbname(admin_url, cls.dbname)
        policy = json.dumps(cb.stated_role_policy())
        admin_execute(cls.database_url, ("CREATE EXTENSION corebank", None),
                      ("SELECT corebank.policy_load(%s::jsonb)", (policy,)))

    @classmethod
    def drop_database(cls):
        admin_execute(os.environ["CB_DATABASE_URL"], (f'DROP DATABASE IF EXISTS "{cls.dbname}" WITH (FORCE)', None))

    @classmethod
    def setUpClass(cls):
        cls.create_database()
        cls.smtp_port = free_port()
        cls.sink = Sink(cls.smtp_port)
        cls.loop = threading.Thread(target=asyncore.loop, kwargs={"timeout": 0.2}, daemon=True)
        cls.loop.start()
        ports = [free_port() for _ in range(4)]
        cls.identity_url = f"http://127.0.0.1:{ports[1]}"
        env = dict(os.environ)
        env.update({
            "DATABASE_URL": cls.database_url,
            "CORE_CORE_PORT": str(ports[0]), "CORE_IDENTITY_PORT": str(ports[1]),
            "CORE_VERIFY_PORT": str(ports[2]), "CORE_EVENTS_PORT": str(ports[3]),
            "CORE_MAIL_TRANSPORT": "smtp",
            "CORE_SMTP_URL": f"smtp://127.0.0.1:{cls.smtp_port}",
            "CORE_MAIL_FROM": "reset@corebank.test",
            "CORE_TRUSTED_PROXIES": "127.0.0.1",
            "CORE_DB_POOL_SIZE": "2",
        })
        env["CORE_ISSUER"] = cls.identity_url
        env.pop("CORE_SMTP_ALLOW_PLAINTEXT", None)
        if cls.allow_plaintext is not None:
            env["CORE_SMTP_ALLOW_PLAINTEXT"] = cls.allow_plaintext
        config = os.path.join(os.environ.get("CB_ROOT", "."), "corebank.conf")
        cls.server = subprocess.Popen([os.environ["CB_CLI"], "serve", "--config", config], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + SERVER_START_S
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(cls.identity_url + "/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            cls.tearDownClass()
            raise AssertionError("the SMTP-configured corebankd did not become healthy")

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        try:
            cls.server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            cls.server.kill()
        cls.sink.close()
        cls.drop_database()

    def wait_for_message(self, recipient):
        deadline = time.time() + MAIL_WAIT_S
        while time.time() < deadline:
            for m in list(self.sink.messages):
                if recipient in m["to"]:
                    return m
            time.sleep(0.1)
        self.fail(f"no SMTP message reached {recipient} within {MAIL_WAIT_S} s")

    def request_reset(self):
        identity = cb.Identity(self.identity_url)
        address = cb.unique_email("smtp")
        password = cb.unique_password()
        self.assertEqual(identity.register({"email": address, "password": password}).status, 201)
        cb.assert_message(identity.forgot(address, ip=cb.unique_ip()), 200, cb.MSG_FORGOT)
        return identity, address


class PlaintextRefusedTest(SmtpServerCase, unittest.TestCase):
    """By default (smtp_allow_plaintext = false) a server without TLS gets no mail (issue 13)."""

    def test_no_mail_leaves_without_tls(self):
        """The sink offers no STARTTLS: nothing reaches it, and the outbox row stays unsent with the reason."""
        _, address = self.request_reset()
        deadline = time.time() + MAIL_WAIT_S
        row = None
        while time.time() < deadline:
            conn = psycopg2.connect(self.database_url)
            try:
                with conn.cursor() as cur:
                    cur.execute("SELECT status, attempts, last_error FROM corebank.auth_mail_outbox"
                                " WHERE recipient = %s", (address,))
                    row = cur.fetchone()
            finally:
                conn.close()
            if row is not None and (row[0] == "SENT" or row[2]):  # delivered, or a failure recorded
                break
            time.sleep(0.2)
        self.assertIsNotNone(row)
        status, attempts, last_error = row
        self.assertGreaterEqual(attempts, 1, row)
        self.assertNotEqual(status, "SENT", row)
        self.assertTrue(last_error, row)
        self.assertEqual([m for m in self.sink.messages if address in m["to"]], [])


class SmtpTransportTest(SmtpServerCase, unittest.TestCase):
    # The sink is plaintext: this server is configured to accept that.
    allow_plaintext = "true"

    def test_reset_mail_is_delivered_by_smtp(self):
        """A forgot request on the SMTP-configured server delivers a mail whose link resets the password."""
        identity = cb.Identity(self.identity_url)
        address = cb.unique_email("smtp")
        password = cb.unique_password()
        self.assertEqual(identity.register({"email": address, "password": password}).status, 201)
        resp = identity.forgot(address, ip=cb.unique_ip())
        cb.assert_message(resp, 200, cb.MSG_FORGOT)
        message = self.wait_for_message(address)
        self.assertEqual(message["from"], "reset@corebank.test")
        self.assertIn("Subject: Reset your", message["data"])
        links = re.findall(r"#token=([A-Za-z0-9_-]+)", message["data"])
        self.assertEqual(len(links), 1, message["data"])
        new_password = cb.unique_password()
        cb.assert_message(identity.reset(links[0], new_password), 200, cb.MSG_RESET)
        self.assertEqual(identity.login({"email": address, "password": new_password}).status, 200)
        # Delivered rows keep no sealed body.
        conn = psycopg2.connect(self.database_url)
        try:
            with conn.cursor() as cur:
                cur.execute("SELECT status, body_sealed IS NULL FROM corebank.auth_mail_outbox WHERE recipient = %s",
                            (address,))
                self.assertEqual(cur.fetchall(), [("SENT", True)])
        finally:
            conn.close()


if __name__ == "__main__":
    unittest.main()
