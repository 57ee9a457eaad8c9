// banking_test.cpp: the core-banking tier's own rules: the operation policy
// (policies/core_operations.json), key-scope hierarchy, request validation of
// the manual journal and the admin bodies, and the query/path parameter readers.
//
// Goal: each refusal is a 400 with the documented code and a message naming
// the field (nested fields by path), and every route the service serves has a
// policy entry. Method: pure functions on hand-written JSON and requests.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "api_error.hpp"
#include "banking/api_key_validation.hpp"
#include "banking/context.hpp"
#include "banking/ledger/admin_validation.hpp"
#include "banking/ledger/approvals_validation.hpp"
#include "banking/ledger/transactions_validation.hpp"
#include "banking/policy.hpp"
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

std::string journal(const json& entries, const json& extra = json::object()) {
    json body = {{"description", "float correction"}, {"entries", entries}};
    for (const auto& [k, v] : extra.items()) body[k] = v;
    return body.dump();
}

json line(const std::string& side, std::int64_t amount) {
    return {{"glAccountCode", "1000"}, {"currency", "USD"}, {"side", side}, {"amountMinor", amount}};
}

// Goal: the shipped policy file parses and covers every route of the service.
TEST(OperationPolicy, ShippedFileCoversEveryRoute) {
    const auto policy = banking::OperationPolicy::from_file(COREBANK_SOURCE_DIR "/policies/core_operations.json");
    for (const char* op : {"transactions.search", "transactions.capture", "transactions.post", "transactions.abandon",
                           "transactions.reverse", "transactions.get", "approvals.list", "approvals.get",
                           "approvals.approve", "approvals.reject", "platform.config.get", "platform.config.update",
                           "numbering.list", "numbering.update", "gl.accounts.list", "gl.accounts.get",
                           "gl.accounts.create", "gl.accounts.update", "gl.budgets.list", "gl.budgets.upsert",
                           "branches.list", "branches.get", "branches.update", "periods.list", "periods.close",
                           "periods.reopen", "api_keys.list", "api_keys.create", "api_keys.revoke"})
        EXPECT_TRUE(policy.has(op)) << op;
    EXPECT_EQ(policy.rule("approvals.approve").actor, banking::ActorRule::required);
    // The approvals' permission is the parked change's check permission, judged by the database.
    EXPECT_EQ(policy.rule("approvals.approve").permission, "");
    EXPECT_EQ(policy.rule("approvals.reject").permission, "");
    EXPECT_EQ(policy.rule("transactions.capture").permission, "transaction.release:make");
    EXPECT_EQ(policy.rule("transactions.post").permission, "transactions.post");
    EXPECT_THROW(policy.rule("no.such.operation"), std::logic_error);
}

// Goal: a policy naming roles is refused at start: which roles may act is
// the database's alone (corebank.staff_role_permissions), one source of truth.
TEST(OperationPolicy, RefusesRoleLists) {
    const json bad = {{"operations", {{"x", {{"scope", "read"}, {"actor", "required"}, {"roles", {"admin"}}}}}}};
    EXPECT_THROW(banking::OperationPolicy::from_json(bad), std::runtime_error);
    const json empty_permission = {{"operations", {{"x", {{"scope", "read"}, {"actor", "required"}, {"permission", ""}}}}}};
    EXPECT_THROW(banking::OperationPolicy::from_json(empty_permission), std::runtime_error);
    const json unknown_scope = {{"operations", {{"x", {{"scope", "root"}, {"actor", "none"}}}}}};
    EXPECT_THROW(banking::OperationPolicy::from_json(unknown_scope), std::runtime_error);
}

// Goal: admin includes write includes read, and nothing else grants anything.
TEST(OperationPolicy, ScopesAreHierarchical) {
    using banking::KeyScope;
    EXPECT_TRUE(banking::scope_allows({"admin"}, KeyScope::read));
    EXPECT_TRUE(banking::scope_allows({"write"}, KeyScope::write));
    EXPECT_FALSE(banking::scope_allows({"write"}, KeyScope::admin));
    EXPECT_FALSE(banking::scope_allows({"read"}, KeyScope::write));
    EXPECT_FALSE(banking::scope_allows({"ingest", "sessions:write"}, KeyScope::read));
    EXPECT_FALSE(banking::scope_allows({}, KeyScope::read));
}

