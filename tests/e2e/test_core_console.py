"""The approvals console (issue 15): its headers and API over HTTP, and the
page in a real browser.

Goal: a supervisor logs into /console/, sees a teller's parked change with
its diff (before, proposed, current; a journal's entries), approves it and
sees it applied; rejects another only with a reason; a teller sees no
approve on their own change, and a forced approval through the console's API
is 403 from the database; no request the page makes carries an API key. The
page and its assets carry the strict CSP, nosniff and no-store; the console's
API answers 401 without a staff token, 4xx on bad input, and 404 on a server
with no console_key_file.
Method: the suite's server has no console key, so this module starts its own
corebankd on the same database with console_key_file naming a write key made
by `corebankd key-create`. Chromium is driven over DevTools as in
test_verify_hosted_page.py (its Cdp client), with the Network domain on so
every request's headers are seen. The browser tests skip only when
/usr/bin/chromium is missing.
"""
import json
import os
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.request

import cbclient as cb
import corebanking as C
from test_verify_hosted_page import CHROMIUM, Cdp

SERVER_START_S = 30
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ConsoleServer:
    """A corebankd on the suite's database whose console has a key."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="cb-console-")
        self.key_file = os.path.join(self.dir, "console.key")
        with open(os.open(self.key_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as handle:
            handle.write(C.cli_key("write", f"e2e-console-{cb.RUN_TAG}") + "\n")
        ports = [free_port() for _ in range(4)]
        self.core_url = f"http://127.0.0.1:{ports[0]}"
        self.identity_url = f"http://127.0.0.1:{ports[1]}"
        env = dict(os.environ)
        env.update({
            "CORE_LISTEN": "127.0.0.1",
            "CORE_CORE_PORT": str(ports[0]), "CORE_IDENTITY_PORT": str(ports[1]),
            "CORE_VERIFY_PORT": str(ports[2]), "CORE_EVENTS_PORT": str(ports[3]),
            "CORE_ISSUER": self.identity_url, "CORE_TRUSTED_PROXIES": "127.0.0.1",
            "CORE_CONSOLE_KEY_FILE": self.key_file, "CORE_EOD_RUNNER_INTERVAL_S": "0", "CORE_DB_POOL_SIZE": "4",
        })
        config = os.path.join(os.environ.get("CB_ROOT", "."), "corebank.conf")
        self.log = open(os.path.join(self.dir, "corebankd.log"), "wb")
        self.proc = subprocess.Popen([os.environ["CB_CLI"], "serve", "--config", config], env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + SERVER_START_S
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.core_url + "/actuator/health", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.close()
        raise AssertionError("the console's corebankd did not become healthy")

    def login(self, staff):
        """A token of this server's identity service, through the console's login."""
        resp = cb.HttpClient(self.core_url).post("/console/api/login",
                                                 json_body={"email": staff.email, "password": staff.password})
        if resp.status != 200:
            raise AssertionError(f"console login failed: {resp!r}")
        return resp.json["accessToken"]

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def setUpModule():
    global server
    C.require_core()
    server = ConsoleServer()


def tearDownModule():
    server.close()


def park_journal(teller, amount):
    """A teller's manual journal, parked for release; returns the transaction."""
    return C.capture(C.Core(C.admin_key()), teller.token, C.journal(amount=amount))


