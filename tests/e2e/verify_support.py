"""verify_support: shared helpers for the verification-service end-to-end tests.

Everything here uses the standard library only (and cbclient's helpers): an
API client for the caller's endpoints and for the hosted page's, generated
PNG images, a loopback webhook receiver that records what it gets and can
answer with chosen statuses, the reference signature verifier in Python (the
same algorithm as docs/verification.md), and the CLI calls that create keys
and webhook endpoints.

Environment (set by `./corebank test`): CB_VERIFY_URL, CB_DATABASE_URL,
CB_CLI, CB_ROOT, CB_DATA_KEY_FILE. A module skips when CB_VERIFY_URL is unset.
"""

import hashlib
import hmac
import http.server
import json
import math
import os
import random
import re
import struct
import threading
import time
import unittest
import urllib.parse
import uuid
import zlib

import cbclient as cb

VERIFY_URL = cb.VERIFY_URL
DATA_KEY_FILE = os.environ.get("CB_DATA_KEY_FILE") or None

SESSION_FIELDS = {
    "sessionId", "status", "flow", "clientToken", "hostedUrl", "reference", "redirectUrl", "metadata",
    "createdAt", "updatedAt", "expiresAt", "completedAt", "cancelledAt", "expiredAt", "cancelledBy",
    "cancellationReason", "consent", "decision", "decisionReasons", "checks",
}
TERMINAL = {"completed", "cancelled", "expired"}
WEBHOOK_TOLERANCE_S = 300
SESSION_LIFETIME_S = 3600       # corebank.conf verify_session_lifetime_s
CLIENT_TOKEN_TTL_S = 900        # corebank.conf verify_client_token_ttl_s
MAINTENANCE_INTERVAL_S = 10     # the sender's maintenance pass
WEBHOOK_WAIT_S = 40


def require_verify_service():
    if not VERIFY_URL:
        raise unittest.SkipTest("CB_VERIFY_URL is not set: these tests need a running verification service")


# ---------------------------------------------------------------- keys and endpoints

_keys = {}
_keys_lock = threading.Lock()


def api_key(scopes=("sessions:read", "sessions:write")):
    """A verify API key with these scopes, made once per scope set with the CLI."""
    wanted = ",".join(sorted(scopes))
    with _keys_lock:
        if wanted not in _keys:
            out = cb.cli("key-create", "--service", "verify", "--scopes", wanted,
                         "--name", f"e2e-{cb.RUN_TAG}-{len(_keys)}").strip()
            if not out or "\n" in out:
                raise AssertionError(f"key-create printed more than a key: {out!r}")
            _keys[wanted] = out
        return _keys[wanted]


def add_webhook(url):
    """Registers a webhook endpoint with the CLI; returns (endpoint_id, secret)."""
    secret = cb.cli("webhook-add", "--url", url).strip()
    if not re.fullmatch(r"whsec_[A-Za-z0-9_-]{43}", secret):
        raise AssertionError(f"webhook-add printed {secret!r}, not one signing secret")
    row = cb.db().one("SELECT id::text AS id FROM corebank.verify_webhook_endpoints WHERE url = %s"
                      " ORDER BY created_at DESC LIMIT 1", (url,))
    return row["id"], secret


def disable_webhook(endpoint_id):
    cb.cli("webhook-disable", "--id", endpoint_id)


# ---------------------------------------------------------------- API clients

def new_key():
    return "e2e-" + uuid.uuid4().hex


