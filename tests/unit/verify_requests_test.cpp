// verify_requests_test.cpp: request validation of the verification service
// (httpd/src/verify/requests.hpp) and the session rules it shares with the
// extension (extension/pg/verify_rules.hpp, verify_input.hpp).
//
// Goal: every field of every body is bounded and typed, every problem of a
// body is listed in one 400 as "field: reason", unknown fields are refused,
// and the canonical form (the idempotency request hash's input) ignores
// key order and white space but nothing else; the status machine allows
// exactly the documented transitions; the decision never approves a review;
// a provider's results cannot skip, reorder or invent checks. Method: parse
// hand-written bodies and call the rule functions; no database.
#include <gtest/gtest.h>

#include <string>

#include "api_error.hpp"
#include "core/errors.hpp"
#include "pg/verify_input.hpp"
#include "pg/verify_rules.hpp"
#include "verify/keys.hpp"
#include "verify/requests.hpp"

namespace {

using namespace corebank::httpd::verify;
namespace rules = corebank::verify;
using corebank::httpd::ApiError;

// The message of the ApiError `body` raises; fails the test when none.
template <typename Parse>
ApiError refusal(Parse parse) {
    try {
        parse();
    } catch (const ApiError& e) {
        return e;
    }
    ADD_FAILURE() << "no ApiError was raised";
    return ApiError{0, "", ""};
}

/*---- create ----*/

TEST(VerifyCreateRequest, AcceptsTheSpecifiedFields) {
    const auto r = parse_create_session(
        R"({"flow":"document+liveness","reference":"cust-42","subject":{"name":"Ada Lovelace","firstName":"Ada",)"
        R"("lastName":"Lovelace","idNumber":"63-123456 A 42","dateOfBirth":"1990-02-28","country":"ZW",)"
        R"("email":"ada@example.com","phone":"+263771234567"},"redirectUrl":"https://example.com/back?x=1",)"
        R"("metadata":{"orderId":"A-1","attempt":2,"vip":true,"note":null}})");
    EXPECT_EQ(r.flow, "liveness+document");
    EXPECT_EQ(r.reference.value(), "cust-42");
    EXPECT_EQ(r.id_number.value(), "63-123456 A 42");
    EXPECT_EQ(r.subject->size(), 8u);
    EXPECT_EQ(r.redirect_url.value(), "https://example.com/back?x=1");
    EXPECT_EQ(r.metadata->size(), 4u);
}

TEST(VerifyCreateRequest, NullIsAbsentAndOnlyFlowIsRequired) {
    const auto r = parse_create_session(R"({"flow":"liveness","reference":null,"subject":null,"metadata":null})");
    EXPECT_EQ(r.flow, "liveness");
    EXPECT_FALSE(r.reference || r.subject || r.metadata || r.redirect_url || r.id_number);
}

TEST(VerifyCreateRequest, ListsEveryProblemAtOnce) {
    const ApiError e = refusal([] {
        parse_create_session(R"J({"flow":"selfie","reference":"","redirectUrl":"javascript:alert(1)",)J"
                             R"("metadata":{"a":{"b":1}},"subject":{"idNumber":"<script>","dateOfBirth":"1990-02-30",)"
                             R"("country":"zw","nickname":"x"},"extra":1})");
    });
    EXPECT_EQ(e.status, 400);
    EXPECT_EQ(e.code, "VALIDATION_ERROR");
    const std::string m = e.what();
    for (const char* part :
         {"flow: must be liveness, facematch or document", "reference: must not be blank",
          "redirectUrl: must be an absolute http or https URL", "metadata.a: must be a string, number, boolean or null",
          "subject.idNumber: must be letters and digits", "subject.dateOfBirth: must be a date YYYY-MM-DD",
          "subject.country: must be an ISO 3166-1 alpha-2 code", "subject.nickname: unknown field",
          "extra: unknown field"}) {
        EXPECT_NE(m.find(part), std::string::npos) << part << " not in: " << m;
    }
}

TEST(VerifyCreateRequest, TypesAndBounds) {
    EXPECT_EQ(std::string(refusal([] { parse_create_session(R"({})"); }).what()), "flow: is required");
    EXPECT_EQ(std::string(refusal([] { parse_create_session(R"({"flow":7})"); }).what()), "flow: must be a string");
    EXPECT_EQ(std::string(refusal([] { parse_create_session(R"({"flow":"liveness","subject":"Ada"})"); }).what()),
              "subject: must be an object");
    EXPECT_EQ(std::string(refusal([] {
                  parse_create_session(R"({"flow":"liveness","reference":")" + std::string(201, 'r') + R"("})");
              }).what()),
              "reference: must be at most 200 characters");
    // 200 characters of 2 bytes each are 200 characters.
    std::string accents;
    for (int i = 0; i < 200; ++i) accents += "\xC3\xA9";
    EXPECT_NO_THROW(parse_create_session(R"({"flow":"liveness","reference":")" + accents + R"("})"));
    std::string many = R"({"flow":"liveness","metadata":{)";
    for (int i = 0; i < 51; ++i) many += (i ? "," : "") + std::string("\"k") + std::to_string(i) + "\":1";
    EXPECT_NE(std::string(refusal([&] { parse_create_session(many + "}}"); }).what()).find("at most 50 keys"),
              std::string::npos);
    EXPECT_EQ(refusal([] { parse_create_session("[1,2]"); }).code, "BAD_REQUEST");
    EXPECT_EQ(std::string(refusal([] { parse_create_session("{\"flow\":"); }).what()), "Malformed JSON request body");
    EXPECT_EQ(refusal([] { parse_create_session(std::string(70000, ' ')); }).status, 413);
}

TEST(VerifyCreateRequest, FlowsInAnyOrderAreCanonical) {
    EXPECT_EQ(parse_create_session(R"({"flow":"document+facematch+liveness"})").flow, "liveness+facematch+document");
    for (const char* bad : {"", "+", "liveness+", "liveness++document", "Liveness", "liveness+liveness", "face",
                            "liveness facematch"}) {
        EXPECT_FALSE(rules::parse_flow(bad).has_value()) << bad;
    }
}

TEST(VerifyCreateRequest, CanonicalFormIgnoresOrderAndSpaceOnly) {
    const auto a = parse_create_session(R"({"flow":"liveness","reference":"r1","metadata":{"x":1,"y":2}})");
    const auto b = parse_create_session(R"( { "metadata" : {"y":2, "x":1}, "reference":"r1", "flow":"liveness" } )");
    const auto c = parse_create_session(R"({"flow":"liveness","reference":"r2","metadata":{"x":1,"y":2}})");
    EXPECT_EQ(a.canonical, b.canonical);
    EXPECT_NE(a.canonical, c.canonical);
    const VerifyKeys keys = derive_keys(std::string(32, 'k'));
    EXPECT_EQ(request_hash(keys, "session.create", "", a.canonical), request_hash(keys, "session.create", "", b.canonical));
    EXPECT_NE(request_hash(keys, "session.create", "", a.canonical), request_hash(keys, "session.cancel", "", a.canonical));
    EXPECT_EQ(request_hash(keys, "session.create", "", a.canonical).size(), 32u);
}

/*---- other bodies and headers ----*/

TEST(VerifyOtherRequests, CancelConsentSearch) {
    EXPECT_FALSE(parse_cancel_session("").reason.has_value());
    EXPECT_EQ(parse_cancel_session("").canonical, parse_cancel_session("{}").canonical);
    EXPECT_EQ(parse_cancel_session(R"({"reason":"duplicate"})").reason.value(), "duplicate");
    EXPECT_EQ(std::string(refusal([] { parse_cancel_session(R"({"reason":")" + std::string(501, 'x') + "\"}"); }).what()),
              "reason: must be at most 500 characters");
    EXPECT_EQ(std::string(refusal([] { parse_cancel_session(R"({"force":true})"); }).what()), "force: unknown field");

