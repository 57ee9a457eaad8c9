"""Platform configuration, numbering, the chart of accounts, budgets and branches.

GET/PUT /v1/platform/config, GET /v1/platform/numbering and
PUT /v1/platform/numbering/{entityType}, GET/POST /v1/gl/accounts and
GET/PUT /v1/gl/accounts/{id}, GET/PUT /v1/gl/budgets, GET /v1/branches and
GET/PUT /v1/branches/{id} (docs/core-banking.md, docs/design/ledger.md).
Global settings changed here are put back at the end of each test.
"""
import datetime
import unittest

import cbclient as cb
import corebanking as C

STANDARD_CHART = {"1000": "ASSET", "1010": "ASSET", "1100": "ASSET", "1200": "ASSET", "1300": "ASSET",
                  "1400": "ASSET", "1410": "ASSET", "1420": "ASSET", "1900": "ASSET", "2000": "LIABILITY",
                  "2010": "LIABILITY", "2020": "LIABILITY", "2100": "LIABILITY", "2900": "LIABILITY",
                  "3000": "EQUITY", "3100": "EQUITY", "4000": "INCOME", "4100": "INCOME", "4200": "INCOME",
                  "5000": "EXPENSE", "5100": "EXPENSE", "5200": "EXPENSE", "5300": "EXPENSE"}


def setUpModule():
    C.require_core()


class AdminTestBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = C.Core(C.admin_key())
        cls.admin = C.new_staff("admin")
        cls.manager = C.new_staff("branch_manager")
        cls.teller = C.new_staff("teller")
        cls.supervisor = C.new_staff("supervisor")


class PlatformConfigTest(AdminTestBase):
    def tearDown(self):
        # Leave the engine's today unpinned and the zone at its default, whatever happened.
        row = C.db().one("SELECT today_override, business_time_zone FROM corebank.platform_config")
        if row["today_override"] is not None or row["business_time_zone"] != "Africa/Harare":
            self.api.put("/v1/platform/config", json_body={"todayOverride": None, "businessTimeZone": "Africa/Harare"},
                         token=self.admin, validate=False)

    def test_get_config(self):
        """GET /v1/platform/config returns zone Africa/Harare, today = the engine's today, lapse 72, USD and ZWG."""
        body = C.ok(self.api.get("/v1/platform/config"))
        self.assertEqual(body["businessTimeZone"], "Africa/Harare")
        self.assertEqual(body["today"], C.business_today().isoformat())
        self.assertIsNone(body["todayOverride"])
        self.assertEqual(body["makerCheckerLapseHours"], 72)
        self.assertEqual(body["baseCurrency"], "USD")
        self.assertEqual(sorted(c["code"] for c in body["currencies"]), ["USD", "ZWG"])
        self.assertTrue(all(c["minorUnits"] == 2 for c in body["currencies"]))

    def test_today_override_pins_and_clears(self):
        """PUT todayOverride pins today (and the default value date); null clears it again."""
        pinned = C.ok(self.api.put("/v1/platform/config", json_body={"todayOverride": "2025-06-30"},
                                   token=self.admin))
        self.assertEqual(pinned["todayOverride"], "2025-06-30")
        self.assertEqual(pinned["today"], "2025-06-30")
        self.assertEqual(C.ok(self.api.get("/v1/platform/config"))["today"], "2025-06-30")
        tx = C.capture(self.api, self.teller, C.journal())
        self.assertEqual(tx["valueDate"], "2025-06-30", "valueDate defaults to the engine's today")
        cleared = C.ok(self.api.put("/v1/platform/config", json_body={"todayOverride": None}, token=self.admin))
        self.assertIsNone(cleared["todayOverride"])
        self.assertEqual(cleared["today"], C.business_today().isoformat())
        self.assertNotEqual(cleared["today"], "2025-06-30")

    def test_time_zone_change(self):
        """PUT businessTimeZone to another IANA zone takes effect; today follows that zone."""
        changed = C.ok(self.api.put("/v1/platform/config", json_body={"businessTimeZone": "Pacific/Kiritimati"},
                                    token=self.admin))
        self.assertEqual(changed["businessTimeZone"], "Pacific/Kiritimati")
        utc_now = datetime.datetime.now(datetime.timezone.utc)
        kiritimati = (utc_now + datetime.timedelta(hours=14)).date().isoformat()
        self.assertEqual(changed["today"], kiritimati)
        restored = C.ok(self.api.put("/v1/platform/config", json_body={"businessTimeZone": "Africa/Harare"},
                                     token=self.admin))
        self.assertEqual(restored["businessTimeZone"], "Africa/Harare")

    def test_bad_time_zone_is_400(self):
        """An unknown time zone is 400 VALIDATION_ERROR naming businessTimeZone; nothing changes."""
        resp = self.api.put("/v1/platform/config", json_body={"businessTimeZone": "Mars/Olympus_Mons"},
                            token=self.admin)
        cb.assert_validation(resp, "businessTimeZone")
        zone = C.db().scalar("SELECT business_time_zone FROM corebank.platform_config")
        self.assertEqual(zone, "Africa/Harare")

    def test_bad_config_values_are_400(self):
        """A bad date, a lapse outside 1..8760 and an empty body are 400 VALIDATION_ERROR."""
        for body, field in (({"todayOverride": "2025-02-30"}, "todayOverride"),
                            ({"todayOverride": "tomorrow"}, "todayOverride"),
                            ({"makerCheckerLapseHours": 0}, "makerCheckerLapseHours"),
                            ({"makerCheckerLapseHours": 8761}, "makerCheckerLapseHours"),
                            ({}, None)):
            with self.subTest(body=body):
                resp = self.api.put("/v1/platform/config", json_body=body, token=self.admin)
                if field:
                    cb.assert_validation(resp, field)
                else:
                    cb.assert_error(resp, 400, "VALIDATION_ERROR")

    def test_only_admin_staff_changes_config(self):
        """A branch manager with an admin key is 403 on PUT /v1/platform/config."""
        resp = self.api.put("/v1/platform/config", json_body={"makerCheckerLapseHours": 72}, token=self.manager)
        cb.assert_error(resp, 403, "FORBIDDEN")

    def test_config_change_needs_a_staff_token(self):
        """PUT /v1/platform/config without a staff token is 401."""
        cb.assert_error(self.api.put("/v1/platform/config", json_body={"makerCheckerLapseHours": 72}),
                        401, "UNAUTHORIZED")


