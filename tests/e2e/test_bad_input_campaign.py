"""The generated bad-input campaign over every operation of the four services (issue 13).

Malformed requests are generated from each service's served GET /openapi.json
(tests/e2e/campaign/): missing and unknown fields, wrong types, numbers past
their bounds and overflowing, empty and huge strings, invalid UTF-8, bad UUIDs
and dates, pattern and enum violations, bad path segments and query values,
malformed query strings (a bad `%` escape), duplicated JSON keys, deep
nesting, odd Content-Types on invalid bodies, oversized bodies and headers,
bodies on operations that take none, images that are not images; each with the
caller's valid credentials (a core admin key and a staff token, an identity
user token and OAuth client, the verification and event API keys, a session's
client token) or without any or with a wrong one.

Every case is invalid by construction, so every answer must be a 4xx with the
service's error body (verdict.py), never a 2xx, a 5xx or a dropped connection,
with a status the operation lists in its OpenAPI `responses` (a client or test
suite written from the document must find every status it can get), and
nothing may be written: the row counts of every table of the corebank
schema are the same before and after, except the tables listed in
WRITES_ALLOWED and the rows of BACKGROUND_ROWS (each with why).

Seeded (CB_CAMPAIGN_SEED, default 20261113) and bounded: CB_CAMPAIGN_CASES
cases (default 5000; at least 1000 must run) within CB_CAMPAIGN_SECONDS
(default 90). `./corebank fuzz-http --cases N --seconds S` runs this module
alone with a larger budget.
"""

import os
import sys
import time
import unittest

import cbclient as cb
import corebanking as C
import events_support as es
import verify_support as vs
from campaign import mutations, runner, snapshot, spec

CASES = int(os.environ.get("CB_CAMPAIGN_CASES") or 5000)
SECONDS = float(os.environ.get("CB_CAMPAIGN_SECONDS") or 90)
SEED = int(os.environ.get("CB_CAMPAIGN_SEED") or runner.DEFAULT_SEED)
CASES_MIN = 1000

# Tables whose row counts a refused request may change, and why.
WRITES_ALLOWED = {
    "api_key_rate_counters": "every request that presents a valid core API key counts against the key's"
                             " per-minute limit, refused or not (a bad request is still a request); one row"
                             " per key and minute",
}

# Rows a background job of corebankd writes while the campaign runs, whatever
# the requests do: the verification maintenance pass (every 10 s) expires the
# sessions earlier tests left pending (a session event, a webhook event and its
# deliveries). Only those rows are left out of the counts: {table: (rows counted, why)}.
BACKGROUND_ROWS = {
    "verify_session_events": ("t.event <> 'expired'", "the maintenance pass records `expired`"),
    "verify_webhook_events": ("t.type <> 'session.expired'", "and queues the `session.expired` webhook"),
    "verify_webhook_deliveries": ("t.event_id NOT IN (SELECT e.id FROM corebank.verify_webhook_events e"
                                  " WHERE e.type = 'session.expired')", "with one delivery per endpoint"),
}
COUNTED_ROWS = {table: condition for table, (condition, _why) in BACKGROUND_ROWS.items()}

# Answers the HTTP library (Pistache 0.0.5) gives by itself, before the tier
# sees the request. Its parser raises them and its Http::Handler::onInput
# writes them as plain text; the tier has no hook there short of replacing
# onInput. Named here so that the campaign still sends these cases and any
# other answer to them (a 5xx, a dropped connection) still fails.
UNPARSABLE_CONTENT_TYPES = {v for v in mutations.WRONG_CONTENT_TYPES if "/" not in v or v.count("/") > 1
                            or not v.isascii()}


def library_413(finding):
    return (finding.case.kind == "far_oversized_body" and finding.status == 413
            and finding.case.body is not None and len(finding.case.body) > mutations.library_cap(finding.case.op))


def library_415(finding):
    return finding.status == 415 and finding.case.headers.get("Content-Type") in UNPARSABLE_CONTENT_TYPES


# Findings not fixed yet: (name, predicate(finding), reason). Each is reported, none hides a new failure.
KNOWN_FAILURES = [
    ("library-413", library_413,
     "a body over the HTTP library's buffer (twice the largest body limit + 64 KiB: 2.06 MiB on identity and"
     " events, 8.06 MiB on core, 10.2 MiB on verify) is answered 413 by Pistache itself, in plain text"
     " (`Request exceeded maximum buffer size`) instead of the service's error body, and only after reading"
     " for up to 20 s; bodies between the service's limit and that buffer get the proper 413"),
    ("library-415", library_415,
     "a Content-Type that is no media type at all (`garbage`, `a/b/c`, non-ASCII) is answered 415 by"
     " Pistache's header parser, in plain text (`Unknown Media Type`), instead of the service's error body"),
]


def setUpModule():
    for value, name in ((cb.CORE_URL, "CB_CORE_URL"), (cb.ID_URL, "CB_ID_URL"), (cb.VERIFY_URL, "CB_VERIFY_URL"),
                        (cb.EVENTS_URL, "CB_EVENTS_URL"), (cb.DATABASE_URL, "CB_DATABASE_URL"), (cb.CLI, "CB_CLI")):
        cb.require(value, name)


