"""cbclient: shared helpers for the corebank identity end-to-end tests.

The suite talks to a running corebankd over plain HTTP (http.client), reads the
test database with psycopg2 as superuser, verifies RS256 tokens against the
service's JWKS with python3-cryptography, and reads the password-reset mails
that the server writes into CB_MAIL_DIR. Only the standard library and those
two Debian packages are used, so the suite runs under /usr/bin/python3.

Configuration comes from the environment that `./corebank test` sets:
CB_ID_URL, CB_CORE_URL, CB_VERIFY_URL, CB_EVENTS_URL, CB_DATABASE_URL,
CB_MAIL_DIR, CB_CLI and CB_ROOT. Every factory here makes unique values
(emails, phones, client ids, forwarded IPs) so tests never share state and
can run in any order against a database that already holds data.
"""

import base64
import datetime
import email
import email.policy
import email.utils
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import secrets
import select
import socket
import subprocess
import threading
import time
import unittest
import urllib.parse
import uuid

# ---------------------------------------------------------------- configuration

ID_URL = os.environ.get("CB_ID_URL") or None
CORE_URL = os.environ.get("CB_CORE_URL") or None
VERIFY_URL = os.environ.get("CB_VERIFY_URL") or None
EVENTS_URL = os.environ.get("CB_EVENTS_URL") or None
DATABASE_URL = os.environ.get("CB_DATABASE_URL") or None
MAIL_DIR = os.environ.get("CB_MAIL_DIR") or None
CLI = os.environ.get("CB_CLI") or None
ROOT = os.environ.get("CB_ROOT") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))

HTTP_TIMEOUT_S = 30
MAIL_WAIT_S = 30
USER_AGENT = "corebank-e2e/1.0"

# Values docs/identity.md fixes.
ACCESS_TTL_S = 900
REFRESH_TTL_S = 30 * 24 * 3600
DEFAULT_AUDIENCE = "corebank"
SESSIONS_MAX = 3
LOCKOUT_FAILURES = 5
LOGIN_RATE_LIMIT = 20
LOGIN_RATE_WINDOW_S = 60
RESET_RATE_LIMIT = 5
RESET_RATE_WINDOW_S = 3600
MAX_BODY_BYTES = 1024 * 1024

MSG_INVALID_CREDENTIALS = "Invalid credentials"
MSG_EITHER_EMAIL_OR_PHONE = "Either an email or a phone number is required"
MSG_UNKNOWN_CLIENT = "Unknown clientId"
MSG_MALFORMED_JSON = "Malformed JSON request body"
MSG_RESET_TOKEN_BAD = "Reset token is invalid, expired or already used"
MSG_MUST_DIFFER = "newPassword: must differ from the current password"
MSG_FORGOT = "If an account exists for that email, a password reset link has been sent"
MSG_RESET = "Your password has been reset"
MSG_CHANGED = "Your password has been changed; all sessions have been signed out"
MSG_DEACTIVATED = "Your account has been deactivated"
MSG_LOGOUT = "Logged out"
MSG_LOGOUT_ALL = "Logged out of all sessions"
MSG_SESSION_REVOKED = "Session revoked"

USER_FIELDS = {"id", "phone", "email", "firstName", "lastName", "kycTier", "roles", "emailVerified", "phoneVerified"}
TOKEN_PAIR_FIELDS = {"accessToken", "refreshToken", "tokenType", "expiresIn", "user"}
SESSION_FIELDS = {"id", "current", "channel", "ip", "userAgent", "audience",
                  "createdAt", "lastUsedAt", "expiresAt"}
USER_CLAIMS = {"sub", "iss", "aud", "iat", "exp", "jti", "roles", "scopes", "kyc_tier", "amr"}
CLIENT_CLAIMS = {"sub", "iss", "iat", "exp", "jti", "token_type", "client_id", "scopes"}
# The spec's fields and RFC 6749 section 5.1's beside them (docs/identity.md, "OAuth clients").
CLIENT_TOKEN_FIELDS = {"accessToken", "tokenType", "expiresIn", "access_token", "token_type", "expires_in", "scope"}


def require_identity_service():
    """Skip the calling module when no identity service is configured."""
    if not ID_URL:
        raise unittest.SkipTest(
            "CB_ID_URL is not set: these end-to-end tests need a running identity "
            "service (./corebank test starts one and sets CB_ID_URL)")


