"""scoping_support: the fixtures and checks of test_core_branch_scoping.py
(issue 15, "Branch scoping, in the database"; docs/core-banking.md "Branch
scoping").

- `BranchRecords`: one branch's customer, two accounts, a standing order, a
  passbook, a posted journal and a pending one (its parked change), all made
  over HTTP by a teller of that branch while scoping is off;
- `switch`: the flag changed through maker-checker (PUT parked by one person,
  approved by another), checking that nothing changes before the approval;
- `assert_as_if_absent`: a scoped read of another branch's record answers
  exactly what the same read of an id that exists nowhere answers (status,
  error code and message, with the id put back), so a teller cannot tell
  "another branch's" from "absent";
- `force_off`: the safety net of the module's cleanup (superuser SQL) so that
  a failed test never leaves the shared e2e database scoped for the modules
  that run after it.
"""
import datetime

import cbclient as cb
import corebanking as C

MISSING_UUID = "00000000-0000-4000-8000-000000000000"
SCOPING_PATH = "/v1/platform/branch-scoping"


def flag_in_database():
    return C.db().scalar("SELECT branch_scoping FROM corebank.platform_config")


def force_off():
    """Superuser fallback of the cleanup: scoping off whatever state a failed test left."""
    if flag_in_database():
        C.db().execute("UPDATE corebank.platform_config SET branch_scoping = false")


def reject_pending_switches(api, checker):
    """Cleanup: a switch left parked by a failed test would make every later PUT 409 (one pending per entity)."""
    for row in C.db().rows("SELECT id::text FROM corebank.parked_changes"
                           " WHERE operation = 'branch_scoping.update' AND status = 'PENDING'"):
        C.reject(api, checker, row["id"], reason="branch scoping test cleanup")


def enabled(api):
    return C.ok(api.get(SCOPING_PATH))["enabled"]


def park(api, maker, on):
    """PUT {"enabled": on} as `maker`: a PENDING branch_scoping.update, the flag not changed yet."""
    before = enabled(api)
    change = C.ok(api.put(SCOPING_PATH, json_body={"enabled": on}, token=maker))
    if (change["operation"], change["status"], change["makerId"]) != ("branch_scoping.update", "PENDING", maker.id):
        raise AssertionError(f"PUT {SCOPING_PATH} did not park a pending change by its maker: {change}")
    if enabled(api) != before:
        raise AssertionError("the flag changed before the parked change was approved")
    return change


def approve(api, checker, change):
    decided = C.approve(api, checker, change["id"])
    if decided["status"] != "APPROVED":
        raise AssertionError(f"approval of {change['id']} is {decided['status']}")
    return decided


def switch(api, maker, checker, on):
    """The flag set to `on` through maker-checker; answers it as GET reads it afterwards."""
    approve(api, checker, park(api, maker, on))
    return enabled(api)


def without_timestamp(body):
    return {k: v for k, v in body.items() if k != "timestamp"} if isinstance(body, dict) else body


def assert_as_if_absent(test, api, method, path, hidden_id, token, **kw):
    """`path` (holding `hidden_id`) answers as it does for an id that exists nowhere."""
    hidden = api.request(method, path, token=token, **kw)
    missing = api.request(method, path.replace(hidden_id, MISSING_UUID), token=token, **kw)
    test.assertEqual(hidden.status, missing.status, f"{method} {path}: {hidden!r} against absent {missing!r}")
    expected = missing.json_or_none()
    if isinstance(expected, dict) and "message" in expected:
        expected = dict(expected, message=expected["message"].replace(MISSING_UUID, hidden_id))
    test.assertEqual(without_timestamp(hidden.json_or_none()), without_timestamp(expected),
                     f"{method} {path} must read as if the record did not exist")
    return hidden


def branch_ids(api):
    return {code: b["id"] for code, b in C.branches(api).items()}


class BranchRecords:
    """One branch's records, made over HTTP by `teller` (a teller of that branch), scoping off.

    The journals are captured by the teller with the branch's id; `journal` is
    approved by `checker` (head office) and posted, `pending` stays parked.
    """

    def __init__(self, api, code, teller, checker, tag, branch_id):
        self.code = code
        self.teller = teller
        self.customer = C.new_individual(api, teller, last_name=f"Scope{tag}{code}")
        self.account = C.funded_account(api, teller, 50_000, customer=self.customer)
        self.target = C.funded_account(api, teller, 100, customer=self.customer)
        self.order = C.ok(api.post("/v1/standing-orders", token=teller, json_body={
            "sourceAccountId": self.account["id"], "targetAccountId": self.target["id"], "amountMinor": 100,
            "frequency": "MONTHLY", "startDate": str(datetime.date.today() + datetime.timedelta(days=30))}))
        self.passbook = C.ok(api.post(f"/v1/accounts/{self.account['id']}/passbooks", token=teller))
        self.reference = f"SCOPE-{tag}-{code}"
        self.journal = C.capture_approve_post(api, teller, checker, C.journal(
            amount=700, reference=self.reference, branchId=branch_id))
        self.pending = C.capture(api, teller, C.journal(amount=300, reference=f"{self.reference}-P",
                                                        branchId=branch_id))
        for record, what in ((self.customer, "customer"), (self.account, "account"), (self.target, "account")):
            if record.get("branchCode") != code:
                raise AssertionError(f"the {what} made by a {code} teller is in {record.get('branchCode')}")

    def reads(self):
        """(path, id) of every single read of this branch's records that scoping hides."""
        return [
            (f"/v1/customers/{self.customer['id']}", self.customer["id"]),
            (f"/v1/customers/{self.customer['id']}/profile", self.customer["id"]),
            (f"/v1/accounts/{self.account['id']}", self.account["id"]),
            (f"/v1/accounts/{self.account['id']}/statement", self.account["id"]),
            (f"/v1/accounts/{self.account['id']}/balance", self.account["id"]),
            (f"/v1/standing-orders/{self.order['id']}", self.order["id"]),
            (f"/v1/passbooks/{self.passbook['id']}", self.passbook["id"]),
            (f"/v1/transactions/{self.journal['id']}", self.journal["id"]),
            (f"/v1/approvals/{self.pending['parkedChangeId']}", self.pending["parkedChangeId"]),
        ]

    def reject_pending(self, api, checker):
        if C.count("parked_changes", "id = %s AND status = 'PENDING'", (self.pending["parkedChangeId"],)):
            C.reject(api, checker, self.pending["parkedChangeId"], reason="branch scoping test cleanup")


def pending_change_ids(api, token):
    """Every PENDING parked change id the caller's list shows (all pages)."""
    seen, page = [], 0
    while True:
        body = C.ok(api.get(C.query("/v1/approvals", status="PENDING", page=page, size=200), token=token))
        seen += [c["id"] for c in body["content"]]
        page += 1
        if page >= body["totalPages"]:
            return seen
