// error_rendering_test.cpp: the documented error body and the handler
// wrapper that produces it (httpd/src/service.hpp: render_standard_error,
// run_handler; db_errors.hpp: the SQLSTATE table).
//
// Goal: every error leaves as {error, message, status, timestamp} with the
// right status, except UNAUTHORIZED from the bearer filter (no timestamp, a
// WWW-Authenticate header); database and unexpected errors never leak their
// internal text. Method: routes whose handlers throw each kind of exception,
// run through run_handler with the standard renderer and no database.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "api_error.hpp"
#include "clock.hpp"
#include "db.hpp"
#include "http_types.hpp"
#include "router.hpp"
#include "service.hpp"

namespace {

namespace httpd = corebank::httpd;
using httpd::HttpRequest;
using httpd::HttpResponse;
using nlohmann::json;

const std::regex iso8601_utc_pattern(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$)");

std::set<std::string> keys_of(const json& object) {
    std::set<std::string> out;
    for (const auto& item : object.items()) out.insert(item.key());
    return out;
}

std::string header_value(const HttpResponse& response, const std::string& name) {
    for (const auto& [key, value] : response.headers)
        if (key == name) return value;
    return "";
}

// Runs a handler that throws (or returns) through run_handler, the way the
// HTTP path does, and parses the body.
struct Outcome {
    HttpResponse response;
    json body;
};

Outcome run(std::function<HttpResponse(const HttpRequest&, httpd::Db*)> handler) {
    httpd::Route route{"POST", "/auth/login", httpd::RunOn::reactor, std::move(handler)};
    httpd::ServiceOptions options;
    options.name = "identity";
    options.render_error = httpd::render_standard_error;
    HttpRequest request;
    request.method = "POST";
    request.path = "/auth/login";
    request.request_id = "test-request";
    Outcome out;
    out.response = httpd::run_handler(route, request, nullptr, options);
    out.body = json::parse(out.response.body, nullptr, false);
    return out;
}

template <typename E>
Outcome run_throwing(E error) {
    return run([error](const HttpRequest&, httpd::Db*) -> HttpResponse { throw error; });
}

// Checks the standard body: exactly four members with the given values and a
// timestamp in ISO 8601 UTC.
::testing::AssertionResult is_standard_error(const Outcome& outcome, int status, const std::string& code) {
    const json& body = outcome.body;
    if (outcome.response.status != status)
        return ::testing::AssertionFailure() << "HTTP status " << outcome.response.status << ", expected " << status;
    if (outcome.response.content_type != "application/json")
        return ::testing::AssertionFailure() << "content type " << outcome.response.content_type;
    if (!body.is_object()) return ::testing::AssertionFailure() << "body is not a JSON object: " << outcome.response.body;
    if (keys_of(body) != std::set<std::string>{"error", "message", "status", "timestamp"})
        return ::testing::AssertionFailure() << "members differ: " << body.dump();
    if (body["error"] != code || body["status"] != status || !body["message"].is_string())
        return ::testing::AssertionFailure() << "body " << body.dump() << ", expected " << status << " " << code;
    const std::string timestamp = body["timestamp"].is_string() ? body["timestamp"].get<std::string>() : "";
    if (!std::regex_match(timestamp, iso8601_utc_pattern))
        return ::testing::AssertionFailure() << "timestamp not ISO 8601 UTC: " << body["timestamp"].dump();
    return ::testing::AssertionSuccess();
}

// ---- render_standard_error -------------------------------------------------

// Goal: the body has exactly error, message, status and timestamp, the HTTP
// status matches the body, and the timestamp is ISO 8601 UTC ending in Z.
TEST(RenderStandardError, HasExactlyTheFourMembers) {
    Outcome outcome;
    outcome.response = httpd::render_standard_error(httpd::validation_error("password: is required"));
    outcome.body = json::parse(outcome.response.body);
    EXPECT_TRUE(is_standard_error(outcome, 400, "VALIDATION_ERROR"));
    EXPECT_EQ(outcome.body["message"], "password: is required");
    EXPECT_TRUE(outcome.response.headers.empty());
}

// Goal: UNAUTHORIZED from unauthorized() has no timestamp and carries
// WWW-Authenticate: Bearer.
TEST(RenderStandardError, UnauthorizedHasNoTimestamp) {
    const HttpResponse response = httpd::render_standard_error(httpd::unauthorized("Token is invalid"));
    const json body = json::parse(response.body);
    EXPECT_EQ(response.status, 401);
    EXPECT_EQ(keys_of(body), (std::set<std::string>{"error", "message", "status"}));
    EXPECT_EQ(body["error"], "UNAUTHORIZED");
    EXPECT_EQ(body["status"], 401);
    EXPECT_EQ(body["message"], "Token is invalid");
    EXPECT_EQ(header_value(response, "WWW-Authenticate"), "Bearer");
}

// Goal: an error's extra headers (Retry-After) reach the response.
TEST(RenderStandardError, CopiesHeaders) {
    const HttpResponse response = httpd::render_standard_error(httpd::rate_limited("Too many attempts", 60));
    EXPECT_EQ(response.status, 429);
    EXPECT_EQ(header_value(response, "Retry-After"), "60");
}

// Goal: iso8601_utc renders a known instant with milliseconds and Z.
TEST(Clock, Iso8601UtcKnownInstant) {
    const auto at = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'700'000'000'123));
    EXPECT_EQ(httpd::iso8601_utc(at), "2023-11-14T22:13:20.123Z");
    EXPECT_EQ(httpd::iso8601_utc(std::chrono::system_clock::time_point{}), "1970-01-01T00:00:00.000Z");
}