class ConsoleHttpTest(unittest.TestCase):
    """The console without a browser: headers, refusals."""

    @classmethod
    def setUpClass(cls):
        cls.http = cb.HttpClient(server.core_url)
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")

    def test_page_and_assets_carry_the_strict_headers(self):
        """/console/, app.js and app.css: the CSP, nosniff, no-store; no inline script or style in the page."""
        for path, kind in (("/console/", "text/html"), ("/console/app.js", "text/javascript"),
                           ("/console/app.css", "text/css")):
            with self.subTest(path=path):
                resp = self.http.get(path)
                self.assertEqual(resp.status, 200)
                self.assertTrue(resp.header("Content-Type").startswith(kind), resp.header("Content-Type"))
                self.assertEqual(resp.header("Content-Security-Policy"), CSP)
                self.assertEqual(resp.header("X-Content-Type-Options"), "nosniff")
                self.assertEqual(resp.header("Cache-Control"), "no-store")
        page = self.http.get("/console/").body.decode()
        self.assertNotIn("<script>", page)
        self.assertNotIn("<style", page)
        self.assertNotIn("http", page.replace('http-equiv', ''), "no third-party asset")

    def test_api_needs_a_staff_token(self):
        """Without a token, or with a bad one, every console API call is 401 (no key is attached for it)."""
        change_id = park_journal(self.teller, 101)["parkedChangeId"]
        for method, path, body in (("GET", "/console/api/approvals", None),
                                   ("GET", f"/console/api/approvals/{change_id}", None),
                                   ("POST", f"/console/api/approvals/{change_id}/approve", {}),
                                   ("POST", f"/console/api/approvals/{change_id}/reject", {"reason": "x"})):
            for headers in ({}, {"Authorization": "Bearer not-a-token"}):
                with self.subTest(method=method, path=path, headers=headers):
                    resp = self.http.request(method, path, json_body=body, headers=headers) if body is not None \
                        else self.http.request(method, path, headers=headers)
                    self.assertEqual(resp.status, 401, resp)
                    self.assertEqual(resp.json["error"], "UNAUTHORIZED")
        self.assertEqual(C.ok(C.Core(C.admin_key()).get(f"/v1/approvals/{change_id}"))["status"], "PENDING")

    def test_a_browser_key_is_not_what_authorises(self):
        """A key sent by the caller is replaced by the console's: a made-up key with a live token still lists."""
        token = server.login(self.supervisor)
        resp = self.http.get("/console/api/approvals?status=PENDING",
                             headers={"Authorization": f"Bearer {token}", "X-API-Key": "made-up"})
        self.assertEqual(resp.status, 200, resp)

    def test_bad_input_is_4xx(self):
        """A malformed id, an unknown status, an empty reason, a malformed login: 4xx with the error body."""
        token = server.login(self.supervisor)
        auth = {"Authorization": f"Bearer {token}"}
        change_id = park_journal(self.teller, 102)["parkedChangeId"]
        cases = (("GET", "/console/api/approvals/not-a-uuid", None, 400),
                 ("GET", "/console/api/approvals?status=MAYBE", None, 400),
                 ("GET", "/console/api/approvals/00000000-0000-4000-8000-000000000000", None, 404),
                 ("POST", f"/console/api/approvals/{change_id}/reject", {"reason": " "}, 400),
                 ("POST", f"/console/api/approvals/{change_id}/reject", {}, 400))
        for method, path, body, status in cases:
            with self.subTest(path=path, body=body):
                resp = self.http.request(method, path, json_body=body, headers=auth) if body is not None \
                    else self.http.request(method, path, headers=auth)
                self.assertEqual(resp.status, status, resp)
                self.assertIn("error", resp.json)
        resp = self.http.post("/console/api/login", json_body={"email": self.supervisor.email})
        self.assertEqual(resp.status, 400, resp)
        resp = self.http.post("/console/api/login", json_body={"email": self.supervisor.email, "password": "wrong-1"})
        self.assertEqual(resp.status, 401, resp)
        self.assertEqual(C.ok(C.Core(C.admin_key()).get(f"/v1/approvals/{change_id}"))["status"], "PENDING")

    def test_a_server_without_console_key_answers_404(self):
        """The suite's own server names no console_key_file: its console API is 404 (off), the page still loads."""
        suite = cb.HttpClient(C.CORE_URL)
        self.assertEqual(suite.get("/console/").status, 200)
        resp = suite.get("/console/api/approvals", headers={"Authorization": f"Bearer {self.supervisor.token}"})
        self.assertEqual(resp.status, 404, resp)
        self.assertIn("not enabled", resp.json["message"])