class NumberingTest(AdminTestBase):
    def current(self, entity_type):
        items = C.ok(self.api.get("/v1/platform/numbering"))
        return {i["entityType"]: i for i in items}[entity_type]

    def test_list_numbering(self):
        """GET /v1/platform/numbering lists LOAN, ACCOUNT, TRANSACTION, APPLICATION with consistent examples."""
        items = C.ok(self.api.get("/v1/platform/numbering"))
        self.assertEqual(sorted(i["entityType"] for i in items), ["ACCOUNT", "APPLICATION", "LOAN", "TRANSACTION"])
        for item in items:
            self.assertEqual(item["example"], f"{item['prefix']}{item['nextValue']:0{item['padding']}d}")

    def test_update_prefix_and_padding(self):
        """PUT /v1/platform/numbering/ACCOUNT changes prefix and padding; the example follows."""
        original = self.current("ACCOUNT")
        try:
            body = C.ok(self.api.put("/v1/platform/numbering/ACCOUNT", json_body={"prefix": "ACX-", "padding": 6},
                                     token=self.admin))
            self.assertEqual((body["entityType"], body["prefix"], body["padding"]), ("ACCOUNT", "ACX-", 6))
            self.assertEqual(body["nextValue"], original["nextValue"])
            self.assertEqual(body["example"], f"ACX-{original['nextValue']:06d}")
            self.assertEqual(self.current("ACCOUNT")["prefix"], "ACX-")
        finally:
            C.ok(self.api.put("/v1/platform/numbering/ACCOUNT",
                              json_body={"prefix": original["prefix"], "padding": original["padding"]},
                              token=self.admin))

    def test_next_value_only_moves_forward(self):
        """nextValue may move forward; a value below the current one is 422 and changes nothing."""
        current = self.current("ACCOUNT")["nextValue"]
        if current == 1:
            current = C.ok(self.api.put("/v1/platform/numbering/ACCOUNT", json_body={"nextValue": 2},
                                        token=self.admin))["nextValue"]
            self.assertEqual(current, 2)
        err = cb.assert_error(self.api.put("/v1/platform/numbering/ACCOUNT", json_body={"nextValue": current - 1},
                                           token=self.admin), 422, "UNPROCESSABLE")
        self.assertIn("forward", err["message"])
        self.assertEqual(self.current("ACCOUNT")["nextValue"], current)

    def test_bad_numbering_updates_are_400(self):
        """A bad entity type is 400; lower-case prefix, padding 3 or 21 and an empty body are VALIDATION_ERROR."""
        cb.assert_error(self.api.put("/v1/platform/numbering/CUSTOMER", json_body={"padding": 8}, token=self.admin),
                        400, "BAD_REQUEST")
        for body, field in (({"prefix": "ac"}, "prefix"), ({"prefix": "TOOLONGPREFIX"}, "prefix"),
                            ({"padding": 3}, "padding"), ({"padding": 21}, "padding"),
                            ({"nextValue": 0}, "nextValue")):
            with self.subTest(body=body):
                cb.assert_validation(self.api.put("/v1/platform/numbering/LOAN", json_body=body, token=self.admin),
                                     field)
        cb.assert_error(self.api.put("/v1/platform/numbering/LOAN", json_body={}, token=self.admin),
                        400, "VALIDATION_ERROR")

    def test_numbering_needs_admin_staff(self):
        """A branch manager changing numbering is 403."""
        cb.assert_error(self.api.put("/v1/platform/numbering/LOAN", json_body={"padding": 10}, token=self.manager),
                        403, "FORBIDDEN")