// ---- run_handler -------------------------------------------------------------

// Goal: a handler's own response passes through untouched.
TEST(RunHandler, PassesSuccessThrough) {
    const Outcome outcome =
        run([](const HttpRequest&, httpd::Db*) { return httpd::message_response("Logged out"); });
    EXPECT_EQ(outcome.response.status, 200);
    EXPECT_EQ(outcome.body, (json{{"message", "Logged out"}}));
}

// Goal: an ApiError becomes its own standard body.
TEST(RunHandler, ApiErrorBecomesItsBody) {
    const Outcome outcome = run_throwing(httpd::bad_request("Unknown clientId"));
    EXPECT_TRUE(is_standard_error(outcome, 400, "BAD_REQUEST"));
    EXPECT_EQ(outcome.body["message"], "Unknown clientId");
}

// Goal: an UNAUTHORIZED ApiError keeps its no-timestamp shape through run_handler.
TEST(RunHandler, UnauthorizedKeepsItsShape) {
    const Outcome outcome = run_throwing(httpd::unauthorized("Token is invalid"));
    EXPECT_EQ(outcome.response.status, 401);
    EXPECT_FALSE(outcome.body.contains("timestamp"));
    EXPECT_EQ(header_value(outcome.response, "WWW-Authenticate"), "Bearer");
}

// Goal: the extension's own SQLSTATE CB409 is 409 CONFLICT with the
// database's message verbatim (it is written for the client).
TEST(RunHandler, ExtensionConflictPassesMessage) {
    const Outcome outcome =
        run_throwing(httpd::DbError("CB409", "An account with this email already exists; log in with that email", ""));
    EXPECT_TRUE(is_standard_error(outcome, 409, "CONFLICT"));
    EXPECT_EQ(outcome.body["message"], "An account with this email already exists; log in with that email");
}