def require(value, name):
    """Skip the calling test when an optional piece of the environment is missing."""
    if not value:
        raise unittest.SkipTest(f"{name} is not set")
    return value


# ---------------------------------------------------------------- HTTP

class Response:
    """One HTTP response: status, headers, raw body and its JSON."""

    _NO_JSON = object()

    def __init__(self, status, reason, headers, body):
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self._json = None

    def header(self, name):
        return self.headers.get(name)

    @property
    def json(self):
        """The parsed body; fails the test when the body is not JSON."""
        if self._json is None:
            try:
                self._json = json.loads(self.body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self._json = self._NO_JSON
        if self._json is self._NO_JSON:
            raise AssertionError(f"response body is not JSON: {self!r}")
        return self._json

    def json_or_none(self):
        try:
            return self.json
        except AssertionError:
            return None

    def __repr__(self):
        text = self.body[:600].decode("utf-8", "replace")
        return f"<HTTP {self.status} {self.reason}: {text}>"


_UNSET = object()


class HttpClient:
    """A tiny HTTP/1.1 client for one base URL.

    By default every request uses a fresh TCP connection and says
    `Connection: close`, so one test's connection state never leaks into the
    next. With keepalive=True the connection is reused; a reused connection
    that turns out to be closed by the server is reopened once.
    """

    def __init__(self, base_url, keepalive=False, timeout=HTTP_TIMEOUT_S):
        parts = urllib.parse.urlsplit(base_url)
        self.host = parts.hostname
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.keepalive = keepalive
        self.timeout = timeout
        self._conn = None

    def close(self):
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(self, method, path, *, json_body=_UNSET, body=None, form=None,
                headers=None, token=None, basic=None, xff=None, content_type=None, check=True):
        """Send one request and return a Response.

        json_body: any JSON value (None sends `null`); body: raw str/bytes;
        form: dict sent as application/x-www-form-urlencoded; token: bearer
        token; basic: (user, password) for HTTP Basic; xff: X-Forwarded-For.
        check: validate a response of the identity or verification service
        against its OpenAPI document (openapi_check); only the validator's own
        fetch of the document and its own tests turn it off.
        """
        send_headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
        if json_body is not _UNSET:
            body = json.dumps(json_body, ensure_ascii=False).encode("utf-8")
            send_headers["Content-Type"] = "application/json"
        elif form is not None:
            body = urllib.parse.urlencode(form).encode("ascii")
            send_headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            send_headers["Content-Type"] = "application/json"
        if isinstance(body, str):
            body = body.encode("utf-8")
        if content_type is not None:
            send_headers["Content-Type"] = content_type
        if token is not None:
            send_headers["Authorization"] = f"Bearer {token}"
        if basic is not None:
            send_headers["Authorization"] = basic_auth(*basic)
        if xff is not None:
            send_headers["X-Forwarded-For"] = xff
        send_headers["Connection"] = "keep-alive" if self.keepalive else "close"
        send_headers.update(headers or {})
        if method in ("POST", "PUT", "PATCH") and body is None:
            send_headers.setdefault("Content-Length", "0")
        response = self._send(method, self.prefix + path, body, send_headers)
        if check:
            import openapi_check  # imports this module: imported on first use
            openapi_check.check_response(self.host, self.port, method, path, response)
        return response

    def _send(self, method, path, body, headers):
        reused = self.keepalive and self._conn is not None
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self._conn.request(method, path, body=body, headers=headers)
            raw = self._conn.getresponse()
            data = raw.read()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.close()
            if not reused:
                raise
            # A kept-alive connection the server had already closed: the
            # request never reached a handler, so sending it again is safe.
            return self._send(method, path, body, headers)
        response = Response(raw.status, raw.reason, raw.headers, data)
        if not self.keepalive or raw.will_close:
            self.close()
        return response

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)

    def send_streaming(self, method, path, body, headers=None, chunk_bytes=64 * 1024):
        """Send a large body in chunks, stopping early if the server answers.

        A server that refuses an oversized body answers before it has read all
        of it and then closes; writing on regardless would make the kernel
        reset the connection and drop that answer. Returns the Response, or
        None when the server closed without any answer.
        """
        sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
        try:
            head = [f"{method} {self.prefix}{path} HTTP/1.1",
                    f"Host: {self.host}:{self.port}",
                    f"User-Agent: {USER_AGENT}",
                    "Content-Type: application/json",
                    f"Content-Length: {len(body)}",
                    "Connection: close"]
            head += [f"{k}: {v}" for k, v in (headers or {}).items()]
            try:
                sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("ascii"))
                sent = 0
                while sent < len(body):
                    readable, _, _ = select.select([sock], [], [], 0)
                    if readable:
                        break
                    sock.sendall(body[sent:sent + chunk_bytes])
                    sent += chunk_bytes
            except (BrokenPipeError, ConnectionResetError):
                pass
            raw = http.client.HTTPResponse(sock, method=method)
            try:
                raw.begin()
                data = raw.read()
            except (http.client.RemoteDisconnected, ConnectionResetError,
                    http.client.IncompleteRead, BrokenPipeError):
                return None
            response = Response(raw.status, raw.reason, raw.headers, data)
            import openapi_check  # as request() does: the answer must be one the document lists
            openapi_check.check_response(self.host, self.port, method, path, response)
            return response
        finally:
            sock.close()


