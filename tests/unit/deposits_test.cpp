// deposits_test.cpp: the core-banking tier's validation of issue 4's requests
// (customers, CIF profile PATCH, KYC, products, accounts, money, exchange
// rates, passbooks, standing orders) and the policy entries of their routes.
//
// Goal: every refusal is a 400 with the documented code and a message naming
// the field (nested ones by path); well-formed requests come out as the JSON
// the extension functions take (docs/design/deposits.md), with PATCH nulls and
// blanks kept (they clear) and omitted members left out. Method: pure
// functions on hand-written JSON and requests; no database.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "api_error.hpp"
#include "banking/deposits/accounts_validation.hpp"
#include "banking/deposits/customer_profile_validation.hpp"
#include "banking/deposits/customers_validation.hpp"
#include "banking/deposits/kyc_validation.hpp"
#include "banking/deposits/money_validation.hpp"
#include "banking/deposits/passbooks_validation.hpp"
#include "banking/deposits/products_validation.hpp"
#include "banking/deposits/standing_orders_validation.hpp"
#include "banking/parameters.hpp"
#include "banking/policy.hpp"
#include "config.hpp"
#include "query_params.hpp"

namespace {

using corebank::httpd::ApiError;
using corebank::httpd::HttpRequest;
namespace banking = corebank::httpd::core_banking;
using nlohmann::json;

::testing::AssertionResult refused(const std::function<void()>& parse, const std::string& code,
                                   const std::string& message_part) {
    try {
        parse();
    } catch (const ApiError& e) {
        const std::string message = e.what();
        if (e.status == 400 && e.code == code && message.find(message_part) != std::string::npos)
            return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "threw " << e.status << " " << e.code << " \"" << message << "\"";
    }
    return ::testing::AssertionFailure() << "accepted the input";
}

::testing::AssertionResult invalid(const std::function<void()>& parse, const std::string& message_part) {
    return refused(parse, "VALIDATION_ERROR", message_part);
}

const char* uuid_a = "123e4567-e89b-12d3-a456-426614174000";
const char* uuid_b = "223e4567-e89b-12d3-a456-426614174000";

// ---------------------------------------------------------------- policy

// Goal: every issue 4 operation has a policy entry; money movement needs a
// teller-type person, jobs take an admin key and an optional person.
TEST(DepositsPolicy, ShippedFileCoversEveryDepositsOperation) {
    const auto policy = banking::OperationPolicy::from_file(COREBANK_SOURCE_DIR "/policies/core_operations.json");
    for (const char* op :
         {"customers.create", "customers.list", "customers.get", "customers.signing_mandate.update",
          "customers.profile.get", "customers.profile.update", "customers.interactions.list",
          "customers.interactions.create", "customers.cases.list", "customers.cases.open", "customers.cases.resolve",
          "customers.beneficial_owners.list", "customers.beneficial_owners.add", "customers.beneficial_owners.remove",
          "customers.beneficiaries.list", "customers.beneficiaries.add", "customers.beneficiaries.remove",
          "customers.profitability", "kyc.get", "kyc.risk.update", "kyc.reviews.record", "kyc.reviews.due",
          "kyc.documents.add", "kyc.documents.verify", "kyc.checks.run", "deposit_products.list",
          "deposit_products.get", "deposit_products.update", "accounts.open", "accounts.list", "accounts.get",
          "accounts.activate", "accounts.freeze", "accounts.unfreeze", "accounts.reactivate", "accounts.close",
          "accounts.status_history", "accounts.balance", "accounts.statement", "accounts.interest.post",
          "accounts.interest.accruals", "interest.run", "dormancy.run", "money.deposit", "money.withdraw",
          "money.transfer", "money.fee", "exchange_rates.list", "exchange_rates.get", "exchange_rates.set",
          "passbooks.issue", "passbooks.list", "passbooks.get", "passbooks.reprint", "passbooks.unprinted",
          "passbooks.print_confirm", "standing_orders.list", "standing_orders.create", "standing_orders.get",
          "standing_orders.pause", "standing_orders.resume", "standing_orders.cancel", "standing_orders.execute"})
        EXPECT_TRUE(policy.has(op)) << op;
    const auto& deposit = policy.rule("money.deposit");
    EXPECT_EQ(deposit.scope, banking::KeyScope::write);
    EXPECT_EQ(deposit.actor, banking::ActorRule::required);
    EXPECT_EQ(deposit.permission, "money.deposit");
    EXPECT_EQ(policy.rule("standing_orders.execute").scope, banking::KeyScope::admin);
    EXPECT_EQ(policy.rule("standing_orders.execute").actor, banking::ActorRule::optional);
    // Reads of branch data take the staff token when one is sent, so that
    // branch scoping can scope them (issue 15); a bare key still reads.
    EXPECT_EQ(policy.rule("accounts.get").actor, banking::ActorRule::optional);
    EXPECT_EQ(policy.rule("deposit_products.list").actor, banking::ActorRule::none);
    EXPECT_EQ(policy.rule("kyc.documents.verify").permission, "kyc.document.verify:make");
}

// ---------------------------------------------------------------- customers

// Goal: an individual passes with its fields normalised (enums and countries upper case).
TEST(CustomerCreate, AcceptsAnIndividual) {
    const json out = banking::parse_customer_create(
        R"({"type":"individual","firstName":" Tendai ","lastName":"Moyo","dateOfBirth":"1990-04-01","gender":"female",
            "nationality":"zw","nationalId":"63-123456a-42","riskCategory":"low","branchCode":"hre",
            "email":"T.Moyo@Example.com","phone":"+263771234567",
            "profile":{"address":{"line1":"1 Samora Machel Ave","city":"Harare","country":"zw"},
                       "declaredIncome":{"amountMinor":150000,"currency":"usd","frequency":"monthly"}}})");
    EXPECT_EQ(out["type"], "INDIVIDUAL");
    EXPECT_EQ(out["firstName"], "Tendai");
    EXPECT_EQ(out["gender"], "FEMALE");
    EXPECT_EQ(out["nationality"], "ZW");
    EXPECT_EQ(out["riskCategory"], "LOW");
    EXPECT_EQ(out["branchCode"], "HRE");
    EXPECT_EQ(out["email"], "t.moyo@example.com");
    EXPECT_EQ(out["profile"]["address"]["country"], "ZW");
    EXPECT_EQ(out["profile"]["declaredIncome"]["currency"], "USD");
    EXPECT_EQ(out["profile"]["declaredIncome"]["frequency"], "MONTHLY");
}