// Goal: the other extension SQLSTATEs map to their documented codes, and
// CBU01 gives the bearer filter's timestamp-less UNAUTHORIZED.
TEST(RunHandler, ExtensionSqlstatesMapToDocumentedCodes) {
    EXPECT_TRUE(is_standard_error(run_throwing(httpd::DbError("CB400", "Unknown clientId", "")), 400, "BAD_REQUEST"));
    EXPECT_TRUE(is_standard_error(run_throwing(httpd::DbError("CBV00", "x: y", "")), 400, "VALIDATION_ERROR"));
    EXPECT_TRUE(is_standard_error(run_throwing(httpd::DbError("CB401", "Invalid credentials", "")), 401,
                                  "INVALID_CREDENTIALS"));
    EXPECT_TRUE(is_standard_error(run_throwing(httpd::DbError("CBL03", "locked", "")), 403, "ACCOUNT_LOCKED"));
    EXPECT_TRUE(is_standard_error(run_throwing(httpd::DbError("CB403", "scope", "")), 403, "FORBIDDEN"));
    EXPECT_TRUE(is_standard_error(run_throwing(httpd::DbError("CB404", "Session not found", "")), 404, "NOT_FOUND"));
    const Outcome limited = run_throwing(httpd::DbError("CB429", "Too many login attempts", ""));
    EXPECT_TRUE(is_standard_error(limited, 429, "RATE_LIMIT_EXCEEDED"));
    EXPECT_FALSE(header_value(limited.response, "Retry-After").empty());
    const Outcome unauthorized = run_throwing(httpd::DbError("CBU01", "Session revoked", ""));
    EXPECT_EQ(unauthorized.response.status, 401);
    EXPECT_EQ(unauthorized.body["error"], "UNAUTHORIZED");
    EXPECT_FALSE(unauthorized.body.contains("timestamp"));
    EXPECT_EQ(header_value(unauthorized.response, "WWW-Authenticate"), "Bearer");
}

// Goal: a server without its root key (F0000, docs/security.md) answers 503
// with Retry-After, not 500, and the file's name and problem stay in the log.
TEST(RunHandler, MissingRootKeyIsServiceUnavailable) {
    const Outcome outcome = run_throwing(
        httpd::DbError("F0000", "corebank.root_key_file is not set: this server has no root key", ""));
    EXPECT_TRUE(is_standard_error(outcome, 503, "SERVICE_UNAVAILABLE"));
    EXPECT_EQ(header_value(outcome.response, "Retry-After"), "60");
    EXPECT_EQ(outcome.body["message"].get<std::string>().find("root_key_file"), std::string::npos);
}

// Goal: a unique violation (23505) is 409 CONFLICT without PostgreSQL's text.
TEST(RunHandler, UniqueViolationIsConflict) {
    const Outcome outcome = run_throwing(httpd::DbError(
        "23505", "duplicate key value violates unique constraint \"users_email_key\"", "Key (email)=(a@b.co)"));
    EXPECT_TRUE(is_standard_error(outcome, 409, "CONFLICT"));
    EXPECT_EQ(outcome.body["message"].get<std::string>().find("users_email_key"), std::string::npos);
}

// Goal: invalid text representation (22P02) is 400 BAD_REQUEST without
// PostgreSQL's text.
TEST(RunHandler, InvalidTextRepresentationIsBadRequest) {
    const Outcome outcome = run_throwing(httpd::DbError("22P02", "invalid input syntax for type uuid: \"xyz\"", ""));
    EXPECT_TRUE(is_standard_error(outcome, 400, "BAD_REQUEST"));
    EXPECT_EQ(outcome.body["message"].get<std::string>().find("uuid"), std::string::npos);
}

// Goal: an unknown SQLSTATE (XX000) is 500 INTERNAL_ERROR with a generic
// message that does not contain the database's text or detail.
TEST(RunHandler, UnknownSqlstateIsInternalErrorWithoutLeak) {
    const Outcome outcome =
        run_throwing(httpd::DbError("XX000", "cache lookup failed for relation 16384", "secret detail"));
    EXPECT_TRUE(is_standard_error(outcome, 500, "INTERNAL_ERROR"));
    const std::string message = outcome.body["message"];
    EXPECT_FALSE(message.empty());
    EXPECT_EQ(message.find("cache lookup"), std::string::npos);
    EXPECT_EQ(message.find("16384"), std::string::npos);
    EXPECT_EQ(outcome.response.body.find("secret detail"), std::string::npos);
}