class VerifyApi:
    """The caller's API with one API key."""

    def __init__(self, key=None, base_url=None):
        self.key = key if key is not None else api_key()
        self.http = cb.HttpClient(base_url or VERIFY_URL)

    def _auth(self, headers, idempotency_key):
        out = dict(headers or {})
        if self.key:
            out["Authorization"] = f"Bearer {self.key}"
        if idempotency_key is not None:
            out["Idempotency-Key"] = idempotency_key
        return out

    def create(self, body, idempotency_key=None, headers=None, raw=None):
        key = new_key() if idempotency_key is None else idempotency_key
        if raw is not None:
            return self.http.post("/v1/sessions", body=raw, headers=self._auth(headers, key or None))
        return self.http.post("/v1/sessions", json_body=body, headers=self._auth(headers, key or None))

    def get(self, session_id):
        return self.http.get(f"/v1/sessions/{session_id}", headers=self._auth(None, None))

    def report(self, session_id):
        return self.http.get(f"/v1/sessions/{session_id}/report", headers=self._auth(None, None))

    def cancel(self, session_id, body=None, idempotency_key=None, raw=None):
        key = new_key() if idempotency_key is None else idempotency_key
        headers = self._auth(None, key or None)
        if raw is not None:
            return self.http.post(f"/v1/sessions/{session_id}/cancel", body=raw, headers=headers)
        if body is None:
            return self.http.post(f"/v1/sessions/{session_id}/cancel", headers=headers)
        return self.http.post(f"/v1/sessions/{session_id}/cancel", json_body=body, headers=headers)

    def consent(self, session_id, body, idempotency_key=None):
        key = new_key() if idempotency_key is None else idempotency_key
        return self.http.post(f"/v1/sessions/{session_id}/consent", json_body=body,
                              headers=self._auth(None, key or None))

    def search(self, body):
        return self.http.post("/v1/sessions/search", json_body=body, headers=self._auth(None, None))


def create_session(api=None, flow="liveness+facematch+document", **extra):
    """A new session (201 asserted); returns its body."""
    api = api or VerifyApi()
    body = {"flow": flow}
    body.update(extra)
    resp = api.create(body)
    if resp.status != 201:
        raise AssertionError(f"session create failed: {resp!r}")
    return resp.json


def token_of(session):
    token = session["clientToken"]
    fragment = urllib.parse.urlsplit(session["hostedUrl"]).fragment
    if fragment != f"token={token}":
        raise AssertionError(f"hostedUrl fragment {fragment!r} does not carry the client token")
    return token


class HostedApi:
    """The hosted page's API with one session's client token."""

    def __init__(self, session_id, token, base_url=None):
        self.session_id = session_id
        self.token = token
        self.http = cb.HttpClient(base_url or VERIFY_URL)
        self.base = f"/v1/hosted/sessions/{session_id}"

    def _headers(self, idempotency_key, content_type=None):
        headers = {}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        if idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        if content_type:
            headers["Content-Type"] = content_type
        return headers

    def state(self):
        return self.http.get(self.base, headers=self._headers(None))

    def consent(self, granted=True, idempotency_key=None):
        key = new_key() if idempotency_key is None else idempotency_key
        return self.http.post(self.base + "/consent", json_body={"granted": granted}, headers=self._headers(key))

    def capture(self, kind, image, idempotency_key=None, content_type="image/png"):
        key = new_key() if idempotency_key is None else idempotency_key
        return self.http.post(f"{self.base}/captures/{kind}", body=image,
                              headers=self._headers(key, content_type))

    def submit(self, idempotency_key=None):
        key = new_key() if idempotency_key is None else idempotency_key
        return self.http.post(self.base + "/submit", headers=self._headers(key))


def complete_session(session, selfie=None, document=None):
    """Drives a session through consent, captures and submit; returns the final page state."""
    page = HostedApi(session["sessionId"], token_of(session))
    flow = session["flow"].split("+")
    if "liveness" in flow or "facematch" in flow:
        resp = page.consent(True)
        assert resp.status == 200, resp
        resp = page.capture("selfie", selfie or face_png(1))
        assert resp.status == 200, resp
    if "document" in flow or "facematch" in flow:
        resp = page.capture("document", document or document_png(1))
        assert resp.status == 200, resp
    resp = page.submit()
    assert resp.status == 200, resp
    return resp.json


# ---------------------------------------------------------------- images

