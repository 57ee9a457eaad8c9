"""Customers and the CIF over HTTP: onboarding individuals and corporates, the
signing mandate, the profile PATCH (omitted fields left alone, blank ones
cleared, no identity field), the append-only interaction log, CIF cases
(OPEN -> RESOLVED, stamped), beneficial owners (25% or more, or control),
beneficiaries, and profitability (income only: sole and shared revenue
separately), with bad input on every endpoint (docs/core-banking.md,
Customers).
"""
import calendar
import datetime

import psycopg2

import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


class CustomersTest(D.DepositsBase):
    def test_onboard_an_individual(self):
        """An individual gets a CU number, LOW risk, a KYC review in 36 months and a profile from email/phone."""
        national_id = f"63-{C.uid()}"
        customer = C.ok(self.api.post("/v1/customers", token=self.teller, json_body={
            "type": "individual", "firstName": "  Tendai ", "middleName": "R", "lastName": "Moyo",
            "dateOfBirth": "1990-04-01", "gender": "female", "nationalId": national_id.lower(), "nationality": "zw",
            "email": "Tendai.Moyo@Example.com", "phone": "+263771234567", "branchCode": "byo"}))
        self.assertRegex(customer["customerNumber"], r"^CU\d{10}$")
        self.assertEqual((customer["type"], customer["status"], customer["displayName"]),
                         ("INDIVIDUAL", "ACTIVE", "Tendai R Moyo"))
        self.assertEqual((customer["gender"], customer["nationality"], customer["nationalId"]),
                         ("FEMALE", "ZW", national_id.upper()))
        self.assertEqual((customer["email"], customer["phone"], customer["branchCode"]),
                         ("tendai.moyo@example.com", "+263771234567", "BYO"))
        self.assertEqual((customer["riskCategory"], customer["kycStatus"], customer["signingMandate"]),
                         ("LOW", "PENDING", None))
        today = D.real_today()
        in_36_months = datetime.date(today.year + 3, today.month,
                                     min(today.day, calendar.monthrange(today.year + 3, today.month)[1]))
        self.assertEqual(customer["nextReviewDate"], str(in_36_months))
        self.assertEqual(customer["createdBy"], self.teller.id)
        self.assertIsNone(customer["legalName"])
        self.assertEqual(C.ok(self.api.get(f"/v1/customers/{customer['id']}")), customer)

    def test_onboard_a_corporate_with_a_signing_mandate(self):
        """A corporate with its mandate; the mandate changes with PUT and is refused for individuals."""
        corporate = self.corporate(tradingName="Acme", signingMandate="any_two", incorporationDate="2010-03-01")
        self.assertEqual((corporate["type"], corporate["signingMandate"], corporate["displayName"]),
                         ("CORPORATE", "ANY_TWO", corporate["legalName"]))
        path = f"/v1/customers/{corporate['id']}/signing-mandate"
        for mandate in ("ALL", "ANY_ONE"):
            changed = C.ok(self.api.put(path, json_body={"signingMandate": mandate}, token=self.teller))
            self.assertEqual(changed["signingMandate"], mandate)
        person = self.individual()
        self.assert_error(self.api.put(f"/v1/customers/{person['id']}/signing-mandate", token=self.teller,
                                       json_body={"signingMandate": "ALL"}), 422, "UNPROCESSABLE", "corporate")
        self.assert_invalid(self.api.put(path, json_body={"signingMandate": "MAJORITY"}, token=self.teller),
                            "signingMandate", reason="must be one of ANY_ONE, ANY_TWO, ALL")
        self.assert_invalid(self.api.put(path, json_body={}, token=self.teller), "signingMandate")
        self.assert_error(self.api.put(f"/v1/customers/{D.MISSING_UUID}/signing-mandate", token=self.teller,
                                       json_body={"signingMandate": "ALL"}), 404, "NOT_FOUND", "Customer not found")

    def test_duplicates_are_409(self):
        """The same national id, or registration number, twice: 409 CONFLICT."""
        person = self.individual()
        self.assert_error(self.api.post("/v1/customers", token=self.teller, json_body={
            "type": "INDIVIDUAL", "firstName": "A", "lastName": "B", "dateOfBirth": "1980-01-01",
            "nationalId": person["nationalId"]}), 409, "CONFLICT", "national id")
        company = self.corporate()
        self.assert_error(self.api.post("/v1/customers", token=self.teller, json_body={
            "type": "CORPORATE", "legalName": "Other", "registrationNumber": company["registrationNumber"]}),
            409, "CONFLICT", "registration number")

    def test_create_bad_input(self):
        """Every field problem is 400 VALIDATION_ERROR naming it; nothing is written."""
        before = C.count("customers")
        person = {"type": "INDIVIDUAL", "firstName": "A", "lastName": "B", "dateOfBirth": "1980-01-01"}
        cases = [({}, "type"), ({"type": "TRUST"}, "type"),
                 ({**person, "firstName": "  "}, "firstName"), ({**person, "dateOfBirth": "1980-02-30"}, "dateOfBirth"),
                 ({**person, "gender": "X"}, "gender"), ({**person, "nationality": "ZWE"}, "nationality"),
                 ({**person, "legalName": "Acme"}, "legalName"), ({**person, "email": "not-an-email"}, "email"),
                 ({**person, "phone": "12345"}, "phone"), ({**person, "riskCategory": "SEVERE"}, "riskCategory"),
                 ({**person, "branchId": "HRE"}, "branchId"), ({**person, "customerNumber": "CU1"}, "customerNumber"),
                 ({**person, "profile": {"lastName": "C"}}, "profile.lastName"),
                 ({**person, "profile": {"address": {"planet": "Mars"}}}, "profile.address.planet"),
                 ({**person, "firstName": 7}, "firstName"), ({**person, "lastName": "x" * 101}, "lastName"),
                 ({"type": "CORPORATE", "legalName": "Acme"}, "registrationNumber"),
                 ({"type": "CORPORATE", "legalName": "Acme", "registrationNumber": "R1", "dateOfBirth": "1980-01-01"},
                  "dateOfBirth")]
        for body, field in cases:
            self.assert_invalid(self.api.post("/v1/customers", json_body=body, token=self.teller), field)
        future = str(D.real_today() + datetime.timedelta(days=1))
        self.assert_invalid(self.api.post("/v1/customers", json_body={**person, "dateOfBirth": future}, token=self.teller),
                            "dateOfBirth")
        self.assert_error(self.api.post("/v1/customers", body="[1]", token=self.teller), 400, "BAD_REQUEST",
                          "Malformed JSON request body")
        self.assert_error(self.api.post("/v1/customers", json_body={**person, "branchCode": "ZZZ"}, token=self.teller),
                          404, "NOT_FOUND", "Branch not found")
        self.assertEqual(C.count("customers"), before)

    def test_list_search_and_get(self):
        """GET /v1/customers filters by type, risk and q (name or number), pages; GET by id; 404 and 400."""
        tag = C.uid()
        a = self.individual(lastName=f"Zulu{tag}")
        b = self.corporate(legalName=f"Zulu{tag} Holdings", riskCategory="HIGH")
        found = C.ok(self.api.get(C.query("/v1/customers", q=f"zulu{tag}")))
        self.assertEqual([c["id"] for c in found["content"]], [a["id"], b["id"]])
        self.assertEqual(C.ok(self.api.get(C.query("/v1/customers", q=a["customerNumber"])))["content"][0]["id"], a["id"])
        corporates = C.ok(self.api.get(C.query("/v1/customers", q=f"zulu{tag}", type="corporate", riskCategory="high")))
        self.assertEqual([c["id"] for c in corporates["content"]], [b["id"]])
        page = C.ok(self.api.get(C.query("/v1/customers", q=f"zulu{tag}", size=1, page=1)))
        self.assertEqual((page["page"], page["size"], page["totalElements"], page["totalPages"]), (1, 1, 2, 2))
        self.assertEqual(page["content"][0]["id"], b["id"])
        for query, name in (("type=TRUST", "type"), ("riskCategory=x", "riskCategory"), ("size=201", "size"),
                            ("status=GONE", "status"), ("q=" + "x" * 101, "q")):
            self.assert_error(self.api.get(f"/v1/customers?{query}"), 400, "BAD_REQUEST", name)
        self.assert_error(self.api.get(f"/v1/customers/{D.MISSING_UUID}"), 404, "NOT_FOUND", "Customer not found")
        self.assert_error(self.api.get("/v1/customers/CU0000000001"), 400, "BAD_REQUEST", "id must be a UUID")


