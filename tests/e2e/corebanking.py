"""corebanking: shared helpers for the core banking service's end-to-end tests.

The core service (CB_CORE_URL, port 8080 in production) needs an `X-API-Key`
on every non-public endpoint and, for operations that record a person, the
access token of a staff user of the identity service (CB_ID_URL). This module
gives the tests:

- `Core`: an HTTP client for the core service that sends the key and the
  staff token and validates EVERY response body it receives against the
  operation's response schema in the service's own GET /openapi.json
  (`OpenApi.check`, jsonschema Draft 2020-12 with $refs resolved);
- API keys (`admin_key()` from the CLI, `new_key()` through POST /v1/api-keys)
  and staff users (`new_staff()`: CLI staff-create plus a login);
- journal helpers (`journal()`, `capture()`, `approve()`, `post()`,
  `capture_approve_post()`), period and GL account helpers;
- database checks through cbclient's superuser connection (row counts,
  `ledger_verify_chain()`, `ledger_check_balances()`, the trial balance).

Everything is unique per run (RUN_TAG), so the tests can run repeatedly
against one database and next to the identity suite.
"""

import json
import random
import re
import threading
import unittest
import urllib.parse
import uuid

import cbclient as cb
import totp_support as totp
import openapi_check

CORE_URL = cb.CORE_URL
ID_URL = cb.ID_URL
RUN_TAG = cb.RUN_TAG
MAX_BODY_BYTES = 1024 * 1024

UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
HASH_RE = re.compile(r"^[0-9a-f]{64}$")
ZERO_UUID = "00000000-0000-0000-0000-000000000000"
BRANCH_CODES = {"HO", "HRE", "BYO", "MUT", "GWE", "MSV"}

PUBLIC_PATHS = ("/actuator/health", "/v1/platform", "/v1/platform/compliance",
                "/v1/platform/architecture", "/v1/platform/faq", "/v1/platform/banks",
                "/openapi.json")


def require_core():
    """Skip the calling module unless both the core and the identity service are configured."""
    if not CORE_URL:
        raise unittest.SkipTest("CB_CORE_URL is not set: the core banking tests need a running core service")
    if not ID_URL:
        raise unittest.SkipTest("CB_ID_URL is not set: the core banking tests need the identity service"
                                " for staff tokens")
    cb.require(cb.CLI, "CB_CLI")
    cb.require(cb.DATABASE_URL, "CB_DATABASE_URL")


def uid():
    return uuid.uuid4().hex[:10]


# ---------------------------------------------------------------- OpenAPI validation

# The validator is shared with the identity and verification checks (openapi_check).
OpenApi = openapi_check.OpenApi


_openapi = None
_openapi_lock = threading.Lock()


def openapi():
    """The service's OpenAPI document (fetched once, without a key)."""
    global _openapi
    with _openapi_lock:
        if _openapi is None:
            resp = cb.HttpClient(CORE_URL).get("/openapi.json")
            if resp.status != 200:
                raise AssertionError(f"GET /openapi.json failed: {resp!r}")
            _openapi = OpenApi(resp.json)
    return _openapi


# ---------------------------------------------------------------- HTTP client

_UNSET = cb._UNSET


class Core:
    """The core banking service: sends X-API-Key and a staff token, validates every response.

    key: the API key sent by default (None sends none); every call may pass
    key= (None to omit) and token= (a staff access token, or a Staff).
    """

    def __init__(self, key=None, base_url=None, keepalive=False, validate=True):
        self.http = cb.HttpClient(base_url or CORE_URL, keepalive=keepalive)
        self.key = key
        self.validate = validate

    def request(self, method, path, *, key=_UNSET, token=None, headers=None, validate=None, **kw):
        send = dict(headers or {})
        key = self.key if key is _UNSET else key
        if key is not None:
            send["X-API-Key"] = key
        if isinstance(token, Staff):
            token = token.token
        resp = self.http.request(method, path, headers=send, token=token, **kw)
        if resp.status >= 500 and resp.status != 503:
            raise AssertionError(f"server error on {method} {path}: {resp!r}")
        if self.validate if validate is None else validate:
            openapi().check(method, path, resp)
        return resp

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    def put(self, path, **kw):
        return self.request("PUT", path, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)


def ok(resp, status=200):
    """The JSON body of a response that must have `status`; AssertionError otherwise."""
    if resp.status != status:
        raise AssertionError(f"expected HTTP {status}, got {resp!r}")
    return resp.json


def query(path, **params):
    """path?params, dropping None values."""
    items = [(k, v) for k, v in params.items() if v is not None]
    return path + ("?" + urllib.parse.urlencode(items) if items else "")


# ---------------------------------------------------------------- keys and staff