def basic_auth(user, password):
    """An HTTP Basic header value; id and secret are form-encoded first (RFC 6749 2.3.1)."""
    pair = f"{urllib.parse.quote_plus(user)}:{urllib.parse.quote_plus(password)}"
    return "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")


# ---------------------------------------------------------------- assertions

def parse_iso8601(text):
    """A timezone-aware datetime from an ISO 8601 string; AssertionError if it is not one."""
    if not isinstance(text, str):
        raise AssertionError(f"not an ISO 8601 string: {text!r}")
    try:
        value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise AssertionError(f"not an ISO 8601 timestamp: {text!r}") from exc
    if value.tzinfo is None:
        raise AssertionError(f"ISO 8601 timestamp without a zone: {text!r}")
    return value


def assert_error(resp, status, code, message=None, timestamp=True):
    """Check an error response: status, body `{error, message, status, timestamp}`.

    code: the expected `error`, or a tuple of acceptable ones where the docs
    leave the choice open. message: exact text, or a compiled regex that must
    match somewhere in it. timestamp: True requires a current ISO 8601
    `timestamp`, False requires its absence (UNAUTHORIZED from the bearer
    filter), None accepts either. A 500 is always a failure.
    """
    if resp.status >= 500 and status < 500:
        raise AssertionError(f"server error where {status} was expected: {resp!r}")
    if resp.status != status:
        raise AssertionError(f"expected HTTP {status}, got {resp!r}")
    content_type = resp.header("Content-Type") or ""
    if "json" not in content_type.lower():
        raise AssertionError(f"error body is not declared JSON (Content-Type {content_type!r}): {resp!r}")
    body = resp.json
    if not isinstance(body, dict):
        raise AssertionError(f"error body is not a JSON object: {resp!r}")
    expected_keys = {"error", "message", "status"}
    if timestamp:
        expected_keys.add("timestamp")
    allowed_keys = expected_keys | ({"timestamp"} if timestamp is None else set())
    if not expected_keys <= set(body) <= allowed_keys:
        raise AssertionError(f"error body keys {sorted(body)} != {sorted(expected_keys)}: {resp!r}")
    codes = code if isinstance(code, tuple) else (code,)
    if body["error"] not in codes:
        raise AssertionError(f"error code {body['error']!r} not in {codes}: {resp!r}")
    if body["status"] != status or isinstance(body["status"], bool):
        raise AssertionError(f"body status {body['status']!r} != {status}: {resp!r}")
    if not isinstance(body["message"], str) or not body["message"]:
        raise AssertionError(f"error message missing or empty: {resp!r}")
    if isinstance(message, re.Pattern):
        if not message.search(body["message"]):
            raise AssertionError(f"message {body['message']!r} does not match {message.pattern!r}")
    elif message is not None and body["message"] != message:
        raise AssertionError(f"message {body['message']!r} != {message!r}")
    if "timestamp" in body:
        stamp = parse_iso8601(body["timestamp"])
        skew = abs((datetime.datetime.now(datetime.timezone.utc) - stamp).total_seconds())
        if skew > 300:
            raise AssertionError(f"timestamp {body['timestamp']!r} is {skew:.0f} s away from now")
    return body