class GlAccountsTest(AdminTestBase):
    def by_code(self, code):
        return {a["currency"]: a for a in C.ok(self.api.get(C.query("/v1/gl/accounts", code=code)))}

    def test_standard_chart_is_seeded_in_both_currencies(self):
        """The standard chart (1000 .. 5300) exists in USD with a ZWG mirror of the same code and type."""
        accounts = C.ok(self.api.get("/v1/gl/accounts"))
        index = {(a["code"], a["currency"]): a for a in accounts}
        for code, type_ in STANDARD_CHART.items():
            with self.subTest(code=code):
                usd, zwg = index[(code, "USD")], index[(code, "ZWG")]
                self.assertEqual((usd["type"], zwg["type"]), (type_, type_))
                self.assertIsNone(usd["mirrorOfId"])
                self.assertEqual(zwg["mirrorOfId"], usd["id"])

    def test_list_filters(self):
        """currency, type and code filter the chart of accounts and combine."""
        zwg = C.ok(self.api.get("/v1/gl/accounts?currency=ZWG"))
        self.assertTrue(zwg)
        self.assertEqual({a["currency"] for a in zwg}, {"ZWG"})
        self.assertTrue(all(a["mirrorOfId"] for a in zwg))
        assets = C.ok(self.api.get("/v1/gl/accounts?type=ASSET"))
        self.assertEqual({a["type"] for a in assets}, {"ASSET"})
        both = C.ok(self.api.get("/v1/gl/accounts?type=EXPENSE&currency=USD"))
        self.assertEqual({(a["type"], a["currency"]) for a in both}, {("EXPENSE", "USD")})
        self.assertEqual(sorted(self.by_code("1000")), ["USD", "ZWG"])
        self.assertEqual(C.ok(self.api.get(f"/v1/gl/accounts?code=NONE{C.uid().upper()}"[:40])), [])

    def test_bad_list_filters_are_400(self):
        """An unknown currency or type, or a code over 20 characters, is 400 BAD_REQUEST."""
        for path in ("/v1/gl/accounts?currency=EUR", "/v1/gl/accounts?type=ASSETS", "/v1/gl/accounts?code=" + "9" * 21):
            with self.subTest(path=path):
                cb.assert_error(self.api.get(path), 400, "BAD_REQUEST")

    def test_create_makes_usd_and_zwg_mirror(self):
        """POST /v1/gl/accounts is 201 with the USD account; its ZWG mirror is in the list with mirrorOfId."""
        created = C.new_gl_account(self.api, self.admin, "EXPENSE", name="Stationery")
        self.assertEqual((created["currency"], created["type"], created["name"]), ("USD", "EXPENSE", "Stationery"))
        self.assertIsNone(created["mirrorOfId"])
        self.assertIs(created["postedTo"], False)
        self.assertEqual((created["balanceMinor"], created["balance"]), (0, "0.00"))
        accounts = self.by_code(created["code"])
        self.assertEqual(sorted(accounts), ["USD", "ZWG"])
        mirror = accounts["ZWG"]
        self.assertEqual(mirror["mirrorOfId"], created["id"])
        self.assertEqual((mirror["code"], mirror["name"], mirror["type"]), (created["code"], "Stationery", "EXPENSE"))
        self.assertEqual(C.gl_account(self.api, mirror["id"])["mirrorOfId"], created["id"])
        self.assertEqual(C.count("gl_accounts", "code = %s", (created["code"],)), 2)

    def test_create_by_branch_manager(self):
        """A branch manager may create a GL account (roles admin, branch_manager)."""
        self.assertEqual(C.new_gl_account(self.api, self.manager, "INCOME")["type"], "INCOME")

    def test_duplicate_code_is_409(self):
        """Creating a second GL account with an existing code is 409 CONFLICT, nothing written."""
        created = C.new_gl_account(self.api, self.admin)
        before = C.count("gl_accounts")
        resp = self.api.post("/v1/gl/accounts", json_body={"code": created["code"], "name": "dup", "type": "ASSET"},
                             token=self.admin)
        cb.assert_error(resp, 409, "CONFLICT")
        self.assertEqual(C.count("gl_accounts"), before)

    def test_create_needs_admin_key_and_role(self):
        """A teller (role) or a write key (scope) creating a GL account is 403, nothing written."""
        before = C.count("gl_accounts")
        body = {"code": f"X{C.uid().upper()}", "name": "x", "type": "ASSET"}
        cb.assert_error(self.api.post("/v1/gl/accounts", json_body=body, token=self.teller), 403, "FORBIDDEN")
        write_api = C.Core(C.new_key(["write"])["key"])
        cb.assert_error(write_api.post("/v1/gl/accounts", json_body=body, token=self.admin), 403, "FORBIDDEN")
        self.assertEqual(C.count("gl_accounts"), before)

    def test_bad_create_requests_are_400(self):
        """A bad code pattern, a bad type, a ZWG currency and missing fields are 400 VALIDATION_ERROR."""
        before = C.count("gl_accounts")
        cases = (({"code": "ab c", "name": "x", "type": "ASSET"}, "code"),
                 ({"code": "X" * 21, "name": "x", "type": "ASSET"}, "code"),
                 ({"code": "X1", "name": "x", "type": "CASH"}, "type"),
                 ({"code": "X1", "name": "x", "type": "ASSET", "currency": "ZWG"}, "currency"),
                 ({"code": "X1", "name": "x" * 101, "type": "ASSET"}, "name"),
                 ({"name": "x", "type": "ASSET"}, "code"))
        for body, field in cases:
            with self.subTest(body=body):
                cb.assert_validation(self.api.post("/v1/gl/accounts", json_body=body, token=self.admin), field)
        self.assertEqual(C.count("gl_accounts"), before)

    def test_rename_is_mirrored(self):
        """PUT name on the USD account renames it and its ZWG mirror."""
        created = C.new_gl_account(self.api, self.admin)
        updated = C.ok(self.api.put(f"/v1/gl/accounts/{created['id']}", json_body={"name": "  Renamed float  "},
                                    token=self.admin))
        self.assertEqual(updated["name"], "Renamed float")
        self.assertEqual(self.by_code(created["code"])["ZWG"]["name"], "Renamed float")

    def test_code_and_type_change_before_posting(self):
        """Before anything posts to it, a GL account's code and type may change."""
        created = C.new_gl_account(self.api, self.admin, "ASSET")
        new_code = f"N{C.uid().upper()}"
        updated = C.ok(self.api.put(f"/v1/gl/accounts/{created['id']}", json_body={"code": new_code,
                                                                                 "type": "EXPENSE"},
                                    token=self.admin))
        self.assertEqual((updated["code"], updated["type"]), (new_code, "EXPENSE"))
        mirror = self.by_code(new_code).get("ZWG")
        self.assertIsNotNone(mirror, "the ZWG mirror keeps the USD account's code")
        self.assertEqual((mirror["type"], mirror["mirrorOfId"]), ("EXPENSE", created["id"]))
        self.assertEqual(self.by_code(created["code"]), {})

    def test_posting_to_the_mirror_freezes_the_code(self):
        """A posting to the ZWG mirror alone freezes code and type of the USD account too (422)."""
        created = C.new_gl_account(self.api, self.admin, "ASSET")
        C.capture_approve_post(self.api, self.teller, self.supervisor,
                               C.journal(created["code"], "2000", currency="ZWG"))
        for body in ({"code": f"Z{C.uid().upper()}"}, {"type": "EXPENSE"}):
            with self.subTest(body=body):
                cb.assert_error(self.api.put(f"/v1/gl/accounts/{created['id']}", json_body=body, token=self.admin),
                                422, "UNPROCESSABLE")

    def test_code_and_type_frozen_after_posting(self):
        """Once posted to, changing code or type is 422 `frozen`; the name may still change."""
        asset = C.new_gl_account(self.api, self.admin, "ASSET")
        liability = C.new_gl_account(self.api, self.admin, "LIABILITY")
        C.capture_approve_post(self.api, self.teller, self.supervisor, C.journal(asset["id"], liability["id"]))
        self.assertIs(C.gl_account(self.api, asset["id"])["postedTo"], True)
        for body in ({"code": f"F{C.uid().upper()}"}, {"type": "EXPENSE"}):
            with self.subTest(body=body):
                err = cb.assert_error(self.api.put(f"/v1/gl/accounts/{asset['id']}", json_body=body, token=self.admin),
                                      422, "UNPROCESSABLE", "GL account code and type are frozen once posted to")
                self.assertTrue(err)
        row = C.db().one("SELECT code, type FROM corebank.gl_accounts WHERE id = %s", (asset["id"],))
        self.assertEqual((row["code"], row["type"]), (asset["code"], "ASSET"))
        self.assertEqual(C.ok(self.api.put(f"/v1/gl/accounts/{asset['id']}", json_body={"name": "still renamable"},
                                           token=self.admin))["name"], "still renamable")

    def test_manual_posting_flag_and_inactive_accounts(self):
        """A journal on a GL account closed to manual posting, or inactive, is 422 and writes nothing."""
        closed = C.new_gl_account(self.api, self.admin, "ASSET", allowManualPosting=False)
        self.assertIs(closed["allowManualPosting"], False)
        inactive = C.new_gl_account(self.api, self.admin, "LIABILITY")
        self.assertIs(C.ok(self.api.put(f"/v1/gl/accounts/{inactive['id']}", json_body={"active": False},
                                        token=self.admin))["active"], False)
        before = C.ledger_counts()
        cb.assert_error(self.api.post("/v1/transactions", json_body=C.journal(closed["id"], "2000"),
                                      token=self.teller), 422, "UNPROCESSABLE")
        cb.assert_error(self.api.post("/v1/transactions", json_body=C.journal("1000", inactive["id"]),
                                      token=self.teller), 422, "UNPROCESSABLE")
        self.assertEqual(C.ledger_counts(), before)

    def test_mirror_cannot_be_edited_directly(self):
        """The ZWG mirror follows its USD account: a PUT on the mirror is refused (422), not a 500."""
        created = C.new_gl_account(self.api, self.admin)
        mirror = self.by_code(created["code"])["ZWG"]
        cb.assert_error(self.api.put(f"/v1/gl/accounts/{mirror['id']}", json_body={"name": "x"}, token=self.admin),
                        422, "UNPROCESSABLE")

    def test_get_unknown_and_malformed_ids(self):
        """GET/PUT /v1/gl/accounts/{id}: an unknown UUID is 404, a malformed one 400."""
        cb.assert_error(self.api.get(f"/v1/gl/accounts/{C.ZERO_UUID}"), 404, "NOT_FOUND")
        cb.assert_error(self.api.get("/v1/gl/accounts/1000"), 400, "BAD_REQUEST")
        cb.assert_error(self.api.put(f"/v1/gl/accounts/{C.ZERO_UUID}", json_body={"name": "x"}, token=self.admin),
                        404, "NOT_FOUND")
        cb.assert_error(self.api.put("/v1/gl/accounts/1000", json_body={"name": "x"}, token=self.admin),
                        400, "BAD_REQUEST")

    def test_empty_update_is_400(self):
        """PUT /v1/gl/accounts/{id} with no field is 400 VALIDATION_ERROR."""
        created = C.new_gl_account(self.api, self.admin)
        cb.assert_error(self.api.put(f"/v1/gl/accounts/{created['id']}", json_body={}, token=self.admin),
                        400, "VALIDATION_ERROR")