_admin_key = None
_key_lock = threading.Lock()


def cli_key(scopes="admin", name=None):
    """A core API key made by `corebankd key-create` (stdout is the key and nothing else)."""
    out = cb.cli("key-create", "--service", "core", "--scopes", scopes, "--name",
                 name or f"e2e-{RUN_TAG}-{uid()}").strip()
    if not out or len(out.split()) != 1:
        raise AssertionError(f"key-create printed {out!r}, not one key")
    return out


def admin_key():
    """An admin key for this process, made once with the CLI."""
    global _admin_key
    with _key_lock:
        if _admin_key is None:
            _admin_key = cli_key("admin", f"e2e-core-admin-{RUN_TAG}")
    return _admin_key


def new_key(scopes, rate=None, name=None, admin=None):
    """A key created through POST /v1/api-keys; returns its ApiKeyCreatedResponse body."""
    body = {"name": name or f"e2e-{RUN_TAG}-{uid()}", "scopes": list(scopes)}
    if rate is not None:
        body["rateLimitPerMinute"] = rate
    resp = Core(admin or admin_key()).post("/v1/api-keys", json_body=body)
    return ok(resp, 201)


class Staff:
    """A staff user of the identity service with a live access token."""

    def __init__(self, user_id, email, password, roles, token, body):
        self.id = user_id
        self.email = email
        self.password = password
        self.roles = roles
        self.token = token
        self.body = body

    def __repr__(self):
        return f"<Staff {self.email} {self.roles}>"


def login(email, password, authenticator=None):
    """Signs a staff member in; with an authenticator (a role of staff_mfa_roles,
    enrolled by staff-create) the login carries a fresh TOTP code."""
    body = {"email": email, "password": password}
    if authenticator is not None:
        body["totpCode"] = authenticator.next_code()
    resp = cb.HttpClient(ID_URL).post("/auth/login", json_body=body)
    if resp.status != 200:
        raise AssertionError(f"staff login failed: {resp!r}")
    return resp.json


