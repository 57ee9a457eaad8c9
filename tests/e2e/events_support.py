"""events_support: shared helpers for the event service end-to-end tests.

The event service (03-verification-and-events.md part B, docs/events.md) has
its own body shapes, so these helpers check them exactly:
  success         {success: true, data, message?}
  business error  {success: false, error: {code, message, detail?}}
  auth / limits   {detail: "<text>"}                   401, 403, 429
  validation      {detail: [{type, loc, msg, input}]}   422
Keys are made with the CLI (`corebankd key-create --service events ...`), one
per test class or test, with a callerId unique to the run, so runs never see
each other's events.
"""

import datetime
import json
import urllib.parse
import uuid

import cbclient as cb

# The registry of the specification: type -> a minimal valid payload, in the
# order of the required fields (the first missing one is the one reported).
VALID_PAYLOADS = {
    "session.started": {"sessionId": "s-1"},
    "page.viewed": {"path": "/home"},
    "identity.registered": {},
    "identity.updated": {"changed": ["email"]},
    "identity.claimed": {"claimedType": "email", "claimedValue": "claimed@example.com"},
    "order.created": {"orderId": "o-1", "total": "12.50", "currency": "USD"},
    "order.status_changed": {"orderId": "o-1", "status": "shipped"},
    "order.paid": {"orderId": "o-1", "subtotal": "10.00", "total": "12.50", "currency": "USD"},
    "payment.completed": {"paymentId": "p-1", "amount": "12.50", "currency": "USD"},
    "payment.failed": {"paymentId": "p-1"},
    "billpay.initiated": {"transactionId": "t-1", "amount": "20", "total": "20.30", "currency": "ZWG",
                          "channel": "electricity"},
    "billpay.completed": {"transactionId": "t-1", "amount": "20", "total": "20.30", "currency": "ZWG",
                          "channel": "electricity"},
    "billpay.failed": {"transactionId": "t-1"},
    "ticket.purchased": {"orderId": "o-2", "eventId": "show-42", "quantity": 2},
    "loan.applied": {"applicationId": "a-1", "amountRequested": "500.00", "currency": "USD"},
    "loan.status_changed": {"applicationId": "a-1", "status": "approved"},
    "loan.disbursed": {"applicationId": "a-1", "amount": "500.00", "currency": "USD"},
    "loan.repayment": {"applicationId": "a-1", "amount": "50.00", "currency": "USD", "status": "on_time"},
    "notification.sent": {"messageId": "m-1", "channel": "sms"},
    "notification.delivered": {"messageId": "m-1", "channel": "sms", "status": "delivered"},
    "consent.updated": {"purpose": "marketing", "status": "granted"},
}
MONEY_FIELDS = {
    "order.created": ["total"],
    "order.paid": ["subtotal", "total"],
    "payment.completed": ["amount"],
    "billpay.initiated": ["amount", "total"],
    "billpay.completed": ["amount", "total"],
    "loan.applied": ["amountRequested"],
    "loan.disbursed": ["amount"],
    "loan.repayment": ["amount"],
}
PLATFORMS = ["web", "android", "ios", "ussd", "whatsapp", "pos"]
BATCH_MAX = 500


def require_events_service():
    """Skip the calling module when no event service is configured."""
    cb.require(cb.EVENTS_URL, "CB_EVENTS_URL")


def unique(tag="e"):
    return f"{tag}-{cb.RUN_TAG}-{uuid.uuid4().hex[:12]}"


def make_key(scopes=("ingest", "events:read"), caller=None, rate_limit=None):
    """A new events API key; returns (key, caller)."""
    caller = caller or unique("caller")
    args = ["key-create", "--service", "events", "--scopes", ",".join(scopes), "--caller", caller]
    if rate_limit is not None:
        args += ["--rate-limit", str(rate_limit)]
    return cb.cli(*args).strip(), caller


def now_iso(offset_s=0):
    at = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=offset_s)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


def ev(event_type, payload=None, identity=None, event_id=None, occurred="2026-11-21T10:00:00Z", **extra):
    """One envelope; identity defaults to a fresh userId on the web platform."""
    envelope = {
        "eventId": event_id or unique("evt"),
        "type": event_type,
        "occurredAt": occurred,
        "identity": identity if identity is not None else {"platform": "web", "userId": unique("user")},
        "payload": payload if payload is not None else dict(VALID_PAYLOADS.get(event_type, {})),
    }
    envelope.update(extra)
    return envelope