// Goal: required fields follow the type; fields of the other type are refused.
TEST(CustomerCreate, RefusesMissingAndForeignFields) {
    EXPECT_TRUE(invalid([] { banking::parse_customer_create(R"({"firstName":"A"})"); }, "type: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_customer_create(R"({"type":"INDIVIDUAL","lastName":"B","dateOfBirth":"1990-01-01"})"); },
                        "firstName: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_customer_create(R"({"type":"CORPORATE","legalName":"Acme"})"); },
                        "registrationNumber: is required"));
    EXPECT_TRUE(invalid([] {
        banking::parse_customer_create(R"({"type":"CORPORATE","legalName":"Acme","registrationNumber":"R1","firstName":"X"})");
    }, "firstName: does not apply to a customer of type CORPORATE"));
    EXPECT_TRUE(invalid([] {
        banking::parse_customer_create(R"({"type":"INDIVIDUAL","firstName":"A","lastName":"B","dateOfBirth":"1990-02-30"})");
    }, "dateOfBirth: must be a date (YYYY-MM-DD)"));
    EXPECT_TRUE(invalid([] {
        banking::parse_customer_create(R"({"type":"INDIVIDUAL","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01","nationality":"ZWE"})");
    }, "nationality: must be an ISO 3166 alpha-2"));
    EXPECT_TRUE(invalid([] {
        banking::parse_customer_create(R"({"type":"INDIVIDUAL","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01","colour":"red"})");
    }, "colour: unknown field"));
    EXPECT_TRUE(invalid([] {
        banking::parse_customer_create(R"({"type":"INDIVIDUAL","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01","email":"nope"})");
    }, "email: must be an email address"));
    EXPECT_TRUE(invalid([] {
        banking::parse_customer_create(R"({"type":"INDIVIDUAL","firstName":"A","lastName":"B","dateOfBirth":"1990-01-01","profile":{"firstName":"C"}})");
    }, "profile.firstName: identity fields cannot be changed through the profile"));
    EXPECT_TRUE(invalid([] {
        banking::parse_customer_create(R"({"type":"CORPORATE","legalName":"Acme","registrationNumber":"R1","signingMandate":"SOME"})");
    }, "signingMandate: must be one of ANY_ONE, ANY_TWO, ALL"));
    EXPECT_TRUE(refused([] { banking::parse_customer_create("[]"); }, "BAD_REQUEST", "Malformed JSON request body"));
}