    EXPECT_TRUE(parse_hosted_consent(R"({"granted":true})").granted);
    EXPECT_EQ(std::string(refusal([] { parse_hosted_consent(R"({"granted":"yes"})"); }).what()),
              "granted: must be true or false");
    EXPECT_EQ(std::string(refusal([] { parse_hosted_consent("{}"); }).what()), "granted: is required");
    const auto api = parse_api_consent(R"({"granted":true,"version":"app-2026.1","text":"I agree","ip":"10.0.0.1"})");
    EXPECT_EQ(api.version, "app-2026.1");
    EXPECT_NE(std::string(refusal([] { parse_api_consent(R"({"granted":true,"version":"v 1"})"); }).what())
                  .find("version: must be 1 to 50"),
              std::string::npos);

    const auto search = parse_search_sessions(R"({"idNumber":"63-1","status":"expired","limit":100,)"
                                              R"("createdBefore":"2026-11-22T10:00:00.123+02:00"})");
    EXPECT_EQ(search.limit, 100);
    EXPECT_EQ(parse_search_sessions("").limit, 20);
    const std::string search_problems =
        refusal([] { parse_search_sessions(R"({"limit":101,"status":"done","createdBefore":"yesterday"})"); }).what();
    for (const char* part : {"limit: must be an integer from 1 to 100", "status: must be one of pending",
                             "createdBefore: must be an ISO 8601 date-time"}) {
        EXPECT_NE(search_problems.find(part), std::string::npos) << part << " not in: " << search_problems;
    }
}