class Events:
    """The event service as one caller (API key) sees it."""

    def __init__(self, key, caller=None):
        self.key = key
        self.caller = caller
        self.http = cb.HttpClient(cb.EVENTS_URL)

    def headers(self, extra=None):
        out = {"X-API-Key": self.key} if self.key is not None else {}
        out.update(extra or {})
        return out

    def post(self, events, **kw):
        return self.http.post("/v1/events", json_body={"events": events}, headers=self.headers(kw.pop("headers", None)),
                              **kw)

    def post_raw(self, body, **kw):
        return self.http.post("/v1/events", body=body, headers=self.headers(kw.pop("headers", None)), **kw)

    def ingest(self, events):
        """POST /v1/events that must succeed; returns data."""
        return assert_success(self.post(events))

    def get(self, path, **kw):
        return self.http.get(path, headers=self.headers(kw.pop("headers", None)), **kw)

    def put(self, path, json_body, **kw):
        return self.http.request("PUT", path, json_body=json_body, headers=self.headers(kw.pop("headers", None)),
                                 **kw)

    def lookup(self, **selectors):
        query = "&".join(f"{k}={urllib.parse.quote(str(v), safe='')}" for k, v in selectors.items())
        return self.get(f"/v1/customers/lookup?{query}")

    def customer_of(self, **selectors):
        """The customer object a selector finds (must exist)."""
        return assert_success(self.lookup(**selectors))


def _json_object(resp):
    content_type = resp.header("Content-Type") or ""
    if "json" not in content_type.lower():
        raise AssertionError(f"body is not declared JSON (Content-Type {content_type!r}): {resp!r}")
    body = resp.json
    if not isinstance(body, dict):
        raise AssertionError(f"body is not a JSON object: {resp!r}")
    return body


def assert_success(resp, status=200):
    """{success: true, data, message?}; returns data."""
    if resp.status != status:
        raise AssertionError(f"expected HTTP {status}, got {resp!r}")
    body = _json_object(resp)
    if body.get("success") is not True or "data" not in body or not set(body) <= {"success", "data", "message"}:
        raise AssertionError(f"not a success envelope: {resp!r}")
    if "message" in body and not isinstance(body["message"], str):
        raise AssertionError(f"message is not a string: {resp!r}")
    return body["data"]


def assert_business(resp, status, code, message=None):
    """{success: false, error: {code, message, detail?}}; returns error."""
    if resp.status >= 500 and status < 500:
        raise AssertionError(f"server error where {status} was expected: {resp!r}")
    if resp.status != status:
        raise AssertionError(f"expected HTTP {status}, got {resp!r}")
    body = _json_object(resp)
    if set(body) != {"success", "error"} or body["success"] is not False:
        raise AssertionError(f"not a business error envelope: {resp!r}")
    error = body["error"]
    if not isinstance(error, dict) or not {"code", "message"} <= set(error) <= {"code", "message", "detail"}:
        raise AssertionError(f"error is not {{code, message, detail?}}: {resp!r}")
    if error["code"] != code:
        raise AssertionError(f"error code {error['code']!r} != {code!r}: {resp!r}")
    if not isinstance(error["message"], str) or not error["message"]:
        raise AssertionError(f"error message missing: {resp!r}")
    if message is not None and error["message"] != message:
        raise AssertionError(f"message {error['message']!r} != {message!r}")
    return error


def assert_detail(resp, status, text=None):
    """{detail: "<text>"} (auth and rate-limit failures); returns the text."""
    if resp.status != status:
        raise AssertionError(f"expected HTTP {status}, got {resp!r}")
    body = _json_object(resp)
    if set(body) != {"detail"} or not isinstance(body["detail"], str) or not body["detail"]:
        raise AssertionError(f"not a {{detail: string}} body: {resp!r}")
    if text is not None and body["detail"] != text:
        raise AssertionError(f"detail {body['detail']!r} != {text!r}")
    return body["detail"]


def assert_validation(resp, *expected):
    """422 {detail: [{type, loc, msg, input}]} listing each (type, loc) of `expected`; returns the items."""
    if resp.status != 422:
        raise AssertionError(f"expected HTTP 422, got {resp!r}")
    body = _json_object(resp)
    if set(body) != {"detail"} or not isinstance(body["detail"], list) or not body["detail"]:
        raise AssertionError(f"not a {{detail: [...]}} body: {resp!r}")
    for item in body["detail"]:
        if not isinstance(item, dict) or not {"type", "loc", "msg", "input"} <= set(item):
            raise AssertionError(f"detail item is not {{type, loc, msg, input}}: {item!r}")
        if not isinstance(item["loc"], list) or not item["loc"] or item["loc"][0] not in ("body", "query", "path"):
            raise AssertionError(f"loc must be a path starting at body/query/path: {item!r}")
        if not isinstance(item["msg"], str) or not item["msg"]:
            raise AssertionError(f"msg missing: {item!r}")
    found = [(item["type"], item["loc"]) for item in body["detail"]]
    for type_, loc in expected:
        if (type_, list(loc)) not in found:
            raise AssertionError(f"({type_!r}, {list(loc)!r}) not among {found!r}")
    return body["detail"]


def statuses(data):
    """[(eventId, status, error or None)] of an ingest result."""
    return [(r["eventId"], r["status"], r.get("error")) for r in data["results"]]


def raw_json(resp):
    """The body as text (to check values the JSON parser would normalise, such as 1.50)."""
    return resp.body.decode("utf-8")


def dumps(value):
    return json.dumps(value, separators=(",", ":"))