def png_bytes(width, height, pixels):
    """An 8-bit grayscale PNG of width x height from a flat list of 0..255 values."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        raw.extend(pixels[y * width:(y + 1) * width])

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw), 6))
            + chunk(b"IEND", b""))


def _face_pixels(seed, width, height, brightness=0, noise=10):
    """A face-like test picture: background gradient, a lighter oval, dark eyes
    and mouth, fine texture. The same seed gives the same scene at any size."""
    rng = random.Random(seed)
    angle = rng.uniform(0, math.pi)
    bg_low, bg_high = rng.randint(40, 80), rng.randint(140, 190)
    cx, cy = 0.5 + rng.uniform(-0.05, 0.05), 0.48 + rng.uniform(-0.04, 0.04)
    rx, ry = rng.uniform(0.22, 0.28), rng.uniform(0.30, 0.36)
    skin = rng.randint(170, 215)
    texture = random.Random(seed * 7919 + width)
    pixels = []
    ca, sa = math.cos(angle), math.sin(angle)
    for y in range(height):
        v = y / height
        for x in range(width):
            u = x / width
            value = bg_low + (bg_high - bg_low) * ((u * ca + v * sa) % 1.0)
            dx, dy = (u - cx) / rx, (v - cy) / ry
            if dx * dx + dy * dy <= 1.0:
                value = skin - 25 * dy
                for ex in (-0.38, 0.38):
                    ddx, ddy = (dx - ex) / 0.16, (dy + 0.25) / 0.09
                    if ddx * ddx + ddy * ddy <= 1.0:
                        value = 35
                if abs(dx) < 0.4 and 0.42 < dy < 0.5:
                    value = 70
            value += brightness + texture.randint(-noise, noise)
            pixels.append(max(0, min(255, int(value))))
    return pixels


def face_png(seed, width=320, height=320, brightness=0):
    return png_bytes(width, height, _face_pixels(seed, width, height, brightness))


def document_png(seed, width=640, height=404, brightness=8):
    """The same scene as face_png(seed), card-shaped (aspect 1.58): the offline
    provider's face match compares whole-image features, so this matches."""
    return png_bytes(width, height, _face_pixels(seed, width, height, brightness))


def flat_png(width=200, height=200, value=128):
    return png_bytes(width, height, [value] * (width * height))


# ---------------------------------------------------------------- webhooks

