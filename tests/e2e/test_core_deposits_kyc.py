"""KYC basics over HTTP: risk categories (low, medium, high, prohibited) and
the review schedule they set, periodic reviews and the list of reviews due,
identity documents verified manually through maker-checker (the maker cannot
decide their own change; the decision is applied only by the approval), and
external checks through EXTERNAL_KYC_PROVIDER_MODE, whose default offline stub
contacts nothing and labels every result source=STUB (docs/core-banking.md,
KYC).
"""
import calendar
import datetime

import corebanking as C
import deposits_support as D


def setUpModule():
    C.require_core()


def months_later(day, months):
    index = day.year * 12 + day.month - 1 + months
    year, month = index // 12, index % 12 + 1
    return datetime.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


class RiskAndReviewsTest(D.DepositsBase):
    def test_profile_defaults(self):
        """A new customer: LOW, PENDING, next review in 36 months, no documents, no checks."""
        customer = self.individual()
        kyc = C.ok(self.api.get(f"/v1/customers/{customer['id']}/kyc"))
        self.assertEqual((kyc["riskCategory"], kyc["kycStatus"], kyc["documents"], kyc["checks"]),
                         ("LOW", "PENDING", [], []))
        self.assertEqual(kyc["nextReviewDate"], str(months_later(D.real_today(), 36)))
        self.assert_error(self.api.get(f"/v1/customers/{D.MISSING_UUID}/kyc"), 404, "NOT_FOUND")

    def test_risk_category_reschedules_the_review(self):
        """low/medium/high set 36/24/12 months; prohibited removes the review and blocks account opening."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/kyc/risk-category"
        today = D.real_today()
        for given, expected, months in (("high", "HIGH", 12), ("Medium", "MEDIUM", 24), ("LOW", "LOW", 36)):
            kyc = C.ok(self.api.put(path, token=self.compliance, json_body={"riskCategory": given, "reason": "review"}))
            self.assertEqual((kyc["riskCategory"], kyc["riskReason"]), (expected, "review"))
            self.assertEqual(kyc["nextReviewDate"], str(months_later(today, months)))
        kyc = C.ok(self.api.put(path, token=self.compliance, json_body={"riskCategory": "prohibited"}))
        self.assertEqual((kyc["riskCategory"], kyc["nextReviewDate"]), ("PROHIBITED", None))
        self.assertEqual(C.ok(self.api.get(f"/v1/customers/{customer['id']}"))["riskCategory"], "PROHIBITED")
        self.assert_error(self.api.post("/v1/accounts", token=self.teller, json_body={
            "customerId": customer["id"], "productCode": "SAV-TIER"}), 422, "UNPROCESSABLE", "PROHIBITED")
        # tellers do not set risk categories
        self.assert_error(self.api.put(path, token=self.teller, json_body={"riskCategory": "LOW"}), 403, "FORBIDDEN")
        self.assert_invalid(self.api.put(path, token=self.compliance, json_body={"riskCategory": "CRITICAL"}),
                            "riskCategory")
        self.assert_invalid(self.api.put(path, token=self.compliance, json_body={}), "riskCategory")
        self.assert_invalid(self.api.put(path, token=self.compliance, json_body={"riskCategory": "LOW",
                                                                               "reason": "r" * 501}), "reason")

    def test_periodic_review_and_reviews_due(self):
        """A review stamps who and when and sets the next date; the due list is driven by asOf."""
        customer = self.individual(riskCategory="HIGH")
        today = D.real_today()
        due_date = months_later(today, 12)
        due = C.ok(self.api.get(C.query("/v1/kyc/reviews/due", asOf=str(due_date))))
        self.assertIn(customer["id"], [d["customerId"] for d in due])
        mine = [d for d in due if d["customerId"] == customer["id"]][0]
        self.assertEqual((mine["riskCategory"], mine["nextReviewDate"], mine["customerNumber"]),
                         ("HIGH", str(due_date), customer["customerNumber"]))
        self.assertNotIn(customer["id"], [d["customerId"] for d in C.ok(self.api.get("/v1/kyc/reviews/due"))])
        path = f"/v1/customers/{customer['id']}/kyc/reviews"
        earlier = today + datetime.timedelta(days=90)
        kyc = C.ok(self.api.post(path, token=self.compliance, json_body={"notes": "Source of funds confirmed",
                                                                        "nextReviewDate": str(earlier)}))
        self.assertEqual((kyc["lastReviewedBy"], kyc["nextReviewDate"]), (self.compliance.id, str(earlier)))
        self.assertIsNotNone(kyc["lastReviewedAt"])
        kyc = C.ok(self.api.post(path, token=self.compliance))  # no body: the category's interval
        self.assertEqual(kyc["nextReviewDate"], str(due_date))
        self.assert_invalid(self.api.post(path, token=self.compliance,
                                          json_body={"nextReviewDate": str(months_later(today, 13))}), "nextReviewDate")
        self.assert_invalid(self.api.post(path, token=self.compliance, json_body={"nextReviewDate": str(today)}),
                            "nextReviewDate")
        self.assert_invalid(self.api.post(path, token=self.compliance, json_body={"notes": 5}), "notes")
        self.assert_error(self.api.get(C.query("/v1/kyc/reviews/due", asOf="next-year")), 400, "BAD_REQUEST", "asOf")
        self.assert_error(self.api.post(f"/v1/customers/{D.MISSING_UUID}/kyc/reviews", token=self.compliance),
                          404, "NOT_FOUND")


class DocumentsTest(D.DepositsBase):
    def add_document(self, customer, number=None, type_="NATIONAL_ID", **extra):
        body = {"documentType": type_, "documentNumber": number or f"ID{C.uid()}", "issuingCountry": "ZW",
                "issuedOn": "2020-01-15", "expiresOn": "2035-01-14"}
        body.update(extra)
        return C.ok(self.api.post(f"/v1/customers/{customer['id']}/kyc/documents", json_body=body, token=self.teller))

    def test_verification_through_maker_checker(self):
        """The maker parks the decision; the document stays PENDING; the maker cannot approve (403); another
        person's approval makes it VERIFIED, and the customer's kycStatus VERIFIED."""
        customer = self.individual()
        document = self.add_document(customer, type_="passport", number="fn123456")
        self.assertEqual((document["status"], document["documentType"], document["documentNumber"]),
                         ("PENDING", "PASSPORT", "FN123456"))
        self.assert_error(self.api.post(f"/v1/customers/{customer['id']}/kyc/documents", token=self.teller,
                                        json_body={"documentType": "PASSPORT", "documentNumber": "FN123456"}),
                          409, "CONFLICT")
        change = C.ok(self.api.post(f"/v1/kyc/documents/{document['id']}/verify", token=self.teller,
                                    json_body={"decision": "verified", "note": "Original sighted"}))
        self.assertEqual((change["operation"], change["entityType"], change["entityId"], change["status"]),
                         ("kyc.document.verify", "kyc_document", document["id"], "PENDING"))
        self.assertEqual(change["payload"], {"decision": "VERIFIED", "note": "Original sighted"})
        self.assertEqual(C.ok(self.api.get(f"/v1/customers/{customer['id']}/kyc"))["documents"][0]["status"], "PENDING")
        maker_checker = C.new_staff("teller", "supervisor")
        own = C.ok(self.api.post(f"/v1/kyc/documents/{self.add_document(customer)['id']}/verify", token=maker_checker,
                                 json_body={"decision": "VERIFIED"}))
        self.assert_error(self.api.post(f"/v1/approvals/{own['id']}/approve", token=maker_checker), 403, "FORBIDDEN")
        approved = C.ok(self.api.post(f"/v1/approvals/{change['id']}/approve", token=self.supervisor))
        self.assertEqual((approved["status"], approved["checkerId"]), ("APPROVED", self.supervisor.id))
        kyc = C.ok(self.api.get(f"/v1/customers/{customer['id']}/kyc"))
        decided = [d for d in kyc["documents"] if d["id"] == document["id"]][0]
        self.assertEqual((decided["status"], decided["decidedBy"], decided["decisionNote"], decided["parkedChangeId"]),
                         ("VERIFIED", self.supervisor.id, "Original sighted", change["id"]))
        self.assertEqual(kyc["kycStatus"], "VERIFIED")
        self.assertEqual(C.ok(self.api.get(f"/v1/customers/{customer['id']}"))["kycStatus"], "VERIFIED")
        # decided once: a new request for it is refused
        self.assert_error(self.api.post(f"/v1/kyc/documents/{document['id']}/verify", token=self.teller,
                                        json_body={"decision": "REJECTED"}), 409, "CONFLICT")

    def test_rejection_and_refused_approval(self):
        """An approved REJECTED decision rejects; a refused approval leaves the document PENDING."""
        customer = self.individual()
        rejected_doc = self.add_document(customer, type_="DRIVERS_LICENCE")
        change = C.ok(self.api.post(f"/v1/kyc/documents/{rejected_doc['id']}/verify", token=self.teller,
                                    json_body={"decision": "REJECTED", "note": "Photo mismatch"}))
        C.ok(self.api.post(f"/v1/approvals/{change['id']}/approve", token=self.compliance))
        refused_doc = self.add_document(customer, type_="PROOF_OF_ADDRESS")
        refused = C.ok(self.api.post(f"/v1/kyc/documents/{refused_doc['id']}/verify", token=self.teller,
                                     json_body={"decision": "VERIFIED"}))
        C.ok(self.api.post(f"/v1/approvals/{refused['id']}/reject", token=self.supervisor,
                           json_body={"reason": "Not legible"}))
        kyc = C.ok(self.api.get(f"/v1/customers/{customer['id']}/kyc"))
        statuses = {d["id"]: d["status"] for d in kyc["documents"]}
        self.assertEqual((statuses[rejected_doc["id"]], statuses[refused_doc["id"]]), ("REJECTED", "PENDING"))
        self.assertEqual(kyc["kycStatus"], "PENDING")

    def test_document_bad_input(self):
        """Bad document bodies are 400 naming the field; unknown customer or document 404."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/kyc/documents"
        for body, field in (({"documentNumber": "A1"}, "documentType"), ({"documentType": "SELFIE", "documentNumber": "A1"},
                                                                         "documentType"),
                            ({"documentType": "PASSPORT"}, "documentNumber"),
                            ({"documentType": "PASSPORT", "documentNumber": "A#1"}, "documentNumber"),
                            ({"documentType": "PASSPORT", "documentNumber": "A1", "issuingCountry": "Zimbabwe"},
                             "issuingCountry"),
                            ({"documentType": "PASSPORT", "documentNumber": "A1", "issuedOn": "2020-01-01",
                              "expiresOn": "2019-01-01"}, "expiresOn"),
                            ({"documentType": "PASSPORT", "documentNumber": "A1", "status": "VERIFIED"}, "status")):
            self.assert_invalid(self.api.post(path, json_body=body, token=self.teller), field)
        future = str(D.real_today() + datetime.timedelta(days=3))
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"documentType": "PASSPORT",
                                                                            "documentNumber": "A1", "issuedOn": future}),
                            "issuedOn")
        self.assert_error(self.api.post(f"/v1/customers/{D.MISSING_UUID}/kyc/documents", token=self.teller,
                                        json_body={"documentType": "PASSPORT", "documentNumber": "A1"}), 404, "NOT_FOUND")
        document = self.add_document(customer)
        verify = f"/v1/kyc/documents/{document['id']}/verify"
        self.assert_invalid(self.api.post(verify, token=self.teller, json_body={"decision": "MAYBE"}), "decision")
        self.assert_invalid(self.api.post(verify, token=self.teller, json_body={}), "decision")
        self.assert_error(self.api.post(f"/v1/kyc/documents/{D.MISSING_UUID}/verify", token=self.teller,
                                        json_body={"decision": "VERIFIED"}), 404, "NOT_FOUND")
        self.assert_error(self.api.post("/v1/kyc/documents/abc/verify", token=self.teller,
                                        json_body={"decision": "VERIFIED"}), 400, "BAD_REQUEST")