class GlBudgetsTest(AdminTestBase):
    def test_upsert_then_list(self):
        """PUT /v1/gl/budgets sets a month's budget; GET ?period lists it; a second PUT replaces it."""
        account = C.new_gl_account(self.api, self.admin, "EXPENSE")
        period = "2031-07"
        first = C.ok(self.api.put("/v1/gl/budgets", json_body={"glAccountId": account["id"], "period": period,
                                                               "amountMinor": 1500000, "note": "Q3 plan"},
                                  token=self.manager))
        self.assertEqual((first["glAccountId"], first["glAccountCode"], first["currency"]),
                         (account["id"], account["code"], "USD"))
        self.assertEqual((first["period"], first["amountMinor"], first["amount"]), (period, 1500000, "15000.00"))
        self.assertEqual(first["updatedBy"], self.manager.id)
        second = C.ok(self.api.put("/v1/gl/budgets", json_body={"glAccountId": account["id"], "period": period,
                                                                "amountMinor": 250},
                                   token=self.admin))
        self.assertEqual(second["id"], first["id"], "one budget per GL account per month")
        self.assertEqual((second["amountMinor"], second["amount"]), (250, "2.50"))
        listed = [b for b in C.ok(self.api.get(f"/v1/gl/budgets?period={period}")) if b["glAccountId"] == account["id"]]
        self.assertEqual(len(listed), 1)
        self.assertEqual(listed[0]["amountMinor"], 250)
        self.assertEqual(C.count("gl_budgets", "gl_account_id = %s", (account["id"],)), 1)
        other = C.ok(self.api.get("/v1/gl/budgets?period=2031-08"))
        self.assertNotIn(account["id"], [b["glAccountId"] for b in other])

    def test_budget_writes_no_journal_entry(self):
        """Setting a budget writes no transaction and no journal entry."""
        account = C.new_gl_account(self.api, self.admin, "EXPENSE")
        before = (C.count("transactions"), C.count("journal_entries"))
        C.ok(self.api.put("/v1/gl/budgets", json_body={"glAccountId": account["id"], "period": "2031-09",
                                                       "amountMinor": 99999}, token=self.manager))
        self.assertEqual((C.count("transactions"), C.count("journal_entries")), before)
        self.assertEqual(C.gl_account(self.api, account["id"])["balanceMinor"], 0)

    def test_missing_period_is_400(self):
        """GET /v1/gl/budgets without period is 400 `period: is required (YYYY-MM)`."""
        cb.assert_error(self.api.get("/v1/gl/budgets"), 400, "BAD_REQUEST", "period: is required (YYYY-MM)")

    def test_bad_period_is_400(self):
        """GET /v1/gl/budgets with a period that is not YYYY-MM is 400 naming period."""
        for period in ("2031-13", "31-01", "2031-1", "2031-07-01"):
            with self.subTest(period=period):
                err = cb.assert_error(self.api.get(f"/v1/gl/budgets?period={period}"), 400, "BAD_REQUEST")
                self.assertIn("period", err["message"])

    def test_bad_upserts_are_400_or_404(self):
        """A bad period, negative amount or fraction is 400; an unknown GL account is 404; nothing written."""
        account = C.new_gl_account(self.api, self.admin, "EXPENSE")
        before = C.count("gl_budgets")
        for body, field in (({"period": "2031-13", "amountMinor": 1}, "period"),
                            ({"period": "2031-10", "amountMinor": -1}, "amountMinor"),
                            ({"period": "2031-10", "amountMinor": 1.5}, "amountMinor"),
                            ({"period": "2031-10", "amountMinor": 1, "note": "n" * 501}, "note")):
            with self.subTest(body=body):
                cb.assert_validation(self.api.put("/v1/gl/budgets", json_body={"glAccountId": account["id"], **body},
                                                  token=self.manager), field)
        cb.assert_error(self.api.put("/v1/gl/budgets", json_body={"glAccountId": C.ZERO_UUID, "period": "2031-10",
                                                                  "amountMinor": 1}, token=self.manager),
                        404, "NOT_FOUND")
        self.assertEqual(C.count("gl_budgets"), before)

    def test_teller_cannot_set_budgets(self):
        """A teller setting a budget is 403 (roles admin, branch_manager)."""
        account = C.new_gl_account(self.api, self.admin, "EXPENSE")
        cb.assert_error(self.api.put("/v1/gl/budgets", json_body={"glAccountId": account["id"], "period": "2031-11",
                                                                  "amountMinor": 1}, token=self.teller),
                        403, "FORBIDDEN")