def validation_parts(message):
    """Split a VALIDATION_ERROR message `field: reason; field: reason` into (field, reason) pairs."""
    parts = []
    for item in message.split("; "):
        field, sep, reason = item.partition(": ")
        if not sep or not field or not reason:
            raise AssertionError(f"validation message part {item!r} is not `field: reason` in {message!r}")
        parts.append((field, reason))
    return parts


def assert_validation(resp, *fields, reason=None):
    """A 400 VALIDATION_ERROR whose message names each of `fields` (with `reason` if given)."""
    body = assert_error(resp, 400, "VALIDATION_ERROR")
    parts = validation_parts(body["message"])
    named = {field for field, _ in parts}
    for field in fields:
        if field not in named:
            raise AssertionError(f"field {field!r} not named in {body['message']!r}")
        if reason is not None and (field, reason) not in parts:
            raise AssertionError(f"`{field}: {reason}` not in {body['message']!r}")
    return body


def assert_message(resp, status, text):
    """A success response whose body is exactly `{"message": text}`."""
    if resp.status != status:
        raise AssertionError(f"expected HTTP {status}, got {resp!r}")
    if resp.json != {"message": text}:
        raise AssertionError(f"expected {{'message': {text!r}}}, got {resp.json!r}")


def assert_unauthorized(resp):
    """401 UNAUTHORIZED from the bearer filter: error body without `timestamp`."""
    return assert_error(resp, 401, "UNAUTHORIZED", timestamp=False)


# ---------------------------------------------------------------- unique values

_lock = threading.Lock()
_used_ips = set()
_used_phones = set()
RUN_TAG = uuid.uuid4().hex[:8]


def unique_email(tag="user", domain="e2e.corebank.test"):
    return f"{tag}.{RUN_TAG}.{uuid.uuid4().hex[:12]}@{domain}"


def long_email(length):
    """A unique, well-formed email of exactly `length` characters.

    The local part stays short and the domain is split into labels of at
    most 60 characters, so only the total length is unusual.
    """
    local = f"len.{RUN_TAG}.{uuid.uuid4().hex[:12]}"
    tld = ".test"
    size = length - len(local) - 1 - len(tld)
    if size < 1:
        raise ValueError(f"an email of {length} characters is too short to build")
    chars = ["." if i % 61 == 60 else "d" for i in range(size)]
    if chars[-1] == ".":
        chars[-1] = "d"
    return f"{local}@{''.join(chars)}{tld}"


def unique_phone(plus=True, digits=12):
    """A phone number no other test uses: `+` and `digits` digits (10..15)."""
    with _lock:
        while True:
            number = str(random.randint(1, 9)) + "".join(
                random.choice("0123456789") for _ in range(digits - 1))
            if number not in _used_phones:
                _used_phones.add(number)
                return ("+" if plus else "") + number


CRACKLIB_CHECK = "/usr/sbin/cracklib-check"   # cracklib-runtime, in ./corebank's PACKAGES


def cracklib_accepts(password):
    """cracklib's own verdict (the dictionary check the tier runs through libpwquality): True for "OK"."""
    done = subprocess.run([CRACKLIB_CHECK], input=password + "\n", capture_output=True, text=True, timeout=10)
    return done.returncode == 0 and done.stdout.rstrip().endswith(": OK")


def unique_password(length=16):
    """A random password the tier accepts. A random string is now and then judged "too simplistic/systematic"
    by cracklib (Pw1-65Defk7UIjrS was, failing a clean-clone run), so candidates are drawn until cracklib
    accepts one: the tests that need a password are not tests of the quality check."""
    while True:
        candidate = ("Pw1-" + secrets.token_urlsafe(length))[:length]
        if not os.path.exists(CRACKLIB_CHECK) or cracklib_accepts(candidate):
            return candidate


def unique_ip():
    """A private IPv4 address for X-Forwarded-For, unique within the run."""
    with _lock:
        while True:
            ip = "10.{}.{}.{}".format(*(random.randint(1, 254) for _ in range(3)))
            if ip not in _used_ips:
                _used_ips.add(ip)
                return ip