TEST(VerifyOtherRequests, IdempotencyKeyHeader) {
    corebank::httpd::HttpRequest request;
    EXPECT_EQ(std::string(refusal([&] { require_idempotency_key(request); }).what()),
              "Idempotency-Key: header is required on every write");
    request.headers["idempotency-key"] = "has space";
    EXPECT_EQ(refusal([&] { require_idempotency_key(request); }).code, "VALIDATION_ERROR");
    request.headers["idempotency-key"] = std::string(256, 'k');
    EXPECT_EQ(refusal([&] { require_idempotency_key(request); }).status, 400);
    request.headers["idempotency-key"] = std::string(255, 'k');
    EXPECT_EQ(require_idempotency_key(request).size(), 255u);
    request.headers["idempotency-key"] = "3f1c0b1e-7d2a-4a7e-9a3e-2f4b6d8c0e12";
    EXPECT_EQ(require_idempotency_key(request), "3f1c0b1e-7d2a-4a7e-9a3e-2f4b6d8c0e12");
}

TEST(VerifyOtherRequests, UuidsAndKeys) {
    EXPECT_EQ(canonical_uuid("3F1C0B1E-7D2A-4A7E-9A3E-2F4B6D8C0E12").value(), "3f1c0b1e-7d2a-4a7e-9a3e-2f4b6d8c0e12");
    EXPECT_FALSE(canonical_uuid("3f1c0b1e7d2a4a7e9a3e2f4b6d8c0e12").has_value());
    EXPECT_FALSE(canonical_uuid("../../etc/passwd").has_value());
    const std::string id = new_session_id();
    ASSERT_TRUE(canonical_uuid(id).has_value());
    EXPECT_EQ(id[14], '4');
    EXPECT_EQ(new_client_token().substr(0, 4), "vct_");
    EXPECT_EQ(new_client_token().size(), 47u);
    EXPECT_NE(new_client_token(), new_client_token());
    EXPECT_EQ(normalise_id_number("63-123456 a/42"), "63123456A42");
    const VerifyKeys keys = derive_keys(std::string(32, 'k'));
    EXPECT_EQ(subject_lookup(keys, "63-123456 a 42"), subject_lookup(keys, "63123456A42"));
    EXPECT_NE(subject_lookup(keys, "63123456A42"), subject_lookup(derive_keys(std::string(32, 'q')), "63123456A42"));
    // Sealed values are bound to their place.
    const std::string sealed = seal_subject(keys, id, R"({"name":"Ada"})");
    EXPECT_EQ(open_subject(keys, id, sealed).value(), R"({"name":"Ada"})");
    EXPECT_FALSE(open_subject(keys, new_session_id(), sealed).has_value());
    EXPECT_FALSE(open_client_token(keys, id, sealed).has_value());
    EXPECT_EQ(sealed.find("Ada"), std::string::npos);
}

/*---- the rules ----*/

TEST(VerifyRules, TransitionsAreExactlyTheDocumentedOnes) {
    using rules::Status;
    using rules::Transition;
    const Status all[] = {Status::pending, Status::processing, Status::completed, Status::cancelled, Status::expired};
    for (const Status s : all) {
        EXPECT_EQ(rules::allowed(s, Transition::cancel), s == Status::pending || s == Status::processing);
        EXPECT_EQ(rules::allowed(s, Transition::capture), s == Status::pending);
        EXPECT_EQ(rules::allowed(s, Transition::submit), s == Status::pending);
        EXPECT_EQ(rules::allowed(s, Transition::consent), s == Status::pending);
        EXPECT_EQ(rules::allowed(s, Transition::finish), s == Status::processing);
        EXPECT_EQ(rules::allowed(s, Transition::abort), s == Status::processing);
        EXPECT_EQ(rules::is_terminal(s), s == Status::completed || s == Status::cancelled || s == Status::expired);
    }
    EXPECT_EQ(rules::effective_status(Status::pending, true), Status::expired);
    EXPECT_EQ(rules::effective_status(Status::completed, true), Status::completed);
    EXPECT_EQ(rules::refusal_message(Status::completed, Transition::cancel),
              "Session is already completed; only a pending or processing session can be cancelled");
    EXPECT_EQ(rules::refusal_message(Status::expired, Transition::capture), "Session has expired");
}