class ExternalChecksTest(D.DepositsBase):
    def test_offline_stub(self):
        """Default mode STUB: every check stored with source STUB, outcome CLEAR, and says nothing was contacted."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/kyc/checks"
        results = C.ok(self.api.post(path, token=self.compliance))
        self.assertEqual([r["checkType"] for r in results],
                         ["IDENTITY_REGISTRY", "SANCTIONS_PEP", "CREDIT_BUREAU", "ADVERSE_MEDIA"])
        for result in results:
            self.assertEqual((result["source"], result["providerMode"], result["outcome"], result["requestedBy"]),
                             ("STUB", "STUB", "CLEAR", self.compliance.id))
            self.assertIn("no provider was contacted", result["details"]["message"])
        some = C.ok(self.api.post(path, token=self.teller, json_body={"checkTypes": ["sanctions_pep"]}))
        self.assertEqual([r["checkType"] for r in some], ["SANCTIONS_PEP"])
        kyc = C.ok(self.api.get(f"/v1/customers/{customer['id']}/kyc"))
        self.assertEqual(len(kyc["checks"]), 5)
        self.assertEqual(C.count("kyc_checks", "customer_id = %s AND source = 'STUB'", (customer["id"],)), 5)

    def test_bad_input(self):
        """The provider comes from configuration only; unknown check types and empty lists are 400."""
        customer = self.individual()
        path = f"/v1/customers/{customer['id']}/kyc/checks"
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"providerMode": "LIVE"}), "providerMode",
                            reason="unknown field")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"checkTypes": ["DNA"]}), "checkTypes")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"checkTypes": []}), "checkTypes")
        self.assert_invalid(self.api.post(path, token=self.teller, json_body={"checkTypes": "SANCTIONS_PEP"}),
                            "checkTypes")
        self.assert_error(self.api.post(f"/v1/customers/{D.MISSING_UUID}/kyc/checks", token=self.teller), 404,
                          "NOT_FOUND")
        self.assertEqual(C.count("kyc_checks", "customer_id = %s", (customer["id"],)), 0)


if __name__ == "__main__":
    import unittest
    unittest.main()