def signature_valid(secret, header, body, now=None, tolerance_s=WEBHOOK_TOLERANCE_S):
    """The reference verifier of docs/verification.md, in Python."""
    try:
        parts = dict(item.strip().split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
    except (ValueError, KeyError):
        return False
    now = int(time.time()) if now is None else now
    if abs(now - timestamp) > tolerance_s:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    candidates = [v for k, v in (item.strip().split("=", 1) for item in header.split(",")) if k == "v1"]
    return any(hmac.compare_digest(expected, c) for c in candidates)


class WebhookReceiver:
    """A loopback HTTP server that records every POST (raw body and headers).

    `statuses` is a list of status codes to answer with, in order; when it is
    used up every request gets 200. `delay_s` stalls each answer.
    """

    def __init__(self, statuses=None, delay_s=0.0):
        self.received = []
        self.statuses = list(statuses or [])
        self.delay_s = delay_s
        self._lock = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with receiver._lock:
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.received.append({"body": body, "headers": dict(self.headers), "status": status,
                                              "at": time.time()})
                    receiver._lock.notify_all()
                if receiver.delay_s:
                    time.sleep(receiver.delay_s)
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the sender gave up (timeout, shut-down): that is what some tests do

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/{uuid.uuid4().hex[:8]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def for_session(self, session_id):
        with self._lock:
            return [r for r in self.received if _session_of(r) == session_id]

    def wait_for(self, session_id, count=1, timeout=WEBHOOK_WAIT_S, accepted_only=False):
        """Wait until `count` requests about the session arrived (only 2xx ones if accepted_only)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = [r for r in self.received if _session_of(r) == session_id
                         and (not accepted_only or 200 <= r["status"] < 300)]
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"{len(found)} webhook(s) for {session_id} after {timeout} s, wanted {count}")
                self._lock.wait(remaining)


def _session_of(record):
    try:
        return json.loads(record["body"])["data"]["sessionId"]
    except (ValueError, KeyError, TypeError):
        return None


def wait_status(api, session_id, statuses, timeout=30):
    """Poll GET /v1/sessions/{id} until its status is in `statuses`."""
    deadline = time.monotonic() + timeout
    while True:
        resp = api.get(session_id)
        if resp.status == 200 and resp.json["status"] in statuses:
            return resp.json
        if time.monotonic() > deadline:
            raise AssertionError(f"session {session_id} not in {statuses} after {timeout} s: {resp!r}")
        time.sleep(0.3)


# ---------------------------------------------------------------- an isolated tier

def _conninfo_with(url, **changes):
    """A key=value libpq connection string with some keys replaced."""
    if "://" in url:
        parts = urllib.parse.urlsplit(url)
        query = dict(urllib.parse.parse_qsl(parts.query))
        netloc = parts.netloc
        path = parts.path
        if "dbname" in changes:
            path = "/" + changes.pop("dbname")
        if "user" in changes:
            user = changes.pop("user")
            host = netloc.split("@", 1)[-1]
            netloc = f"{user}@{host}"
        query.update(changes)
        return urllib.parse.urlunsplit((parts.scheme, netloc, path, urllib.parse.urlencode(query), ""))
    pairs = re.findall(r"(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|\S+)", url)
    values = dict(pairs)
    for key, value in changes.items():
        values[key] = value
    return " ".join(f"{k}={v}" for k, v in values.items())


def free_ports(count, low=24000, high=24999):
    """`count` consecutive ports nothing listens on (checked by binding them)."""
    import socket
    for _ in range(200):
        start = random.randint(low, high - count)
        sockets = []
        try:
            for port in range(start, start + count):
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                s.bind(("127.0.0.1", port))
                sockets.append(s)
            return list(range(start, start + count))
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise AssertionError("no free ports")


class IsolatedTier:
    """A second corebankd on its own database and ports, with its own settings.

    Its webhook outbox is its own: no other process delivers from it, so the
    test sees exactly what this tier does (timeouts, retries, a crash).
    """

    def __init__(self, settings):
        import base64
        import subprocess
        import tempfile
        self._subprocess = subprocess
        cli = cb.require(cb.CLI, "CB_CLI")
        admin_url = cb.require(cb.DATABASE_URL, "CB_DATABASE_URL")
        self.dbname = f"verify_iso_{cb.RUN_TAG}_{uuid.uuid4().hex[:6]}"
        cb.db().execute(f'CREATE DATABASE "{self.dbname}"')
        self.admin_url = _conninfo_with(admin_url, dbname=self.dbname)
        self.tier_url = _conninfo_with(self.admin_url, user="corebank_app")
        import psycopg2
        conn = psycopg2.connect(self.admin_url)
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute("CREATE EXTENSION corebank")
        conn.close()
        self.dir = tempfile.mkdtemp(prefix="cb-verify-iso-")
        self.key_file = os.path.join(self.dir, "data.key")
        with open(self.key_file, "w") as handle:
            handle.write(base64.b64encode(os.urandom(32)).decode() + "\n")
        os.chmod(self.key_file, 0o600)
        self.cli_path = cli
        self.settings = dict(settings)
        self.ports = free_ports(4)
        self.url = f"http://127.0.0.1:{self.ports[2]}"
        self.proc = None
        self.log_path = os.path.join(self.dir, "corebankd.log")

    def environment(self, url):
        env = dict(os.environ)
        env.update({"DATABASE_URL": url, "CORE_DATA_KEY_FILE": self.key_file, "CORE_LISTEN": "127.0.0.1",
                    "CORE_CORE_PORT": str(self.ports[0]), "CORE_IDENTITY_PORT": str(self.ports[1]),
                    "CORE_VERIFY_PORT": str(self.ports[2]), "CORE_EVENTS_PORT": str(self.ports[3]),
                    "CORE_ISSUER": f"http://127.0.0.1:{self.ports[1]}", "CORE_MAIL_DIR": os.path.join(self.dir, "mail")})
        env.update({k: str(v) for k, v in self.settings.items()})
        return env

    def cli(self, *args):
        done = self._subprocess.run([self.cli_path, *args, "--config", os.path.join(cb.ROOT, "corebank.conf")],
                                    env=self.environment(self.admin_url), capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise AssertionError(f"corebankd {args[0]} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def start(self):
        log = open(self.log_path, "ab")
        self.proc = self._subprocess.Popen(
            [self.cli_path, "serve", "--config", os.path.join(cb.ROOT, "corebank.conf")],
            env=self.environment(self.tier_url), stdout=log, stderr=log, stdin=self._subprocess.DEVNULL)
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the isolated corebankd exited: {self.log_tail()}")
            try:
                if cb.HttpClient(self.url, timeout=2).get("/health").status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"the isolated corebankd did not become healthy: {self.log_tail()}")

    def kill(self):
        """SIGKILL: the process dies with whatever it was doing."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self):
        """SIGTERM; returns the exit status."""
        if self.proc is None:
            return None
        self.proc.terminate()
        try:
            status = self.proc.wait(timeout=15)
        except self._subprocess.TimeoutExpired:
            self.proc.kill()
            status = self.proc.wait()
        self.proc = None
        return status

    def log_tail(self, lines=30):
        try:
            with open(self.log_path, "r", errors="replace") as handle:
                return "".join(handle.readlines()[-lines:])
        except OSError:
            return ""

    def close(self):
        import shutil
        self.kill()
        try:
            cb.db().execute(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


# The webhook tests' own tier: a 2 s delivery timeout, retries after 1 s and
# 2 s, two attempts, and loopback receivers allowed (issue 13 refuses them by
# default), so that a failed delivery shows within seconds.
WEBHOOK_TEST_SETTINGS = {"CORE_VERIFY_WEBHOOK_TIMEOUT_MS": 2000, "CORE_VERIFY_WEBHOOK_BACKOFF_BASE_S": 1,
                         "CORE_VERIFY_WEBHOOK_BACKOFF_MAX_S": 2, "CORE_VERIFY_WEBHOOK_ATTEMPTS_MAX": 2,
                         "CORE_VERIFY_WEBHOOK_ALLOW_PRIVATE": "true"}


class IsolatedWebhookTest(unittest.TestCase):
    """Tests on an IsolatedTier of their own (an outbox nobody else drains), with loopback webhook receivers
    closed after each test. A subclass may set SETTINGS and makes its keys in setup_tier()."""

    SETTINGS = WEBHOOK_TEST_SETTINGS

    @classmethod
    def setUpClass(cls):
        cls.tier = IsolatedTier(cls.SETTINGS)
        try:
            cls.tier.start()
            cls.setup_tier()
        except Exception:
            cls.tier.close()
            raise

    @classmethod
    def setup_tier(cls):
        """What the subclass needs on the started tier (keys, clients)."""

    @classmethod
    def tearDownClass(cls):
        cls.tier.close()

    def setUp(self):
        self.receivers = []

    def tearDown(self):
        for receiver in self.receivers:
            receiver.close()

    def new_receiver(self, statuses=None, delay_s=0.0):
        """A loopback receiver answering `statuses` in turn (then 200), closed after the test."""
        receiver = WebhookReceiver(statuses, delay_s)
        self.receivers.append(receiver)
        return receiver

    def tier_scalar(self, sql, params=()):
        """The first column of the first row of `sql` on the tier's own database (as the superuser)."""
        import psycopg2
        conn = psycopg2.connect(self.tier.admin_url)
        try:
            with conn, conn.cursor() as cur:
                cur.execute(sql, params)
                row = cur.fetchone() if cur.description else None
                return row[0] if row else None
        finally:
            conn.close()