TEST(VerifyRules, ReviewIsNeverAPass) {
    using rules::CheckStatus;
    const auto d1 = rules::decide({{"liveness", CheckStatus::pass}, {"facematch", CheckStatus::review}});
    EXPECT_EQ(d1.decision, "review");
    EXPECT_EQ(d1.reasons, (std::vector<std::string>{"liveness_pass", "facematch_review"}));
    EXPECT_EQ(rules::decide({{"liveness", CheckStatus::review}, {"document", CheckStatus::fail}}).decision, "declined");
    EXPECT_EQ(rules::decide({{"liveness", CheckStatus::pass}, {"document", CheckStatus::pass}}).decision, "approved");
    EXPECT_THROW(rules::decide({}), std::invalid_argument);
}

TEST(VerifyRules, NeedsPerFlow) {
    const auto document_only = *rules::parse_flow("document");
    EXPECT_FALSE(rules::needs_consent(document_only));
    EXPECT_FALSE(rules::needs_selfie(document_only));
    const auto match = *rules::parse_flow("liveness+facematch");
    EXPECT_TRUE(rules::needs_consent(match));
    EXPECT_TRUE(rules::needs_document(match)) << "face match compares the selfie with the document portrait";
    EXPECT_FALSE(rules::captures_kind(*rules::parse_flow("liveness"), "document"));
    EXPECT_TRUE(rules::idempotency_key_valid("a"));
    EXPECT_FALSE(rules::idempotency_key_valid(""));
    EXPECT_FALSE(rules::idempotency_key_valid("caf\xC3\xA9"));
    EXPECT_EQ(rules::idempotency_outcome(false, true, true, true, false), rules::Replay::in_progress);
    EXPECT_EQ(rules::idempotency_outcome(false, true, true, false, true), rules::Replay::conflict);
    EXPECT_EQ(rules::idempotency_outcome(false, true, false, true, true), rules::Replay::conflict);
    EXPECT_EQ(rules::idempotency_outcome(true, false, false, false, false), rules::Replay::fresh);
}

TEST(VerifyRules, ProviderResultsCannotSkipReorderOrInvent) {
    const auto flow = *rules::parse_flow("liveness+facematch");
    const auto ok = rules::parse_check_results(
        R"([{"type":"liveness","status":"pass","score":0.9,"reasons":["image_quality_ok"]},)"
        R"({"type":"facematch","status":"review","similarity":0.7,"measurements":{"hashDistance":20}}])",
        flow, "offline");
    EXPECT_EQ(ok.outcomes.size(), 2u);
    EXPECT_NE(ok.checks_json.find(R"("provider":"offline")"), std::string::npos);
    const auto refused = [&flow](const std::string& checks, const std::string& provider = "offline") {
        try {
            rules::parse_check_results(checks, flow, provider);
        } catch (const corebank::core::CoreError& e) {
            EXPECT_STREQ(e.sqlstate(), "CBV00");
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(refused(R"([{"type":"liveness","status":"pass","score":0.9}])"),
              "checks: must hold exactly one result per check of the flow (liveness+facematch)");
    EXPECT_EQ(refused(R"([{"type":"facematch","status":"pass","similarity":0.9},{"type":"liveness","status":"pass","score":0.9}])"),
              "checks[0].type: must be liveness");
    EXPECT_EQ(refused(R"([{"type":"liveness","status":"pass","score":0.9},{"type":"facematch","status":"pass","score":0.9}])"),
              "checks[1].similarity: is required and must be a number");
    EXPECT_EQ(refused(R"([{"type":"liveness","status":"ok","score":0.9},{"type":"facematch","status":"pass","similarity":0.9}])"),
              "checks[0].status: must be pass, fail or review");
    EXPECT_EQ(refused(R"([{"type":"liveness","status":"pass","score":0.9,"decision":"approved"},)"
                      R"({"type":"facematch","status":"pass","similarity":0.9}])"),
              "checks[0].decision: unknown field");
    EXPECT_EQ(refused(R"([{"type":"liveness","status":"pass","score":0.9,"reasons":["Bad Reason"]},)"
                      R"({"type":"facematch","status":"pass","similarity":0.9}])"),
              "checks[0].reasons: each must be 1 to 64 of a-z 0-9 _");
    EXPECT_EQ(refused("[]", "Vendor X"), "provider: must be 1 to 40 of a-z 0-9 _ . -");
}

}  // namespace