def served_document(base_url, service):
    resp = cb.HttpClient(base_url).get("/openapi.json")
    if resp.status != 200:
        raise AssertionError(f"{service}: GET /openapi.json failed: {resp!r}")
    doc = spec.Document(service, resp.json)
    return doc, spec.operations(doc)


def contexts():
    """The four services with valid credentials, wrong ones, and a few real ids."""
    out = []
    core_key = C.admin_key()
    staff = C.new_staff("admin", "branch_manager", "supervisor", "teller")
    api = C.Core(core_key)
    gl = C.new_gl_account(api, staff, "EXPENSE")
    products = C.ok(api.get("/v1/deposit-products", token=staff))
    product_items = products if isinstance(products, list) else products.get("items") or products.get("content") or []
    known = {("/v1/branches/{id}", "id"): C.branches(api)["HRE"]["id"], ("/v1/gl/accounts/{id}", "id"): gl["id"]}
    if product_items:
        known[("/v1/deposit-products/{id}", "id")] = product_items[0]["id"]
    doc, ops = served_document(cb.CORE_URL, "core")
    out.append(mutations.Context(doc, ops, cb.CORE_URL,
                                 {"apiKey": {"X-API-Key": core_key}, "staffBearer": {"Authorization": f"Bearer {staff.token}"}},
                                 known, {"apiKey": {"X-API-Key": "cbk_not_a_key"},
                                         "staffBearer": {"Authorization": "Bearer not.a.token"}}))

    identity = cb.Identity()
    user = cb.new_user(identity)
    client_id, secret = cb.create_client()
    doc, ops = served_document(cb.ID_URL, "identity")
    out.append(mutations.Context(doc, ops, cb.ID_URL,
                                 {"bearerAuth": {"Authorization": f"Bearer {user.body['accessToken']}"},
                                  "clientBasic": {"Authorization": cb.basic_auth(client_id, secret)}},
                                 {}, {"bearerAuth": {"Authorization": "Bearer garbage"},
                                      "clientBasic": {"Authorization": cb.basic_auth("nobody", "wrong")}}))

    verify_key = vs.api_key(scopes=("sessions:read", "sessions:write", "webhooks:manage"))
    session = vs.create_session(vs.VerifyApi(verify_key), flow="liveness+facematch+document")
    # A real endpoint id for the webhook-endpoint operations, disabled so that it receives nothing.
    endpoint_id, _secret = vs.add_webhook(f"https://93.184.215.14/campaign-{cb.RUN_TAG}")
    vs.disable_webhook(endpoint_id)
    doc, ops = served_document(cb.VERIFY_URL, "verify")
    out.append(mutations.Context(doc, ops, cb.VERIFY_URL,
                                 {"apiKey": {"Authorization": f"Bearer {verify_key}"},
                                  "clientToken": {"Authorization": f"Bearer {vs.token_of(session)}"}},
                                 {("*", "session_id"): session["sessionId"], ("*", "endpoint_id"): endpoint_id},
                                 {"apiKey": {"Authorization": "Bearer vk_nope"},
                                  "clientToken": {"Authorization": "Bearer ct_nope"}}))

    events_key, _caller = es.make_key()
    doc, ops = served_document(cb.EVENTS_URL, "events")
    out.append(mutations.Context(doc, ops, cb.EVENTS_URL, {"ApiKey": {"X-API-Key": events_key}}, {},
                                 {"ApiKey": {"X-API-Key": "ek_nope"}}))
    return out


def known_failure(finding):
    for name, predicate, _reason in KNOWN_FAILURES:
        if predicate(finding):
            return name
    return None


def progress(text):
    print(f"  campaign: {text}", file=sys.stderr, flush=True)


class BadInputCampaignTest(unittest.TestCase):

    def test_every_malformed_request_is_refused_and_writes_nothing(self):
        """At least 1,000 generated malformed requests: each a 4xx with the error body, no row written."""
        targets = contexts()
        db = cb.db()
        before = snapshot.row_counts(db, COUNTED_ROWS)
        result = runner.run(targets, CASES, SECONDS, SEED, known_failure, progress)
        time.sleep(0.2)  # let the last refused request's transaction end
        after = snapshot.row_counts(db, COUNTED_ROWS)
        progress(result.summary())
        show = int(os.environ.get("CB_CAMPAIGN_SHOW") or 40)
        for finding in result.findings[:show]:
            progress(f"finding: {finding}")
        for name, count in sorted(result.known.items()):
            progress(f"known failure {name}: {count} case(s)")
        operations = sum(len(ctx.operations) for ctx in targets)
        self.assertGreaterEqual(result.cases, min(CASES, CASES_MIN),
                                f"only {result.cases} cases ran within {SECONDS:.0f} s: {result.summary()}")
        if not result.cut:
            self.assertEqual(len(result.operations), operations, "every operation got cases")
        self.assertGreater(result.by_auth["with"], 0)
        self.assertGreater(result.by_auth["without"], 0)
        written = snapshot.changes(before, after, WRITES_ALLOWED)
        shown = "\n".join(str(f) for f in result.findings[:show])
        self.assertEqual((len(result.findings), written), (0, {}),
                         f"{len(result.findings)} findings, rows written (table: (before, after)) {written}:\n{shown}")


if __name__ == "__main__":
    unittest.main()