class BranchesTest(AdminTestBase):
    def test_six_preconfigured_branches(self):
        """GET /v1/branches holds the 6 pre-configured branches HO HRE BYO MUT GWE MSV; HO is the head office."""
        branches = C.ok(self.api.get("/v1/branches"))
        codes = {b["code"] for b in branches}
        self.assertTrue(C.BRANCH_CODES <= codes, codes)
        self.assertEqual(len(branches), len(codes))
        heads = [b["code"] for b in branches if b["headOffice"]]
        self.assertEqual(heads, ["HO"])
        by_code = {b["code"]: b for b in branches}
        self.assertEqual(by_code["BYO"]["city"], "Bulawayo")
        self.assertEqual(by_code["HO"]["name"], "Head Office")

    def test_get_one_branch(self):
        """GET /v1/branches/{id} returns that branch."""
        hre = C.branches(self.api)["HRE"]
        body = C.ok(self.api.get(f"/v1/branches/{hre['id']}"))
        self.assertEqual(body, hre)

    def test_update_branch(self):
        """PUT /v1/branches/{id} changes name and city (trimmed); the code is untouched."""
        gwe = C.branches(self.api)["GWE"]
        try:
            body = C.ok(self.api.put(f"/v1/branches/{gwe['id']}",
                                     json_body={"name": "  Gweru Main  ", "city": "Gweru CBD"}, token=self.admin))
            self.assertEqual((body["name"], body["city"], body["code"]), ("Gweru Main", "Gweru CBD", "GWE"))
            self.assertEqual(C.ok(self.api.get(f"/v1/branches/{gwe['id']}"))["name"], "Gweru Main")
            self.assertGreaterEqual(cb.parse_iso8601(body["updatedAt"]), cb.parse_iso8601(gwe["updatedAt"]))
        finally:
            C.ok(self.api.put(f"/v1/branches/{gwe['id']}", json_body={"name": gwe["name"], "city": gwe["city"]},
                              token=self.admin))

    def test_code_is_not_editable(self):
        """PUT with `code` is 400 VALIDATION_ERROR (unknown field); nothing changes."""
        mut = C.branches(self.api)["MUT"]
        cb.assert_validation(self.api.put(f"/v1/branches/{mut['id']}", json_body={"code": "MTR"}, token=self.admin),
                             "code")
        self.assertEqual(C.ok(self.api.get(f"/v1/branches/{mut['id']}"))["code"], "MUT")

    def test_bad_and_unknown_ids(self):
        """A malformed branch id is 400 and an unknown one 404, for GET and PUT."""
        cb.assert_error(self.api.get("/v1/branches/HO"), 400, "BAD_REQUEST")
        cb.assert_error(self.api.get(f"/v1/branches/{C.ZERO_UUID}"), 404, "NOT_FOUND")
        cb.assert_error(self.api.put("/v1/branches/HO", json_body={"name": "x"}, token=self.admin), 400,
                        "BAD_REQUEST")
        cb.assert_error(self.api.put(f"/v1/branches/{C.ZERO_UUID}", json_body={"name": "x"}, token=self.admin),
                        404, "NOT_FOUND")

    def test_only_admin_updates_branches(self):
        """A branch manager updating a branch is 403 (role admin only)."""
        msv = C.branches(self.api)["MSV"]
        cb.assert_error(self.api.put(f"/v1/branches/{msv['id']}", json_body={"name": "x"}, token=self.manager),
                        403, "FORBIDDEN")
        self.assertEqual(C.ok(self.api.get(f"/v1/branches/{msv['id']}"))["name"], msv["name"])

    def test_journal_on_a_branch(self):
        """A journal captured with a branchId carries that branch on its entries once posted."""
        byo = C.branches(self.api)["BYO"]
        posted = C.capture_approve_post(self.api, self.teller, self.supervisor, C.journal(branchId=byo["id"]))
        self.assertEqual(posted["branchId"], byo["id"])
        branch_ids = {str(r["branch_id"]) for r in C.db().rows(
            "SELECT branch_id FROM corebank.journal_entries WHERE transaction_id = %s", (posted["id"],))}
        self.assertEqual(branch_ids, {byo["id"]})


if __name__ == "__main__":
    unittest.main()