def unique_client_id(tag="e2e"):
    return f"{tag}-{RUN_TAG}-{uuid.uuid4().hex[:10]}"


def wait_for_window_room(window_s, needed_s):
    """Sleep into the next rate-limit window when fewer than needed_s seconds remain.

    Rate counters may be kept in fixed windows aligned to the epoch; a test
    that counts hits must not straddle a window boundary.
    """
    remaining = window_s - (time.time() % window_s)
    if remaining < needed_s:
        time.sleep(remaining + 0.5)


# ---------------------------------------------------------------- JWT

def b64url_decode(text):
    if isinstance(text, str):
        text = text.encode("ascii")
    return base64.urlsafe_b64decode(text + b"=" * (-len(text) % 4))


def b64url_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def jwt_parts(token):
    """(header, claims, signing_input bytes, signature bytes) of a compact JWS."""
    pieces = token.split(".")
    if len(pieces) != 3:
        raise AssertionError(f"not a compact JWT (3 parts): {token[:80]!r}")
    header = json.loads(b64url_decode(pieces[0]))
    claims = json.loads(b64url_decode(pieces[1]))
    return header, claims, f"{pieces[0]}.{pieces[1]}".encode("ascii"), b64url_decode(pieces[2])


def jwt_claims(token):
    return jwt_parts(token)[1]


def jwk_public_key(jwk):
    from cryptography.hazmat.primitives.asymmetric import rsa
    n = int.from_bytes(b64url_decode(jwk["n"]), "big")
    e = int.from_bytes(b64url_decode(jwk["e"]), "big")
    return rsa.RSAPublicNumbers(e, n).public_key()


def verify_rs256(signing_input, signature, public_key):
    """True when signature is a valid RS256 signature of signing_input."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    try:
        public_key.verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        return True
    except InvalidSignature:
        return False


def verify_jwt(token, jwks):
    """Verify an RS256 token against a JWKS document; return its claims."""
    header, claims, signing_input, signature = jwt_parts(token)
    if header.get("alg") != "RS256":
        raise AssertionError(f"token alg is {header.get('alg')!r}, not RS256")
    keys = [k for k in jwks["keys"] if k.get("kid") == header.get("kid")]
    if len(keys) != 1:
        raise AssertionError(f"kid {header.get('kid')!r} matches {len(keys)} keys in the JWKS")
    if not verify_rs256(signing_input, signature, jwk_public_key(keys[0])):
        raise AssertionError("RS256 signature does not verify with the JWKS key")
    return claims


def sign_jwt(header, claims, private_key):
    """A compact RS256 JWS of header and claims, signed with private_key."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    head = b64url_encode(json.dumps(header, separators=(",", ":")).encode())
    body = b64url_encode(json.dumps(claims, separators=(",", ":")).encode())
    signing_input = f"{head}.{body}".encode("ascii")
    signature = private_key.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())
    return f"{head}.{body}.{b64url_encode(signature)}"


def unsigned_jwt(header, claims, signature=b""):
    head = b64url_encode(json.dumps(header, separators=(",", ":")).encode())
    body = b64url_encode(json.dumps(claims, separators=(",", ":")).encode())
    return f"{head}.{body}.{b64url_encode(signature)}"


def hs256_jwt(header, claims, secret):
    head = b64url_encode(json.dumps(header, separators=(",", ":")).encode())
    body = b64url_encode(json.dumps(claims, separators=(",", ":")).encode())
    mac = hmac.new(secret, f"{head}.{body}".encode("ascii"), hashlib.sha256).digest()
    return f"{head}.{body}.{b64url_encode(mac)}"


def new_rsa_key():
    from cryptography.hazmat.primitives.asymmetric import rsa
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def public_pem(public_key):
    from cryptography.hazmat.primitives import serialization
    return public_key.public_bytes(serialization.Encoding.PEM,
                                   serialization.PublicFormat.SubjectPublicKeyInfo)


# ---------------------------------------------------------------- database

