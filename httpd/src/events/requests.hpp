// requests.hpp: reading and bounding what a client sends to the event
// service. Pure functions of the request (no database), unit-tested in
// tests/unit/events_tier_test.cpp.
//
// Problems with the request body and with query or path parameter formats
// are ValidationFailure (422 {detail: [{type, loc, msg, input}]}, loc
// starting with "body", "query" or "path"); a cursor that does not decode is
// BusinessError invalid_request, a wrong set of lookup selectors
// invalid_selector.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/events_envelope.hpp"
#include "http_types.hpp"

namespace corebank::httpd::events {

inline constexpr int page_size_default = 100;
inline constexpr int page_size_max = 500;
inline constexpr std::size_t selector_value_length_max = 320;
inline constexpr std::size_t cursor_length_max = 64;

// The 422 items of the batch's shape problems (loc prefixed with "body").
nlohmann::json shape_problem_items(const std::vector<core::events::ShapeProblem>& problems);

// Checks POST /v1/events's body; returns the text to pass to the database
// (the body itself, without a UTF-8 byte order mark). Throws ValidationFailure.
std::string check_ingest_body(const std::string& body);

struct Page {
    std::optional<std::int64_t> after_micros;
    std::optional<std::int64_t> after_id;
    int limit = page_size_default;
};
// ?limit=1..500 (default 100) and ?cursor= (from a previous page's nextCursor).
Page read_page(const HttpRequest& request);

std::string encode_cursor(std::int64_t after_micros, std::int64_t after_id);
std::optional<std::pair<std::int64_t, std::int64_t>> decode_cursor(const std::string& cursor);

// GET /v1/customers/lookup: exactly one of userId (with platform),
// zbIdSubject, phone, email, nationalId, sessionId.
struct Selector {
    std::string kind;
    std::string value;
    std::optional<std::string> platform;
};
Selector read_selector(const HttpRequest& request);

// {customerId} path parameter: a public id (cus_...); anything else cannot
// exist, so it is a 404.
std::string read_customer_id(const HttpRequest& request);

// {memberId}: 1 to 64 of A-Z a-z 0-9 . _ : -
std::string read_member_id(const HttpRequest& request);

// PUT /v1/loyalty/members/{memberId}: {"customerId": "cus_..."}.
std::string read_loyalty_body(const std::string& body);

// GET /v1/parity: ?from=&to= (UTC instants starting a window, to exclusive),
// ?granularity=hour|day (default hour), ?source= (default: the caller's own
// source), ?type= (optional). Bounds in core/events_windows.hpp.
struct ParityQuery {
    std::string source;
    std::string from;
    std::string to;
    std::string granularity;
    std::optional<std::string> type;
};
ParityQuery read_parity_query(const HttpRequest& request, const std::string& caller_source);

// GET /v1/customers/{customerId}/insights: ?from=&to= (UTC days, both included).
struct InsightsQuery {
    std::string from;
    std::string to;
};
InsightsQuery read_insights_query(const HttpRequest& request);

}  // namespace corebank::httpd::events