class ProfileTest(D.DepositsBase):
    def test_patch_semantics(self):
        """Omitted members are left alone, null and blank ones cleared, nested objects member by member."""
        customer = self.individual(email="a@example.com", profile={
            "address": {"line1": "1 First St", "city": "Harare", "province": "Harare", "country": "ZW"},
            "employment": {"status": "EMPLOYED", "employerName": "Delta", "occupation": "Clerk"},
            "declaredIncome": {"amountMinor": 120000, "currency": "USD", "frequency": "MONTHLY"}})
        path = f"/v1/customers/{customer['id']}/profile"
        profile = C.ok(self.api.get(path))
        self.assertEqual(profile["address"], {"line1": "1 First St", "line2": None, "city": "Harare",
                                              "province": "Harare", "postalCode": None, "country": "ZW"})
        self.assertEqual((profile["declaredIncome"]["amountMinor"], profile["declaredIncome"]["amount"]),
                         (120000, "1200.00"))
        patched = C.ok(self.api.request("PATCH", path, token=self.compliance, json_body={
            "phone": "+263772222333", "address": {"city": "Bulawayo", "province": "  "}, "employment": None}))
        self.assertEqual(patched["email"], "a@example.com")  # omitted: left alone
        self.assertEqual(patched["phone"], "+263772222333")
        self.assertEqual(patched["address"], {"line1": "1 First St", "line2": None, "city": "Bulawayo",
                                              "province": None, "postalCode": None, "country": "ZW"})
        self.assertEqual(patched["employment"], {"status": None, "employerName": None, "occupation": None})
        self.assertEqual(patched["declaredIncome"]["amountMinor"], 120000)
        self.assertEqual(patched["updatedBy"], self.compliance.id)
        cleared = C.ok(self.api.request("PATCH", path, token=self.teller, json_body={
            "email": "", "declaredIncome": {"amountMinor": None}}))
        self.assertIsNone(cleared["email"])
        self.assertEqual(cleared["declaredIncome"], {"amountMinor": None, "amount": None, "currency": None,
                                                     "frequency": None})
        self.assertEqual(cleared["phone"], "+263772222333")
        self.assertIsNone(C.ok(self.api.get(f"/v1/customers/{customer['id']}"))["email"])

    def test_identity_fields_are_refused(self):
        """Identity fields in the PATCH are 400 and change nothing; so are unknown members and an empty body."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/profile"
        before = C.ok(self.api.get(path))
        for field, value in (("firstName", "X"), ("lastName", "Y"), ("dateOfBirth", "1970-01-01"),
                             ("nationalId", "N1"), ("type", "CORPORATE"), ("legalName", "Z")):
            self.assert_invalid(self.api.request("PATCH", path, token=self.teller, json_body={field: value, "phone": None}),
                                field, reason="identity fields cannot be changed through the profile")
        self.assert_invalid(self.api.request("PATCH", path, token=self.teller, json_body={"riskCategory": "HIGH"}),
                            "riskCategory")
        self.assert_invalid(self.api.request("PATCH", path, token=self.teller, json_body={"nickname": "T"}), "nickname",
                            reason="unknown field")
        self.assert_invalid(self.api.request("PATCH", path, token=self.teller, json_body={"address": {"zip": "1"}}),
                            "address.zip", reason="unknown field")
        self.assert_invalid(self.api.request("PATCH", path, token=self.teller,
                                             json_body={"employment": {"status": "BORED"}}), "employment.status")
        self.assert_invalid(self.api.request("PATCH", path, token=self.teller,
                                             json_body={"declaredIncome": {"amountMinor": "100"}}),
                            "declaredIncome.amountMinor")
        self.assert_invalid(self.api.request("PATCH", path, token=self.teller, json_body={}), "body")
        self.assert_error(self.api.request("PATCH", path, token=self.teller, body="{"), 400, "BAD_REQUEST")
        self.assertEqual(C.ok(self.api.get(path)), before)
        customer_after = C.ok(self.api.get(f"/v1/customers/{customer['id']}"))
        self.assertEqual(customer_after["lastName"], customer["lastName"])
        self.assert_error(self.api.request("PATCH", f"/v1/customers/{D.MISSING_UUID}/profile", token=self.teller,
                                           json_body={"phone": None}), 404, "NOT_FOUND")
        self.assert_error(self.api.get(f"/v1/customers/{D.MISSING_UUID}/profile"), 404, "NOT_FOUND")


class InteractionsAndCasesTest(D.DepositsBase):
    def test_interaction_log_is_append_only(self):
        """Interactions are listed newest first with paging; the log refuses UPDATE and DELETE in the database."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/interactions"
        first = C.ok(self.api.post(path, token=self.teller, json_body={
            "interactionType": "enquiry", "summary": "Asked about FD rates", "occurredAt": "2026-01-05T09:00:00+02:00"}))
        self.assertEqual((first["channel"], first["interactionType"], first["recordedBy"]),
                         ("BRANCH", "ENQUIRY", self.teller.id))
        self.assertEqual(first["occurredAt"][:19], "2026-01-05T07:00:00")
        second = C.ok(self.api.post(path, token=self.compliance, json_body={
            "interactionType": "COMPLAINT", "channel": "phone", "summary": "Card retained", "notes": "ATM 12"}))
        listed = C.ok(self.api.get(path))
        self.assertEqual([i["id"] for i in listed["content"]], [second["id"], first["id"]])
        self.assertEqual(C.ok(self.api.get(C.query(path, size=1, page=1)))["content"][0]["id"], first["id"])
        for sql in ("UPDATE corebank.customer_interactions SET summary = 'x' WHERE id = %s",
                    "DELETE FROM corebank.customer_interactions WHERE id = %s"):
            with self.assertRaises(psycopg2.Error):
                C.db().execute(sql, (first["id"],))
        for body, field in (({"summary": "x"}, "interactionType"), ({"interactionType": "ENQUIRY"}, "summary"),
                            ({"interactionType": "GOSSIP", "summary": "x"}, "interactionType"),
                            ({"interactionType": "KYC", "summary": "x", "channel": "FAX"}, "channel"),
                            ({"interactionType": "KYC", "summary": "x", "occurredAt": "yesterday"}, "occurredAt"),
                            ({"interactionType": "KYC", "summary": "x", "recordedBy": D.MISSING_UUID}, "recordedBy")):
            self.assert_invalid(self.api.post(path, json_body=body, token=self.teller), field)
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={
            "interactionType": "KYC", "summary": "x", "occurredAt": "2999-01-01T00:00:00Z"}), "occurredAt")
        self.assert_error(self.api.post(f"/v1/customers/{D.MISSING_UUID}/interactions", token=self.teller,
                                        json_body={"interactionType": "KYC", "summary": "x"}), 404, "NOT_FOUND")
        self.assert_error(self.api.get(C.query(path, size=500)), 400, "BAD_REQUEST", "size")

    def test_case_open_resolve(self):
        """OPEN -> RESOLVED with actor and time stamped on both; RESOLVED is terminal (409)."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/cases"
        case = C.ok(self.api.post(path, token=self.teller, json_body={"subject": "Change of address",
                                                                      "description": "Moved to Bulawayo",
                                                                      "category": "service"}))
        self.assertEqual((case["status"], case["category"], case["openedBy"]), ("OPEN", "SERVICE", self.teller.id))
        self.assertIsNone(case["resolvedAt"])
        resolve = f"{path}/{case['id']}/resolve"
        resolved = C.ok(self.api.put(resolve, token=self.compliance, json_body={"resolution": "Updated"}))
        self.assertEqual((resolved["status"], resolved["resolvedBy"], resolved["resolution"]),
                         ("RESOLVED", self.compliance.id, "Updated"))
        self.assertEqual((resolved["openedBy"], resolved["openedAt"]), (case["openedBy"], case["openedAt"]))
        self.assertIsNotNone(resolved["resolvedAt"])
        self.assert_error(self.api.put(resolve, token=self.teller, json_body={"resolution": "again"}), 409, "CONFLICT")
        self.assertEqual(C.ok(self.api.get(path))[0]["status"], "RESOLVED")
        other = self.individual()
        self.assert_error(self.api.put(f"/v1/customers/{other['id']}/cases/{case['id']}/resolve", token=self.teller,
                                       json_body={"resolution": "x"}), 404, "NOT_FOUND", "Case not found")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"description": "x"}), "subject")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"subject": "x", "status": "RESOLVED"}),
                            "status")
        self.assert_invalid(self.api.put(resolve, token=self.teller, json_body={"resolution": " "}), "resolution")
        self.assert_error(self.api.put(f"{path}/not-a-uuid/resolve", token=self.teller, json_body={"resolution": "x"}),
                          400, "BAD_REQUEST", "caseId must be a UUID")


class OwnersAndBeneficiariesTest(D.DepositsBase):
    def test_beneficial_owners(self):
        """25% or more, or control; at most 100% in total; individuals only; soft removal."""
        company = self.corporate()
        path = f"/v1/customers/{company['id']}/beneficial-owners"
        owner_person = self.individual()
        by_customer = C.ok(self.api.post(path, token=self.teller, json_body={"ownerCustomerId": owner_person["id"],
                                                                           "ownershipPercent": "40"}))
        self.assertEqual((by_customer["ownershipBp"], by_customer["ownershipPercent"], by_customer["fullName"]),
                         (4000, "40.00", owner_person["displayName"]))
        self.assertEqual(by_customer["nationalId"], owner_person["nationalId"])
        named = C.ok(self.api.post(path, token=self.teller, json_body={"fullName": "Rudo Dube", "ownershipBp": 3333}))
        controller = C.ok(self.api.post(path, token=self.teller, json_body={"fullName": "J. Controller",
                                                                          "ownershipPercent": 5, "hasControl": True}))
        self.assertEqual((controller["ownershipBp"], controller["hasControl"]), (500, True))
        self.assert_error(self.api.post(path, token=self.teller, json_body={"fullName": "Small", "ownershipPercent": "24.99"}),
                          422, "UNPROCESSABLE", "25%")
        self.assert_error(self.api.post(path, token=self.teller, json_body={"fullName": "Too much", "ownershipPercent": 30}),
                          422, "UNPROCESSABLE", "exceed 100%")
        self.assert_error(self.api.post(path, token=self.teller, json_body={"ownerCustomerId": owner_person["id"],
                                                                          "ownershipPercent": 25}),
                          409, "CONFLICT")
        self.assert_error(self.api.post(path, token=self.teller, json_body={"ownerCustomerId": self.corporate()["id"],
                                                                          "ownershipPercent": 25}),
                          422, "UNPROCESSABLE", "individual")
        person = self.individual()
        self.assert_error(self.api.post(f"/v1/customers/{person['id']}/beneficial-owners", token=self.teller,
                                        json_body={"fullName": "X", "ownershipPercent": 50}), 422, "UNPROCESSABLE")
        listed = C.ok(self.api.get(path))
        self.assertEqual([o["id"] for o in listed], [by_customer["id"], named["id"], controller["id"]])
        removed = C.ok(self.api.delete(f"{path}/{named['id']}", token=self.teller))
        self.assertEqual((removed["active"], removed["removedBy"]), (False, self.teller.id))
        self.assertEqual([o["id"] for o in C.ok(self.api.get(path))], [by_customer["id"], controller["id"]])
        self.assert_error(self.api.delete(f"{path}/{named['id']}", token=self.teller), 404, "NOT_FOUND")
        for body, field in (({"ownershipPercent": 30}, "fullName"), ({"fullName": "X", "ownershipPercent": "101"},
                                                                     "ownershipPercent"),
                            ({"fullName": "X", "ownershipPercent": "25.001"}, "ownershipPercent"),
                            ({"fullName": "X", "ownershipBp": 2500, "ownershipPercent": 30}, "ownershipPercent"),
                            ({"fullName": "X", "ownershipBp": -1}, "ownershipBp"),
                            ({"fullName": "X", "hasControl": "yes"}, "hasControl"),
                            ({"ownerCustomerId": "x", "ownershipBp": 3000}, "ownerCustomerId")):
            self.assert_invalid(self.api.post(path, json_body=body, token=self.teller), field)
        self.assert_error(self.api.delete(f"{path}/x", token=self.teller), 400, "BAD_REQUEST")
        self.assert_error(self.api.delete(f"{path}/{controller['id']}", token=self.teller, json_body={"why": 1}),
                          400, "BAD_REQUEST", "This operation takes no request body")

    def test_beneficiaries(self):
        """A payee in this bank (by account number) or elsewhere (SWIFT/BIC + currency); soft removal."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/beneficiaries"
        target = self.funded_savings(0, product="CUR-ZWG")
        internal = C.ok(self.api.post(path, token=self.teller, json_body={"name": "Landlord",
                                                                        "accountNumber": target["accountNumber"].lower(),
                                                                        "nickname": "rent"}))
        self.assertEqual((internal["accountId"], internal["currency"], internal["bankSwiftCode"]),
                         (target["id"], "ZWG", None))
        external = C.ok(self.api.post(path, token=self.teller, json_body={"name": "ZESA", "accountNumber": "4455-66",
                                                                        "bankSwiftCode": "cbzkzwhx", "currency": "USD"}))
        self.assertEqual((external["accountId"], external["bankSwiftCode"]), (None, "CBZKZWHX"))
        self.assert_error(self.api.post(path, token=self.teller, json_body={"name": "X", "accountNumber": "NO-SUCH-1"}),
                          404, "NOT_FOUND")
        self.assert_error(self.api.post(path, token=self.teller, json_body={"name": "X", "currency": "USD",
                                                                          "accountNumber": target["accountNumber"]}),
                          422, "UNPROCESSABLE", "ZWG")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"name": "X", "accountNumber": "1",
                                                                            "bankSwiftCode": "CBZKZWHX"}), "currency")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"name": "X", "accountNumber": "1",
                                                                            "bankSwiftCode": "CBZ"}), "bankSwiftCode")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"accountNumber": "1"}), "name")
        self.assertEqual([b["id"] for b in C.ok(self.api.get(path))], [internal["id"], external["id"]])
        removed = C.ok(self.api.delete(f"{path}/{external['id']}", token=self.teller))
        self.assertFalse(removed["active"])
        self.assertEqual([b["id"] for b in C.ok(self.api.get(path))], [internal["id"]])
        self.assert_error(self.api.delete(f"{path}/{external['id']}", token=self.teller), 404, "NOT_FOUND")
        self.assert_error(self.api.get(f"/v1/customers/{D.MISSING_UUID}/beneficiaries"), 404, "NOT_FOUND")