// Goal: PostgreSQL's DETAIL never reaches the tier's log (issue 13): it
// carries row values ("Key (email)=(...)", "Failing row contains (...)"),
// that is personal data. The SQLSTATE and the primary message still do.
// Method: each branch of the SQLSTATE table (unexpected, bad value, retry,
// conflict, extension) with a DETAIL holding an email; stdout is the log.
TEST(RunHandler, DatabaseDetailIsNeverLogged) {
    const std::string personal = "Failing row contains (alice.detail@example.com, +4915112345678)";
    for (const char* sqlstate : {"XX000", "23503", "22P02", "23514", "40001", "23505", "CB409"}) {
        testing::internal::CaptureStdout();
        const Outcome outcome = run_throwing(httpd::DbError(sqlstate, "violates constraint \"x\"", personal));
        const std::string logged = testing::internal::GetCapturedStdout();
        EXPECT_EQ(logged.find("alice.detail"), std::string::npos) << sqlstate << ": " << logged;
        EXPECT_EQ(logged.find("4915112345678"), std::string::npos) << sqlstate << ": " << logged;
        EXPECT_EQ(outcome.response.body.find("alice.detail"), std::string::npos) << sqlstate;
    }
    testing::internal::CaptureStdout();
    run_throwing(httpd::DbError("XX000", "cache lookup failed for relation 16384", personal));
    const std::string logged = testing::internal::GetCapturedStdout();
    EXPECT_NE(logged.find("XX000"), std::string::npos) << logged;
    EXPECT_NE(logged.find("cache lookup failed"), std::string::npos) << logged;
}

// Goal: serialization failures and deadlocks ask the client to retry (503).
TEST(RunHandler, RetryableSqlstatesAreServiceUnavailable) {
    for (const char* sqlstate : {"40001", "40P01"}) {
        const Outcome outcome = run_throwing(httpd::DbError(sqlstate, "could not serialize access", ""));
        EXPECT_TRUE(is_standard_error(outcome, 503, "SERVICE_UNAVAILABLE")) << sqlstate;
        EXPECT_EQ(header_value(outcome.response, "Retry-After"), "1") << sqlstate;
    }
}

// Goal: DbUnavailable is 503 SERVICE_UNAVAILABLE with Retry-After, and does
// not echo libpq's text.
TEST(RunHandler, DbUnavailableIsServiceUnavailable) {
    const Outcome outcome =
        run_throwing(httpd::DbUnavailable("could not connect to server: /var/run/.s.PGSQL.54329"));
    EXPECT_TRUE(is_standard_error(outcome, 503, "SERVICE_UNAVAILABLE"));
    EXPECT_FALSE(header_value(outcome.response, "Retry-After").empty());
    EXPECT_EQ(outcome.response.body.find("PGSQL"), std::string::npos);
}

// Goal: any other exception is 500 INTERNAL_ERROR and never leaks e.what().
TEST(RunHandler, RuntimeErrorIsInternalErrorWithoutLeak) {
    const Outcome outcome = run_throwing(std::runtime_error("private key at /var/secrets/data.key"));
    EXPECT_TRUE(is_standard_error(outcome, 500, "INTERNAL_ERROR"));
    EXPECT_EQ(outcome.body["message"], "An unexpected error occurred");
    EXPECT_EQ(outcome.response.body.find("data.key"), std::string::npos);
}

// Goal: even a non-std exception is caught and answered with 500.
TEST(RunHandler, NonStandardExceptionIsInternalError) {
    const Outcome outcome = run_throwing(42);
    EXPECT_TRUE(is_standard_error(outcome, 500, "INTERNAL_ERROR"));
}

// Goal: run_handler renders through the service's own render_error, not a
// fixed shape.
TEST(RunHandler, UsesServiceRenderer) {
    httpd::Route route{"GET", "/x", httpd::RunOn::reactor,
                       [](const HttpRequest&, httpd::Db*) -> HttpResponse { throw httpd::not_found("gone"); }};
    httpd::ServiceOptions options;
    options.render_error = [](const httpd::ApiError& e) {
        return httpd::json_response(e.status, json{{"custom", e.code}});
    };
    const HttpResponse response = httpd::run_handler(route, HttpRequest{}, nullptr, options);
    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(json::parse(response.body), (json{{"custom", "NOT_FOUND"}}));
}

}  // namespace