def new_staff(*roles, branch=None):
    """A fresh staff user (CLI staff-create) signed in on the identity service."""
    email = cb.unique_email("staff")
    password = cb.unique_password()
    args = ["staff-create", "--email", email, "--password", password, "--roles", ",".join(roles)]
    if branch:
        args += ["--branch", branch]
    out = cb.cli(*args)
    found = re.findall(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", out)
    if len(found) != 1:
        raise AssertionError(f"staff-create printed no single user id: {out!r}")
    # Roles of staff_mfa_roles (admin) are enrolled in TOTP by staff-create,
    # which prints the secret on its second line (docs/identity.md).
    lines = out.splitlines()
    authenticator = totp.Authenticator(lines[1].strip()) if len(lines) > 1 else None
    body = login(email, password, authenticator)
    if body["user"]["id"] != found[0].lower():
        raise AssertionError(f"login id {body['user']['id']} != staff-create id {found[0]}")
    staff = Staff(found[0].lower(), email, password, list(roles), body["accessToken"], body)
    staff.authenticator = authenticator
    return staff


# ---------------------------------------------------------------- database

def db():
    return cb.db()


def count(table, where="true", params=()):
    return db().scalar(f"SELECT count(*) FROM corebank.{table} WHERE {where}", params)


def table_counts(*tables):
    return {t: count(t) for t in tables}


LEDGER_TABLES = ("transactions", "journal_entries", "parked_changes", "gl_accounts", "gl_budgets",
                 "branches", "accounting_periods", "numbering_config", "api_keys",
                 "transaction_lines_proposed", "idempotency_keys")


def ledger_counts():
    """Row counts of the tables an endpoint of this service may write, for 'nothing written' checks."""
    present = {r["table_name"] for r in db().rows(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'corebank'")}
    return {t: count(t) for t in LEDGER_TABLES if t in present}


def chain_problems():
    return db().rows("SELECT * FROM corebank.ledger_verify_chain()")


def balance_problems():
    return db().rows("SELECT * FROM corebank.ledger_check_balances()")


def trial_balance_sums(as_of="current_date"):
    """{currency: [debits, credits]} of `SELECT * FROM corebank.trial_balance_as_of(date)`."""
    sums = {}
    for row in db().rows(f"SELECT * FROM corebank.trial_balance_as_of({as_of})"):
        pair = sums.setdefault(row["currency"], [0, 0])
        pair[0] += row["debit_minor"]
        pair[1] += row["credit_minor"]
    return sums


def business_today():
    """The engine's today, read from the database (corebank.business_today())."""
    return db().scalar("SELECT corebank.business_today()")


# ---------------------------------------------------------------- ledger helpers

def journal(debit="1000", credit="2000", amount=1000, currency="USD", **extra):
    """A balanced two-line CreateTransactionRequest by GL code (or glAccountId when a UUID is given)."""

    def line(account, side):
        entry = {"side": side, "amountMinor": amount}
        if UUID_RE.match(str(account)):
            entry["glAccountId"] = account
        else:
            entry["glAccountCode"] = account
            entry["currency"] = currency
        return entry

    body = {"reference": f"E2E-{RUN_TAG}-{uid()}", "description": "e2e manual journal",
            "entries": [line(debit, "DEBIT"), line(credit, "CREDIT")]}
    body.update(extra)
    return body


def capture(api, maker, body, headers=None):
    return ok(api.post("/v1/transactions", json_body=body, token=maker, headers=headers))


def approve(api, checker, change_id, comment=None):
    body = {} if comment is None else {"comment": comment}
    return ok(api.post(f"/v1/approvals/{change_id}/approve", json_body=body, token=checker))


def reject(api, checker, change_id, reason="not right"):
    return ok(api.post(f"/v1/approvals/{change_id}/reject", json_body={"reason": reason}, token=checker))


def post(api, operator, tx_id):
    return ok(api.post(f"/v1/transactions/{tx_id}/post", token=operator))


def get_tx(api, tx_id):
    return ok(api.get(f"/v1/transactions/{tx_id}"))


def capture_approve_post(api, maker, checker, body):
    """Capture a journal, approve its release as checker, post it as maker; returns the POSTED transaction."""
    tx = capture(api, maker, body)
    approve(api, checker, tx["parkedChangeId"])
    return post(api, maker, tx["id"])


def new_individual(api, teller, last_name="Test"):
    """A fresh individual customer with a unique last name and national id."""
    return ok(api.post("/v1/customers", token=teller, json_body={
        "type": "INDIVIDUAL", "firstName": "Fixture", "lastName": f"{last_name}{uid()}",
        "dateOfBirth": "1990-04-01", "nationalId": f"63-{uid()}", "nationality": "ZW"}))


def funded_account(api, teller, opening, customer=None, last_name="Test"):
    """A SAV-TIER account (no minimums, no fees) opened with `opening` minor units, for a fresh customer
    unless one is given; returns the account."""
    customer = customer or new_individual(api, teller, last_name)
    return ok(api.post("/v1/accounts", token=teller, json_body={
        "customerId": customer["id"], "productCode": "SAV-TIER", "initialDeposit": {"amountMinor": opening}}))


def new_gl_account(api, actor, type_="ASSET", name=None, **extra):
    """A fresh USD GL account (and its ZWG mirror) with a unique code; returns the USD account."""
    code = f"E{RUN_TAG.upper()[:6]}{random.randint(0, 16 ** 6 - 1):06X}"
    body = {"code": code, "name": name or f"e2e {code}", "type": type_}
    body.update(extra)
    return ok(api.post("/v1/gl/accounts", json_body=body, token=actor), 201)


def gl_account(api, account_id):
    return ok(api.get(f"/v1/gl/accounts/{account_id}"))


def branches(api):
    return {b["code"]: b for b in ok(api.get("/v1/branches"))}


def unique_past_month():
    """A month far in the past that no other test of this run uses (periods are global)."""
    with _month_lock:
        while True:
            month = f"{random.randint(1950, 2009)}-{random.randint(1, 12):02d}"
            if month not in _used_months:
                _used_months.add(month)
                return month


_used_months = set()
_month_lock = threading.Lock()


def approval_rows_for(entity_id):
    return db().rows("SELECT * FROM corebank.parked_changes WHERE entity_id = %s ORDER BY created_at",
                     (str(entity_id),))


def expire_parked_change(change_id, hours_ago=1):
    """Move a PENDING parked change's creation and expiry into the past (superuser, one transaction).

    The parked_changes guard refuses any change of expires_at, so this
    disables it inside a single database transaction (DDL is transactional:
    no other session ever sees the trigger disabled), as the pgTAP helpers do.
    """
    import psycopg2
    conn = psycopg2.connect(cb.DATABASE_URL)
    try:
        with conn:
            with conn.cursor() as cur:
                cur.execute("ALTER TABLE corebank.parked_changes DISABLE TRIGGER parked_changes_guard")
                cur.execute("UPDATE corebank.parked_changes SET created_at = now() - make_interval(hours => %s + 72),"
                            " expires_at = now() - make_interval(hours => %s) WHERE id = %s AND status = 'PENDING'",
                            (hours_ago, hours_ago, str(change_id)))
                if cur.rowcount != 1:
                    raise AssertionError(f"parked change {change_id} is not PENDING")
                cur.execute("ALTER TABLE corebank.parked_changes ENABLE TRIGGER parked_changes_guard")
    finally:
        conn.close()
