"""The hosted capture page in a real browser: Debian's headless Chromium.

Goal: a user can finish a verification on the page the service hosts, with
nothing but the hostedUrl: consent, selfie (uploaded photo, or the camera
through getUserMedia), document image, submit, outcome, and the way back to
redirectUrl; the session is completed in the API and the signed webhook
arrives. Method: Chromium runs headless and is driven over the DevTools
protocol through --remote-debugging-pipe (file descriptors 3 and 4, JSON
messages ending in NUL), so the test needs only the standard library; file
inputs are filled with DOM.setFileInputFiles, and the camera is Chromium's
fake device (--use-fake-device-for-media-stream, permission granted by
--use-fake-ui-for-media-stream). The flags that keep Chromium off the
network (--disable-background-networking and friends) come from the
machine notes. Skips when /usr/bin/chromium is missing.
"""

import fcntl
import http.server
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.parse

import cbclient as cb
import verify_support as vs

CHROMIUM = "/usr/bin/chromium"
STEP_TIMEOUT_S = 30


class Cdp:
    """A minimal Chrome DevTools Protocol client over --remote-debugging-pipe."""

    def __init__(self, extra_flags=()):
        self.profile = tempfile.mkdtemp(prefix="cb-chromium-")
        to_child_read, self._to_child = os.pipe()
        self._from_child, from_child_write = os.pipe()
        # Move the child's ends above 2..4 first, so the dup2 to 3 and 4 below
        # cannot overwrite one with the other.
        child_read = fcntl.fcntl(to_child_read, fcntl.F_DUPFD_CLOEXEC, 10)
        child_write = fcntl.fcntl(from_child_write, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child_read)
        os.close(from_child_write)

        def wire_pipes():
            os.dup2(child_read, 3)
            os.dup2(child_write, 4)

        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--disable-extensions", "--mute-audio",
                 f"--user-data-dir={self.profile}", "--remote-debugging-pipe", *extra_flags, "about:blank"]
        self.proc = subprocess.Popen([CHROMIUM, *flags], preexec_fn=wire_pipes, close_fds=False,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(child_read)
        os.close(child_write)
        self._next_id = 0
        self._lock = threading.Lock()
        self._responses = {}
        self._response_ready = threading.Condition()
        self.events = queue.Queue()
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self.session = None

    def _read_loop(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_child, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._response_ready:
                    self._responses[None] = "closed"
                    self._response_ready.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._response_ready:
                        self._responses[message["id"]] = message
                        self._response_ready.notify_all()
                else:
                    self.events.put(message)

    def send(self, method, params=None, session=True, timeout=STEP_TIMEOUT_S):
        with self._lock:
            self._next_id += 1
            message_id = self._next_id
        message = {"id": message_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        with self._response_ready:
            while message_id not in self._responses:
                if None in self._responses:
                    raise AssertionError(f"Chromium closed the pipe during {method}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no answer to {method} within {timeout} s")
                self._response_ready.wait(remaining)
            response = self._responses.pop(message_id)
        if "error" in response:
            raise AssertionError(f"{method} failed: {response['error']}")
        return response.get("result", {})

    def open_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True},
                             session=False)
        self.session = attached["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise AssertionError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout=STEP_TIMEOUT_S, what=None):
        """Polls a JavaScript expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = self.evaluate(expression)
            except AssertionError:
                last = None  # the page is between documents
            if last:
                return last
            time.sleep(0.1)
        snapshot = self.evaluate("document.body ? document.body.dataset.status + ' | ' +"
                                 " document.body.innerText.slice(0, 400) : location.href")
        raise AssertionError(f"timed out waiting for {what or expression}; page: {snapshot!r}")

    def visible(self, element_id):
        return self.wait_for(f"(function () {{ var e = document.getElementById({json.dumps(element_id)});"
                             f" return !!e && !e.closest('[hidden]'); }})()", what=f"#{element_id} visible")

    def click(self, element_id):
        self.visible(element_id)
        self.evaluate(f"document.getElementById({json.dumps(element_id)}).click(), true")

    def set_file(self, element_id, path):
        self.visible(element_id)
        document = self.send("DOM.getDocument", {"depth": 0})
        node = self.send("DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": f"#{element_id}"})
        self.send("DOM.setFileInputFiles", {"nodeId": node["nodeId"], "files": [path]})

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=10)
        except AssertionError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


class ReturnPage:
    """A loopback page for redirectUrl: answers every GET with a small HTML page."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = b"<!doctype html><title>back</title><p id='back'>Back at the caller</p>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/verified?from=e2e"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def setUpModule():
    vs.require_verify_service()
    if not os.access(CHROMIUM, os.X_OK):
        raise unittest.SkipTest(f"{CHROMIUM} is not installed (Debian package chromium)")


class HostedPageTest(unittest.TestCase):
    """The whole flow through the page, as a user with a browser does it."""

    @classmethod
    def setUpClass(cls):
        cls.receiver = vs.WebhookReceiver()
        cls.endpoint_id, cls.secret = vs.add_webhook(cls.receiver.url)
        cls.return_page = ReturnPage()
        cls.files = tempfile.mkdtemp(prefix="cb-images-")

    @classmethod
    def tearDownClass(cls):
        vs.disable_webhook(cls.endpoint_id)
        cls.receiver.close()
        cls.return_page.close()
        shutil.rmtree(cls.files, ignore_errors=True)

    def setUp(self):
        self.api = vs.VerifyApi()
        self.browser = Cdp(extra_flags=("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"))
        self.addCleanup(self.browser.close)
        self.browser.open_page()

    def image_file(self, name, data):
        path = os.path.join(self.files, name)
        with open(path, "wb") as handle:
            handle.write(data)
        return path

    def test_upload_flow_completes_and_returns(self):
        """Consent, uploaded selfie and document, submit: completed, approved, signed webhook, back to redirectUrl."""
        session = vs.create_session(self.api, redirectUrl=self.return_page.url, reference="browser-" + cb.RUN_TAG)
        page = self.browser
        page.navigate(session["hostedUrl"])
        page.wait_for("document.body && document.body.dataset.status === 'pending'", what="the page loaded")
        self.assertEqual(page.evaluate("location.hash"), "", "the page must drop the token from the address bar")
        self.assertIn("biometric", page.evaluate("document.getElementById('consent-text').textContent"))

        page.click("consent-accept")
        page.set_file("selfie-file", self.image_file("selfie.png", vs.face_png(41)))
        page.visible("step-document")
        page.set_file("document-file", self.image_file("document.png", vs.document_png(41)))
        page.click("submit")
        page.wait_for("document.body.dataset.status === 'completed'", what="the outcome")
        self.assertEqual(page.evaluate("document.body.dataset.decision"), "approved")
        self.assertEqual(page.evaluate("document.getElementById('outcome-title').textContent"), "You are verified")

        current = self.api.get(session["sessionId"]).json
        self.assertEqual((current["status"], current["decision"]), ("completed", "approved"))
        self.assertEqual([c["type"] for c in current["checks"]], ["liveness", "facematch", "document"])
        self.assertEqual(current["consent"]["channel"], "hosted_page")

        delivered = self.receiver.wait_for(session["sessionId"], accepted_only=True)[0]
        self.assertTrue(vs.signature_valid(self.secret, delivered["headers"]["Verify-Signature"], delivered["body"]))
        self.assertEqual(json.loads(delivered["body"])["type"], "session.completed")

        page.click("continue")
        page.wait_for(f"location.href === {json.dumps(self.return_page.url)}", what="the return to redirectUrl")
        page.wait_for("document.getElementById('back') !== null", what="the caller's page")

    def test_camera_flow_completes(self):
        """A liveness flow with the (fake) camera: getUserMedia, take photo, submit, completed."""
        session = vs.create_session(self.api, flow="liveness")
        page = self.browser
        page.navigate(session["hostedUrl"])
        page.click("consent-accept")
        page.click("selfie-camera-start")
        page.wait_for("(function () { var v = document.getElementById('camera-video');"
                      " return v.videoWidth > 0 && v.readyState >= 2; })()", what="the camera stream")
        page.click("selfie-capture")
        page.click("submit")
        page.wait_for("document.body.dataset.status === 'completed'", what="the outcome")
        decision = page.evaluate("document.body.dataset.decision")
        self.assertIn(decision, ("approved", "review", "declined"))
        current = self.api.get(session["sessionId"]).json
        self.assertEqual(current["status"], "completed")
        self.assertEqual(current["decision"], decision)
        report = self.api.report(session["sessionId"]).json
        selfie = [c for c in report["captures"] if c["kind"] == "selfie"][0]
        self.assertEqual(selfie["format"], "jpeg", "the camera frame is uploaded as JPEG")
        self.assertFalse(selfie["imageRetained"], "images are dropped once the session is completed")
        self.assertEqual(report["checks"][0]["provider"], "offline")

    def test_declining_consent_cancels(self):
        """'I do not agree' ends the flow: the page shows it, the session is cancelled by the user."""
        session = vs.create_session(self.api, flow="liveness+facematch")
        page = self.browser
        page.navigate(session["hostedUrl"])
        page.click("consent-decline")
        page.wait_for("document.body.dataset.status === 'cancelled'", what="the cancelled outcome")
        current = self.api.get(session["sessionId"]).json
        self.assertEqual((current["status"], current["cancelledBy"], current["cancellationReason"]),
                         ("cancelled", "user", "consent_declined"))
        self.assertEqual(json.loads(self.receiver.wait_for(session["sessionId"])[0]["body"])["type"],
                         "session.cancelled")

    def test_bad_image_is_explained_and_retried(self):
        """An undecodable upload shows the service's message; a good photo afterwards goes on."""
        session = vs.create_session(self.api, flow="liveness")
        page = self.browser
        page.navigate(session["hostedUrl"])
        page.click("consent-accept")
        page.set_file("selfie-file", self.image_file("broken.png", b"\x89PNG\r\n\x1a\nnot really"))
        message = page.wait_for("document.getElementById('selfie-message').textContent.indexOf('image:') === 0"
                                " && document.getElementById('selfie-message').textContent",
                                what="the refusal message")
        self.assertIn("not a readable PNG image", message)
        page.set_file("selfie-file", self.image_file("good.png", vs.face_png(43)))
        page.visible("step-review")
        report = self.api.report(session["sessionId"]).json
        self.assertEqual([c["attempts"] for c in report["captures"]], [1], "the refused upload was not stored")

    def test_link_without_token_is_refused(self):
        """The page without its token (or with a wrong one) shows the error step and reveals nothing."""
        session = vs.create_session(self.api, flow="liveness")
        page = self.browser
        base = session["hostedUrl"].split("#", 1)[0]
        page.navigate(base)
        page.wait_for("document.body.dataset.status === 'error'", what="the error step")
        self.assertIn("incomplete", page.evaluate("document.getElementById('error-text').textContent"))
        page.navigate("about:blank")
        page.wait_for("location.href === 'about:blank'", what="a blank page")
        page.navigate(base + "#token=vct_wrong")
        page.wait_for("document.body.dataset.status === 'error' &&"
                      " document.getElementById('error-text').textContent.indexOf('expired') > 0",
                      what="the refused token")


if __name__ == "__main__":
    unittest.main()