@unittest.skipUnless(os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} is not installed (Debian package chromium)")
class ConsoleBrowserTest(unittest.TestCase):
    """The console in headless Chromium, as a supervisor and a teller use it."""

    @classmethod
    def setUpClass(cls):
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")

    def setUp(self):
        self.browser = Cdp()
        self.addCleanup(self.browser.close)
        self.browser.open_page()
        self.browser.send("Network.enable")

    def log_in(self, staff):
        page = self.browser
        page.navigate(server.core_url + "/console/")
        page.visible("login-submit")
        # app.js is deferred: the button shows before its click handler is bound, and a click then does
        # nothing (a clean-clone run timed out on the login form). The load event follows deferred scripts.
        page.wait_for("document.readyState === 'complete'", what="the console's script")
        page.evaluate(f"document.getElementById('login-email').value = {json.dumps(staff.email)};"
                      f"document.getElementById('login-password').value = {json.dumps(staff.password)}; true")
        page.click("login-submit")
        page.visible("queue-section")

    def open_change(self, change_id):
        page = self.browser
        row = f"document.querySelector('#queue tr[data-id={json.dumps(change_id)}]')"
        page.wait_for(f"!!{row}", what="the change in the queue")
        page.evaluate(f"{row}.click(), true")
        page.wait_for(f"document.getElementById('detail').dataset.id === {json.dumps(change_id)}"
                      " && !document.getElementById('detail').hidden", what="the change's diff")

    def text(self, element_id):
        return self.browser.evaluate(f"document.getElementById({json.dumps(element_id)}).textContent")

    def requests_seen(self):
        """Every request the page made so far: (url, headers) from the Network domain's events."""
        seen = []
        while not self.browser.events.empty():
            event = self.browser.events.get_nowait()
            if event.get("method") == "Network.requestWillBeSent":
                request = event["params"]["request"]
                seen.append((request["url"], request.get("headers", {})))
            elif event.get("method") == "Network.requestWillBeSentExtraInfo":
                seen.append(("(extra info)", event["params"].get("headers", {})))
        return seen

    def assert_no_key_sent(self):
        seen = self.requests_seen()
        self.assertTrue(any("/console/api/" in url for url, _ in seen), seen)
        for url, headers in seen:
            self.assertNotIn("x-api-key", {name.lower() for name in headers}, f"{url} carried an API key")
            if url != "(extra info)":
                self.assertTrue(url.startswith(server.core_url), f"a request left the console's origin: {url}")

    def test_supervisor_approves_from_the_diff(self):
        """The teller's journal in the queue, its diff and entries, approved: APPROVED and released."""
        tx = park_journal(self.teller, 4321)
        change_id = tx["parkedChangeId"]
        self.log_in(self.supervisor)
        self.open_change(change_id)
        page = self.browser
        self.assertEqual(self.text("detail-status"), "PENDING")
        self.assertEqual(self.text("detail-maker"), self.teller.id)
        diff = page.evaluate("Array.from(document.querySelectorAll('#diff tr')).map(function (r) {"
                             " return Array.from(r.cells).map(function (c) { return c.textContent; }); })")
        fields = {row[0]: row[1:] for row in diff}
        self.assertEqual(fields["released"], ["false", "", "false"], diff)
        self.assertEqual(fields["reference"][0], tx["reference"])
        entries = page.evaluate("Array.from(document.querySelectorAll('#entries tr')).map(function (r) {"
                                " return r.cells[3].textContent; })")
        self.assertEqual(entries, ["4321", "4321"])
        self.assertTrue(page.evaluate("!document.getElementById('approve-box').closest('[hidden]')"),
                        "approve is shown to a checker")
        page.evaluate("document.getElementById('approve-comment').value = 'checked in the console'; true")
        page.click("approve")
        page.wait_for("document.getElementById('detail-status').textContent === 'APPROVED'", what="APPROVED")
        self.assertEqual(self.text("detail-checker"), self.supervisor.id)
        self.assertIn('"released": true', self.text("detail-result"))
        change = C.ok(C.Core(C.admin_key()).get(f"/v1/approvals/{change_id}"))
        self.assertEqual((change["status"], change["checkerId"], change["comment"]),
                         ("APPROVED", self.supervisor.id, "checked in the console"))
        self.assertTrue(C.get_tx(C.Core(C.admin_key()), tx["id"])["released"], "the approval was applied")
        self.assert_no_key_sent()

    def test_reject_needs_a_reason(self):
        """Reject with an empty reason does nothing; with one, REJECTED, and the history shows maker and checker."""
        change_id = park_journal(self.teller, 555)["parkedChangeId"]
        self.log_in(self.supervisor)
        self.open_change(change_id)
        page = self.browser
        page.click("reject")
        page.wait_for("document.getElementById('message').textContent === 'A rejection needs a reason.'",
                      what="the refusal of an empty reason")
        self.assertEqual(C.ok(C.Core(C.admin_key()).get(f"/v1/approvals/{change_id}"))["status"], "PENDING")
        page.evaluate("document.getElementById('reject-reason').value = 'wrong account'; true")
        page.click("reject")
        page.wait_for("document.getElementById('detail-status').textContent === 'REJECTED'", what="REJECTED")
        change = C.ok(C.Core(C.admin_key()).get(f"/v1/approvals/{change_id}"))
        self.assertEqual((change["status"], change["reason"]), ("REJECTED", "wrong account"))
        page.evaluate("var s = document.getElementById('status-filter'); s.value = 'REJECTED';"
                      " s.dispatchEvent(new Event('change')); true")
        row = f"document.querySelector('#queue tr[data-id={json.dumps(change_id)}]')"
        cells = page.wait_for(f"{row} && Array.from({row}.cells).map(function (c) {{ return c.textContent; }})",
                              what="the rejected change in the history")
        self.assertEqual((cells[3], cells[4], cells[6]), (self.teller.id, self.supervisor.id, "REJECTED"))
        self.assert_no_key_sent()

    def test_teller_cannot_approve_their_own(self):
        """The teller's own change shows no approve; a forced approval through the console's API is 403."""
        change_id = park_journal(self.teller, 777)["parkedChangeId"]
        self.log_in(self.teller)
        self.open_change(change_id)
        self.assertTrue(self.browser.evaluate("!!document.getElementById('approve-box').closest('[hidden]')"),
                        "approve is hidden on one's own change")
        self.browser.visible("own-change")
        resp = cb.HttpClient(server.core_url).post(f"/console/api/approvals/{change_id}/approve", json_body={},
                                                   headers={"Authorization": f"Bearer {server.login(self.teller)}"})
        self.assertEqual(resp.status, 403, resp)
        self.assertEqual(C.ok(C.Core(C.admin_key()).get(f"/v1/approvals/{change_id}"))["status"], "PENDING")
        self.assert_no_key_sent()


if __name__ == "__main__":
    unittest.main()