class Db:
    """Superuser access to the test database, autocommit, rows as dicts."""

    def __init__(self, url):
        try:
            import psycopg2
            import psycopg2.extras
        except ImportError as exc:
            raise RuntimeError("python3-psycopg2 is required (apt-get install python3-psycopg2)") from exc
        self._extras = psycopg2.extras
        self._url = url
        self._local = threading.local()

    def _connection(self):
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            import psycopg2
            conn = psycopg2.connect(self._url)
            conn.autocommit = True
            self._local.conn = conn
        return conn

    def rows(self, sql, params=()):
        with self._connection().cursor(cursor_factory=self._extras.RealDictCursor) as cur:
            cur.execute(sql, params)
            return [dict(r) for r in cur.fetchall()] if cur.description else []

    def one(self, sql, params=()):
        rows = self.rows(sql, params)
        if len(rows) > 1:
            raise AssertionError(f"expected at most one row, got {len(rows)}: {sql}")
        return rows[0] if rows else None

    def scalar(self, sql, params=()):
        with self._connection().cursor() as cur:
            cur.execute(sql, params)
            row = cur.fetchone()
            return None if row is None else row[0]

    def execute(self, sql, params=()):
        with self._connection().cursor() as cur:
            cur.execute(sql, params)
            return cur.rowcount

    # Shortcuts the tests use often.
    def user(self, user_id):
        return self.one("SELECT * FROM corebank.auth_users WHERE id = %s", (user_id,))

    def user_by_email(self, address):
        return self.one("SELECT * FROM corebank.auth_users WHERE email = %s", (address,))

    def expire_access_token(self, jti):
        """Make an issued access token expired in the database (issued 901 s ago, expired 1 s ago)."""
        count = self.execute("UPDATE corebank.auth_access_tokens SET issued_at = now() - interval '901 seconds',"
                             " expires_at = now() - interval '1 second' WHERE jti = %s", (jti,))
        if count != 1:
            raise AssertionError(f"access token {jti} is not recorded in auth_access_tokens")

    def live_sessions(self, user_id):
        return self.scalar("SELECT count(*) FROM corebank.auth_sessions"
                           " WHERE user_id = %s AND revoked_at IS NULL", (user_id,))


_db = None


def db():
    """The shared Db; skips the test when CB_DATABASE_URL is not set."""
    global _db
    require(DATABASE_URL, "CB_DATABASE_URL")
    with _lock:
        if _db is None:
            _db = Db(DATABASE_URL)
    return _db


# ---------------------------------------------------------------- CLI