// Goal: the mandate is one of the spec's three values, case-insensitive.
TEST(CustomerCreate, SigningMandate) {
    EXPECT_EQ(banking::parse_signing_mandate(R"({"signingMandate":"any_two"})")["signingMandate"], "ANY_TWO");
    EXPECT_TRUE(invalid([] { banking::parse_signing_mandate("{}"); }, "signingMandate: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_signing_mandate(R"({"signingMandate":"EVERYONE"})"); },
                        "signingMandate: must be one of ANY_ONE, ANY_TWO, ALL"));
}

// ---------------------------------------------------------------- the profile PATCH

// Goal: omitted members stay out, null and blank clear (null), nested objects
// keep the same rule, and a whole object set to null or "" clears it.
TEST(ProfilePatch, KeepsOmittedClearsBlankAndNull) {
    const json out = banking::parse_profile_patch(
        R"({"phone":"  ","address":{"city":null,"line2":"","postalCode":" 00263 "},"employment":null,"declaredIncome":""})");
    EXPECT_FALSE(out.contains("email"));
    EXPECT_TRUE(out["phone"].is_null());
    EXPECT_TRUE(out["address"]["city"].is_null());
    EXPECT_TRUE(out["address"]["line2"].is_null());
    EXPECT_EQ(out["address"]["postalCode"], "00263");
    EXPECT_FALSE(out["address"].contains("line1"));
    EXPECT_TRUE(out["employment"].is_null());
    EXPECT_TRUE(out["declaredIncome"].is_null());
}

// Goal: identity fields, unknown members, bad enums and float money are refused by path.
TEST(ProfilePatch, RefusesIdentityAndUnknownFields) {
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"lastName":"X"})"); },
                        "lastName: identity fields cannot be changed through the profile"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"nationalId":"X"})"); },
                        "nationalId: identity fields cannot be changed"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"riskCategory":"HIGH"})"); },
                        "riskCategory: is changed with PUT /v1/customers/{id}/kyc/risk-category"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"address":{"street":"x"}})"); }, "address.street: unknown field"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"address":5})"); }, "address: must be an object"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"employment":{"status":"BUSY"}})"); },
                        "employment.status: must be one of EMPLOYED"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"declaredIncome":{"amountMinor":12.5}})"); },
                        "declaredIncome.amountMinor: must be an integer"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"declaredIncome":{"amount":"12.50"}})"); },
                        "declaredIncome.amount: send amountMinor"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"phone":"12"})"); }, "phone: must be 10 to 15 digits"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch("{}"); }, "at least one of email"));
    EXPECT_TRUE(invalid([] { banking::parse_profile_patch(R"({"email":7,"phone":true})"); },
                        "email: must be a string; phone: must be a string"));
}

// ---------------------------------------------------------------- CIF and KYC bodies