class ProfitabilityTest(D.DepositsBase):
    def test_income_sole_and_shared(self):
        """Fees on the customer's own transactions are sole; an FD penalty on a transfer to another customer is
        shared and reported in full; a reversed fee does not count."""
        alice, bob = self.individual(), self.individual()
        savings = self.open_account(alice["id"], "SAV-PLUS", initial=100_000)
        fixed = self.open_account(alice["id"], "FD-3M", initial=100_000)
        bobs = self.open_account(bob["id"], "SAV-TIER")
        self.fee(savings["id"], 300, "Cheque book")
        self.withdraw(savings["id"], 10_000)  # SAV-PLUS withdrawal fee: 100 to 4100
        reversed_fee = self.fee(savings["id"], 700, "Charged in error")
        change = C.ok(self.api.post(C.query(f"/v1/transactions/{reversed_fee['id']}/reverse", reason="error"),
                                    token=self.teller))
        C.ok(self.api.post(f"/v1/approvals/{change['id']}/approve", token=self.supervisor))
        penalty_transfer = self.transfer(fixed["id"], bobs["id"], 50_000)  # early: 2% penalty = 1000 to 4100
        self.assertIn(("CREDIT", "4100", 1000), [(e["side"], e["glAccountCode"], e["amountMinor"])
                                                 for e in penalty_transfer["entries"]])
        report = C.ok(self.api.get(f"/v1/customers/{alice['id']}/profitability"))
        self.assertEqual(report["basis"], "INCOME")
        self.assertEqual([(l["glAccountCode"], l["currency"], l["revenueMinor"], l["transactionCount"])
                          for l in report["sole"]], [("4100", "USD", 400, 2)])
        self.assertEqual([(l["glAccountCode"], l["revenueMinor"], l["transactionCount"]) for l in report["shared"]],
                         [("4100", 1000, 1)])
        self.assertEqual(report["totals"], [{"currency": "USD", "soleMinor": 400, "sharedMinor": 1000}])
        bobs_report = C.ok(self.api.get(f"/v1/customers/{bob['id']}/profitability"))
        self.assertEqual(([l["revenueMinor"] for l in bobs_report["sole"]], [l["revenueMinor"] for l in bobs_report["shared"]]),
                         ([], [1000]))
        past = C.ok(self.api.get(C.query(f"/v1/customers/{alice['id']}/profitability", **{"from": "2020-01-01",
                                                                                          "to": "2020-12-31"})))
        self.assertEqual((past["sole"], past["shared"], past["totals"]), ([], [], []))
        path = f"/v1/customers/{alice['id']}/profitability"
        self.assert_error(self.api.get(C.query(path, **{"from": "2026-03-01", "to": "2026-01-01"})), 400, "BAD_REQUEST")
        self.assert_error(self.api.get(C.query(path, **{"from": "2020-01-01", "to": "2021-06-01"})), 400, "BAD_REQUEST")
        self.assert_error(self.api.get(C.query(path, **{"to": "soon"})), 400, "BAD_REQUEST", "to")
        self.assert_error(self.api.get(f"/v1/customers/{D.MISSING_UUID}/profitability"), 404, "NOT_FOUND")


if __name__ == "__main__":
    import unittest
    unittest.main()