def cli(*args, timeout=60):
    """Run `$CB_CLI args...` with DATABASE_URL set; return stdout, fail on a non-zero exit."""
    require(CLI, "CB_CLI")
    require(DATABASE_URL, "CB_DATABASE_URL")
    env = dict(os.environ, DATABASE_URL=DATABASE_URL)
    # The tests' webhook receivers listen on loopback, which webhook-add
    # refuses unless this is set (issue 13); a test of the refusal runs the
    # CLI itself.
    env.setdefault("CORE_VERIFY_WEBHOOK_ALLOW_PRIVATE", "true")
    done = subprocess.run([CLI, *args], env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{CLI} {' '.join(args)} exited {done.returncode}:"
                             f" {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def create_client(scopes=("kyc:validate", "kyc:screen"), client_id=None, secret=None):
    """An ACTIVE OAuth client made with the CLI; returns (client_id, secret)."""
    client_id = client_id or unique_client_id()
    secret = secret or "sec-" + secrets.token_urlsafe(32)  # the CLI refuses under 32 characters
    cli("client-create", "--id", client_id, "--secret", secret, "--scopes", " ".join(scopes))
    return client_id, secret


def create_staff(roles, address=None, password=None):
    """A staff user made with the CLI; returns (user_id, email, password)."""
    address = address or unique_email("staff")
    password = password or unique_password()
    out = cli("staff-create", "--email", address, "--password", password, "--roles", ",".join(roles))
    found = re.findall(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", out)
    if len(found) != 1:
        raise AssertionError(f"staff-create printed no single user id: {out!r}")
    return found[0].lower(), address, password


def stated_role_policy():
    """The role policy as the migrations state it: the JSON that the newest
    migrations/NNNN_*.sql file calling corebank.policy_load passes between
    $policy$ quotes. The migration is the policy's one source."""
    folder = os.path.join(ROOT, "migrations")
    stated = None
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".sql"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            text = handle.read()
        found = re.search(r"corebank\.policy_load\(\$policy\$(.*?)\$policy\$", text, re.S)
        if found:
            stated = json.loads(found.group(1))
    if stated is None:
        raise AssertionError("no migration in migrations/ states the role policy")
    return stated


def role_scopes(*roles):
    """The scopes the role policy of migrations/ grants to the union of roles, sorted."""
    policy = stated_role_policy()
    scopes = set()
    for role in roles:
        scopes.update(policy["roles"][role]["scopes"])
    return sorted(scopes)


# ---------------------------------------------------------------- mail

_mail_cache = {}


def _read_mails():
    """Every parsed message in CB_MAIL_DIR as (path, message); unreadable files are skipped."""
    mail_dir = require(MAIL_DIR, "CB_MAIL_DIR")
    found = []
    try:
        names = sorted(os.listdir(mail_dir))
    except FileNotFoundError:
        return found
    for name in names:
        if not name.endswith(".eml"):
            continue
        path = os.path.join(mail_dir, name)
        if path not in _mail_cache:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
                message = email.message_from_bytes(data, policy=email.policy.default)
                if message["To"] is None:
                    continue
                _mail_cache[path] = message
            except OSError:
                continue
        found.append((path, _mail_cache[path]))
    return found


def mail_recipients(message):
    return {addr.lower() for _, addr in email.utils.getaddresses(message.get_all("To", []))}


def mails_to(recipient):
    return [m for _, m in _read_mails() if recipient.lower() in mail_recipients(m)]


def wait_for_mails(recipient, count=1, timeout=MAIL_WAIT_S):
    """Wait until at least count messages addressed to recipient are in CB_MAIL_DIR."""
    deadline = time.monotonic() + timeout
    while True:
        found = mails_to(recipient)
        if len(found) >= count:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(found)} mail(s) to {recipient} after {timeout} s, wanted {count}")
        time.sleep(0.2)


def mail_text(message):
    """All text parts of a message, decoded, joined."""
    texts = []
    for part in message.walk():
        if part.get_content_maintype() == "text":
            texts.append(part.get_content())
    return "\n".join(texts)


# The token travels in the fragment (`<base>#token=<token>`), never in the query (issue 13).
RESET_LINK = re.compile(r"(https?://[^\s\"'<>?#]+)#token=([A-Za-z0-9_\-.~%]+)")


def reset_links(message):
    """The (base, token) pairs of the reset links in a message."""
    return [(base, urllib.parse.unquote(token)) for base, token in RESET_LINK.findall(mail_text(message))]


# ---------------------------------------------------------------- identity API

class Identity:
    """Typed calls to the identity service; each returns the raw Response."""

    def __init__(self, base_url=None, keepalive=False):
        self.http = HttpClient(base_url or ID_URL, keepalive=keepalive)

    def register(self, body, **kw):
        return self.http.post("/auth/register", json_body=body, **kw)

    def login(self, body, **kw):
        return self.http.post("/auth/login", json_body=body, **kw)

    def refresh(self, refresh_token, **kw):
        return self.http.post("/auth/token/refresh", json_body={"refreshToken": refresh_token}, **kw)

    def me(self, token):
        return self.http.get("/auth/me", token=token)

    def sessions(self, token):
        return self.http.get("/auth/sessions", token=token)

    def delete_session(self, token, session_id):
        return self.http.delete(f"/auth/sessions/{session_id}", token=token)

    def logout(self, token):
        return self.http.post("/auth/logout", token=token)

    def logout_all(self, token):
        return self.http.post("/auth/logout/all", token=token)

    def change_password(self, token, current, new):
        return self.http.post("/auth/password/change", token=token,
                              json_body={"currentPassword": current, "newPassword": new})

    def forgot(self, address, ip=None, client_id=None):
        """POST /auth/password/forgot from a fresh forwarded IP unless ip is given.

        The reset limit is per client IP; a fresh IP keeps tests independent.
        """
        body = {"email": address}
        if client_id is not None:
            body["clientId"] = client_id
        return self.http.post("/auth/password/forgot", json_body=body, xff=ip or unique_ip())

    def reset(self, token, new_password):
        return self.http.post("/auth/password/reset",
                              json_body={"token": token, "newPassword": new_password})

    def deactivate(self, token, password):
        return self.http.post("/auth/deactivate", token=token, json_body={"password": password})

    def oauth_token(self, client_id=None, secret=None, scope=None, basic=False,
                    grant_type="client_credentials"):
        form = {}
        if grant_type is not None:
            form["grant_type"] = grant_type
        if scope is not None:
            form["scope"] = scope
        if basic:
            return self.http.post("/oauth/token", form=form, basic=(client_id, secret))
        if client_id is not None:
            form["client_id"] = client_id
        if secret is not None:
            form["client_secret"] = secret
        return self.http.post("/oauth/token", form=form)

    def introspect(self, token, client_id, secret, basic=True):
        form = {"token": token}
        if basic:
            return self.http.post("/oauth/introspect", form=form, basic=(client_id, secret))
        form.update(client_id=client_id, client_secret=secret)
        return self.http.post("/oauth/introspect", form=form)

    def jwks(self):
        resp = self.http.get("/.well-known/jwks.json")
        if resp.status != 200:
            raise AssertionError(f"JWKS not served: {resp!r}")
        return resp.json

    def openid_configuration(self):
        resp = self.http.get("/.well-known/openid-configuration")
        if resp.status != 200:
            raise AssertionError(f"discovery document not served: {resp!r}")
        return resp.json

    def is_live(self, access_token):
        """True when the token is accepted by GET /auth/me; asserts a refusal is a clean 401."""
        resp = self.me(access_token)
        if resp.status == 200:
            return True
        assert_unauthorized(resp)
        return False


class User:
    """A registered test user: credentials plus the token pair of its last sign-in."""

    def __init__(self, address, phone, password, body):
        self.email = address
        self.phone = phone
        self.password = password
        self.id = body["user"]["id"]
        self.access = body["accessToken"]
        self.refresh = body["refreshToken"]
        self.body = body

    def login_body(self, **extra):
        body = {"email": self.email} if self.email else {"phone": self.phone}
        body["password"] = self.password
        body.update(extra)
        return body


def new_user(api, with_email=True, with_phone=False, **extra):
    """Register a fresh user; fails the test unless the answer is 201."""
    address = unique_email() if with_email else None
    phone = unique_phone() if with_phone else None
    password = extra.pop("password", None) or unique_password()
    body = {"password": password}
    if address:
        body["email"] = address
    if phone:
        body["phone"] = phone
    body.update(extra)
    resp = api.register(body)
    if resp.status != 201:
        raise AssertionError(f"registration failed: {resp!r}")
    return User(address, phone, password, resp.json)


def login_ok(api, user, **extra):
    """Log a user in; fails unless 200; returns the token pair body."""
    resp = api.login(user.login_body(**extra))
    if resp.status != 200:
        raise AssertionError(f"login failed: {resp!r}")
    return resp.json


def session_ids(api, access_token):
    resp = api.sessions(access_token)
    if resp.status != 200:
        raise AssertionError(f"GET /auth/sessions failed: {resp!r}")
    return [s["id"] for s in resp.json]


def current_session_id(api, access_token):
    resp = api.sessions(access_token)
    if resp.status != 200:
        raise AssertionError(f"GET /auth/sessions failed: {resp!r}")
    current = [s["id"] for s in resp.json if s.get("current") is True]
    if len(current) != 1:
        raise AssertionError(f"expected one current session, got {resp.json!r}")
    return current[0]


def run_parallel(functions, timeout=120):
    """Run callables at the same instant on their own threads; return their results in order.

    A barrier releases all threads together so their requests overlap. An
    exception in a thread is re-raised in the caller.
    """
    barrier = threading.Barrier(len(functions))
    results = [None] * len(functions)
    errors = [None] * len(functions)

    def runner(index, function):
        try:
            barrier.wait(timeout=timeout)
            results[index] = function()
        except BaseException as exc:  # re-raised in the caller below
            errors[index] = exc

    threads = [threading.Thread(target=runner, args=(i, f), daemon=True)
               for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        if thread.is_alive():
            raise AssertionError(f"a parallel request did not finish within {timeout} s")
    for error in errors:
        if error is not None:
            raise error
    return results


def sha256(data):
    return hashlib.sha256(data).digest()