// Goal: a balanced two-line journal passes and keeps its fields.
TEST(ManualJournal, AcceptsAWellFormedJournal) {
    const json out = banking::parse_manual_journal(journal({line("DEBIT", 100), line("CREDIT", 100)},
                                                           {{"valueDate", "2026-02-28"}, {"type", "FEE"}}));
    EXPECT_EQ(out["entries"].size(), 2u);
    EXPECT_EQ(out["entries"][0]["amountMinor"], 100);
    EXPECT_EQ(out["type"], "FEE");
    EXPECT_EQ(out["valueDate"], "2026-02-28");
}

// Goal: money is never a float, never zero or negative, never absurdly large.
TEST(ManualJournal, RefusesBadAmounts) {
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", 100), {{"glAccountCode", "1"}, {"currency", "USD"}, {"side", "CREDIT"}, {"amountMinor", 1.5}}})); },
                        "VALIDATION_ERROR", "entries[1].amountMinor: must be an integer"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", 0), line("CREDIT", 0)})); },
                        "VALIDATION_ERROR", "entries[0].amountMinor: must be between 1 and"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", -5), line("CREDIT", 5)})); },
                        "VALIDATION_ERROR", "entries[0].amountMinor"));
    EXPECT_TRUE(refused([] {
        json big = line("DEBIT", 1);
        big["amountMinor"] = 18446744073709551615ull;
        banking::parse_manual_journal(journal({big, line("CREDIT", 1)}));
    }, "VALIDATION_ERROR", "entries[0].amountMinor: must be at most"));
}

// Goal: entry shape rules name the failing entry by index.
TEST(ManualJournal, NamesTheFailingEntry) {
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", 1), {{"side", "CREDIT"}, {"amountMinor", 1}}})); },
                        "VALIDATION_ERROR", "entries[1].glAccountId: one of glAccountId, glAccountCode or accountId is required"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("LEFT", 1), line("CREDIT", 1)})); },
                        "VALIDATION_ERROR", "entries[0].side: must be one of DEBIT, CREDIT"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({{{"glAccountCode", "1000"}, {"side", "DEBIT"}, {"amountMinor", 1}}, line("CREDIT", 1)})); },
                        "VALIDATION_ERROR", "entries[0].currency: is required with glAccountCode"));
    EXPECT_TRUE(refused([] {
        json extra = line("DEBIT", 1);
        extra["colour"] = "red";
        banking::parse_manual_journal(journal({extra, line("CREDIT", 1)}));
    }, "VALIDATION_ERROR", "entries[0].colour: unknown field"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", 1), "not an object"})); },
                        "VALIDATION_ERROR", "entries[1]: must be an object"));
}

// Goal: 2..256 entries, required description, valid dates, known types.
TEST(ManualJournal, RefusesBadTopLevelFields) {
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal(json::array({line("DEBIT", 1)}))); }, "VALIDATION_ERROR",
                        "entries: must have 2 to 256 items"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(json{{"entries", {line("DEBIT", 1), line("CREDIT", 1)}}}.dump()); },
                        "VALIDATION_ERROR", "description: is required"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", 1), line("CREDIT", 1)}, {{"valueDate", "2026-02-30"}})); },
                        "VALIDATION_ERROR", "valueDate: must be a date (YYYY-MM-DD)"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", 1), line("CREDIT", 1)}, {{"type", "GIFT"}})); },
                        "VALIDATION_ERROR", "type: must be one of DEPOSIT"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal(journal({line("DEBIT", 1), line("CREDIT", 1)}, {{"branchId", "HO"}})); },
                        "VALIDATION_ERROR", "branchId: must be a UUID"));
    EXPECT_TRUE(refused([] { banking::parse_manual_journal("[1,2]"); }, "BAD_REQUEST", "Malformed JSON request body"));
    json too_many = json::array();
    for (int i = 0; i < 257; ++i) too_many.push_back(line(i % 2 ? "CREDIT" : "DEBIT", 1));
    EXPECT_TRUE(refused([&] { banking::parse_manual_journal(journal(too_many)); }, "VALIDATION_ERROR",
                        "entries: must have 2 to 256 items"));
}