// Goal: interactions, cases and their resolution carry their required fields and bounds.
TEST(CifBodies, InteractionsAndCases) {
    const json interaction = banking::parse_interaction_create(
        R"({"interactionType":"complaint","channel":"phone","summary":"Card retained","occurredAt":"2026-11-21T08:15:00Z"})");
    EXPECT_EQ(interaction["interactionType"], "COMPLAINT");
    EXPECT_EQ(interaction["channel"], "PHONE");
    EXPECT_TRUE(invalid([] { banking::parse_interaction_create(R"({"summary":"x"})"); }, "interactionType: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_interaction_create(R"({"interactionType":"KYC","summary":"x","occurredAt":"2026-11-21"})"); },
                        "occurredAt: must be an ISO 8601 timestamp with a zone"));
    EXPECT_TRUE(invalid([] { banking::parse_interaction_create(R"({"interactionType":"KYC","summary":"   "})"); },
                        "summary: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_case_open(R"({"description":"x"})"); }, "subject: is required"));
    EXPECT_EQ(banking::parse_case_open(R"({"subject":"Address change","category":"service"})")["category"], "SERVICE");
    EXPECT_TRUE(invalid([] { banking::parse_case_resolve("{}"); }, "resolution: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_case_resolve(R"({"resolution":")" + std::string(4001, 'x') + R"("})"); },
                        "resolution: must be at most 4000 characters"));
}

// Goal: beneficial owners need a person and an exact percentage; beneficiaries a valid number and SWIFT code.
TEST(CifBodies, OwnersAndBeneficiaries) {
    const json owner = banking::parse_beneficial_owner_add(R"({"fullName":"Rudo Dube","ownershipPercent":33.33})");
    EXPECT_EQ(owner["ownershipPercent"], "33.33");
    EXPECT_EQ(banking::parse_beneficial_owner_add(R"({"ownerCustomerId":"123e4567-e89b-12d3-a456-426614174000","ownershipBp":2500})")["ownershipBp"],
              2500);
    EXPECT_TRUE(invalid([] { banking::parse_beneficial_owner_add(R"({"ownershipBp":3000})"); },
                        "fullName: is required (or ownerCustomerId)"));
    EXPECT_TRUE(invalid([] { banking::parse_beneficial_owner_add(R"({"fullName":"A","ownershipPercent":"101"})"); },
                        "ownershipPercent: must be a percentage from 0 to 100"));
    EXPECT_TRUE(invalid([] { banking::parse_beneficial_owner_add(R"({"fullName":"A","ownershipPercent":"25.555"})"); },
                        "ownershipPercent: must be a percentage"));
    EXPECT_TRUE(invalid([] { banking::parse_beneficial_owner_add(R"({"fullName":"A","ownershipPercent":"25","ownershipBp":3000})"); },
                        "ownershipPercent: does not match ownershipBp"));
    EXPECT_TRUE(invalid([] { banking::parse_beneficial_owner_add(R"({"fullName":"A","ownershipBp":10001})"); },
                        "ownershipBp: must be at most 10000"));
    const json beneficiary = banking::parse_beneficiary_add(
        R"({"name":"ZESA","accountNumber":"acc-1","bankSwiftCode":"cbzkzwhx","currency":"usd"})");
    EXPECT_EQ(beneficiary["accountNumber"], "ACC-1");
    EXPECT_EQ(beneficiary["bankSwiftCode"], "CBZKZWHX");
    EXPECT_EQ(beneficiary["currency"], "USD");
    EXPECT_TRUE(invalid([] { banking::parse_beneficiary_add(R"({"name":"X","accountNumber":"1","bankSwiftCode":"CBZK"})"); },
                        "bankSwiftCode: must be a SWIFT/BIC code"));
    EXPECT_TRUE(invalid([] { banking::parse_beneficiary_add(R"({"name":"X","accountNumber":"1","bankSwiftCode":"CBZKZWHX"})"); },
                        "currency: is required for an account at another bank"));
    EXPECT_TRUE(invalid([] { banking::parse_beneficiary_add(R"({"name":"X","accountNumber":"1 2"})"); },
                        "accountNumber: must be 1 to 34 of A-Z 0-9 -"));
}

// Goal: KYC bodies: risk category case-insensitive, documents dated sensibly,
// decisions two-valued, checks from the four types and the provider from configuration only.
TEST(KycBodies, RiskDocumentsDecisionsChecks) {
    EXPECT_EQ(banking::parse_kyc_risk(R"({"riskCategory":"high","reason":"PEP"})")["riskCategory"], "HIGH");
    EXPECT_TRUE(invalid([] { banking::parse_kyc_risk(R"({"riskCategory":"extreme"})"); },
                        "riskCategory: must be one of LOW, MEDIUM, HIGH, PROHIBITED"));
    EXPECT_TRUE(banking::parse_kyc_review("").empty());
    EXPECT_TRUE(invalid([] { banking::parse_kyc_review(R"({"nextReviewDate":"tomorrow"})"); }, "nextReviewDate: must be a date"));
    const json document = banking::parse_kyc_document_add(
        R"({"documentType":"passport","documentNumber":"fn123456","issuingCountry":"zw","issuedOn":"2020-01-01","expiresOn":"2030-01-01"})");
    EXPECT_EQ(document["documentType"], "PASSPORT");
    EXPECT_EQ(document["documentNumber"], "FN123456");
    EXPECT_TRUE(invalid([] {
        banking::parse_kyc_document_add(R"({"documentType":"PASSPORT","documentNumber":"A1","issuedOn":"2020-01-01","expiresOn":"2019-01-01"})");
    }, "expiresOn: must be after issuedOn"));
    EXPECT_TRUE(invalid([] { banking::parse_kyc_document_add(R"({"documentType":"SELFIE","documentNumber":"A1"})"); },
                        "documentType: must be one of NATIONAL_ID"));
    EXPECT_TRUE(invalid([] { banking::parse_kyc_document_verify(R"({"decision":"MAYBE"})"); },
                        "decision: must be one of VERIFIED, REJECTED"));
    EXPECT_EQ(banking::parse_kyc_checks("", "STUB")["providerMode"], "STUB");
    EXPECT_EQ(banking::parse_kyc_checks(R"({"checkTypes":["sanctions_pep","SANCTIONS_PEP"]})", "STUB")["checkTypes"],
              json::array({"SANCTIONS_PEP"}));
    EXPECT_TRUE(invalid([] { banking::parse_kyc_checks(R"({"providerMode":"LIVE"})", "STUB"); }, "providerMode: unknown field"));
    EXPECT_TRUE(invalid([] { banking::parse_kyc_checks(R"({"checkTypes":["DNA"]})", "STUB"); },
                        "checkTypes: each must be one of IDENTITY_REGISTRY"));
    EXPECT_TRUE(invalid([] { banking::parse_kyc_checks(R"({"checkTypes":[]})", "STUB"); }, "checkTypes: must have 1 to 4 items"));
}

// ---------------------------------------------------------------- products and accounts

// Goal: a product update keeps dormancyDays null (never dormant), checks tiers, refuses frozen fields.
TEST(ProductUpdate, FieldsTiersAndFrozenMembers) {
    const json out = banking::parse_product_update(
        R"({"annualRateBp":275,"dormancyDays":null,"tiers":[{"fromMinor":0,"rateBp":100},{"fromMinor":100000,"rateBp":200}]})");
    EXPECT_EQ(out["annualRateBp"], 275);
    EXPECT_TRUE(out.contains("dormancyDays"));
    EXPECT_TRUE(out["dormancyDays"].is_null());
    EXPECT_EQ(out["tiers"].size(), 2u);
    EXPECT_TRUE(invalid([] { banking::parse_product_update(R"({"currency":"ZWG"})"); }, "currency: cannot be changed"));
    EXPECT_TRUE(invalid([] { banking::parse_product_update(R"({"tiers":[{"fromMinor":5,"rateBp":1}]})"); },
                        "tiers[0].fromMinor: the first tier starts at 0"));
    EXPECT_TRUE(invalid([] { banking::parse_product_update(R"({"tiers":[{"fromMinor":0,"rateBp":1},{"fromMinor":0,"rateBp":2}]})"); },
                        "tiers[1].fromMinor"));
    EXPECT_TRUE(invalid([] { banking::parse_product_update(R"({"tiers":[{"fromMinor":0}]})"); }, "tiers[0].rateBp: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_product_update(R"({"annualRateBp":100001})"); }, "annualRateBp: must be at most 100000"));
    EXPECT_TRUE(invalid([] { banking::parse_product_update(R"({"dormancyDays":0})"); }, "dormancyDays: must be between 1 and 3660"));
    EXPECT_TRUE(invalid([] { banking::parse_product_update("{}"); }, "at least one field"));
}

// Goal: opening names a product (code or id, not both), a customer id, and an optional initial deposit in minor units.
TEST(AccountOpen, ProductCustomerAndInitialDeposit) {
    const json out = banking::parse_account_open(
        R"({"customerId":"123e4567-e89b-12d3-a456-426614174000","productCode":"sav-std","initialDeposit":{"amountMinor":5000,"channel":"branch"}})");
    EXPECT_EQ(out["productCode"], "SAV-STD");
    EXPECT_EQ(out["initialDeposit"]["amountMinor"], 5000);
    EXPECT_EQ(out["initialDeposit"]["channel"], "BRANCH");
    EXPECT_TRUE(invalid([] { banking::parse_account_open(R"({"customerId":"123e4567-e89b-12d3-a456-426614174000"})"); },
                        "productCode: is required (or productId)"));
    EXPECT_TRUE(invalid([] { banking::parse_account_open(R"({"productCode":"SAV-STD","customerId":"42"})"); },
                        "customerId: must be a UUID"));
    EXPECT_TRUE(invalid([] { banking::parse_account_open(R"({"productCode":"SAV-STD","initialDeposit":{"amountMinor":10.5}})"); },
                        "initialDeposit.amountMinor: must be an integer"));
    EXPECT_TRUE(invalid([] { banking::parse_account_open(R"({"productCode":"SAV-STD","initialDeposit":{"amount":"10.50"}})"); },
                        "initialDeposit.amount: send amountMinor"));
    EXPECT_TRUE(invalid([] { banking::parse_account_open(R"({"productCode":"SAV-STD","initialDeposit":{"amountMinor":1,"x":1}})"); },
                        "initialDeposit.x: unknown field"));
    EXPECT_TRUE(invalid([] { banking::parse_account_open(R"({"productCode":"SAV-STD","initialDeposit":7})"); },
                        "initialDeposit: must be an object"));
    EXPECT_TRUE(banking::parse_lifecycle_reason("", false).empty());
    EXPECT_TRUE(invalid([] { banking::parse_lifecycle_reason("{}", true); }, "reason: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_lifecycle_reason(R"({"why":"x"})", false); }, "why: unknown field"));
}

// ---------------------------------------------------------------- money

// Goal: money is an integer amountMinor in 1..10^15; `amount` and floats are refused.
TEST(Money, AmountsAreIntegerMinorUnits) {
    const json out = banking::parse_money(R"({"accountId":"123e4567-e89b-12d3-a456-426614174000","amountMinor":2500,"channel":"atm"})",
                                          banking::MoneyKind::deposit, std::nullopt);
    EXPECT_EQ(out["amountMinor"], 2500);
    EXPECT_EQ(out["channel"], "ATM");
    for (const char* bad : {R"("amountMinor":0)", R"("amountMinor":-1)", R"("amountMinor":1000000000000001)"})
        EXPECT_TRUE(invalid([&] {
            banking::parse_money(std::string(R"({"accountId":"123e4567-e89b-12d3-a456-426614174000",)") + bad + "}",
                                 banking::MoneyKind::withdrawal, std::nullopt);
        }, "amountMinor: must be"));
    EXPECT_TRUE(invalid([] {
        banking::parse_money(R"({"accountId":"123e4567-e89b-12d3-a456-426614174000","amountMinor":25.5})", banking::MoneyKind::deposit,
                             std::nullopt);
    }, "amountMinor: must be an integer"));
    EXPECT_TRUE(invalid([] {
        banking::parse_money(R"({"accountId":"123e4567-e89b-12d3-a456-426614174000","amount":"25.50"})", banking::MoneyKind::deposit,
                             std::nullopt);
    }, "amount: send amountMinor"));
}

// Goal: each kind has its own members; transfers need two different accounts; fees a description.
TEST(Money, KindsAndTheirMembers) {
    std::string transfer = std::string(R"({"fromAccountId":")") + uuid_a + R"(","toAccountId":")" + uuid_a + R"(","amountMinor":1})";
    EXPECT_TRUE(invalid([&] { banking::parse_money(transfer, banking::MoneyKind::transfer, std::nullopt); },
                        "toAccountId: must differ from fromAccountId"));
    EXPECT_TRUE(invalid([] { banking::parse_money(R"({"amountMinor":1})", banking::MoneyKind::transfer, std::nullopt); },
                        "fromAccountId: is required"));
    const std::string fee = std::string(R"({"accountId":")") + uuid_a + R"(","amountMinor":100})";
    EXPECT_TRUE(invalid([&] { banking::parse_money(fee, banking::MoneyKind::fee, std::nullopt); }, "description: is required"));
    const std::string deposit_with_fee_gl = std::string(R"({"accountId":")") + uuid_a + R"(","amountMinor":1,"incomeGlAccountCode":"4100"})";
    EXPECT_TRUE(invalid([&] { banking::parse_money(deposit_with_fee_gl, banking::MoneyKind::deposit, std::nullopt); },
                        "incomeGlAccountCode: unknown field"));
    EXPECT_TRUE(invalid([&] {
        banking::parse_money(std::string(R"({"accountId":")") + uuid_a + R"(","amountMinor":1,"valueDate":"2026-13-01"})",
                             banking::MoneyKind::deposit, std::nullopt);
    }, "valueDate: must be a date"));
    EXPECT_TRUE(invalid([&] {
        banking::parse_money(std::string(R"({"accountId":")") + uuid_a + R"(","amountMinor":1,"currency":"EUR"})",
                             banking::MoneyKind::deposit, std::nullopt);
    }, "currency: must be one of USD, ZWG"));
}

// Goal: the Idempotency-Key header becomes idempotencyKey; a different body field is refused.
TEST(Money, IdempotencyKeyHeader) {
    const std::string body = std::string(R"({"accountId":")") + uuid_a + R"(","amountMinor":1})";
    EXPECT_EQ(banking::parse_money(body, banking::MoneyKind::deposit, std::string("k-1"))["idempotencyKey"], "k-1");
    const std::string keyed = std::string(R"({"accountId":")") + uuid_a + R"(","amountMinor":1,"idempotencyKey":"k-2"})";
    EXPECT_EQ(banking::parse_money(keyed, banking::MoneyKind::deposit, std::nullopt)["idempotencyKey"], "k-2");
    EXPECT_TRUE(refused([&] { banking::parse_money(keyed, banking::MoneyKind::deposit, std::string("k-1")); }, "BAD_REQUEST",
                        "Idempotency-Key header and idempotencyKey field differ"));
    EXPECT_TRUE(refused([&] { banking::parse_money(body, banking::MoneyKind::deposit, std::string(129, 'k')); }, "BAD_REQUEST",
                        "Idempotency-Key: must be 1 to 128 characters"));
}

// Goal: exchange rates are exact positive decimals of at most 10 decimals between two different currencies.
TEST(ExchangeRates, RateShapes) {
    EXPECT_EQ(banking::parse_fx_rate_set(R"({"fromCurrency":"usd","toCurrency":"ZWG","rate":"26.5"})")["rate"], "26.5");
    EXPECT_EQ(banking::parse_fx_rate_set(R"({"fromCurrency":"USD","toCurrency":"ZWG","rate":27})")["rate"], "27");
    EXPECT_TRUE(invalid([] { banking::parse_fx_rate_set(R"({"fromCurrency":"USD","toCurrency":"USD","rate":"1"})"); },
                        "toCurrency: must differ from fromCurrency"));
    EXPECT_TRUE(invalid([] { banking::parse_fx_rate_set(R"({"fromCurrency":"USD","toCurrency":"ZWG","rate":"0"})"); },
                        "rate: must be a positive decimal"));
    EXPECT_TRUE(invalid([] { banking::parse_fx_rate_set(R"({"fromCurrency":"USD","toCurrency":"ZWG","rate":"-2"})"); },
                        "rate: must be a positive decimal"));
    EXPECT_TRUE(invalid([] { banking::parse_fx_rate_set(R"({"fromCurrency":"USD","toCurrency":"ZWG","rate":"1.12345678901"})"); },
                        "rate: must be a positive decimal"));
    EXPECT_TRUE(invalid([] { banking::parse_fx_rate_set(R"({"fromCurrency":"USD","toCurrency":"ZWG"})"); }, "rate: is required"));
}

// ---------------------------------------------------------------- passbooks and standing orders

TEST(Passbooks, PrintConfirmAndReprint) {
    EXPECT_EQ(banking::parse_print_confirm(R"({"lastEntryId":42})")["lastEntryId"], 42);
    EXPECT_TRUE(invalid([] { banking::parse_print_confirm("{}"); }, "lastEntryId: is required"));
    EXPECT_TRUE(invalid([] { banking::parse_print_confirm(R"({"lastEntryId":"42"})"); }, "lastEntryId: must be an integer"));
    EXPECT_TRUE(invalid([] { banking::parse_print_confirm(R"({"lastEntryId":0})"); }, "lastEntryId: must be between 1"));
    EXPECT_TRUE(banking::parse_passbook_reprint("").empty());
    EXPECT_EQ(banking::parse_passbook_reprint(R"({"reason":"water damage"})")["reason"], "water damage");
}

// Goal: an order names a source, one target (account or beneficiary), an amount, a frequency and a date window.
TEST(StandingOrders, CreateRequest) {
    const std::string base = std::string(R"({"sourceAccountId":")") + uuid_a + R"(","targetAccountId":")" + uuid_b +
                             R"(","amountMinor":5000,"frequency":"monthly","startDate":"2026-12-01")";
    const json out = banking::parse_standing_order_create(base + R"(,"reference":"rent-1"})");
    EXPECT_EQ(out["frequency"], "MONTHLY");
    EXPECT_EQ(out["reference"], "RENT-1");
    EXPECT_TRUE(invalid([&] { banking::parse_standing_order_create(base + R"(,"endDate":"2026-11-01"})"); },
                        "endDate: must not be before startDate"));
    EXPECT_TRUE(invalid([&] { banking::parse_standing_order_create(base + R"(,"beneficiaryId":")" + uuid_b + R"("})"); },
                        "targetAccountId: give targetAccountId or beneficiaryId, not both"));
    EXPECT_TRUE(invalid([] {
        banking::parse_standing_order_create(R"({"sourceAccountId":"123e4567-e89b-12d3-a456-426614174000","amountMinor":1,"frequency":"DAILY","startDate":"2026-12-01"})");
    }, "targetAccountId: is required (or beneficiaryId)"));
    EXPECT_TRUE(invalid([&] {
        banking::parse_standing_order_create(std::string(R"({"sourceAccountId":")") + uuid_a + R"(","targetAccountId":")" + uuid_b +
                                             R"(","amountMinor":1,"frequency":"HOURLY","startDate":"2026-12-01"})");
    }, "frequency: must be one of DAILY, WEEKLY, MONTHLY, QUARTERLY, YEARLY"));
}

// ---------------------------------------------------------------- query and path parameters

TEST(DepositsQuery, EnumsDatesRangesCurrencies) {
    HttpRequest request;
    request.query = {{"status", "active"}, {"bad", "SLEEPING"}, {"flag", "yes"}, {"date", "2026-06-30"}};
    EXPECT_EQ(*banking::query_enum_ci(request, "status", banking::account_statuses()), "ACTIVE");
    EXPECT_THROW(banking::query_enum_ci(request, "bad", banking::account_statuses()), ApiError);
    EXPECT_THROW(banking::query_bool(request, "flag"), ApiError);
    EXPECT_FALSE(banking::query_bool(request, "missing").has_value());
    EXPECT_EQ(banking::query_required_date(request, "date"), "2026-06-30");
    EXPECT_TRUE(refused([&] { banking::query_required_date(request, "asOf"); }, "BAD_REQUEST", "asOf: is required"));
    EXPECT_NO_THROW(banking::check_date_range(std::string("2026-01-01"), std::string("2027-01-01"), 366));  // 365 days
    EXPECT_TRUE(refused([] { banking::check_date_range(std::string("2026-02-01"), std::string("2026-01-31"), 366); },
                        "BAD_REQUEST", "from: must not be after to"));
    EXPECT_TRUE(refused([] { banking::check_date_range(std::string("2024-01-01"), std::string("2025-01-02"), 366); },
                        "BAD_REQUEST", "to: must be at most 366 days after from"));
    EXPECT_EQ(banking::days_from_civil_text("1970-01-01"), 0);
    EXPECT_EQ(banking::days_from_civil_text("2024-03-01") - banking::days_from_civil_text("2024-02-28"), 2);
    request.path_params = {{"from", "usd"}, {"to", "EUR"}};
    EXPECT_EQ(banking::path_currency(request, "from"), "USD");
    EXPECT_THROW(banking::path_currency(request, "to"), ApiError);
}

// ---------------------------------------------------------------- configuration

// Goal: EXTERNAL_KYC_PROVIDER_MODE (the spec's name, or CORE_EXTERNAL_KYC_PROVIDER_MODE,
// which wins) selects the KYC provider; STUB by default; nonsense refused at start.
TEST(DepositsConfig, ExternalKycProviderMode) {
    using corebank::httpd::load_config;
    EXPECT_EQ(load_config("", {}).external_kyc_provider_mode, "STUB");
    EXPECT_EQ(load_config("", {{"EXTERNAL_KYC_PROVIDER_MODE", "live_registry"}}).external_kyc_provider_mode,
              "LIVE_REGISTRY");
    EXPECT_EQ(load_config("", {{"EXTERNAL_KYC_PROVIDER_MODE", "LIVE"}, {"CORE_EXTERNAL_KYC_PROVIDER_MODE", "stub"}})
                  .external_kyc_provider_mode,
              "STUB");
    EXPECT_THROW(load_config("", {{"EXTERNAL_KYC_PROVIDER_MODE", "live registry"}}), std::runtime_error);
    EXPECT_THROW(load_config("", {{"CORE_EXTERNAL_KYC_PROVIDER_MODE", ""}}), std::runtime_error);
}

}  // namespace
