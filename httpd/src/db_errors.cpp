// db_errors.cpp: SQLSTATE -> HTTP status and error code.
//
// The extension raises SQLSTATEs of the reserved class "CB" with a message
// meant for the client (docs/design/identity-db-api.md); those pass through
// verbatim. Everything else is PostgreSQL's own wording, which may name
// internals, so the client gets a generic message and the log gets the
// SQLSTATE and the primary message (never the DETAIL, which quotes rows).
#include "db_errors.hpp"

#include <cstring>

#include "log.hpp"

namespace corebank::httpd {

namespace {

struct Mapping {
    const char* sqlstate;
    int status;
    const char* code;
};

constexpr Mapping extension_codes[] = {
    {"CB400", 400, "BAD_REQUEST"},          {"CBV00", 400, "VALIDATION_ERROR"},
    {"CB401", 401, "INVALID_CREDENTIALS"},  {"CBU01", 401, "UNAUTHORIZED"},
    {"CB403", 403, "FORBIDDEN"},            {"CBL03", 403, "ACCOUNT_LOCKED"},
    {"CB404", 404, "NOT_FOUND"},            {"CB409", 409, "CONFLICT"},
    {"CB422", 422, "UNPROCESSABLE"},        {"CB429", 429, "RATE_LIMIT_EXCEEDED"},
};

// PostgreSQL's data exceptions that bad input can still reach.
constexpr const char* bad_input_codes[] = {"22P02", "22007", "22008", "22003", "22001", "22021", "22023",
                                           "23502", "23514", "22004", "2202E", "22012"};

}  // namespace

ApiError api_error_from_db(const DbError& error) {
    for (const auto& m : extension_codes) {
        if (error.sqlstate == m.sqlstate) {
            if (m.status == 401 && std::strcmp(m.code, "UNAUTHORIZED") == 0) return unauthorized(error.what());
            ApiError out{m.status, m.code, error.what()};
            if (m.status == 429) out.headers.emplace_back("Retry-After", "60");
            return out;
        }
    }
    for (const char* code : bad_input_codes) {
        if (error.sqlstate == code) {
            log_info("database refused a value", {{"sqlstate", error.sqlstate}, {"error", error.what()}});
            return bad_request("Invalid value in request");
        }
    }
    if (error.sqlstate == "23505") return {409, "CONFLICT", "Resource already exists"};
    if (error.sqlstate == "40001" || error.sqlstate == "40P01" || error.sqlstate == "55P03" ||
        error.sqlstate == "57014") {
        log_info("database asked for a retry", {{"sqlstate", error.sqlstate}, {"error", error.what()}});
        ApiError out = service_unavailable("The request could not be completed now; retry it");
        out.headers.emplace_back("Retry-After", "1");
        return out;
    }
    // F0000: the server cannot load its root key (corebank.root_key_file
    // unset, unreadable or unsafe: docs/security.md), so it cannot sign
    // tokens. The server's configuration, not the request: 503, and the
    // message, which names the file and the problem, goes to the log only.
    if (error.sqlstate == "F0000") {
        log_error("the database cannot use its root key", {{"sqlstate", error.sqlstate}, {"error", error.what()}});
        ApiError out = service_unavailable("The service cannot issue tokens now; retry later");
        out.headers.emplace_back("Retry-After", "60");
        return out;
    }
    // Never error.detail: PostgreSQL's DETAIL quotes row values (a key, a
    // failing row), which is personal data the log must not hold (issue 13).
    // The SQLSTATE and the primary message name the constraint or the fault.
    log_error("unexpected database error", {{"sqlstate", error.sqlstate}, {"error", error.what()}});
    return internal_error();
}

}  // namespace corebank::httpd
