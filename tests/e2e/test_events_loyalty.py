"""Loyalty member mapping: PUT and GET /v1/loyalty/members/{memberId}.

Goal: a member id maps to one customer; mapping it again to the same
customer is idempotent; mapping it to another customer is 409 member_taken
whose detail carries the member id and the owning customer's public id; an
unknown customer is 404 not_found; bad member ids and bodies are 422
validation details; a merge carries the mapping to the survivor.
Method: customers made by ingest, mappings through HTTP.
"""
import unittest

import events_support as es


def setUpModule():
    es.require_events_service()


class LoyaltyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        key, caller = es.make_key()
        cls.api = es.Events(key, caller)

    def customer(self):
        identity = {"platform": "web", "userId": es.unique("loyal")}
        self.api.ingest([es.ev("identity.registered", {}, identity=identity)])
        return self.api.customer_of(userId=identity["userId"], platform="web")["customerId"], identity

    def test_map_then_idempotent_then_taken(self):
        ann, _ = self.customer()
        ben, _ = self.customer()
        member = es.unique("M")
        created = es.assert_success(self.api.put(f"/v1/loyalty/members/{member}", {"customerId": ann}), 201)
        self.assertEqual((created["memberId"], created["customerId"]), (member, ann))
        again = es.assert_success(self.api.put(f"/v1/loyalty/members/{member}", {"customerId": ann}), 200)
        self.assertEqual(again, created)
        error = es.assert_business(self.api.put(f"/v1/loyalty/members/{member}", {"customerId": ben}), 409, "member_taken")
        self.assertEqual(error["detail"], {"memberId": member, "customerPublicId": ann})
        self.assertEqual(es.assert_success(self.api.get(f"/v1/loyalty/members/{member}")), created)
        self.assertEqual(es.assert_success(self.api.get(f"/v1/customers/{ann}"))["loyaltyMemberIds"], [member])

    def test_unknown_member_and_customer(self):
        es.assert_business(self.api.get(f"/v1/loyalty/members/{es.unique('M')}"), 404, "not_found")
        es.assert_business(self.api.put(f"/v1/loyalty/members/{es.unique('M')}", {"customerId": "cus_aaaaaaaaaaaaaaaaaaaa"}),
                           404, "not_found")

    def test_bad_requests(self):
        ann, _ = self.customer()
        es.assert_validation(self.api.put("/v1/loyalty/members/" + "x" * 65, {"customerId": ann}),
                             ("string_pattern_mismatch", ["path", "memberId"]))
        es.assert_validation(self.api.put("/v1/loyalty/members/a%20b", {"customerId": ann}),
                             ("string_pattern_mismatch", ["path", "memberId"]))
        es.assert_validation(self.api.put(f"/v1/loyalty/members/{es.unique('M')}", {}),
                             ("missing", ["body", "customerId"]))
        es.assert_validation(self.api.put(f"/v1/loyalty/members/{es.unique('M')}", {"customerId": 5}),
                             ("string_type", ["body", "customerId"]))
        es.assert_validation(self.api.put(f"/v1/loyalty/members/{es.unique('M')}", {"customerId": "someone"}),
                             ("string_pattern_mismatch", ["body", "customerId"]))
        es.assert_validation(self.api.put(f"/v1/loyalty/members/{es.unique('M')}", {"customerId": ann, "x": 1}),
                             ("extra_forbidden", ["body", "x"]))
        es.assert_validation(self.api.put(f"/v1/loyalty/members/{es.unique('M')}", ["cus"]), ("dict_type", ["body"]))

    def test_merge_carries_the_mapping(self):
        ann, ann_identity = self.customer()
        ben, ben_identity = self.customer()
        member = es.unique("M")
        es.assert_success(self.api.put(f"/v1/loyalty/members/{member}", {"customerId": ann}), 201)
        self.api.ingest([es.ev("identity.claimed", {"claimedType": "userId", "claimedValue": ann_identity["userId"]},
                               identity=ben_identity)])
        self.assertEqual(es.assert_success(self.api.get(f"/v1/loyalty/members/{member}"))["customerId"], ben)
        es.assert_success(self.api.put(f"/v1/loyalty/members/{member}", {"customerId": ann}), 200)


if __name__ == "__main__":
    unittest.main()