// Goal: the spec's 22 transaction types are exactly the accepted set.
TEST(ManualJournal, KnowsExactlyTheSpecTypes) {
    EXPECT_EQ(banking::transaction_types().size(), 22u);
    EXPECT_EQ(banking::transaction_statuses().size(), 4u);
}

// Goal: admin bodies refuse empty changes, bad enums and bad periods.
TEST(AdminBodies, RefuseBadInput) {
    EXPECT_TRUE(refused([] { banking::parse_gl_account_update("{}"); }, "VALIDATION_ERROR", "at least one field"));
    EXPECT_TRUE(refused([] { banking::parse_gl_account_create(R"({"code":"1500","name":"x","type":"CASH"})"); },
                        "VALIDATION_ERROR", "type: must be one of ASSET"));
    EXPECT_TRUE(refused([] { banking::parse_gl_budget_upsert(R"({"glAccountId":"00000000-0000-0000-0000-000000000001","period":"2026-13","amountMinor":5})"); },
                        "VALIDATION_ERROR", "period: must be a month (YYYY-MM)"));
    EXPECT_TRUE(refused([] { banking::parse_numbering_update(R"({"prefix":"ac"})"); }, "VALIDATION_ERROR",
                        "prefix: may hold only A-Z, 0-9 and '-'"));
    EXPECT_TRUE(refused([] { banking::parse_api_key_create(R"({"name":"k","scopes":["root"]})"); },
                        "VALIDATION_ERROR", "scopes: each scope must be one of read, write, admin"));
    EXPECT_TRUE(refused([] { banking::parse_rejection_reason(R"({"reason":"   "})"); }, "VALIDATION_ERROR",
                        "reason: is required"));
    EXPECT_EQ(banking::parse_platform_config_update(R"({"todayOverride":null})")["todayOverride"], nullptr);
    EXPECT_FALSE(banking::parse_approval_comment("").has_value());
}

// Goal: query readers bound and type every parameter.
TEST(QueryParams, ReadTypedValues) {
    HttpRequest request;
    request.query = {{"from", "2024-02-29"}, {"size", "25"}, {"bad", "2023-02-29"}, {"page", "-1"}, {"x", "abc"}};
    EXPECT_EQ(*corebank::httpd::query_date(request, "from"), "2024-02-29");
    EXPECT_THROW(corebank::httpd::query_date(request, "bad"), ApiError);
    EXPECT_EQ(corebank::httpd::query_int(request, "size", 10, 1, 200), 25);
    EXPECT_EQ(corebank::httpd::query_int(request, "missing", 10, 1, 200), 10);
    EXPECT_THROW(corebank::httpd::query_int(request, "page", 0, 0, 100), ApiError);
    EXPECT_THROW(corebank::httpd::query_int(request, "x", 0, 0, 100), ApiError);
    EXPECT_THROW(corebank::httpd::query_enum(request, "x", {"A", "B"}), ApiError);
    request.path_params["id"] = "not-a-uuid";
    EXPECT_THROW(corebank::httpd::path_uuid(request, "id"), ApiError);
    request.path_params["id"] = "123e4567-e89b-12d3-a456-426614174000";
    EXPECT_EQ(corebank::httpd::path_uuid(request, "id"), "123e4567-e89b-12d3-a456-426614174000");
    EXPECT_TRUE(corebank::httpd::is_year_month("2026-11"));
    EXPECT_FALSE(corebank::httpd::is_year_month("2026-00"));
}

}  // namespace
